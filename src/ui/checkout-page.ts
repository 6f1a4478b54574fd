// The checkout page's HTML: the order (brand, products, total, due), then either the payment form
// (a purchase still waiting for its money) or a page that says why there is nothing to pay. Every
// control has a <label for>; the DOM order is the tab order: choice of card, card details, save,
// outcome, the decline reason beside "Decline", pay.

import { COMMON_DECLINE_CODES, DEFAULT_DECLINE_CODE, declineMessage, isDeclineCode } from '../domain/decline-codes.ts';
import { ALL, type ApiError } from '../domain/errors.ts';
import { EXECUTION_DAYS, PAYABLE } from '../domain/purchases.ts';
import { findMethod, type PaymentMethod } from '../domain/payment-methods.ts';
import { lineTotal } from '../domain/purchase-details.ts';
import type { Purchase, RecurringToken } from '../domain/types.ts';
import { formatInstant, formatMoney, html, page, type SafeHtml } from './html.ts';

export interface CheckoutView {
  purchase: Purchase;
  /** The page's own path, where its form posts: the purchase's checkout_url without the origin. */
  path: string;
  brandName: string;
  /**
   * The methods of the purchase's currency that its payment_method_whitelist allows (all of them when it
   * is null), each once for the payer (checkoutChoices: one DuitNow QR, one ShopeePay).
   */
  methods: readonly PaymentMethod[];
  /** The method the checkout link's `?preferred=` / `?active=` picked: chosen on load, before any saved card. */
  selected?: string;
  /** The client's live tokens of the purchase's service type. */
  tokens: readonly RecurringToken[];
  /** Messages of a refused payment (an ApiError of the engine), shown above the form. */
  errors?: readonly string[];
}

/** The test outcomes a tester picks, as the `pay` fields they stand for. */
export const OUTCOMES = {
  approve: { label: 'Approve', pay: { outcome: 'success' } },
  decline: { label: 'Decline', pay: { outcome: 'failure' } },
  approve_decline_later: {
    label: 'Approve now, decline later charges with the saved card',
    pay: { outcome: 'success', save_token: true, token_outcome: 'failure' },
  },
} as const;

export type OutcomeName = keyof typeof OUTCOMES;

const money = (purchase: Purchase, minor: number) => formatMoney(minor, purchase.purchase.currency);
const methodName = (name: string) => findMethod(name)?.displayName ?? name;

/** A quantity as a payer reads it: the stored "1.0000" is 1, "1.5000" is 1.5. */
export const quantityText = (quantity: string): string => (quantity.includes('.') ? quantity.replace(/0+$/, '').replace(/\.$/, '') : quantity);

function order(purchase: Purchase): SafeHtml {
  const details = purchase.purchase;
  const due = purchase.due === null ? 'No due date' : formatInstant(purchase.due, details.timezone);
  // The due date matters only while the purchase waits for its money; a paid or cancelled page says what became of it.
  const waiting = PAYABLE.has(purchase.status);
  return html`<section aria-labelledby="order-heading">
  <h2 id="order-heading">Your order</h2>
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">Product</th><th scope="col" class="num">Quantity</th><th scope="col" class="num wide-only">Price</th><th scope="col" class="num">Amount</th></tr></thead>
    <tbody>${details.products.map(
      (product) => html`
      <tr><td>${product.name}${product.discount ? html` <span class="hint">(discount ${money(purchase, product.discount)})</span>` : ''}${
        Number(product.tax_percent) > 0 ? html` <span class="hint">(tax ${product.tax_percent} %)</span>` : ''
      }</td><td class="num">${quantityText(product.quantity)}</td><td class="num wide-only">${money(purchase, product.price)}</td><td class="num">${money(purchase, lineTotal(product))}</td></tr>`,
    )}
    </tbody>
    <tfoot><tr><th scope="row" colspan="2">Total</th><td class="wide-only"></td><td class="num" id="total"><strong>${money(purchase, details.total)}</strong></td></tr></tfoot>
  </table></div>
  ${waiting ? html`<p>Due: <span id="due">${due}</span></p>` : ''}
  ${details.notes && html`<p class="hint">${details.notes}</p>`}
</section>`;
}

/** Heading, then what happened (`notice`), the order, and the form when there is one. */
function shell(view: Pick<CheckoutView, 'purchase' | 'brandName'>, title: string, notice: SafeHtml, form: SafeHtml = html``): string {
  return page(
    `${title} · ${view.brandName}`,
    html`<header class="brand">${view.brandName} · checkout (billing-sim test mode)</header>
<main>
  <h1>${title}</h1>
  ${notice}
  ${order(view.purchase)}
  ${form}
  <p class="hint">Purchase <code>${view.purchase.id}</code> · status <span id="status">${view.purchase.status}</span></p>
</main>`,
  );
}

/** The newest saved card first, and chosen unless the link preferred a method, as a payer who saved one expects; then new methods. */
function savedCards(tokens: readonly RecurringToken[], checkFirst: boolean): SafeHtml {
  return html`${tokens.map(
    (token, index) => html`<span class="choice"><input type="radio" name="pay_with" id="pay-token-${token.id}" value="token:${token.id}"${
      checkFirst && index === 0 ? html` checked` : ''
    }>
      <label for="pay-token-${token.id}">Saved ${methodName(token.payment_method)} ${token.description}</label></span>`,
  )}`;
}

/** The methods to pay with, `checked` the one chosen on load (none when a saved card is). */
function newMethods(methods: readonly PaymentMethod[], checked: string | undefined, currency: string): SafeHtml {
  // A whitelist may name only methods of other currencies (["fpx"] on a EUR purchase): say so, not an empty
  // list. The empty pay_with keeps the post the page's own (a form with card_number and no pay_with is a
  // Direct Post form, checkout.ts), so it is answered "Choose a payment method".
  if (methods.length === 0) {
    return html`<p class="hint" id="no-methods">No method this purchase allows is offered in ${currency}.</p><input type="hidden" name="pay_with" value="">`;
  }
  return html`${methods.map(
    (method) => html`<span class="choice"><input type="radio" name="pay_with" id="pay-method-${method.name}" value="method:${method.name}"${
      method.name === checked ? html` checked` : ''
    }>
      <label for="pay-method-${method.name}">${method.displayName}</label></span>`,
  )}`;
}

function saveChoice(purchase: Purchase): SafeHtml {
  if (purchase.force_recurring) {
    // A disabled box is not submitted; the engine saves the card anyway, as force_recurring says.
    return html`<input type="checkbox" id="save-token" name="save_token" value="yes" checked disabled aria-describedby="save-token-hint">
    <label for="save-token">Save this card for later payments</label>
    <p class="hint" id="save-token-hint">Required by the merchant: this purchase saves the card for recurring charges (force_recurring).</p>`;
  }
  return html`<input type="checkbox" id="save-token" name="save_token" value="yes">
    <label for="save-token">Save this card for later payments</label>`;
}

/**
 * The test card a new card payment uses (POST /sim/v1/purchases/{id}/pay `card`): each field may stay
 * empty, for the platform's test card of the chosen scheme. A method that is not a card ignores them.
 */
function cardFields(): SafeHtml {
  return html`<p class="hint" id="card-hint">Test card for a new card payment; leave a field empty for the platform's test card
    (Visa 4444 3333 2222 1111, Mastercard 5555 5555 5555 4444).</p>
    <p><label for="card-number">Card number</label>
    <input type="text" id="card-number" name="card_number" inputmode="numeric" autocomplete="off" placeholder="4444 3333 2222 1111" aria-describedby="card-hint"></p>
    <p><label for="cardholder-name">Cardholder name</label>
    <input type="text" id="cardholder-name" name="cardholder_name" autocomplete="off" maxlength="100"></p>
    <p><label for="card-expiry">Expiry (MM/YY)</label>
    <input type="text" id="card-expiry" name="card_expiry" autocomplete="off" placeholder="MM/YY" maxlength="5"></p>`;
}

/** The common reasons of a decline (POST /sim/v1/purchases/{id}/pay `decline_code`), insufficient_funds chosen. */
function declineReasons(): SafeHtml {
  return html`<label for="decline-code" class="visually-hidden">Decline reason</label>
      <select id="decline-code" name="decline_code">${COMMON_DECLINE_CODES.map(
        (code) => html`<option value="${code}"${code === DEFAULT_DECLINE_CODE ? html` selected` : ''}>${code}: ${declineMessage(code)}</option>`,
      )}</select>`;
}

function outcomes(): SafeHtml {
  return html`${Object.entries(OUTCOMES).map(
    ([name, outcome], index) => html`<span class="choice"><input type="radio" name="outcome" id="outcome-${name}" value="${name}"${
      index === 0 ? html` checked` : ''
    }>
      <label for="outcome-${name}">${outcome.label}</label>${name === 'decline' ? html` ${declineReasons()}` : ''}</span>`,
  )}`;
}

/** "The payment was declined: The card has expired.", with the reason of the newest failed attempt when it has one. */
function declined(purchase: Purchase): string {
  const code = purchase.transaction_data.attempts.find((attempt) => !attempt.successful)?.error?.code;
  return isDeclineCode(code) ? `The payment was declined: ${declineMessage(code)}` : 'The payment was declined.';
}

function statusNote(purchase: Purchase): SafeHtml {
  if (purchase.status === 'error') {
    return html`<div class="alert error" role="alert" id="result">${declined(purchase)} Choose a payment method and try again.</div>`;
  }
  if (purchase.status === 'overdue') {
    // Overdue is still payable; a due_strict purchase would be `expired` instead and show no form.
    return html`<div class="alert info" id="result">This purchase is overdue: it was due ${dueText(purchase)}. It can still be paid.</div>`;
  }
  return html``;
}

function notices(view: CheckoutView): SafeHtml {
  return html`${statusNote(view.purchase)}
  ${view.errors?.length ? html`<div class="alert error" role="alert" id="error">${view.errors.map((message) => html`<p>${message}</p>`)}</div>` : ''}`;
}

/** The platform's payform sends a payer who gives up to the purchase's cancel_redirect; the purchase stays as it is. */
function cancelLink({ purchase, brandName }: CheckoutView): SafeHtml {
  return !purchase.cancel_redirect ? html`` : html`<a id="cancel" class="cancel" href="${purchase.cancel_redirect}">Cancel and return to ${brandName}</a>`;
}

function paymentForm(view: CheckoutView): SafeHtml {
  const { purchase } = view;
  const total = money(purchase, purchase.purchase.total);
  return html`<form method="post" action="${view.path}" aria-labelledby="pay-heading">
    <h2 id="pay-heading">Payment</h2>
    <fieldset>
      <legend>Pay with</legend>
      ${savedCards([...view.tokens].reverse(), view.selected === undefined)}
      ${newMethods(view.methods, view.selected ?? (view.tokens.length === 0 ? view.methods[0]?.name : undefined), purchase.purchase.currency)}
    </fieldset>
    <fieldset>
      <legend>Card</legend>
      ${cardFields()}
      ${saveChoice(purchase)}
    </fieldset>
    <fieldset>
      <legend>Test outcome</legend>
      ${outcomes()}
      <p class="hint">Decline declines this payment, with a new method or a saved card, for the reason chosen beside it. Otherwise a saved card answers as it was saved (approve, or decline later charges).</p>
    </fieldset>
    <button type="submit" id="pay">Pay ${total}</button>
    ${cancelLink(view)}
  </form>`;
}

/** The purchase's page: the form while it can be paid, otherwise why it cannot. */
export function checkoutPage(view: CheckoutView): string {
  const { purchase } = view;
  if (PAYABLE.has(purchase.status)) return shell(view, `Pay ${money(purchase, purchase.purchase.total)}`, notices(view), paymentForm(view));
  return shell(view, ...closed(purchase));
}

/** "5 Feb 2026, 00:00 (UTC)" in the purchase's time zone, or "" when it has no due date. */
function dueText(purchase: Purchase): string {
  return purchase.due === null ? '' : formatInstant(purchase.due, purchase.purchase.timezone);
}

/**
 * A paid purchase: how it was paid (a method at checkout, or marked as paid by the merchant, which
 * takes no money here), a capture of less than was authorised, and what a partial refund gave back
 * (`payment.amount` stays what was paid; `refundable_amount` falls with each refund).
 */
function paidNote(purchase: Purchase): SafeHtml {
  const { payment } = purchase;
  const when = payment ? formatInstant(payment.paid_on, purchase.purchase.timezone) : '';
  if (purchase.marked_as_paid) {
    return html`<div class="alert success" role="status" id="result"><p>Paid outside the gateway: the merchant marked this purchase as paid on ${when}.</p>
    <p>No money moved through the gateway, so there is nothing to refund through it.</p></div>`;
  }
  const paid = payment?.amount ?? purchase.purchase.total;
  const saved = purchase.is_recurring_token ? ' The card was saved for later payments.' : '';
  const captured = paid < purchase.purchase.total
    ? html`<p id="captured">The merchant captured ${money(purchase, paid)} of the ${money(purchase, purchase.purchase.total)} authorised; the rest was released.</p>`
    : '';
  const refunded = paid - purchase.refundable_amount;
  const refund = refunded > 0
    ? html`<p id="refund">Partly refunded: ${money(purchase, refunded)} went back to the payer; ${money(purchase, purchase.refundable_amount)} can still be refunded.</p>`
    : '';
  return html`<div class="alert success" role="status" id="result"><p>Payment approved: paid ${when} with ${methodName(payment?.payment_method ?? '')}.${saved}</p>${captured}${refund}</div>`;
}

function closed(purchase: Purchase): [string, SafeHtml] {
  const total = money(purchase, purchase.purchase.total);
  switch (purchase.status) {
    case 'paid':
      return [purchase.marked_as_paid ? 'Paid outside the gateway' : 'Paid', paidNote(purchase)];
    case 'pending_execute': {
      const days = purchase.service_type ? EXECUTION_DAYS[purchase.service_type] : 0;
      return ['Payment accepted', html`<div class="alert success" role="status" id="result">Payment accepted: the bank collects it within ${days} day(s) (${purchase.service_type}).</div>`];
    }
    case 'hold':
      return ['Payment authorised', html`<div class="alert success" role="status" id="result"><p>${total} is reserved on the card and not yet taken.</p>
    <p>The merchant captures it later (skip_capture), or releases it.</p></div>`];
    case 'pending_capture':
      return ['Payment authorised', html`<div class="alert success" role="status" id="result">The merchant is capturing the payment reserved on the card; it completes shortly.</div>`];
    case 'preauthorized':
      return ['Card authorised', html`<div class="alert success" role="status" id="result"><p>The card was verified${purchase.is_recurring_token ? ' and saved for later payments' : ''}: nothing was charged.</p></div>`];
    case 'pending_release':
      return ['Authorisation being released', html`<div class="alert info" role="status" id="result">The merchant is releasing the ${total} reserved on the card: no payment is taken.</div>`];
    case 'pending_refund':
      return ['Refund under way', html`<div class="alert info" role="status" id="result">The merchant is refunding this payment: the money goes back to the payer shortly.</div>`];
    case 'released':
      return ['Authorisation released', html`<div class="alert info" role="status" id="result">The merchant released the ${total} reserved on the card: no payment was taken.</div>`];
    case 'refunded':
      return ['Refunded', html`<div class="alert info" role="status" id="result">This purchase was paid, then refunded in full: ${money(purchase, purchase.payment?.amount ?? purchase.purchase.total)} went back to the payer.</div>`];
    case 'expired':
      return ['Purchase expired', html`<div class="alert error" role="status" id="result"><p>This purchase expired unpaid: it was due ${dueText(purchase)}.</p>
    <p>The merchant does not accept late payment (due_strict), so it can no longer be paid.</p></div>`];
    case 'cancelled':
      return ['Purchase cancelled', html`<div class="alert info" role="status" id="result">This purchase was cancelled: there is nothing to pay.</div>`];
    default:
      return [`Purchase ${purchase.status}`, html`<div class="alert info" role="status" id="result">This purchase is ${purchase.status}: there is nothing to pay here.</div>`];
  }
}

/** An id that names no purchase of any sandbox: a page, not the API's JSON error. */
export function notFoundPage(): string {
  return page(
    'Purchase not found',
    html`<main>
  <h1>Purchase not found</h1>
  <p>No purchase has this checkout address. Check the link, or create the purchase again.</p>
</main>`,
  );
}

/** An ApiError's messages as sentences a payer can read: "save_token: fpx cannot save …". */
export function messages(error: ApiError): string[] {
  return Object.entries(error.fields).flatMap(([field, details]) =>
    details.map((detail) => (field === ALL ? detail.message : `${field}: ${detail.message}`)),
  );
}

/** A request the page cannot take at all (a malformed or oversized form): status and message only. */
export function errorPage(title: string, messages: readonly string[]): string {
  return page(title, html`<main><h1>${title}</h1>${messages.map((message) => html`<p>${message}</p>`)}</main>`);
}
