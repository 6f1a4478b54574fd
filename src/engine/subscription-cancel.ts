// The cancel link of a subscription's e-mails (docs/behaviour.md#cancel-link). Every e-mail about a
// purchase of a subscription template (its invoices and receipts: GET /sim/v1/outbox `cancel_url`)
// carries a link by which the subscriber stops the subscription, as the platform's e-mails do: the
// subscriber becomes `subscription_paused` and `billing_template_client.subscription_billing_cancelled`
// is recorded and delivered. The link names the purchase the e-mail is about, as the checkout link
// does (`/subscription_cancel/{id}/`, or `/subscription_cancel/{sandbox}/{id}/` for a sandbox with
// ids of its own), and the purchase names its subscriber: a first purchase by the record of its
// launch, any other by its template and client. The page itself is src/ui/subscription-cancel.ts.

import { cancelledByLink } from '../domain/subscribers.ts';
import type { Context } from '../domain/context.ts';
import type { BillingTemplateClient, Purchase } from '../domain/types.ts';
import type { Sandbox } from '../store/store.ts';
import { recordEvent } from './records.ts';

/** The platform's event of a subscriber who cancelled through the e-mail link. */
export const CANCELLED_BY_LINK = 'billing_template_client.subscription_billing_cancelled';

/** What a link's path needs of its sandbox: its id, and whether its ids are its own (seeded: the same in other sandboxes). */
type LinkScope = Pick<Sandbox, 'id' | 'origin'>;

/** The path of the cancel link of e-mails about `purchaseId`, beside its checkout path and named the same way. */
export function cancelPath(sandbox: LinkScope, purchaseId: string): string {
  return sandbox.origin.ownIds ? `/subscription_cancel/${sandbox.id}/${purchaseId}/` : `/subscription_cancel/${purchaseId}/`;
}

/** Whether e-mails about the purchase carry a cancel link: it was made by a subscription template that still exists. */
export function hasCancelLink(sandbox: Sandbox, purchase: Pick<Purchase, 'billing_template_id'>): boolean {
  const template = purchase.billing_template_id === null ? undefined : sandbox.templates.get(purchase.billing_template_id);
  return template?.is_subscription === true;
}

/**
 * The subscribers a purchase's link stops: the one its first payment launches (or launched), else
 * the client's subscribers of the purchase's template. A client added to one template twice has
 * purchases that do not say which subscription made them, so the link stops each of them.
 */
export function linkedSubscribers(sandbox: Sandbox, purchase: Purchase): BillingTemplateClient[] {
  if (!hasCancelLink(sandbox, purchase)) return [];
  const first = sandbox.firstPurchases.get(purchase.id);
  const pending = first === undefined ? undefined : sandbox.subscribers.get(first);
  if (pending) return [pending];
  const found: BillingTemplateClient[] = [];
  for (const subscriber of sandbox.subscribers.values()) {
    if (subscriber.billing_template_id === purchase.billing_template_id && subscriber.client_id === purchase.client_id) found.push(subscriber);
  }
  return found;
}

/**
 * POST at the link: each active subscriber of the purchase is paused, with its event (delivered to
 * the webhooks that subscribe to it). Returns those it paused now: none when all had cancelled
 * already or never started, which changes nothing, so a second POST is harmless.
 */
export function cancelByLink(sandbox: Sandbox, purchase: Purchase, ctx: Context): BillingTemplateClient[] {
  const cancelled: BillingTemplateClient[] = [];
  for (const subscriber of linkedSubscribers(sandbox, purchase)) {
    const paused = cancelledByLink(subscriber, ctx);
    if (!paused) continue;
    sandbox.subscribers.set(paused.id, paused);
    recordEvent(sandbox, CANCELLED_BY_LINK, paused, ctx);
    cancelled.push(paused);
  }
  return cancelled;
}
