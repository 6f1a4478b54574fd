// The range of a sandbox clock, shared by the engine (advances, new sandboxes) and the snapshot
// checks of the store.

import { errors, fieldError } from './errors.ts';

/**
 * The instants a sandbox clock may show: the API writes instants as Unix seconds (minimum 0) and
 * dates as four-digit years, so a clock before 1970 or after 9999 would answer values the
 * document does not allow.
 */
export const EARLIEST_CLOCK_MS = 0;
export const LATEST_CLOCK_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** The latest instant (either way from 1970) a JavaScript Date can hold; beyond it there is no ISO form. */
export const LATEST_DATE_MS = 8.64e15;

/** Refuses a clock instant outside what the API can write, naming the field that asked for it. */
export function checkClockInstant(ms: number, field: string): void {
  if (ms < EARLIEST_CLOCK_MS) throw fieldError(field, errors.minValue('1970-01-01T00:00:00Z'));
  if (ms > LATEST_CLOCK_MS) throw fieldError(field, errors.maxValue('9999-12-31T23:59:59Z'));
}
