// How the simulated platform processes a sandbox's money (DESIGN.md §14, GET/PUT /sim/v1/processing):
// how long its asynchronous steps last (a capture, release, refund or token deletion passes through
// its pending state first: `pending_capture`, …), and when a paid purchase is settled
// (`purchase.settled`). Both count sandbox time, so an advance or a running clock ends them.

import { DAY_MS } from './calendar.ts';
import { chaosDelayMs, type DurationLimit } from './webhook-chaos.ts';

export interface Processing {
  /** ISO-8601 duration of a pending step; PT0S: the pending state and the final one in the same turn. */
  delay: string;
  /** ISO-8601 duration from payment to settlement; null: never settled. */
  settlement: string | null;
}

/** A sandbox's processing until PUT /sim/v1/processing sets it: steps in one turn, never settled. */
export const DEFAULT_PROCESSING: Processing = { delay: 'PT0S', settlement: null };

/** The longest delay or settlement: a month of any length (P1M is 31 days from a January 1). */
export const PROCESSING_LIMIT: DurationLimit = { ms: 31 * DAY_MS, name: 'P31D' };

/**
 * Checks `input` (what PUT sends: a field left out keeps its value in `current`) and gives the new
 * setting. A duration is checked as delivery chaos checks its delay: ISO-8601, not negative, at most
 * P31D from now, each refused as a 400 naming its field.
 */
export function nextProcessing(current: Processing, input: Partial<Processing>, nowMs: number): Processing {
  const next = { ...current, ...input };
  chaosDelayMs(next.delay, nowMs, 'delay', PROCESSING_LIMIT);
  if (next.settlement !== null) chaosDelayMs(next.settlement, nowMs, 'settlement', PROCESSING_LIMIT);
  return next;
}
