// The page at the cancel link of a subscription's e-mails (engine/subscription-cancel.ts):
// `/subscription_cancel/{id}/` or `/subscription_cancel/{sandbox}/{id}/`, named by the purchase the
// e-mail is about, found as the checkout page finds it (no bearer token: the link is the secret).
// GET says what cancelling does and shows the button; the button POSTs to the same URL, which
// cancels and answers 303 back to the page (a reload never posts again), which then says the
// subscription is cancelled. A POST once cancelled changes nothing and answers the same 303. A link
// that names no purchase of a subscription is a 404 page.

import express, { type Request, type Router } from 'express';
import type { Context } from '../domain/context.ts';
import type { BillingTemplateClient, Purchase } from '../domain/types.ts';
import { cancelByLink, cancelPath, linkedSubscribers } from '../engine/subscription-cancel.ts';
import type { Services } from '../http/handler.ts';
import { inSandboxTurn } from '../http/turn.ts';
import type { Sandbox } from '../store/store.ts';
import { findPurchase, formParser, send, type PageReply } from './checkout.ts';
import { html, page } from './html.ts';

const PATHS = ['/subscription_cancel/:id/', '/subscription_cancel/:sandbox/:id/'];

const NOT_FOUND: PageReply = {
  status: 404,
  html: page('Subscription not found', html`<main><h1>Subscription not found</h1><p>No subscription has this cancel address. Check the link in the e-mail.</p></main>`),
};

/** What the subscribers' statuses say to the subscriber, and whether the button is still there. */
function render(sandbox: Sandbox, purchase: Purchase, subscribers: readonly BillingTemplateClient[]): PageReply {
  const template = sandbox.templates.get(purchase.billing_template_id ?? '');
  const what = template?.title || purchase.purchase.products[0]?.name || 'your subscription';
  const path = cancelPath(sandbox, purchase.id);
  const active = subscribers.some((subscriber) => subscriber.status === 'active');
  const paused = subscribers.some((subscriber) => subscriber.status === 'subscription_paused');
  const body = active
    ? html`<p>Cancelling stops the billing of ${what}: no more invoices or charges from the next billing date on. Purchases already made stay as they are.</p>
  <form method="post" action="${path}"><button type="submit" id="cancel">Cancel subscription</button></form>`
    : paused
      ? html`<div class="alert info" role="status" id="result">This subscription is cancelled: no more invoices or charges will come.</div>`
      : html`<div class="alert info" role="status" id="result">This subscription has not started: there is nothing to cancel.</div>`;
  return { status: 200, html: page(`Cancel ${what}`, html`<main><h1>${what}</h1>${body}</main>`) };
}

/** The ids a cancel path names, as the checkout's: `{id}`, or `{sandbox}` and `{id}`. */
const linkOf = (req: Request) => req.params as { id: string; sandbox?: string };

/** Runs `work` in the sandbox's turn on the purchase the link names, if it is a subscription's; undefined otherwise. */
async function atLink(services: Services, req: Request, work: (sandbox: Sandbox, purchase: Purchase, subscribers: BillingTemplateClient[], ctx: Context) => PageReply) {
  const params = linkOf(req);
  const found = findPurchase(services.store, params.id, params.sandbox);
  if (!found) return undefined;
  return inSandboxTurn<PageReply | undefined>(
    services,
    found.sandbox.id,
    (sandbox, ctx) => {
      const purchase = sandbox.purchases.get(params.id);
      const subscribers = purchase ? linkedSubscribers(sandbox, purchase) : [];
      return purchase && subscribers.length > 0 ? work(sandbox, purchase, subscribers, ctx) : undefined;
    },
    () => undefined,
  );
}

export function subscriptionCancelRouter(services: Services): Router {
  const router = express.Router();
  router.get(PATHS, async (req, res) => {
    send(res, (await atLink(services, req, (sandbox, purchase, subscribers) => render(sandbox, purchase, subscribers))) ?? NOT_FOUND);
  });
  // The form's body is empty; parsed so that a browser's urlencoded POST is read as the checkout's is.
  router.post(PATHS, formParser, async (req, res) => {
    const reply = await atLink(services, req, (sandbox, purchase, _subscribers, ctx) => {
      if (cancelByLink(sandbox, purchase, ctx).length > 0) services.background.wake(sandbox.id);
      return { redirect: cancelPath(sandbox, purchase.id) };
    });
    send(res, reply ?? NOT_FOUND);
  });
  return router;
}
