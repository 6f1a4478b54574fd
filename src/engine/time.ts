// Time travel. Every job due up to the target runs in time order, each seeing the sandbox clock at
// its own instant (a billing at 00:00 of Feb 28 creates its purchase with that created_on), and
// only then does the clock land on the target. Webhook deliveries are jobs too, so an advance
// waits for each attempt in its place; the rest of the work is synchronous.

import { addDuration } from '../domain/calendar.ts';
import type { Clock, Ids } from '../domain/context.ts';
import { errors, fieldError } from '../domain/errors.ts';
import type { Sandbox } from '../store/store.ts';
import { runJob } from './billing.ts';
import { clockAt, sandboxNow } from './clock.ts';
import { noneProcessed, type Processed } from './payments.ts';
import { peekDue, popDue } from './queue.ts';
import { attemptDelivery } from './webhooks.ts';

const MAX_ADVANCE_MS = 100 * 366 * 86_400_000;

export async function runUntil(sandbox: Sandbox, targetMs: number, ids: Ids): Promise<Processed> {
  const processed = noneProcessed();
  let at = 0;
  const ctx = { clock: { now: () => at }, ids };
  for (let job = popDue(sandbox, targetMs); job; job = popDue(sandbox, targetMs)) {
    at = job.at;
    if (job.kind === 'webhook') {
      processed.webhook_deliveries += 1;
      await attemptDelivery(sandbox, job.id, ctx);
    } else {
      runJob(sandbox, job, ctx, processed);
    }
  }
  return processed;
}

/** Work that fell due as wall time passed on a running clock (or was queued for now or earlier). */
export async function catchUp(sandbox: Sandbox, wall: Clock, ids: Ids): Promise<boolean> {
  if (peekDue(sandbox, sandboxNow(sandbox.clock, wall)) === undefined) return false;
  await runUntil(sandbox, sandboxNow(sandbox.clock, wall), ids);
  return true;
}

function durationFrom(now: number, by: string): number {
  try {
    return addDuration(now, by);
  } catch {
    throw fieldError('by', errors.invalid(`"${by}" is not an ISO-8601 duration such as P1M or PT36H.`));
  }
}

/** POST /sim/v1/clock/advance: exactly one of `to` (an instant) or `by` (an ISO-8601 duration). */
export async function advance(sandbox: Sandbox, input: { to?: string; by?: string }, wall: Clock, ids: Ids): Promise<Processed> {
  const now = sandboxNow(sandbox.clock, wall);
  const target = input.to !== undefined ? Date.parse(input.to) : durationFrom(now, input.by!);
  const field = input.to !== undefined ? 'to' : 'by';
  if (target < now) throw fieldError(field, errors.minValue(`the sandbox's current time, ${new Date(now).toISOString()}`));
  // One call runs every billing in between; a century of them is already millions for a busy sandbox.
  if (target - now > MAX_ADVANCE_MS) throw fieldError(field, errors.maxValue('100 years from the sandbox\'s current time'));
  const processed = await runUntil(sandbox, target, ids);
  sandbox.clock = clockAt(target, sandbox.clock.frozen, wall);
  return processed;
}
