// /api/v1/purchases/: create, list, read, charge, cancel, delete_recurring_token, and the platform's
// capture, release, refund, mark_as_paid and resend_invoice; and the simulator's
// POST /sim/v1/purchases/{id}/pay, which does what the checkout page does.

import { writeClient } from '../../domain/clients.ts';
import { errors, fieldError } from '../../domain/errors.ts';
import { createPurchase, withStatus } from '../../domain/purchases.ts';
import type { Client, Input, Purchase } from '../../domain/types.ts';
import { assertCancellable, payAtCheckout, requestCharge } from '../../engine/payments.ts';
import { capture, markAsPaid, refund, release, resendInvoice } from '../../engine/purchase-actions.ts';
import { awaitPayment, savePurchase } from '../../engine/records.ts';
import { callbackUrl } from '../../engine/success-callbacks.ts';
import { requestTokenDeletion } from '../../engine/tokens.ts';
import { sandboxKey } from '../../engine/webhooks.ts';
import { created, find, ok, type SandboxHandler } from '../handler.ts';
import { paginate } from '../pagination.ts';
import { presentPayment, presentPurchase } from '../present.ts';

export const purchaseHandlers: Record<string, SandboxHandler> = {
  createPurchase: async ({ sandbox, body, ctx, origin, ip }) => {
    // A `client` object without a client_id creates a client (DESIGN.md §3: "or, on create, a client
    // object"), one per purchase: the platform's docs let a token of one client pay another's purchase,
    // so a shopper's second purchase needs no lookup by e-mail to be charged with the first one's token.
    let client: Client | undefined = sandbox.clients.get(body.client_id as string);
    const newClient = 'client' in body && !('client_id' in body) ? writeClient('create', undefined, body.client as Input, ctx, 'client.') : undefined;
    client ??= newClient;
    // The platform's created_from_ip: the address of the request that created it.
    const purchase = { ...createPurchase(body, { brandIds: sandbox.brands.map((brand) => brand.id), client }, ctx), created_from_ip: ip };
    // The key that will sign its success_callback, made now off the event loop rather than in the turn that pays it.
    if (callbackUrl(purchase) !== null) await sandboxKey(sandbox);
    if (newClient) sandbox.clients.set(newClient.id, newClient);
    awaitPayment(sandbox, savePurchase(sandbox, purchase, 'purchase.created', ctx));
    return created(presentPurchase(purchase, sandbox, origin));
  },

  listPurchases: ({ sandbox, query, url, origin }) => {
    // Read once: the query is a dictionary without a prototype, slow to look into for each of a million purchases.
    const { client_id: clientId, billing_template_id: templateId, status } = query;
    // A client's purchases are read from their own order (a hundred among a million took 50 ms to
    // find), so only the template and the status are tested. Not a template's order: most purchases
    // of a sandbox have one of few templates, and such a page fills at once.
    const purchases = clientId === undefined ? sandbox.purchases.inOrder() : sandbox.purchases.inOrderBy('client_id', clientId as string);
    const matches = (purchase: Purchase) =>
      (templateId === undefined || purchase.billing_template_id === templateId) && (status === undefined || purchase.status === status);
    const page = paginate(purchases, query, url, templateId !== undefined || status !== undefined ? matches : undefined);
    return ok({ ...page, results: page.results.map((purchase) => presentPurchase(purchase, sandbox, origin)) });
  },

  getPurchase: ({ sandbox, params, origin }) => ok(presentPurchase(find(sandbox.purchases, params.id), sandbox, origin)),

  chargePurchase: ({ sandbox, params, body, ctx, origin, services }) => {
    try {
      return ok(presentPurchase(requestCharge(sandbox, find(sandbox.purchases, params.id), body.recurring_token as string, ctx), sandbox, origin));
    } catch (error) {
      // A declined charge is answered 400 but recorded: its purchase.payment_failure goes out to webhooks too.
      services.background.wake(sandbox.id);
      throw error;
    }
  },

  capturePurchase: ({ sandbox, params, body, ctx, origin }) => ok(presentPurchase(capture(sandbox, find(sandbox.purchases, params.id), body, ctx), sandbox, origin)),

  releasePurchase: ({ sandbox, params, ctx, origin }) => ok(presentPurchase(release(sandbox, find(sandbox.purchases, params.id), ctx), sandbox, origin)),

  refundPurchase: ({ sandbox, params, body, ctx }) => ok(presentPayment(refund(sandbox, find(sandbox.purchases, params.id), body, ctx), sandbox)),

  markPurchaseAsPaid: ({ sandbox, params, body, ctx, origin }) =>
    ok(presentPurchase(markAsPaid(sandbox, find(sandbox.purchases, params.id), body, ctx), sandbox, origin)),

  resendPurchaseInvoice: ({ sandbox, params, ctx, origin }) =>
    ok(presentPurchase(resendInvoice(sandbox, find(sandbox.purchases, params.id), ctx), sandbox, origin)),

  cancelPurchase: ({ sandbox, params, ctx, origin }) => {
    const purchase = find(sandbox.purchases, params.id);
    assertCancellable(purchase);
    return ok(presentPurchase(savePurchase(sandbox, withStatus(purchase, 'cancelled', ctx), 'purchase.cancelled', ctx), sandbox, origin));
  },

  deleteRecurringToken: ({ sandbox, params, ctx, origin }) => {
    find(sandbox.purchases, params.recurring_token);
    const token = sandbox.tokens.get(params.recurring_token!);
    if (!token) throw fieldError('recurring_token', errors.doesNotExist('Recurring token', params.recurring_token), 404);
    return ok(presentPurchase(requestTokenDeletion(sandbox, token, ctx)!, sandbox, origin));
  },

  payPurchase: ({ sandbox, params, body, ctx, origin }) =>
    ok(presentPurchase(payAtCheckout(sandbox, find(sandbox.purchases, params.id), body, ctx), sandbox, origin)),
};
