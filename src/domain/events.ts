// Event names (DESIGN.md §4.14, §9). Every state change is recorded in /sim/v1/events, but only the
// real platform's own event names (the `Event` enum of CHIP's public API) reach webhooks or may be
// listed in `Webhook.events`, with `purchase.viewed` and `purchase.settled`, which the platform's own
// sample deliveries show (DESIGN.md §14). The others describe what only the simulator shows (an
// invoice e-mailed: `purchase.sent`; a purchase past its due: `purchase.overdue`): a receiver
// written against the simulator must not come to depend on a delivery the platform never makes.

import type { Payment, SimEvent } from './types.ts';

/** The platform's event names, in the order of openapi.yaml's `PlatformEvent` enum. */
export const PLATFORM_EVENTS = [
  'purchase.created',
  'purchase.viewed',
  'purchase.paid',
  'purchase.payment_failure',
  'purchase.pending_execute',
  'purchase.pending_charge',
  'purchase.cancelled',
  'purchase.hold',
  'purchase.captured',
  'purchase.pending_capture',
  'purchase.released',
  'purchase.pending_release',
  'purchase.preauthorized',
  'purchase.pending_recurring_token_delete',
  'purchase.recurring_token_deleted',
  'purchase.subscription_charge_failure',
  'purchase.pending_refund',
  'purchase.settled',
  'payment.refunded',
  'billing_template_client.subscription_billing_cancelled',
  'payout.failed',
  'payout.success',
] as const;

export type PlatformEvent = (typeof PLATFORM_EVENTS)[number];

const PLATFORM: ReadonlySet<string> = new Set(PLATFORM_EVENTS);

/** Whether events of this type are POSTed to webhooks (a platform event); simulator-only ones stay in /sim/v1/events. */
export const isDeliveredToWebhooks = (eventType: string): eventType is PlatformEvent => PLATFORM.has(eventType);

/**
 * The simulator's own event names, recorded in /sim/v1/events and never delivered. With
 * PLATFORM_EVENTS, the names `GET /sim/v1/events?type=` accepts (openapi.yaml lists the same).
 */
export const SIMULATOR_EVENTS = [
  'purchase.sent',
  'purchase.overdue',
  'purchase.expired',
  'purchase.refunded',
  'purchase.charged_with_other_clients_token',
  'billing_template_client.activated',
] as const;

/**
 * The object whose events a webhook receives one at a time, in the order they happened: a
 * purchase's own events and those of the Payments related to it share the purchase's order, so a
 * refund's `payment.refunded` never arrives before the purchase's `purchase.pending_refund` (a
 * plugin that marks its order "processing" on `pending_refund` would end there). Any other object
 * keeps an order of its own.
 */
export function orderedWith(event: Pick<SimEvent, 'object_id' | 'payload'>): string {
  const related = event.payload.type === 'payment' ? (event.payload as Payment).related_to : undefined;
  return related?.type === 'purchase' ? related.id : event.object_id;
}
