// Time travel. Every job due up to the target runs in time order, each seeing the sandbox clock at
// its own instant (a billing at 00:00 of Feb 28 creates its purchase with that created_on), and
// only then does the clock land on the target. Webhook attempts are jobs too: each starts in its
// place and hands its POST to `deliver`, which sends it after the turn, so no receiver is waited
// for. The work runs in slices of a few milliseconds between which other sandboxes and /healthz
// are answered (this sandbox's own requests wait for the turn). Events past the sandbox's limit
// are dropped as the slices go.

import { setImmediate as nextTurnOfTheLoop } from 'node:timers/promises';
import { addDuration } from '../domain/calendar.ts';
import type { Clock, Ids } from '../domain/context.ts';
import { errors, fieldError } from '../domain/errors.ts';
import type { Sandbox } from '../store/store.ts';
import { runJob } from './billing.ts';
import { clockAt, sandboxNow } from '../domain/sandbox-clock.ts';
import { noneProcessed, type Processed } from './payments.ts';
import { checkClockInstant } from '../domain/clock-bounds.ts';
import { checkAdvanceFits, EVENTS_SLACK_BETWEEN_SLICES, MAX_EVENTS_PER_SANDBOX, SLICE_MS, trimLogs } from './limits.ts';
import { peekDue, popDue } from './queue.ts';
import { startAttempt, type Attempt } from './webhooks.ts';

/** What a run needs beyond the sandbox: its limit of events (and e-mails), where webhook POSTs go, what ends a slice. */
export interface RunOptions {
  /** Events kept, and as many outbox e-mails (limits.ts trimLogs). */
  maxEvents?: number;
  /** Sends an attempt after the turn (engine/background.ts); without it, attempts are counted and not sent. */
  deliver?: (attempt: Attempt) => void;
  /**
   * Runs between slices, before other sandboxes get the event loop: drops events and e-mails once they pass the
   * limit by `slack` (`sliceSlack` of it) and saves what the slices so far did. A data file thus takes a long advance in pieces of a few
   * hundred billings, and no single commit at its end holds every sandbox for seconds. Each piece
   * is a state the engine passes through anyway (jobs run, clock not yet moved), so a crash in the
   * middle leaves a file that opens, and advancing again to the same target finishes the work.
   */
  checkpoint?: (sandbox: Sandbox, slack: number) => void;
  /**
   * How far past their limit events and e-mails may grow between slices, as a share of it (default
   * EVENTS_SLACK_BETWEEN_SLICES). A data file takes less: each dropped one is a row its save deletes.
   */
  sliceSlack?: number;
}

/** A billing takes about 10 µs, so a slice overruns its budget by well under a millisecond. */
const JOBS_PER_CLOCK_READ = 32;

const MAX_ADVANCE_MS = 100 * 366 * 86_400_000;

/** How many events (and e-mails) past `maxEvents` may stay between the slices of a run with these options. */
export const sliceSlackOf = (options: RunOptions, maxEvents: number): number => Math.floor(maxEvents * (options.sliceSlack ?? EVENTS_SLACK_BETWEEN_SLICES));

export async function runUntil(sandbox: Sandbox, targetMs: number, ids: Ids, options: RunOptions = {}): Promise<Processed> {
  const maxEvents = options.maxEvents ?? MAX_EVENTS_PER_SANDBOX;
  const processed = noneProcessed();
  let at = 0;
  const ctx = { clock: { now: () => at }, ids };
  let sliceStart = performance.now();
  let budget = SLICE_MS;
  const slack = sliceSlackOf(options, maxEvents);
  let run = 0;
  for (let job = popDue(sandbox, targetMs); job; job = popDue(sandbox, targetMs)) {
    at = job.at;
    if (job.kind === 'webhook') {
      const attempt = startAttempt(sandbox, job.id, ctx);
      if (attempt) {
        processed.webhook_deliveries += 1;
        options.deliver?.(attempt);
      }
    } else {
      runJob(sandbox, job, ctx, processed);
    }
    // A job takes microseconds: the clock is read every JOBS_PER_CLOCK_READ of them, not after each.
    run += 1;
    if (run % JOBS_PER_CLOCK_READ !== 0) continue;
    const billed = performance.now() - sliceStart;
    if (billed >= budget) {
      const saving = performance.now();
      if (options.checkpoint) options.checkpoint(sandbox, slack);
      else trimLogs(sandbox, maxEvents, slack);
      const saved = performance.now() - saving;
      // A slice and its save together take about SLICE_MS: where saving is slower than billing (a
      // data file writes ~8 rows a billing), the next slice bills less.
      budget = Math.max(0.5, (SLICE_MS * billed) / Math.max(billed, saved));
      await nextTurnOfTheLoop();
      sliceStart = performance.now();
    }
  }
  trimLogs(sandbox, maxEvents);
  return processed;
}

/** Whether work fell due as wall time passed on a running clock (or was queued for now or earlier). */
export const hasDueWork = (sandbox: Sandbox, wall: Clock): boolean => peekDue(sandbox, sandboxNow(sandbox.clock, wall)) !== undefined;

/** Runs the work that fell due as wall time passed on a running clock (or was queued for now or earlier). */
export async function catchUp(sandbox: Sandbox, wall: Clock, ids: Ids, options: RunOptions = {}): Promise<boolean> {
  if (!hasDueWork(sandbox, wall)) return false;
  await runUntil(sandbox, sandboxNow(sandbox.clock, wall), ids, options);
  return true;
}

function durationFrom(now: number, by: string): number {
  try {
    return addDuration(now, by);
  } catch {
    throw fieldError('by', errors.invalid(`"${by}" is not an ISO-8601 duration such as P1M or PT36H.`));
  }
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The instant `to` names: a date-time as it is, a date its midnight in UTC (`2026-09-21` →
 * 2026-09-21T00:00:00Z), as a scenario's `advance.to`. Today's date, whose midnight has passed by
 * 10:00, names now: "advance to today" moves nothing rather than being refused.
 */
function targetOf(to: string, now: number): number {
  if (!DATE_ONLY.test(to)) return Date.parse(to);
  const midnight = Date.parse(`${to}T00:00:00Z`);
  return to === new Date(now).toISOString().slice(0, 10) ? Math.max(midnight, now) : midnight;
}

/** POST /sim/v1/clock/advance: exactly one of `to` (a date or date-time) or `by` (an ISO-8601 duration). */
export async function advance(
  sandbox: Sandbox,
  input: { to?: string; by?: string },
  wall: Clock,
  ids: Ids,
  options: RunOptions = {},
): Promise<Processed> {
  const now = sandboxNow(sandbox.clock, wall);
  const target = input.to !== undefined ? targetOf(input.to, now) : durationFrom(now, input.by!);
  const field = input.to !== undefined ? 'to' : 'by';
  if (target < now) {
    const today = new Date(now).toISOString();
    const earliest = input.to !== undefined && DATE_ONLY.test(input.to) ? `${today.slice(0, 10)}, the sandbox's current day (UTC)` : `the sandbox's current time, ${today}`;
    throw fieldError(field, errors.minValue(earliest));
  }
  // One call runs every billing in between; a century of them is already millions for a busy sandbox.
  if (target - now > MAX_ADVANCE_MS) throw fieldError(field, errors.maxValue('100 years from the sandbox\'s current time'));
  checkClockInstant(target, field);
  checkAdvanceFits(sandbox, now, target, field);
  const processed = await runUntil(sandbox, target, ids, options);
  sandbox.clock = clockAt(target, sandbox.clock.frozen, wall);
  return processed;
}
