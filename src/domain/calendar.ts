// Calendar arithmetic for billing, on temporal-polyfill. Dates are ISO strings ("2026-01-30"), a
// calendar day in a template's time zone; instants are epoch milliseconds. Month lengths are
// respected by Temporal's constrain overflow: Jan 30 + 1 month = Feb 28 (Feb 29 in a leap year).

import { Temporal } from 'temporal-polyfill';
import type { PeriodUnit } from './types.ts';

export const DAY_MS = 86_400_000;

/** The calendar day an instant falls on in a time zone: "today" of the spec's rules. */
export function dayOf(instantMs: number, timeZone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(instantMs).toZonedDateTimeISO(timeZone).toPlainDate().toString();
}

export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

/**
 * The k-th billing date from the anchor: anchor + k·period, always from the anchor, never from the
 * previous date, so Jan 30 → Feb 28 → Mar 30 rather than drifting to the 28th (DESIGN.md §4.2).
 */
export function addPeriods(anchor: string, period: number, unit: PeriodUnit, k: number): string {
  return Temporal.PlainDate.from(anchor).add({ [unit]: period * k }).toString();
}

/** 00:00 of a date in a time zone (the first instant of the day where DST skips midnight). */
export function startOfDay(date: string, timeZone: string): number {
  return Temporal.PlainDate.from(date).toZonedDateTime({ timeZone }).epochMilliseconds;
}

export const compareDates = (a: string, b: string): number => Temporal.PlainDate.compare(a, b);

/** The shortest length of a period in days: 1 month counts as 28, so a check against it is safe. */
export function minimumDays(period: number, unit: PeriodUnit): number {
  return period * (unit === 'days' ? 1 : unit === 'weeks' ? 7 : 28);
}

/** An instant plus an ISO-8601 duration ("P1M", "PT36H"), in calendar arithmetic on UTC. */
export function addDuration(instantMs: number, duration: string): number {
  return Temporal.Instant.fromEpochMilliseconds(instantMs).toZonedDateTimeISO('UTC').add(Temporal.Duration.from(duration)).epochMilliseconds;
}
