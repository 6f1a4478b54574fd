// The jobs that end the platform's asynchronous steps (engine/steps.ts) and settle paid purchases:
// run by the queue as the sandbox clock reaches them. A job whose purchase has moved on (deleted,
// or no longer in the step's pending state) does nothing.

import { unixSeconds, type Context } from '../domain/context.ts';
import type { Job } from '../domain/jobs.ts';
import type { Sandbox } from '../store/store.ts';
import { finishCharge } from './payments.ts';
import { finishCapture, finishRefund, finishRelease } from './purchase-actions.ts';
import { savePurchase } from './records.ts';
import type { StepName } from './steps.ts';
import { recordDeletion } from './tokens.ts';

/**
 * Ends the step of `job`; whether it did. A job of a data file or snapshot written by hand may lack
 * its amount (then the whole: the total captured, all that is left refunded) or its Payment's id
 * (then a new one); a charge's without its token ends nothing.
 */
export function runStep(sandbox: Sandbox, job: Job, ctx: Context): boolean {
  const purchase = sandbox.purchases.get(job.id);
  switch (job.method as StepName) {
    case 'capture':
      return finishCapture(sandbox, job.id, job.amount ?? purchase?.purchase.total ?? 0, ctx);
    case 'release':
      return finishRelease(sandbox, job.id, ctx);
    case 'refund':
      return finishRefund(sandbox, job.id, job.amount ?? purchase?.refundable_amount ?? 0, job.ref ?? ctx.ids.uuid(), ctx) !== undefined;
    case 'recurring_token_delete':
      return recordDeletion(sandbox, job.id, ctx) !== undefined;
    case 'charge':
      return job.ref !== undefined && finishCharge(sandbox, job.id, job.ref, ctx);
    default:
      return false;
  }
}

/**
 * Settles a paid purchase (DESIGN.md §14): still `paid` (or refunded since), with
 * `transaction_data.extra.settlement.settled_on`, and `purchase.settled`, once. Returns whether it did.
 */
export function settle(sandbox: Sandbox, purchaseId: string, ctx: Context): boolean {
  const purchase = sandbox.purchases.get(purchaseId);
  if (!purchase?.payment || (purchase.transaction_data.extra && 'settlement' in purchase.transaction_data.extra)) return false;
  const now = unixSeconds(ctx.clock.now());
  const transactionData = { ...purchase.transaction_data, extra: { settlement: { settled_on: now } } };
  savePurchase(sandbox, { ...purchase, transaction_data: transactionData, updated_on: now }, 'purchase.settled', ctx);
  return true;
}
