// The platform's purchase actions beyond paying (DESIGN.md §9): capture or release the money a
// skip_capture payment reserved, refund a paid purchase in full or in part, mark a purchase paid
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

/** POST /purchases/{id}/capture/ {amount?}: takes the reserved money, all of it or less. */
export function capture(sandbox: Sandbox, purchase: Purchase, input: Input, ctx: Context): Purchase {
  assertStatus(purchase, ['hold'], 'capture', errors.captureError);
  const amount = amountUpTo(input, purchase.purchase.total, 'the total', errors.captureError);
  const method = purchase.transaction_data.payment_method;
  const captured = { ...purchase, ...withAttempt(purchase, attempt('capture', method)) };
  // The platform: purchase.captured "will deliver an updated Purchase with status = paid", and
  // purchase.paid also "happens … in case of /capture/".
  return markPaid(sandbox, captured, method, ctx, { amount, events: ['purchase.captured', 'purchase.paid'] });
}

/** POST /purchases/{id}/release/: gives the reserved money back; nothing is paid. */
export function release(sandbox: Sandbox, purchase: Purchase, ctx: Context): Purchase {
  assertStatus(purchase, ['hold'], 'release', errors.releaseError);
  const changes = withAttempt(purchase, attempt('release', purchase.transaction_data.payment_method));
  return savePurchase(sandbox, withStatus(purchase, 'released', ctx, changes), 'purchase.released', ctx);
}

/**
 * POST /purchases/{id}/refund/ {amount?}: returns the Payment the refund made. DESIGN.md §9: the
 * whole refundable amount → `refunded`; less → the purchase stays `paid` with `refundable_amount`
 * lowered, and can be refunded again up to what is left.
 */
export function refund(sandbox: Sandbox, purchase: Purchase, input: Input, ctx: Context): Payment {
  assertStatus(purchase, ['paid'], 'refund', errors.refundError);
  if (purchase.marked_as_paid) {
    throw fieldError(ALL, errors.refundError('The purchase was marked as paid: no payment went through the gateway, so there is nothing to refund.'));
  }
  if (purchase.refundable_amount < 1) throw fieldError(ALL, errors.refundError('Nothing is left to refund on this purchase.'));
  const amount = amountUpTo(input, purchase.refundable_amount, 'what is left to refund', errors.refundError);
  const method = purchase.transaction_data.payment_method;
  const tried = attempt('refund', method);
  const left = purchase.refundable_amount - amount;
  const changes = { ...withAttempt(purchase, tried), refundable_amount: left, refund_availability: left > 0 ? ('all' as const) : ('none' as const) };
  const now = unixSeconds(ctx.clock.now());
  const refunded = left === 0 ? withStatus(purchase, 'refunded', ctx, changes) : { ...purchase, ...changes, updated_on: now };
  const payment: Payment = {
    id: ctx.ids.uuid(),
    type: 'payment',
    created_on: now,
    updated_on: now,
    brand_id: purchase.brand_id,
    company_id: sandbox.companyId,
    is_test: true,
    client: purchase.client,
    payment: paymentDetails(amount, purchase.purchase.currency, method, now, true),
    transaction_data: { payment_method: method, country: null, attempts: [tried] },
    related_to: { type: 'purchase', id: purchase.id },
    status: 'success',
  };
  recordEvent(sandbox, 'payment.refunded', payment, ctx);
  savePurchase(sandbox, refunded, 'purchase.refunded', ctx);
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
