// Every state change of a purchase goes through here: the record is replaced, an event records
// the object as it now is, and e-mails land in the outbox. One place, so no path forgets either.

import { unixSeconds, type Context } from '../domain/context.ts';
import { emailSubject, type EmailKind } from '../domain/emails.ts';
import type { Purchase, Resource, SimEvent } from '../domain/types.ts';
import type { Sandbox } from '../store/store.ts';
import { schedule } from './queue.ts';
import { CALLBACK_EVENT, queueSuccessCallback } from './success-callbacks.ts';
import { enqueueDeliveries } from './webhooks.ts';

export function recordEvent(sandbox: Sandbox, eventType: string, object: Resource, ctx: Context): void {
  const event: SimEvent = {
    id: ctx.ids.uuid(),
    event_type: eventType,
    created_on: unixSeconds(ctx.clock.now()),
    object_type: object.type,
    object_id: object.id,
    payload: object,
  };
  // A subscriber's billings change its record in place unless it is frozen (launch.ts scheduleNext):
  // the event keeps the record as it is now.
  if (object.type === 'billing_template_client') Object.freeze(object);
  sandbox.events.push(event);
  if (sandbox.webhooks.size > 0) enqueueDeliveries(sandbox, event, ctx);
  if (eventType === CALLBACK_EVENT) queueSuccessCallback(sandbox, event, ctx);
}

/** Stores the purchase and records `eventType` for it. */
export function savePurchase(sandbox: Sandbox, purchase: Purchase, eventType: string, ctx: Context): Purchase {
  sandbox.purchases.set(purchase.id, purchase);
  recordEvent(sandbox, eventType, purchase, ctx);
  return purchase;
}

/** "E-mails" the purchase to its client; a client known only by its bank account has no address and gets none. */
export function sendEmail(sandbox: Sandbox, kind: EmailKind, purchase: Purchase, ctx: Context): void {
  if (purchase.client.email === '') return;
  const template = purchase.billing_template_id === null ? undefined : sandbox.templates.get(purchase.billing_template_id);
  sandbox.outbox.push({
    id: ctx.ids.uuid(),
    kind,
    to: purchase.client.email,
    purchase_id: purchase.id,
    sent_on: unixSeconds(ctx.clock.now()),
    subject: emailSubject(kind, purchase, template?.title),
  });
}

/**
 * Queues the overdue marking of a purchase left waiting for its money (DESIGN.md §4: overdue when
 * due passes unpaid). A purchase paid at once never gets the job: ten years of charged billings
 * must not fill the queue with work that would do nothing.
 */
export function awaitPayment(sandbox: Sandbox, purchase: Purchase): Purchase {
  if (purchase.due !== null) schedule(sandbox, { at: purchase.due * 1000, kind: 'overdue', id: purchase.id });
  return purchase;
}
