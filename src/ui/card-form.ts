// The Direct Post card form (DESIGN.md §14, §15 "The first hour"), wherever it is posted: at a purchase's
// direct_post_url, and at its checkout_url, where the platform's iOS SDK posts it. CHIPAsia/chip-ios-sdk
// (GateUi/GateCardViewController.swift, GateWebViewController.swift) builds the form in a page loaded
// without a base URL, so the browser sends `Origin: null`, and posts `card_number` (with the space its
// field inserts every four digits), `expires` (MM/YY), `cvc` and `cardholder_name`, no `remember_card`,
// to `GateUi.redirectUrl`, which `GateUi.setup` got as the purchase's checkout_url. Such a form is told
// from the checkout page's own by its fields (isCardForm) and is taken from any origin; the page's own
// form keeps its origin check (checkout.ts).

import type { Context } from '../domain/context.ts';
import type { ApiError } from '../domain/errors.ts';
import { postedCardDecline, readPostedCard } from '../domain/test-cards.ts';
import type { Input, Purchase } from '../domain/types.ts';
import { payAtCheckout } from '../engine/payments.ts';
import type { Sandbox } from '../store/store.ts';
import { errorPage, messages } from './checkout-page.ts';
import type { PageReply } from './checkout.ts';

/**
 * Whether a form posted to checkout_url is a Direct Post card form: it has `card_number` and no
 * `pay_with`, the radio group the checkout page's own form always sends (an empty one when it offers
 * nothing). Anything else posted with `card_number` (a page's field beside the card's, garbage) is read
 * as Direct Post reads it, so it gets the answer Direct Post gives to bad fields.
 */
export function isCardForm(form: Record<string, unknown>): boolean {
  return Object.hasOwn(form, 'card_number') && !Object.hasOwn(form, 'pay_with');
}

/** The posted card as the engine's `pay` input: a decline the test card calls for is `outcome: "failure"` with its code. */
export function payWithCard(sandbox: Sandbox, purchase: Purchase, form: Record<string, unknown>, ctx: Context): Purchase {
  const card = readPostedCard(form);
  const input: Input = {
    method: card.method,
    card: { number: card.digits, cardholder_name: card.cardholder_name, expiry: card.expiry },
    // Every card scheme can save one; force_recurring saves it whatever is sent, in payAtCheckout.
    save_token: card.remember,
  };
  const decline = postedCardDecline(card, ctx.clock.now());
  return payAtCheckout(sandbox, purchase, decline === null ? input : { ...input, outcome: 'failure', decline_code: decline }, ctx);
}

/** A card form that cannot pay: the error's status (400) and its messages, in HTML. */
export const cardFormRefused = (error: ApiError): PageReply => ({ status: error.status, html: errorPage('Payment form refused', messages(error)) });
