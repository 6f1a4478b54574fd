// Subscribers (BillingTemplateClient): add_subscriber, list, read, PATCH; and one-time send_invoice.

import { addSubscriber, sendInvoice } from '../../engine/billing.ts';
import { scheduleNext } from '../../engine/launch.ts';
import { patchSubscriber } from '../../domain/subscribers.ts';
import { notFound } from '../../domain/errors.ts';
import { created, find, ok, type SandboxHandler } from '../handler.ts';
import { paginate } from '../pagination.ts';
import { presentPurchase } from '../present.ts';

export const subscriberHandlers: Record<string, SandboxHandler> = {
  addSubscriber: ({ sandbox, params, body, ctx, origin }) => {
    const result = addSubscriber(sandbox, find(sandbox.templates, params.id), body, ctx);
    return created({ ...result, purchase: result.purchase && presentPurchase(result.purchase, sandbox, origin) });
  },

  sendInvoice: ({ sandbox, params, body, ctx, origin }) =>
    created(presentPurchase(sendInvoice(sandbox, find(sandbox.templates, params.id), body, ctx), sandbox, origin)),

  listSubscribers: ({ sandbox, params, query, url }) => {
    const template = find(sandbox.templates, params.id);
    return ok(paginate(sandbox.subscribers.inOrder(), query, url, (subscriber) => subscriber.billing_template_id === template.id));
  },

  getSubscriber: ({ sandbox, params }) => {
    const template = find(sandbox.templates, params.id);
    const subscriber = find(sandbox.subscribers, params.btc_id);
    if (subscriber.billing_template_id !== template.id) throw notFound();
    return ok(subscriber);
  },

  patchSubscriber: ({ sandbox, params, body, ctx }) => {
    const template = find(sandbox.templates, params.id);
    const stored = find(sandbox.subscribers, params.btc_id);
    if (stored.billing_template_id !== template.id) throw notFound();
    let subscriber = patchSubscriber(stored, body, template, ctx);
    sandbox.subscribers.set(subscriber.id, subscriber);
    const plan = sandbox.schedules.get(subscriber.id);
    if (plan && subscriber.mandate_expiry_date !== stored.mandate_expiry_date) {
      // A moved expiry may allow or forbid the next billing; a job queued twice for one date runs once.
      subscriber = scheduleNext(sandbox, template, subscriber, plan, ctx);
    }
    return ok(subscriber);
  },
};
