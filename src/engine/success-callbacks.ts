// A purchase's `success_callback` (DESIGN.md §11). The platform's docs (Callbacks): it is called
// when a purchase with skip_capture=false is paid, when one with skip_capture=true is captured, and
// when one is paid with a recurring token; its payload is the Purchase with `event_type`, signed
// with the company-wide key that GET /public_key/ answers. So every `purchase.paid` of money that
// went through the gateway queues one: checkout, a charge with a token (by request or by a
// subscription billing), an execution of a ONEDAY/TWODAY collection, a capture. A purchase marked
// as paid (mark_as_paid/) had no payment to confirm and calls nothing. The delivery itself is the
// webhooks' machinery: the same body, attempts, retries, log and limits (webhooks.ts).

import type { Context } from '../domain/context.ts';
import type { Purchase, SimEvent } from '../domain/types.ts';
import type { Sandbox } from '../store/store.ts';
import { deliveryBody, queueDelivery } from './webhooks.ts';

/** The event that calls a success_callback; the body says so in its `event_type`, as a webhook's does. */
export const CALLBACK_EVENT = 'purchase.paid';

/** The URL to call when this purchase is paid: none when it names none ("" as the platform's SDKs may send it). */
export const callbackUrl = (purchase: Pick<Purchase, 'success_callback'>): string | null =>
  typeof purchase.success_callback === 'string' && purchase.success_callback !== '' ? purchase.success_callback : null;

/** Queues the call of the paid purchase's success_callback, if `event` is its payment and it names one. */
export function queueSuccessCallback(sandbox: Sandbox, event: SimEvent, ctx: Context): void {
  if (event.event_type !== CALLBACK_EVENT || event.payload.type !== 'purchase') return;
  const purchase = event.payload as Purchase;
  const url = callbackUrl(purchase);
  if (url === null || purchase.marked_as_paid) return;
  const body = deliveryBody(sandbox, event);
  queueDelivery(sandbox, { kind: 'success_callback', webhookId: null, objectId: purchase.id, body, eventId: event.id, eventType: event.event_type, url }, ctx);
}
