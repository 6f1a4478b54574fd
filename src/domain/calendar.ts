// Calendar arithmetic for billing, on temporal-polyfill. Dates are ISO strings ("2026-01-30"), a
// calendar day in a template's time zone; instants are epoch milliseconds. Month lengths are
// respected by Temporal's constrain overflow: Jan 30 + 1 month = Feb 28 (Feb 29 in a leap year).

import { Temporal } from 'temporal-polyfill';
import type { PeriodUnit } from './types.ts';

export const DAY_MS = 86_400_000;

/**
 * Subscribers of one template bill on the same few dates, so each result is computed once: ten
 * years of 1,000 monthly subscribers ask for the same 120 dates 1,000 times each. The cache is
 * dropped whole when it grows past its bound rather than kept in order (it refills in one pass).
 */
function memo<A extends unknown[], R>(compute: (...args: A) => R, bound = 50_000): (...args: A) => R {
  const cache = new Map<string, R>();
  return (...args: A): R => {
    const key = args.join('|');
    let value = cache.get(key);
    if (value === undefined) {
      if (cache.size >= bound) cache.clear();
      value = compute(...args);
      cache.set(key, value);
    }
    return value;
  };
}

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
export const addPeriods = memo((anchor: string, period: number, unit: PeriodUnit, k: number): string =>
  Temporal.PlainDate.from(anchor).add({ [unit]: period * k }).toString(),
);

/** 00:00 of a date in a time zone (the first instant of the day where DST skips midnight). */
export const startOfDay = memo(
  (date: string, timeZone: string): number => Temporal.PlainDate.from(date).toZonedDateTime({ timeZone }).epochMilliseconds,
);

/** ISO dates compare as strings: "2026-02-28" < "2026-03-01". */
export const compareDates = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The shortest length of a period in days: 1 month counts as 28, so a check against it is safe. */
export function minimumDays(period: number, unit: PeriodUnit): number {
  return period * (unit === 'days' ? 1 : unit === 'weeks' ? 7 : 28);
}

/** An instant plus an ISO-8601 duration ("P1M", "PT36H"), in calendar arithmetic on UTC. */
export function addDuration(instantMs: number, duration: string): number {
  return Temporal.Instant.fromEpochMilliseconds(instantMs).toZonedDateTimeISO('UTC').add(Temporal.Duration.from(duration)).epochMilliseconds;
}
