// The checkout page's HTML: the order (brand, products, total, due), then either the payment form
// (a purchase still waiting for its money) or a page that says why there is nothing to pay. Every
// control has a <label for>; the DOM order is the tab order: choice of card, save, outcome, pay.

import { EXECUTION_DAYS, PAYABLE } from '../domain/purchases.ts';
import { PAYMENT_METHODS, type PaymentMethod } from '../domain/payment-methods.ts';
import { lineTotal } from '../domain/purchase-details.ts';
import type { Purchase, RecurringToken } from '../domain/types.ts';
import { formatInstant, formatMoney, html, page, type SafeHtml } from './html.ts';

export interface CheckoutView {
  purchase: Purchase;
  brandName: string;
  /** What payment_method_whitelist allows (all methods when it is null). */
  methods: readonly PaymentMethod[];
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
const methodName = (name: string) => PAYMENT_METHODS.find((method) => method.name === name)?.displayName ?? name;

function order(purchase: Purchase): SafeHtml {
  const details = purchase.purchase;
  const due = purchase.due === null ? 'No due date' : formatInstant(purchase.due, details.timezone);
  return html`<section aria-labelledby="order-heading">
  <h2 id="order-heading">Your order</h2>
  <table>
    <thead><tr><th scope="col">Product</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Price</th><th scope="col" class="num">Amount</th></tr></thead>
    <tbody>${details.products.map(
      (product) => html`
      <tr><td>${product.name}${product.discount ? html` <span class="hint">(discount ${money(purchase, product.discount)})</span>` : ''}${
        product.tax_percent ? html` <span class="hint">(tax ${product.tax_percent} %)</span>` : ''
      }</td><td class="num">${product.quantity}</td><td class="num">${money(purchase, product.price)}</td><td class="num">${money(purchase, lineTotal(product))}</td></tr>`,
    )}
    </tbody>
    <tfoot><tr><th scope="row" colspan="3">Total</th><td class="num" id="total"><strong>${money(purchase, details.total)}</strong></td></tr></tfoot>
  </table>
  <p>Due: <span id="due">${due}</span></p>
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

/** The newest saved card first and chosen, as a payer who saved one expects; then new methods. */
function savedCards(tokens: readonly RecurringToken[]): SafeHtml {
  return html`${tokens.map(
    (token, index) => html`<span class="choice"><input type="radio" name="pay_with" id="pay-token-${token.id}" value="token:${token.id}"${
      index === 0 ? html` checked` : ''
    }>
      <label for="pay-token-${token.id}">Saved ${methodName(token.payment_method)} ${token.description}</label></span>`,
  )}`;
}

function newMethods(methods: readonly PaymentMethod[], checkFirst: boolean): SafeHtml {
  return html`${methods.map(
    (method, index) => html`<span class="choice"><input type="radio" name="pay_with" id="pay-method-${method.name}" value="method:${method.name}"${
      checkFirst && index === 0 ? html` checked` : ''
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

function outcomes(): SafeHtml {
  return html`${Object.entries(OUTCOMES).map(
    ([name, outcome], index) => html`<span class="choice"><input type="radio" name="outcome" id="outcome-${name}" value="${name}"${
      index === 0 ? html` checked` : ''
    }>
      <label for="outcome-${name}">${outcome.label}</label></span>`,
  )}`;
}

function statusNote(purchase: Purchase): SafeHtml {
  if (purchase.status === 'error') {
    return html`<div class="alert error" role="alert" id="result">The payment was declined. Choose a payment method and try again.</div>`;
  }
  if (purchase.status === 'overdue') {
    const strict = purchase.purchase.due_strict ? ' The merchant does not accept late payment (due_strict).' : '';
    return html`<div class="alert info" id="result">This purchase is overdue.${strict}</div>`;
  }
  return html``;
}

function notices(view: CheckoutView): SafeHtml {
  return html`${statusNote(view.purchase)}
  ${view.errors?.length ? html`<div class="alert error" role="alert" id="error">${view.errors.map((message) => html`<p>${message}</p>`)}</div>` : ''}`;
}

function paymentForm(view: CheckoutView): SafeHtml {
  const { purchase } = view;
  const total = money(purchase, purchase.purchase.total);
  return html`<form method="post" action="${purchase.checkout_url}" aria-labelledby="pay-heading">
    <h2 id="pay-heading">Payment</h2>
    <fieldset>
      <legend>Pay with</legend>
      ${savedCards([...view.tokens].reverse())}
      ${newMethods(view.methods, view.tokens.length === 0)}
    </fieldset>
    <fieldset>
      <legend>Card</legend>
      ${saveChoice(purchase)}
    </fieldset>
    <fieldset>
      <legend>Test outcome</legend>
      ${outcomes()}
      <p class="hint">The outcome applies to a new payment method; a saved card answers as it was saved (approve, or decline later charges).</p>
    </fieldset>
    <button type="submit" id="pay">Pay ${total}</button>
  </form>`;
}

/** The purchase's page: the form while it can be paid, otherwise why it cannot. */
export function checkoutPage(view: CheckoutView): string {
  const { purchase } = view;
  if (PAYABLE.has(purchase.status)) return shell(view, `Pay ${money(purchase, purchase.purchase.total)}`, notices(view), paymentForm(view));
  return shell(view, ...closed(purchase));
}

function closed(purchase: Purchase): [string, SafeHtml] {
  const method = methodName(purchase.payment?.payment_method ?? '');
  switch (purchase.status) {
    case 'paid': {
      const when = purchase.payment ? formatInstant(purchase.payment.paid_on, purchase.purchase.timezone) : '';
      const saved = purchase.is_recurring_token ? ' The card was saved for later payments.' : '';
      return ['Paid', html`<div class="alert success" role="status" id="result">Payment approved: paid ${when} with ${method}.${saved}</div>`];
    }
    case 'pending_execute': {
      const days = purchase.service_type ? EXECUTION_DAYS[purchase.service_type] : 0;
      return ['Payment accepted', html`<div class="alert success" role="status" id="result">Payment accepted: the bank collects it within ${days} day(s) (${purchase.service_type}).</div>`];
    }
    case 'hold':
      return ['Payment authorised', html`<div class="alert success" role="status" id="result">The amount is reserved on the card; the merchant captures it later (skip_capture).</div>`];
    default:
      return ['Purchase cancelled', html`<div class="alert info" role="status" id="result">This purchase was cancelled: there is nothing to pay.</div>`];
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

/** A request the page cannot take at all (a malformed or oversized form): status and message only. */
export function errorPage(title: string, messages: readonly string[]): string {
  return page(title, html`<main><h1>${title}</h1>${messages.map((message) => html`<p>${message}</p>`)}</main>`);
}
