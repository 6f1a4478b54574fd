// The Direct Post target at each purchase's direct_post_url (DESIGN.md §14): `/direct_post/{id}/`, or
// `/direct_post/{sandbox_id}/{id}/` for a purchase of a seeded sandbox, found as the checkout page
// finds its purchase (checkout.ts findPurchase). A shop's own card form, on the shop's own site, posts
// the card here, urlencoded: so any Origin is taken, where the checkout page refuses a foreign one
// (the app's Host check still applies). The card pays as the checkout page pays (payAtCheckout, in
// the sandbox's turn: events, webhooks, success_callback, e-mails and the saved token as there); its
// number decides approval or the decline reason (domain/test-cards.ts). The payer's browser then goes
// on with a 303: to success_redirect, or failure_redirect after a decline, or the purchase's checkout
// page, which shows the result, where the merchant set none. A form that cannot pay (a missing or
// malformed field, a brand the whitelist leaves out, a purchase no longer payable) answers 400 in HTML
// and changes nothing.

import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Context } from '../domain/context.ts';
import { ApiError, ALL, errors } from '../domain/errors.ts';
import { findMethod } from '../domain/payment-methods.ts';
import { postedCardDecline, readPostedCard } from '../domain/test-cards.ts';
import type { Input, Purchase } from '../domain/types.ts';
import { payAtCheckout } from '../engine/payments.ts';
import { toApiError } from '../http/errors.ts';
import type { Services } from '../http/handler.ts';
import type { Sandbox } from '../store/store.ts';
import { messages, payAndRedirect, send, type PageReply } from './checkout.ts';
import { errorPage } from './checkout-page.ts';

/** The largest form taken, as the checkout page's: the plugin's five short fields need well under 1 KiB. */
const FORM_LIMIT = '16kb';

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The posted card as the engine's `pay` input: a decline the test card calls for is `outcome: "failure"` with its code. */
function payWithCard(sandbox: Sandbox, purchase: Purchase, form: Record<string, unknown>, ctx: Context): Purchase {
  const card = readPostedCard(form);
  const input: Input = {
    method: card.method,
    card: { number: card.digits, cardholder_name: card.cardholder_name, expiry: card.expiry },
    // Only a method that can save one (the card schemes all can); force_recurring saves anyway, in payAtCheckout.
    save_token: card.remember && (findMethod(card.method)?.recurring ?? false),
  };
  const decline = postedCardDecline(card, ctx.clock.now());
  if (decline !== null) Object.assign(input, { outcome: 'failure', decline_code: decline });
  return payAtCheckout(sandbox, purchase, input, ctx);
}

const refused = (error: ApiError): PageReply => ({ status: error.status, html: errorPage('Payment form refused', messages(error)) });

export function directPostRouter(services: Services): Router {
  const router = express.Router();

  // Both forms of the address (see the header), as the checkout page's.
  const PATHS = ['/direct_post/:id/', '/direct_post/:sandbox/:id/'];

  // Parsed here: the API's JSON-only rule (requireJson) never sees the form.
  router.post(PATHS, express.urlencoded({ extended: false, limit: FORM_LIMIT }), async (req, res) => {
    if (!req.is(FORM_TYPE)) {
      return send(res, refused(new ApiError(400, { [ALL]: [errors.invalid(`Send the card form as ${FORM_TYPE}, as a browser's form post does.`)] })));
    }
    await payAndRedirect(services, req, res, ({ sandbox, purchase, ctx }, form) => payWithCard(sandbox, purchase, form, ctx), refused);
  });

  // Someone who opens the address in a browser learns what it is for, rather than meeting the API's JSON 404.
  router.get(PATHS, (_req, res) => {
    res.set('Allow', 'POST');
    send(res, { status: 405, html: errorPage('Direct Post', ['This address takes a card form posted by a shop (POST, urlencoded). Open the purchase\'s checkout_url to pay on a page.']) });
  });

  // A form the body parser refuses gets a page too; a bug goes on to the app's error handler.
  router.use('/direct_post', (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if ((error as { type?: unknown } | null)?.type === 'entity.too.large') {
      return send(res, { status: 413, html: errorPage('Payment form refused', [`The form is larger than ${FORM_LIMIT.replace('kb', ' KiB')}.`]) });
    }
    const apiError = toApiError(error);
    if (apiError.status >= 500) return next(error);
    send(res, refused(apiError));
  });

  return router;
}
