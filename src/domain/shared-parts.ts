// Parts that many records hold alike, made once and shared. A ten-year advance of 10,000 monthly
// subscribers keeps 1.2 million purchases; all those billed at 00:00 of one day carry the same
// status history ("created" then "paid" at that instant), the same successful attempt with a card,
// and the same payment details. One frozen copy each, instead of one per purchase, is what keeps
// such a sandbox in memory. Records are replaced on every change, never mutated (purchases.ts), so
// sharing is safe; the parts are frozen so that a change in place would throw rather than reach
// every purchase that holds them.

import type { Attempt, AttemptType, PaymentDetails, PurchaseStatus, TransactionData } from './types.ts';

type History = readonly { status: PurchaseStatus; timestamp: number }[];

export const NO_HISTORY: History = Object.freeze([]);

/**
 * The last extension made of each history: purchases billed at one instant go through the same
 * statuses in turn, so `history` + (status, timestamp) is nearly always the one made just before
 * for the previous subscriber. Weak, so a history no purchase holds any more is let go.
 */
const extended = new WeakMap<History, { status: PurchaseStatus; timestamp: number; history: History }>();

/** `history` with (status, timestamp) appended: a new array, or the same one as last time. */
export function historyWith(history: History, status: PurchaseStatus, timestamp: number): { status: PurchaseStatus; timestamp: number }[] {
  const last = extended.get(history);
  if (last && last.status === status && last.timestamp === timestamp) return last.history as never;
  const next: History = Object.freeze([...history, Object.freeze({ status, timestamp })]);
  extended.set(history, { status, timestamp, history: next });
  return next as never;
}

/** Successful attempts by type and method: they hold nothing else, so one of each serves all. */
const successes = new Map<AttemptType, Map<string | null, Attempt>>();
export const NO_EXTRA = Object.freeze({}) as Record<string, never>;

/**
 * An attempt to move money with `method`; `error` when it failed; `extra` the card of a card
 * payment at checkout or of a declined token charge (domain/cards.ts), which makes it the
 * purchase's own. A successful token charge shares the attempt of its method: its card is shown
 * from its token, never stored with it.
 */
export function attempt(type: AttemptType, method: string | null, error: Attempt['error'] = null, extra: Attempt['extra'] = NO_EXTRA): Attempt {
  if (error !== null || extra !== NO_EXTRA) return { type, successful: error === null, payment_method: method, country: null, client_ip: null, processing_time: 0, extra, error };
  let byMethod = successes.get(type);
  if (!byMethod) successes.set(type, (byMethod = new Map()));
  let made = byMethod.get(method);
  if (!made) {
    made = Object.freeze({ type, successful: true, payment_method: method, country: null, client_ip: null, processing_time: 0, extra: NO_EXTRA, error: null });
    byMethod.set(method, made);
  }
  return made;
}

/** A purchase's transaction data before any attempt. */
export const NO_TRANSACTION: TransactionData = Object.freeze({ payment_method: null, country: null, attempts: Object.freeze([] as Attempt[]) as Attempt[] });

/** Transaction data whose only attempt is the key: what every purchase charged at its first try holds. */
const firstAttempts = new WeakMap<Attempt, TransactionData>();

/** The transaction data with `tried` first (the platform lists attempts newest first). */
export function transactionWith(data: TransactionData, tried: Attempt): TransactionData {
  // The purchase's method is the one that paid: a failed attempt leaves it as it was (the platform's
  // purchase.payment_failure: `payment_method` "" beside an attempt by fpx).
  const method = tried.successful ? (tried.payment_method ?? data.payment_method) : data.payment_method;
  if (data !== NO_TRANSACTION) return { ...data, payment_method: method, attempts: [tried, ...data.attempts] };
  let made = firstAttempts.get(tried);
  if (!made) {
    made = Object.freeze({ payment_method: method, country: null, attempts: Object.freeze([tried]) as Attempt[] });
    firstAttempts.set(tried, made);
  }
  return made;
}

let lastPayment: PaymentDetails | undefined;

/** The platform's PaymentDetails of money received (or, `outgoing`, returned by a refund). */
export function paymentDetails(amount: number, currency: string, method: string | null, paidOn: number, outgoing = false): PaymentDetails {
  const last = lastPayment;
  if (last && last.amount === amount && last.currency === currency && last.payment_method === method && last.paid_on === paidOn && last.is_outgoing === outgoing) return last;
  lastPayment = Object.freeze({
    is_outgoing: outgoing,
    payment_type: outgoing ? 'refund' : 'purchase',
    amount,
    currency,
    net_amount: amount,
    fee_amount: 0,
    pending_amount: 0,
    pending_unfreeze_on: null,
    description: '',
    paid_on: paidOn,
    remote_paid_on: paidOn,
    payment_method: method,
  });
  return lastPayment;
}
