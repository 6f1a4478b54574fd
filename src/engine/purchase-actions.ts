// The platform's purchase actions beyond paying (DESIGN.md §9): capture or release the money a
// skip_capture payment reserved, refund a paid purchase in full or in part (each through its pending
// state, engine/steps.ts), mark a purchase paid
// outside the gateway, and e-mail its invoice again. Each records an attempt where money moves and
// the platform's events; the simulator-only events (purchase.refunded, purchase.sent) go to
// /sim/v1/events and never to webhooks. A refused capture, release or refund is answered as the
// platform answers it, under `__all__` with the action's code (`purchase_capture_error`,
// `purchase_release_error`, `purchase_refund_error`), where the platform's WooCommerce plugin reads
// it; only an `amount` the schema refuses (not an integer, below 1) is named on the field.

import { unixSeconds, type Context } from '../domain/context.ts';
import { ALL, errors, fieldError, type ErrorDetail } from '../domain/errors.ts';
import { assertStatus, PAYABLE, withAttempt, withStatus } from '../domain/purchases.ts';
import { attempt, paymentDetails } from '../domain/shared-parts.ts';
import type { Input, Payment, Purchase, PurchaseStatus } from '../domain/types.ts';
import type { Sandbox } from '../store/store.ts';
import { markPaid } from './payments.ts';
import { beginStep } from './steps.ts';
import { recordEvent, savePurchase, sendEmail } from './records.ts';

/**
 * An amount of an action's body: at most `limit` (the schema has already asked for at least 1), else
 * refused with the action's code. `what` names the limit: "the total", "what is left to refund".
 */
function amountUpTo(input: Input, limit: number, what: string, refused: (message: string) => ErrorDetail): number {
  const amount = (input.amount as number | undefined) ?? limit;
  if (amount > limit) throw fieldError(ALL, refused(`The amount ${amount} is more than ${what} (${limit}).`));
  return amount;
}

/** POST /purchases/{id}/capture/ {amount?}: takes the reserved money, all of it or less, through `pending_capture`. */
export function capture(sandbox: Sandbox, purchase: Purchase, input: Input, ctx: Context): Purchase {
  assertStatus(purchase, ['hold'], 'capture', errors.captureError);
  const amount = amountUpTo(input, purchase.purchase.total, 'the total', errors.captureError);
  const pending = savePurchase(sandbox, withStatus(purchase, 'pending_capture', ctx), 'purchase.pending_capture', ctx);
  beginStep(sandbox, { id: purchase.id, method: 'capture', amount }, ctx, () => void finishCapture(sandbox, purchase.id, amount, ctx));
  return sandbox.purchases.get(purchase.id) ?? pending;
}

/** The end of a capture: paid, with the capture's attempt. */
export function finishCapture(sandbox: Sandbox, purchaseId: string, amount: number, ctx: Context): boolean {
  const purchase = sandbox.purchases.get(purchaseId);
  if (purchase?.status !== 'pending_capture') return false;
  const method = purchase.transaction_data.payment_method;
  const captured = { ...purchase, ...withAttempt(purchase, attempt('capture', method)) };
  // The platform: purchase.captured "will deliver an updated Purchase with status = paid", and
  // purchase.paid also "happens … in case of /capture/".
  markPaid(sandbox, captured, method, ctx, { amount, events: ['purchase.captured', 'purchase.paid'] });
  return true;
}

/** POST /purchases/{id}/release/: gives the reserved money back through `pending_release`; nothing is paid. */
export function release(sandbox: Sandbox, purchase: Purchase, ctx: Context): Purchase {
  assertStatus(purchase, ['hold'], 'release', errors.releaseError);
  const pending = savePurchase(sandbox, withStatus(purchase, 'pending_release', ctx), 'purchase.pending_release', ctx);
  beginStep(sandbox, { id: purchase.id, method: 'release' }, ctx, () => void finishRelease(sandbox, purchase.id, ctx));
  return sandbox.purchases.get(purchase.id) ?? pending;
}

export function finishRelease(sandbox: Sandbox, purchaseId: string, ctx: Context): boolean {
  const purchase = sandbox.purchases.get(purchaseId);
  if (purchase?.status !== 'pending_release') return false;
  const changes = withAttempt(purchase, attempt('release', purchase.transaction_data.payment_method));
  savePurchase(sandbox, withStatus(purchase, 'released', ctx, changes), 'purchase.released', ctx);
  return true;
}

/**
 * POST /purchases/{id}/refund/ {amount?}: returns the Payment the refund makes. DESIGN.md §9: the
 * whole refundable amount → `refunded`; less → the purchase is `paid` again with `refundable_amount`
 * lowered, and can be refunded again up to what is left. Either way it passes through
 * `pending_refund`; the Payment is answered at once, and `payment.refunded` sent when the step ends.
 */
export function refund(sandbox: Sandbox, purchase: Purchase, input: Input, ctx: Context): Payment {
  assertStatus(purchase, ['paid'], 'refund', errors.refundError);
  if (purchase.marked_as_paid) {
    throw fieldError(ALL, errors.refundError('The purchase was marked as paid: no payment went through the gateway, so there is nothing to refund.'));
  }
  if (purchase.refundable_amount < 1) throw fieldError(ALL, errors.refundError('Nothing is left to refund on this purchase.'));
  const amount = amountUpTo(input, purchase.refundable_amount, 'what is left to refund', errors.refundError);
  const paymentId = ctx.ids.uuid();
  savePurchase(sandbox, withStatus(purchase, 'pending_refund', ctx), 'purchase.pending_refund', ctx);
  let made: Payment | undefined;
  beginStep(sandbox, { id: purchase.id, method: 'refund', amount, ref: paymentId }, ctx, () => (made = finishRefund(sandbox, purchase.id, amount, paymentId, ctx)));
  return made ?? refundPayment(sandbox, purchase, amount, paymentId, ctx);
}

/** The Payment of a refund of `amount` from `purchase`, made now. */
function refundPayment(sandbox: Sandbox, purchase: Purchase, amount: number, id: string, ctx: Context): Payment {
  const now = unixSeconds(ctx.clock.now());
  const method = purchase.transaction_data.payment_method;
  return {
    id,
    type: 'payment',
    created_on: now,
    updated_on: now,
    brand_id: purchase.brand_id,
    company_id: sandbox.companyId,
    is_test: true,
    client: purchase.client,
    payment: paymentDetails(amount, purchase.purchase.currency, method, now, true),
    transaction_data: { payment_method: method, country: null, attempts: [attempt('refund', method)] },
    related_to: { type: 'purchase', id: purchase.id },
    status: 'success',
  };
}

/** The end of a refund: the attempt, what is left to refund, `refunded` (or `paid` again), and `payment.refunded`. */
export function finishRefund(sandbox: Sandbox, purchaseId: string, amount: number, paymentId: string, ctx: Context): Payment | undefined {
  const purchase = sandbox.purchases.get(purchaseId);
  if (purchase?.status !== 'pending_refund') return undefined;
  const payment = refundPayment(sandbox, purchase, amount, paymentId, ctx);
  const left = purchase.refundable_amount - amount;
  const changes = { ...withAttempt(purchase, payment.transaction_data.attempts[0]!), refundable_amount: left, refund_availability: left > 0 ? ('all' as const) : ('none' as const) };
  recordEvent(sandbox, 'payment.refunded', payment, ctx);
  savePurchase(sandbox, withStatus(purchase, left === 0 ? 'refunded' : 'paid', ctx, changes), 'purchase.refunded', ctx);
  return payment;
}

/** Unpaid purchases, and expired ones: money paid outside the gateway does not care about due_strict. */
const MARKABLE: readonly PurchaseStatus[] = [...PAYABLE, 'expired'];

/** POST /purchases/{id}/mark_as_paid/ {paid_on?}: paid outside the gateway (cash, a bank transfer). */
export function markAsPaid(sandbox: Sandbox, purchase: Purchase, input: Input, ctx: Context): Purchase {
  assertStatus(purchase, MARKABLE, 'mark_as_paid');
  const now = unixSeconds(ctx.clock.now());
  const paidOn = (input.paid_on as number | undefined) ?? now;
  if (paidOn > now) throw fieldError('paid_on', errors.maxValue(`now on the sandbox clock (${now})`));
  return markPaid(sandbox, purchase, null, ctx, { paidOn, markedAsPaid: true });
}

/** POST /purchases/{id}/resend_invoice/: the invoice e-mailed again; a purchase still `created` is now `sent`. */
export function resendInvoice(sandbox: Sandbox, purchase: Purchase, ctx: Context): Purchase {
  assertStatus(purchase, [...PAYABLE], 'resend_invoice');
  const sent = purchase.status === 'created' ? savePurchase(sandbox, withStatus(purchase, 'sent', ctx), 'purchase.sent', ctx) : purchase;
  sendEmail(sandbox, 'invoice', sent, ctx);
  return sent;
}
