// The checkout page at a purchase's checkout_url: `/checkout/{id}/`, or `/checkout/{sandbox_id}/{id}/`
// for a purchase of a sandbox created with a seed, whose ids repeat in every sandbox of that seed.
// The short form finds the purchase in whichever sandbox holds it, and only when exactly one does
// (a seeded id in two sandboxes is ambiguous: 404). No bearer token: as on a real payment page,
// the purchase id in the link is the secret. Paying is a plain HTML form post
// to the same URL that calls the engine behind POST /sim/v1/purchases/{id}/pay, then answers
// 303: to the purchase's success_redirect / failure_redirect when it has one, else back to the
// page, which shows the result from the purchase's status (a reload never pays twice).
// `?preferred=METHOD` (the platform's iOS SDK) or `?active=METHOD` (its Perfex CRM module) chooses
// that method on load when the purchase offers it (checkoutChoices); any other value changes nothing,
// as the page ignores every query parameter it does not read. A Direct Post card form posted here is
// taken as at direct_post_url (card-form.ts), from any origin.

import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { CardInput } from '../domain/cards.ts';
import type { Context } from '../domain/context.ts';
import { ApiError } from '../domain/errors.ts';
import { checkoutChoices, findMethod, offeredMethods } from '../domain/payment-methods.ts';
import { withStatus } from '../domain/purchases.ts';
import type { Input, Purchase, PurchaseStatus } from '../domain/types.ts';
import { chargeWithToken, declineSavedCard, payAtCheckout } from '../engine/payments.ts';
import { savePurchase } from '../engine/records.ts';
import { checkoutPath } from '../present/purchases.ts';
import { clientTokens } from '../engine/tokens.ts';
import { toApiError } from '../http/errors.ts';
import type { Services } from '../http/handler.ts';
import { inSandboxTurn } from '../http/turn.ts';
import type { Sandbox, Store } from '../store/store.ts';
import { cardFormRefused, isCardForm, payWithCard } from './card-form.ts';
import { checkoutPage, errorPage, messages, notFoundPage, OUTCOMES, type OutcomeName } from './checkout-page.ts';

/**
 * The purchase with this id in sandbox `sandboxId`, or without one in whichever sandbox holds it,
 * provided only one does (checkout links carry no token). Undefined when none does, or several.
 */
export function findPurchase(store: Store, id: string, sandboxId?: string): { sandbox: Sandbox; purchase: Purchase } | undefined {
  if (sandboxId !== undefined) {
    const sandbox = store.get(sandboxId);
    const purchase = sandbox?.purchases.get(id);
    return sandbox && purchase && { sandbox, purchase };
  }
  let found: { sandbox: Sandbox; purchase: Purchase } | undefined;
  for (const sandbox of store.all()) {
    const purchase = sandbox.purchases.get(id);
    if (!purchase) continue;
    if (found) return undefined;
    found = { sandbox, purchase };
  }
  return found;
}

/** The ids a checkout path names: `/checkout/{id}/` or `/checkout/{sandbox}/{id}/`. */
type Link = { id: string; sandbox?: string };

const linkOf = (req: Request): Link => req.params as Link;

type Opened = { sandbox: Sandbox; purchase: Purchase; ctx: Context };

/**
 * Runs `work` on the purchase in its sandbox's turn (never interleaved with a request or a webhook
 * delivery of that sandbox). Resolves to undefined when no sandbox holds the purchase.
 */
async function withPurchase<T>(services: Services, link: Link, work: (opened: Opened) => T): Promise<T | undefined> {
  const { id, sandbox: sandboxId } = link;
  const found = findPurchase(services.store, id, sandboxId);
  if (!found) return undefined;
  return inSandboxTurn<T | undefined>(
    services,
    found.sandbox.id,
    (sandbox, ctx) => {
      const purchase = sandbox.purchases.get(id);
      return purchase && work({ sandbox, purchase, ctx });
    },
    () => undefined,
  );
}

/** After an accepted change (saved by the turn): let the sandbox's webhook deliveries go out. */
function changed(services: Services, sandbox: Sandbox): void {
  services.background.wake(sandbox.id);
}

/** What a checkout request answers: a page, or a 303 to where the payer goes next. */
export type PageReply = { status: number; html: string } | { redirect: string };

const NOT_FOUND: PageReply = { status: 404, html: notFoundPage() };

export function send(res: Response, reply: PageReply): void {
  if ('redirect' in reply) res.redirect(303, reply.redirect);
  else res.status(reply.status).type('html').send(reply.html);
}

/**
 * The method a checkout link prefers: `?preferred=` (CHIPAsia/chip-ios-sdk, GateMethodsViewController.swift,
 * for a method that is not a card) or `?active=` (CHIPAsia/CHIP-for-Perfex-CRM, libraries/Chip_gateway.php,
 * its `preferred_payment_method` setting). A parameter sent twice is an array, and names nothing.
 */
function preferredOf(req: Request): string | undefined {
  const { preferred, active } = req.query;
  return typeof preferred === 'string' ? preferred : typeof active === 'string' ? active : undefined;
}

function render(status: number, sandbox: Sandbox, purchase: Purchase, errors?: string[], preferred?: string): PageReply {
  const choices = checkoutChoices(offeredMethods(purchase.purchase.currency, purchase.payment_method_whitelist), preferred);
  const html = checkoutPage({
    purchase,
    path: checkoutPath(sandbox, purchase.id),
    brandName: sandbox.brands.find((brand) => brand.id === purchase.brand_id)?.name ?? 'Merchant',
    methods: choices.methods,
    selected: choices.selected,
    // Only live tokens (a deleted one has left the client's list), and only those that may charge this purchase.
    tokens: clientTokens(sandbox, purchase.client_id).filter((token) => token.service_type === purchase.service_type),
    errors,
  });
  return { status, html };
}

/** The form's fields as the engine's input: `pay_with` is `token:{id}` or `method:{name}`. */
function pay(sandbox: Sandbox, purchase: Purchase, form: Record<string, unknown>, ctx: Context): Purchase {
  const payWith = typeof form.pay_with === 'string' ? form.pay_with : '';
  const [kind, value = ''] = payWith.split(/:(.*)/s);
  // "Decline" declines whatever pays, a saved card too, for the reason of the select beside it (sent
  // with every outcome, read only with this one); the other outcomes leave a saved card to its own.
  const declining = form.outcome === 'decline';
  const declineCode = declining ? form.decline_code : undefined;
  if (kind === 'token') return declining ? declineSavedCard(sandbox, purchase, value, ctx, declineCode) : chargeWithToken(sandbox, purchase, value, ctx);
  if (kind !== 'method') throw new ApiError(400, { pay_with: [{ message: 'Choose a payment method.', code: 'required' }] });
  const outcome = OUTCOMES[form.outcome as OutcomeName] ?? OUTCOMES.approve;
  const input: Input = { method: value, save_token: form.save_token === 'yes', ...outcome.pay };
  if (declineCode !== undefined) input.decline_code = declineCode;
  if (findMethod(value)?.card) {
    const card = typedCard(form);
    if (card) input.card = card;
  }
  return payAtCheckout(sandbox, purchase, input, ctx);
}

/** The card fields the payer filled in (`pay`'s `card`), or undefined when all are empty: the test card then. */
function typedCard(form: Record<string, unknown>): CardInput | undefined {
  const field = (name: string) => (typeof form[name] === 'string' && form[name].trim() !== '' ? form[name].trim() : undefined);
  const card: CardInput = { number: field('card_number'), cardholder_name: field('cardholder_name'), expiry: field('card_expiry') };
  for (const key of Object.keys(card) as (keyof CardInput)[]) if (card[key] === undefined) delete card[key];
  return Object.keys(card).length > 0 ? card : undefined;
}

/**
 * A posted form paid with `payWith` in the purchase's turn, answered 303 to where the payer goes next:
 * success_redirect, failure_redirect after a decline, or the status page. A refusal (an ApiError)
 * changes nothing and gets `refused`'s page; no purchase, the 404 page.
 */
export async function payAndRedirect(
  services: Services,
  req: Request,
  res: Response,
  payWith: (opened: Opened, form: Record<string, unknown>) => Purchase,
  refused: (error: ApiError, opened: Opened) => PageReply,
): Promise<void> {
  const form = (req.body ?? {}) as Record<string, unknown>;
  const reply = await withPurchase(services, linkOf(req), (opened): PageReply => {
    try {
      const paid = payWith(opened, form);
      changed(services, opened.sandbox);
      // "" is the platform's unset URL, as null is: the status page then, which shows the result.
      return { redirect: (paid.status === 'error' ? paid.failure_redirect : paid.success_redirect) || checkoutPath(opened.sandbox, paid.id) };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return refused(error, opened);
    }
  });
  send(res, reply ?? NOT_FOUND);
}

/** Statuses of a successful payment, whose page sends the payer on to success_redirect (see the GET handler). */
const SUCCEEDED: ReadonlySet<PurchaseStatus> = new Set(['paid', 'pending_execute', 'hold', 'pending_capture', 'preauthorized']);

/**
 * The card forms' parser (the checkout page's and Direct Post's): urlencoded, parsed by the page's own
 * router, so the API's JSON-only rule (requireJson) never sees it. 16 KiB: a form has a few short fields.
 */
export const formParser: RequestHandler = express.urlencoded({ extended: false, limit: '16kb' });

/**
 * A form the parser refuses (too large: 413 naming the limit; bad encoding: 400) gets a page too; a bug
 * goes on to the app's error handler, which logs it and answers without a stack trace.
 */
export function formRefused(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const apiError = toApiError(error);
  if (apiError.status >= 500) return next(error);
  send(res, { status: apiError.status, html: errorPage('Payment form refused', messages(apiError)) });
}

export function checkoutRouter(services: Services): Router {
  const router = express.Router();

  // Both forms of the link (see the header); Express reads `/checkout/{a}/{b}/` only as the long one.
  const PATHS = ['/checkout/:id/', '/checkout/:sandbox/:id/'];

  // `checkout_url` + `receipt/`, where CHIPAsia/chip-for-opencart (1.5–4.0) and chip-for-arastta
  // (catalog/controller/payment/chip.php) send the payer when they cannot read the purchase back: the
  // page the checkout shows, only to look at (never `viewed`, never on to success_redirect). Before
  // PATHS, which read `/checkout/{id}/receipt/` as sandbox {id} and purchase `receipt`. (`invoice/`
  // appears in them only as a link to the platform's own host, so it is not served.)
  router.get(['/checkout/:id/receipt/', '/checkout/:sandbox/:id/receipt/'], async (req, res) => {
    send(res, (await withPurchase(services, linkOf(req), ({ sandbox, purchase }) => render(200, sandbox, purchase))) ?? NOT_FOUND);
  });

  router.get(PATHS, async (req, res) => {
    const reply = await withPurchase(services, linkOf(req), ({ sandbox, purchase, ctx }): PageReply => {
      // The platform's page of a successful payment sends the payer on to the merchant's
      // success_redirect, as right after paying: money taken (paid, or being collected or captured),
      // reserved (hold) or a card authorised (preauthorized). One given back (released, refunded) or
      // being given back gets the status page, as does a purchase without the URL ("" or null).
      if (SUCCEEDED.has(purchase.status) && purchase.success_redirect) return { redirect: purchase.success_redirect };
      if (req.method === 'GET' && (purchase.status === 'created' || purchase.status === 'sent')) {
        purchase = savePurchase(sandbox, withStatus(purchase, 'viewed', ctx), 'purchase.viewed', ctx);
        changed(services, sandbox);
      }
      return render(200, sandbox, purchase, undefined, preferredOf(req));
    });
    send(res, reply ?? NOT_FOUND);
  });

  router.post(PATHS, formParser, async (req, res) => {
    // A Direct Post card form, as the platform's iOS SDK posts it here (`Origin: null`): any origin, as at direct_post_url.
    if (isCardForm((req.body ?? {}) as Record<string, unknown>)) {
      return payAndRedirect(services, req, res, ({ sandbox, purchase, ctx }, form) => payWithCard(sandbox, purchase, form, ctx), cardFormRefused);
    }
    // The page posts to itself, so a browser sends this server's origin. A form on any other site
    // could post here too (CORS does not stop a plain form post) and pay on the developer's behalf.
    const origin = req.get('origin');
    if (origin !== undefined && origin !== `${req.protocol}://${req.get('host')}`) {
      return send(res, { status: 403, html: errorPage('Payment refused', [`This form was sent from ${origin}, not from this checkout page.`]) });
    }
    await payAndRedirect(
      services,
      req,
      res,
      ({ sandbox, purchase, ctx }, form) => pay(sandbox, purchase, form, ctx),
      // A refused payment changes nothing: the page again, with why.
      (error, { sandbox, purchase }) => render(error.status, sandbox, purchase, messages(error)),
    );
  });

  router.use('/checkout', formRefused);

  return router;
}
