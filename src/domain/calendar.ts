// Calendar arithmetic for billing, on temporal-polyfill. Dates are ISO strings ("2026-01-30"), a
// calendar day in a template's time zone; instants are epoch milliseconds. Month lengths are
// respected by Temporal's constrain overflow: Jan 30 + 1 month = Feb 28 (Feb 29 in a leap year).

import { Temporal } from 'temporal-polyfill';
import type { PeriodUnit } from './types.ts';

export const DAY_MS = 86_400_000;

/**
 * Subscribers of one template bill on the same few dates, so each result is computed once: ten
 * years of 1,000 monthly subscribers ask for the same 120 dates 1,000 times each. The results sit
 * in Maps nested by argument, looked up with the very strings and numbers the caller holds (a
 * string keeps its hash, so no key is built per call). The cache is dropped whole when it grows
 * past its bound rather than kept in order (it refills in one pass).
 */
class Memo<K1, K2, V> {
  private readonly byFirst = new Map<K1, Map<K2, V>>();
  private size = 0;
  constructor(private readonly bound = 50_000) {}

  get(first: K1, second: K2): V | undefined {
    return this.byFirst.get(first)?.get(second);
  }

  set(first: K1, second: K2, value: V): V {
    if (this.size >= this.bound) {
      this.byFirst.clear();
      this.size = 0;
    }
    let inner = this.byFirst.get(first);
    if (!inner) this.byFirst.set(first, (inner = new Map()));
    inner.set(second, value);
    this.size += 1;
    return value;
  }
}

/** Per time zone, the last day asked for and the instants it spans, [from, to). */
const lastDays = new Map<string, { from: number; to: number; day: string }>();
/** Time zones are validated names (a few hundred); the bound is only a guard. */
const LAST_DAYS_BOUND = 1000;

/**
 * The calendar day an instant falls on in a time zone: "today" of the spec's rules. Every request
 * of a sandbox asks for the same today, so the day's span is kept per time zone: an instant within
 * it costs two comparisons instead of a Temporal conversion (about 8 % of an add_subscriber).
 */
export function dayOf(instantMs: number, timeZone: string): string {
  const last = lastDays.get(timeZone);
  if (last && instantMs >= last.from && instantMs < last.to) return last.day;
  const day = Temporal.Instant.fromEpochMilliseconds(instantMs).toZonedDateTimeISO(timeZone).toPlainDate().toString();
  if (lastDays.size >= LAST_DAYS_BOUND) lastDays.clear();
  // The span from the first instant of the day to the first of the next, DST days included (23 or 25 hours).
  lastDays.set(timeZone, { from: startOfDay(day, timeZone), to: startOfDay(addDays(day, 1), timeZone), day });
  return day;
}

const dayOffsets = new Memo<string, number, string>();

export function addDays(date: string, days: number): string {
  return dayOffsets.get(date, days) ?? dayOffsets.set(date, days, Temporal.PlainDate.from(date).add({ days }).toString());
}

/** Dates by anchor, then by the offset: 3 months is `months:3` (the unit and the count as one number). */
const periods = new Memo<string, number, string>();
const UNIT_CODE: Record<PeriodUnit, number> = { days: 0, weeks: 1, months: 2 };

/**
 * The k-th billing date from the anchor: anchor + k·period, always from the anchor, never from the
 * previous date, so Jan 30 → Feb 28 → Mar 30 rather than drifting to the 28th (DESIGN.md §4.2).
 */
export function addPeriods(anchor: string, period: number, unit: PeriodUnit, k: number): string {
  const offset = period * k * 3 + UNIT_CODE[unit];
  return periods.get(anchor, offset) ?? periods.set(anchor, offset, Temporal.PlainDate.from(anchor).add({ [unit]: period * k }).toString());
}

/** Instants by time zone, then by date. */
const midnights = new Memo<string, string, number>();

/** 00:00 of a date in a time zone (the first instant of the day where DST skips midnight). */
export function startOfDay(date: string, timeZone: string): number {
  return midnights.get(timeZone, date) ?? midnights.set(timeZone, date, Temporal.PlainDate.from(date).toZonedDateTime({ timeZone }).epochMilliseconds);
}

/** ISO dates compare as strings: "2026-02-28" < "2026-03-01". */
export const compareDates = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The shortest length of a period in days: 1 month counts as 28, so a check against it is safe. */
export function minimumDays(period: number, unit: PeriodUnit): number {
  return period * (unit === 'days' ? 1 : unit === 'weeks' ? 7 : 28);
}

/** Durations seen, by their length when it does not depend on the date (weeks, days and times: P1D, PT2S); null for P1M, P1Y. */
const LENGTHS = new Map<string, number | null>();
const MAX_LENGTHS_KEPT = 64;

const calendarSum = (instantMs: number, duration: string): number =>
  Temporal.Instant.fromEpochMilliseconds(instantMs).toZonedDateTimeISO('UTC').add(Temporal.Duration.from(duration)).epochMilliseconds;

/**
 * An instant plus an ISO-8601 duration ("P1M", "PT36H"), in calendar arithmetic on UTC. A duration
 * without years or months has the same length from any date in UTC, so it is reckoned once and
 * added: a settlement per billing, or a chaos delay per delivery, spent most of a long advance
 * parsing the same "P1D" again with the Temporal polyfill. A duration it cannot read throws, as
 * Temporal does, and is not kept.
 */
export function addDuration(instantMs: number, duration: string): number {
  let length = LENGTHS.get(duration);
  if (length === undefined) {
    length = /[YM]/i.test(duration.split(/T/i)[0]!) ? null : calendarSum(0, duration);
    if (LENGTHS.size >= MAX_LENGTHS_KEPT) LENGTHS.clear();
    LENGTHS.set(duration, length);
  }
  return length === null ? calendarSum(instantMs, duration) : instantMs + length;
}
