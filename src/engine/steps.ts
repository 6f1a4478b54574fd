// The platform's asynchronous steps (DESIGN.md §14): a capture, release, refund, token deletion or
// charge with a token (POST /purchases/{id}/charge/, `pending_charge`: engine/payments.ts) is asked for, shows its pending state (`pending_capture`, …) and event, and ends in its final state
// and event once the sandbox's processing `delay` has passed on its clock. With no delay (the
// default) it ends in the same turn; otherwise a `step` job of the queue ends it (engine/step-jobs.ts),
// during an advance or as a running clock reaches it, and a snapshot, checkpoint or data file carries it.

import { addDuration } from '../domain/calendar.ts';
import type { Context } from '../domain/context.ts';
import type { Job } from '../domain/jobs.ts';
import { DEFAULT_PROCESSING } from '../domain/processing.ts';
import type { Sandbox } from '../store/store.ts';
import { schedule } from './queue.ts';

export type StepName = 'capture' | 'release' | 'refund' | 'recurring_token_delete' | 'charge';

/** What a step's job keeps: the purchase (or token) it ends, for a capture or refund its amount and Payment, for a charge its token. */
export type StepFields = Pick<Job, 'id' | 'amount' | 'ref'> & { method: StepName };

/** Whether a step begun now lasts: the sandbox's processing delay is more than nothing. */
export function stepTakesTime(sandbox: Sandbox, ctx: Context): boolean {
  const now = ctx.clock.now();
  return addDuration(now, (sandbox.processing ?? DEFAULT_PROCESSING).delay) > now;
}

/**
 * Begins a step whose pending state has been saved: ends it now with `finish` when the sandbox's
 * delay is zero, else schedules its job, which ends it the same way (step-jobs.ts runStep).
 */
export function beginStep(sandbox: Sandbox, step: StepFields, ctx: Context, finish: () => void): void {
  const { delay } = sandbox.processing ?? DEFAULT_PROCESSING;
  const now = ctx.clock.now();
  const at = addDuration(now, delay);
  if (at <= now) return finish();
  schedule(sandbox, { at, kind: 'step', ...step });
}

/** When a purchase paid `paidOnMs` is settled, or undefined when the sandbox never settles. */
export function settlementAt(sandbox: Sandbox, paidOnMs: number): number | undefined {
  const settlement = sandbox.processing?.settlement;
  return settlement == null ? undefined : addDuration(paidOnMs, settlement);
}
