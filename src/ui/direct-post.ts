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
// and changes nothing. The same form posted to checkout_url is taken the same way (card-form.ts).

import express, { type Router } from 'express';
import { ApiError, ALL, errors } from '../domain/errors.ts';
import type { Services } from '../http/handler.ts';
import { cardFormRefused, payWithCard } from './card-form.ts';
import { formParser, formRefused, payAndRedirect, send } from './checkout.ts';
import { errorPage } from './checkout-page.ts';

const FORM_TYPE = 'application/x-www-form-urlencoded';

export function directPostRouter(services: Services): Router {
  const router = express.Router();

  // Both forms of the address (see the header), as the checkout page's.
  const PATHS = ['/direct_post/:id/', '/direct_post/:sandbox/:id/'];

  // Parsed here: the API's JSON-only rule (requireJson) never sees the form.
  router.post(PATHS, formParser, async (req, res) => {
    if (!req.is(FORM_TYPE)) {
      return send(res, cardFormRefused(new ApiError(400, { [ALL]: [errors.invalid(`Send the card form as ${FORM_TYPE}, as a browser's form post does.`)] })));
    }
    await payAndRedirect(services, req, res, ({ sandbox, purchase, ctx }, form) => payWithCard(sandbox, purchase, form, ctx), cardFormRefused);
  });

  // Someone who opens the address in a browser learns what it is for, rather than meeting the API's JSON 404.
  router.get(PATHS, (_req, res) => {
    res.set('Allow', 'POST');
    send(res, { status: 405, html: errorPage('Direct Post', ['This address takes a card form posted by a shop (POST, urlencoded). Open the purchase\'s checkout_url to pay on a page.']) });
  });

  router.use('/direct_post', formRefused);

  return router;
}
