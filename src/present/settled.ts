// A settled purchase as the platform sends it (SAMPLE:07, its purchase.settled): the acquirer's
// details (domain/acquirer.ts) beside its transaction data and on the attempt that moved the money,
// with FPX's bank messages in both `extra`s for an FPX payment, and the purchase's
// `can_mark_as_refunded` and `audit_log_entries`. The platform's deliveries of a payment not yet settled
// (purchase.paid, .captured, .pending_refund, …) have none of these, and neither has the simulator's.
// Made when answered from what the store keeps; nothing of it is stored.

import { attemptAcquirer, fpxMessages, isFpx, transactionAcquirer, type AcquiredPayment } from '../domain/acquirer.ts';
import type { Attempt, Purchase } from '../domain/types.ts';
import type { transactionView } from './parts.ts';

type Shown = ReturnType<typeof transactionView>;

/** The attempts that move a payment's money: paid at checkout, charged with a token, or captured after a hold. */
const MOVES_MONEY: ReadonlySet<Attempt['type']> = new Set(['execute', 'recurring_execute', 'capture']);

/** Whether the purchase is settled: its stored transaction data's `extra` has the settlement (engine/step-jobs.ts). */
export const isSettled = (purchase: Purchase): boolean => Boolean(purchase.transaction_data.extra && 'settlement' in purchase.transaction_data.extra);

/**
 * The transaction data of a settled purchase with what the acquirer reported, or `shown` as it is
 * when no attempt moved money (a data file written by hand). The newest successful attempt that
 * moved money is the one the acquirer processed (attempts are newest first).
 */
export function settledTransaction(shown: Shown, purchase: Purchase, companyId: string) {
  const at = shown.attempts.findIndex((tried) => tried.successful && MOVES_MONEY.has(tried.type));
  const paying = shown.attempts[at];
  if (!paying || !purchase.payment) return shown;
  const payment: AcquiredPayment = {
    companyId,
    purchaseId: purchase.id,
    method: paying.payment_method ?? purchase.payment.payment_method ?? '',
    amount: purchase.payment.amount,
    currency: purchase.payment.currency,
    paidOn: purchase.payment.paid_on,
    buyerName: purchase.client.full_name,
  };
  const messages = isFpx(payment.method) ? fpxMessages(payment) : undefined;
  const acquired = { ...paying, ...attemptAcquirer(payment), extra: messages ? { ...paying.extra, ...messages } : paying.extra };
  const attempts = shown.attempts.map((tried, i) => (i === at ? acquired : tried));
  return { ...shown, ...transactionAcquirer(payment), attempts, extra: messages ? { ...shown.extra, ...messages } : shown.extra };
}

/**
 * The purchase fields SAMPLE:07 adds: `audit_log_entries` (`[]` there; the simulator keeps no audit
 * log) and `can_mark_as_refunded` (false: the simulator has no action that marks a purchase refunded).
 */
export const SETTLED_FIELDS = Object.freeze({ can_mark_as_refunded: false, audit_log_entries: Object.freeze([]) as readonly never[] });
