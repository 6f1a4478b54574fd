// Simulated money: paying at checkout (POST /sim/v1/purchases/{id}/pay), charging a recurring
// token (POST /purchases/{id}/charge/, through `pending_charge` when the sandbox's processing takes
// time, and automatic subscription charges), bank execution of ONEDAY/TWODAY collections, and what
// follows a payment: receipt, token, subscriber launch.

import { DAY_MS } from '../domain/calendar.ts';
import { unixSeconds, type Context } from '../domain/context.ts';
import { cardFor, type CardInput } from '../domain/cards.ts';
import { declineError, DEFAULT_DECLINE_CODE } from '../domain/decline-codes.ts';
import { ALL, errors, fieldError } from '../domain/errors.ts';
import { findMethod, methodsFor, offeredMethods } from '../domain/payment-methods.ts';
import { assertPayable, EXECUTION_DAYS, serviceTypeFits, withAttempt, withStatus } from '../domain/purchases.ts';
import { attempt, historyWith, NO_EXTRA, paymentDetails, transactionWith } from '../domain/shared-parts.ts';
import type { Attempt, BillingTemplateClient, Input, Purchase, PurchaseStatus, RecurringToken, TransactionData } from '../domain/types.ts';
import type { Sandbox, TokenOutcome } from '../store/store.ts';
import { launchOnFirstPayment } from './launch.ts';
import { schedule } from './queue.ts';
import { beginStep, settlementAt, stepTakesTime } from './steps.ts';
import { awaitPayment, recordEvent, savePurchase, sendEmail } from './records.ts';
import { nextTokenOutcome, savedCard, saveToken } from './tokens.ts';

/** Counts of what an advance or a request processed, reported by POST /sim/v1/clock/advance. */
export interface Processed {
  billings: number;
  first_deductions: number;
  charges: number;
  executions: number;
  overdue: number;
  expired: number;
  /** Pending steps ended (engine/steps.ts) and purchases settled: counted only when some were. */
  steps?: number;
  settlements?: number;
  webhook_deliveries: number;
}

export const noneProcessed = (): Processed => ({ billings: 0, first_deductions: 0, charges: 0, executions: 0, overdue: 0, expired: 0, webhook_deliveries: 0 });

export interface Receipt {
  /** What was received: the total, or less for a partial capture. */
  amount?: number;
  /** Unix seconds; now unless mark_as_paid says otherwise. */
  paidOn?: number;
  /** The events of the change, in order: purchase.paid, or purchase.captured then purchase.paid. */
  events?: readonly string[];
  /** Paid outside the gateway (mark_as_paid/). */
  markedAsPaid?: boolean;
  /** The collection that paid it, when it is recorded with the payment: its attempt and the token charged. */
  transactionData?: TransactionData;
  recurringToken?: string | null;
}

const PAID: readonly string[] = ['purchase.paid'];

/**
 * Money received: paid, with the payment, a receipt when asked, and the pending subscriber it
 * launches. `method` is null for a purchase marked as paid: no money went through the gateway, so
 * there is nothing to refund.
 */
export function markPaid(sandbox: Sandbox, purchase: Purchase, method: string | null, ctx: Context, receipt: Receipt = {}): Purchase {
  const amount = receipt.amount ?? purchase.purchase.total;
  const events = receipt.events ?? PAID;
  const refundable = method === null ? 0 : amount;
  const now = unixSeconds(ctx.clock.now());
  // withStatus written out: one spread and the changed fields, where withStatus's second spread (of
  // a changes object) took as long again, once per billing.
  const version: Purchase = {
    ...purchase,
    status: 'paid',
    updated_on: now,
    status_history: historyWith(purchase.status_history, 'paid', now),
    payment: paymentDetails(amount, purchase.purchase.currency, method, receipt.paidOn ?? now),
    refundable_amount: refundable,
    refund_availability: refundable > 0 ? 'all' : 'none',
    marked_as_paid: receipt.markedAsPaid ?? purchase.marked_as_paid,
    transaction_data: receipt.transactionData ?? purchase.transaction_data,
    // A checkout payment passes null: no token charged, so none recorded, whatever the purchase held.
    recurring_token: receipt.recurringToken !== undefined ? receipt.recurringToken : purchase.recurring_token,
  };
  const paid = savePurchase(sandbox, version, events[0]!, ctx);
  for (let i = 1; i < events.length; i += 1) recordEvent(sandbox, events[i]!, paid, ctx);
  // Money through the gateway is settled later when the sandbox asks for it (DESIGN.md §14); off, this costs a read.
  const settleAt = method === null ? undefined : settlementAt(sandbox, ctx.clock.now());
  if (settleAt !== undefined) schedule(sandbox, { at: settleAt, kind: 'settlement', id: paid.id });
  if (paid.send_receipt) sendEmail(sandbox, 'receipt', paid, ctx);
  launchOnFirstPayment(sandbox, paid, ctx);
  return paid;
}

/**
 * A successful collection, recorded as an attempt of `type`. DESIGN.md §4.8: with a service type the
 * bank takes 1 or 2 days, so the purchase waits in `pending_execute` and an execution job makes it
 * `paid` when that time has passed. With skip_capture the money is only reserved: `hold`, or for a
 * total of 0 (a card saved without a charge) `preauthorized`.
 */
function collect(
  sandbox: Sandbox,
  purchase: Purchase,
  method: string,
  tokenId: string | null,
  type: 'execute' | 'recurring_execute',
  ctx: Context,
  card: Attempt['extra'] = NO_EXTRA,
): Purchase {
  const transactionData = transactionWith(purchase.transaction_data, attempt(purchase.skip_capture ? 'authorize' : type, method, null, card));
  // Most billings end here: paid at once, in one new version of the purchase.
  if (!purchase.skip_capture && !purchase.service_type) return markPaid(sandbox, purchase, method, ctx, { transactionData, recurringToken: tokenId });
  const changes = { recurring_token: tokenId, transaction_data: transactionData };
  // Zero-amount authorisation (DESIGN.md §14): nothing to hold, so nothing to capture or release.
  if (purchase.skip_capture && purchase.purchase.total === 0) {
    return savePurchase(sandbox, withStatus(purchase, 'preauthorized', ctx, changes), 'purchase.preauthorized', ctx);
  }
  if (purchase.skip_capture) return savePurchase(sandbox, withStatus(purchase, 'hold', ctx, changes), 'purchase.hold', ctx);
  const at = ctx.clock.now() + EXECUTION_DAYS[purchase.service_type!] * DAY_MS;
  schedule(sandbox, { at, kind: 'execution', id: purchase.id, method });
  return savePurchase(sandbox, withStatus(purchase, 'pending_execute', ctx, changes), 'purchase.pending_execute', ctx);
}

type Decline = NonNullable<Attempt['error']>;

/** A declined attempt of `type` with `card` and the bank's `error`, recorded on the purchase; `status` is where it leaves the purchase. */
function declined(purchase: Purchase, type: 'execute' | 'recurring_execute', method: string, status: PurchaseStatus, ctx: Context, error: Decline, card: Attempt['extra'] = NO_EXTRA): Purchase {
  const changes = withAttempt(purchase, attempt(type, method, error, card));
  return status === purchase.status ? { ...purchase, ...changes, updated_on: unixSeconds(ctx.clock.now()) } : withStatus(purchase, status, ctx, changes);
}

/** The execution job: the bank has executed the collection. */
export function execute(sandbox: Sandbox, purchaseId: string, method: string, ctx: Context): boolean {
  const purchase = sandbox.purchases.get(purchaseId);
  if (purchase?.status !== 'pending_execute') return false;
  markPaid(sandbox, purchase, method, ctx);
  return true;
}

/**
 * The method a checkout payment uses: one the checkout offers (the purchase's currency's methods
 * that its whitelist allows), by default the whitelist's first of them (`["mastercard", "visa"]` →
 * mastercard), else the currency's first (visa). A whitelist may name methods of other currencies
 * only (`["fpx"]` on a EUR purchase): then nothing can pay it, and the answer says why.
 */
function resolveMethod(purchase: Purchase, requested: unknown): string {
  const { currency } = purchase.purchase;
  const offered = offeredMethods(currency, purchase.payment_method_whitelist).map((method) => method.name);
  if (offered.length === 0) {
    const inCurrency = methodsFor(currency).map((method) => method.name);
    throw fieldError('method', errors.invalid(`No method of payment_method_whitelist is offered in ${currency} (${inCurrency.join(', ')}).`));
  }
  // A whitelist naming only an umbrella (["razer"]) names no offered method: the first it admits then.
  const method = (requested as string | undefined) ?? (purchase.payment_method_whitelist ?? offered).find((name) => offered.includes(name)) ?? offered[0]!;
  if (!offered.includes(method)) throw fieldError('method', errors.invalidChoice(method, offered));
  return method;
}

/** `token_outcomes`, or the older `token_outcome` as a sequence of one; not both. */
function tokenOutcomes(input: Input): TokenOutcome[] {
  if (input.token_outcomes !== undefined && input.token_outcome !== undefined) {
    throw fieldError('token_outcomes', errors.invalid('Send token_outcomes or token_outcome, not both: token_outcome "x" means token_outcomes ["x"].'));
  }
  if (input.decline_code !== undefined && input.outcome !== 'failure') {
    throw fieldError('decline_code', errors.invalid('decline_code says why this payment is declined: send it with outcome "failure".'));
  }
  return (input.token_outcomes as TokenOutcome[] | undefined) ?? [(input.token_outcome as TokenOutcome | undefined) ?? 'success'];
}

/** POST /sim/v1/purchases/{id}/pay: what the checkout page does when the client pays. */
export function payAtCheckout(sandbox: Sandbox, purchase: Purchase, input: Input, ctx: Context): Purchase {
  const outcomes = tokenOutcomes(input);
  assertPayable(purchase);
  const method = resolveMethod(purchase, input.method);
  const recurring = findMethod(method)?.recurring ?? false;
  if (input.save_token === true && !recurring) {
    throw fieldError('save_token', errors.invalid(`${method} cannot save a recurring token.`));
  }
  // The card paying (null for another method), kept on this payment's attempt.
  const card = cardFor(method, input.card as CardInput | undefined, purchase, ctx.clock.now());
  if (input.outcome === 'failure') {
    return savePurchase(sandbox, declined(purchase, 'execute', method, 'error', ctx, declineError(input.decline_code), card ?? NO_EXTRA), 'purchase.payment_failure', ctx);
  }
  // force_recurring saves the credentials "when the payment method supports it, without giving the customer a choice".
  let payable = purchase;
  if (recurring && (input.save_token === true || purchase.force_recurring)) {
    saveToken(sandbox, purchase, method, outcomes, ctx, card);
    payable = { ...payable, is_recurring_token: true };
  }
  // The acquirer processes a card first: the platform's card payments show pending_execute in their
  // history before paid, hold or preauthorized (only in the history: no event, no answer shows it).
  if (card) payable = { ...payable, status_history: historyWith(payable.status_history, 'pending_execute', unixSeconds(ctx.clock.now())) };
  return collect(sandbox, payable, method, null, 'execute', ctx, card ?? NO_EXTRA);
}

/**
 * The checks of POST /purchases/{id}/charge/, answered under `__all__` where the platform's
 * WooCommerce plugin reads them. A token that can charge nothing (never saved, deleted, another
 * sandbox's: the same to the caller) → `invalid_recurring_token`, on which the plugin drops its
 * stored card. A live token that does not fit this purchase (spec: "A recurring token can only
 * charge a Purchase of the same service type"; due too soon for its execution time) →
 * `purchase_charge_error`: the card stays good for the purchases it fits. A token of another
 * client of the sandbox may charge (platform: "it's not recommended to do this"); chargeWithToken
 * records it.
 */
export function usableToken(sandbox: Sandbox, purchase: Purchase, tokenId: string, nowMs: number): RecurringToken {
  const token = sandbox.tokens.get(tokenId);
  if (!token) {
    throw fieldError(ALL, errors.invalidRecurringToken(`Recurring token ${tokenId} does not exist or was deleted: it cannot charge.`));
  }
  if (token.service_type !== purchase.service_type) {
    throw fieldError(ALL, errors.chargeError(`The token's service type is ${token.service_type ?? 'none'}, the purchase's ${purchase.service_type ?? 'none'}: a recurring token can only charge a purchase of the same service type.`));
  }
  if (!serviceTypeFits(token.service_type, purchase.due, nowMs)) {
    throw fieldError(ALL, errors.chargeError(`A ${token.service_type} token needs ${EXECUTION_DAYS[token.service_type!]} day(s) before the purchase is due.`));
  }
  return token;
}

/**
 * A simulator-only event (never delivered) on a purchase charged with a token of another client:
 * allowed, as on the platform, and shown to QA in /sim/v1/events because the platform warns
 * against it. Its payload is the purchase after the charge, paid or declined.
 */
export const OTHER_CLIENTS_TOKEN = 'purchase.charged_with_other_clients_token';

/** How the bank answers the token's next charge (using up its outcome): null when it accepts, else why it declines. */
function nextDecline(sandbox: Sandbox, tokenId: string): Decline | null {
  const outcome = nextTokenOutcome(sandbox, tokenId);
  return outcome === 'success' ? null : declineError(outcome === 'failure' ? DEFAULT_DECLINE_CODE : outcome);
}

/**
 * POST /purchases/{id}/charge/. DESIGN.md §9: a declined charge is recorded (an attempt in
 * transaction_data, event purchase.payment_failure), leaves the status as it was, and is then
 * answered as the platform answers it: 400 `purchase_charge_error`. The caller commits the record
 * before the answer, so the attempt is kept though the request is refused.
 */
export function chargeWithToken(sandbox: Sandbox, purchase: Purchase, tokenId: string, ctx: Context): Purchase {
  assertPayable(purchase, errors.chargeError);
  const token = usableToken(sandbox, purchase, tokenId, ctx.clock.now());
  const otherClients = token.client_id !== purchase.client_id;
  const decline = nextDecline(sandbox, token.id);
  if (decline) {
    const failed = savePurchase(sandbox, declined(purchase, 'recurring_execute', token.payment_method, purchase.status, ctx, decline, savedCard(sandbox, token.id)), 'purchase.payment_failure', ctx);
    if (otherClients) recordEvent(sandbox, OTHER_CLIENTS_TOKEN, failed, ctx);
    throw fieldError(ALL, errors.chargeError(`The charge was declined (${decline.code}): ${decline.message} See transaction_data.attempts of the purchase.`));
  }
  const charged = collect(sandbox, purchase, token.payment_method, token.id, 'recurring_execute', ctx);
  if (otherClients) recordEvent(sandbox, OTHER_CLIENTS_TOKEN, charged, ctx);
  return charged;
}

/**
 * POST /purchases/{id}/charge/ as the platform takes it: "slow → 200 `pending_charge`" (CS
 * PurchasesApi). With the sandbox's processing `delay` (GET/PUT /sim/v1/processing) more than
 * nothing, a charge the checks accept answers 200 `pending_charge` with `purchase.pending_charge`,
 * and the acquirer answers when the delay has passed on the sandbox clock (finishCharge). With no
 * delay (the default) it is chargeWithToken, as before: paid, or a decline answered 400. The checks
 * (payable, a usable token of the purchase's service type) are made now, as the platform refuses
 * such a charge at once.
 */
export function requestCharge(sandbox: Sandbox, purchase: Purchase, tokenId: string, ctx: Context): Purchase {
  if (!stepTakesTime(sandbox, ctx)) return chargeWithToken(sandbox, purchase, tokenId, ctx);
  assertPayable(purchase, errors.chargeError);
  const token = usableToken(sandbox, purchase, tokenId, ctx.clock.now());
  const pending = savePurchase(sandbox, withStatus(purchase, 'pending_charge', ctx), 'purchase.pending_charge', ctx);
  beginStep(sandbox, { id: purchase.id, method: 'charge', ref: token.id }, ctx, () => undefined);
  return pending;
}

/**
 * The acquirer's answer to a charge left `pending_charge`: the token's next outcome decides it.
 * Accepted, it ends as an accepted charge does at once: `paid`, `hold` with skip_capture, or with a
 * service type `pending_execute` for the bank's 1 or 2 days from now (Revio's debit orders:
 * `pending_charge`, then `pending_execute`). Declined, the purchase is back in the status it had
 * before, with the failed attempt and `purchase.payment_failure`, as a decline answered at once
 * leaves it (no request is left to answer 400). A token deleted meanwhile still completes the
 * charge the acquirer had taken. Returns whether the charge was pending.
 */
export function finishCharge(sandbox: Sandbox, purchaseId: string, tokenId: string, ctx: Context): boolean {
  const purchase = sandbox.purchases.get(purchaseId);
  if (purchase?.status !== 'pending_charge') return false;
  // The token, or after its deletion the purchase that saved it (the token's id is that purchase's).
  const saving = sandbox.purchases.get(tokenId);
  const token = sandbox.tokens.get(tokenId);
  const method = token?.payment_method ?? saving?.transaction_data.payment_method ?? 'visa';
  const otherClients = (token?.client_id ?? saving?.client_id ?? purchase.client_id) !== purchase.client_id;
  const decline = nextDecline(sandbox, tokenId);
  let charged: Purchase;
  if (decline) {
    const before = purchase.status_history.at(-2)?.status ?? 'created';
    charged = savePurchase(sandbox, declined(purchase, 'recurring_execute', method, before, ctx, decline, savedCard(sandbox, tokenId)), 'purchase.payment_failure', ctx);
    // Its overdue marking found it pending; due since, it is overdue now.
    if (charged.due !== null && charged.due * 1000 <= ctx.clock.now()) awaitPayment(sandbox, charged);
  } else {
    charged = collect(sandbox, purchase, method, tokenId, 'recurring_execute', ctx);
  }
  if (otherClients) recordEvent(sandbox, OTHER_CLIENTS_TOKEN, charged, ctx);
  return true;
}

/**
 * The payer's saved card declined at checkout (the page's "Decline" outcome with a saved card chosen): as a new
 * card's decline there, the purchase becomes `error` with a failed attempt and `purchase.payment_failure`, and
 * the page sends the payer to failure_redirect. The token is not used up: its own outcomes stay as they were.
 */
export function declineSavedCard(sandbox: Sandbox, purchase: Purchase, tokenId: string, ctx: Context, code?: unknown): Purchase {
  const error = declineError(code);
  assertPayable(purchase);
  const token = usableToken(sandbox, purchase, tokenId, ctx.clock.now());
  return savePurchase(sandbox, declined(purchase, 'recurring_execute', token.payment_method, 'error', ctx, error, savedCard(sandbox, token.id)), 'purchase.payment_failure', ctx);
}

/**
 * DESIGN.md §4.4: a generated purchase is charged at once with the client's newest usable token;
 * a decline leaves it `sent` with an invoice when the subscriber asks for one; with no token the
 * invoice is e-mailed and the purchase waits for payment.
 */
export function chargeAutomatically(
  sandbox: Sandbox,
  purchase: Purchase,
  subscriber: BillingTemplateClient,
  token: RecurringToken | undefined,
  ctx: Context,
  processed: Processed,
): Purchase {
  if (!token || !serviceTypeFits(token.service_type, purchase.due, ctx.clock.now())) {
    const sent = savePurchase(sandbox, withStatus(purchase, 'sent', ctx), 'purchase.sent', ctx);
    sendEmail(sandbox, 'invoice', sent, ctx);
    return sent;
  }
  processed.charges += 1;
  const decline = nextDecline(sandbox, token.id);
  if (decline) {
    const failed = savePurchase(sandbox, declined(purchase, 'recurring_execute', token.payment_method, 'sent', ctx, decline, savedCard(sandbox, token.id)), 'purchase.subscription_charge_failure', ctx);
    if (subscriber.send_invoice_on_charge_failure) sendEmail(sandbox, 'invoice', failed, ctx);
    return failed;
  }
  return collect(sandbox, purchase, token.payment_method, token.id, 'recurring_execute', ctx);
}

export function assertCancellable(purchase: Purchase): void {
  if (purchase.status === 'hold') return;
  assertPayable(purchase);
}
