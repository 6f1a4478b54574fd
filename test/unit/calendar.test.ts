// Calendar rules of the spec, as pure functions: month lengths, trials, "today" per time zone.

import { describe, expect, it } from 'vitest';
import { addDays, addDuration, addPeriods, dayOf, minimumDays, startOfDay } from '../../src/domain/calendar.ts';
import { firstChargedIndex } from '../../src/engine/launch.ts';
import type { BillingTemplate } from '../../src/domain/types.ts';

const template = (trials: number, end: boolean) =>
  ({ subscription_trial_periods: trials, subscription_charge_period_end: end }) as BillingTemplate;

describe('"Month lengths are respected"', () => {
  it('"with period 1 month and a cycle activated on January 30, the February billing happens on the 28th when February has 28 days"', () => {
    const dates = [0, 1, 2, 3].map((k) => addPeriods('2026-01-30', 1, 'months', k));
    expect(dates).toEqual(['2026-01-30', '2026-02-28', '2026-03-30', '2026-04-30']);
  });

  it('on the 29th when February has 29 days (2028 is a leap year)', () => {
    expect(addPeriods('2028-01-30', 1, 'months', 1)).toBe('2028-02-29');
    expect(addPeriods('2028-01-31', 1, 'months', 1)).toBe('2028-02-29');
  });

  it('Jan 31 gives the last day of each shorter month, and each date is computed from the anchor', () => {
    expect([1, 2, 3, 4].map((k) => addPeriods('2026-01-31', 1, 'months', k))).toEqual(['2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31']);
  });

  it('yearly by 12 months from Feb 29 falls on Feb 28, and back on Feb 29 four years on', () => {
    expect(addPeriods('2028-02-29', 12, 'months', 1)).toBe('2029-02-28');
    expect(addPeriods('2028-02-29', 12, 'months', 4)).toBe('2032-02-29');
  });

  it('weeks and days cross the turn of a year', () => {
    expect(addPeriods('2026-12-29', 1, 'weeks', 1)).toBe('2027-01-05');
    expect(addPeriods('2026-12-31', 1, 'days', 1)).toBe('2027-01-01');
  });
});

describe('"With period 1 month and value 2, the client pays for the 3rd month"', () => {
  it('"That charge falls 3 months after launch if subscription_charge_period_end is false"', () => {
    expect(firstChargedIndex(template(2, false))).toBe(3);
  });
  it('"and 4 months after if true"', () => {
    expect(firstChargedIndex(template(2, true))).toBe(4);
  });
  it('"0 disables trials": charged at launch, or one period after it at period end', () => {
    expect(firstChargedIndex(template(0, false))).toBe(0);
    expect(firstChargedIndex(template(0, true))).toBe(1);
  });
});

describe('"today" in the template\'s time zone', () => {
  const instant = Date.parse('2026-01-30T11:30:00Z');
  it('is already tomorrow east of UTC and still yesterday far west', () => {
    expect(dayOf(instant, 'Pacific/Auckland')).toBe('2026-01-31');
    expect(dayOf(instant, 'UTC')).toBe('2026-01-30');
    expect(dayOf(Date.parse('2026-01-31T03:00:00Z'), 'America/Los_Angeles')).toBe('2026-01-30');
  });
  it('"today plus 4 days" crosses the end of February', () => {
    expect(addDays('2028-02-26', 4)).toBe('2028-03-01');
    expect(addDays('2026-02-26', 4)).toBe('2026-03-02');
  });
  it('changes at the first instant of the next day, also on the 23- and 25-hour days of DST, asked in any order', () => {
    // Europe/Berlin: Mar 29, 2026 has 23 hours (02:00 → 03:00), Oct 25 has 25 (03:00 → 02:00).
    const cases: [string, string][] = [
      ['2026-03-28T22:59:59.999Z', '2026-03-28'],
      ['2026-03-28T23:00:00.000Z', '2026-03-29'],
      ['2026-03-29T21:59:59.999Z', '2026-03-29'],
      ['2026-03-29T22:00:00.000Z', '2026-03-30'],
      ['2026-10-24T22:00:00.000Z', '2026-10-25'],
      ['2026-10-25T22:59:59.999Z', '2026-10-25'],
      ['2026-10-25T23:00:00.000Z', '2026-10-26'],
      ['2026-12-31T22:59:59.999Z', '2026-12-31'],
      ['2026-12-31T23:00:00.000Z', '2027-01-01'],
    ];
    // Forwards, backwards and shuffled: a day remembered from one question must not answer another.
    for (const order of [cases, [...cases].reverse(), [cases[4]!, cases[0]!, cases[8]!, cases[1]!, cases[6]!, cases[3]!, cases[2]!, cases[7]!, cases[5]!]]) {
      for (const [instant, day] of order) expect(dayOf(Date.parse(instant), 'Europe/Berlin'), instant).toBe(day);
    }
  });
  it('00:00 of a date is a different instant in each zone', () => {
    expect(new Date(startOfDay('2026-02-28', 'Pacific/Auckland')).toISOString()).toBe('2026-02-27T11:00:00.000Z');
    expect(new Date(startOfDay('2026-02-28', 'America/Los_Angeles')).toISOString()).toBe('2026-02-28T08:00:00.000Z');
  });
});

describe('durations and periods', () => {
  it('advance by P1M from Jan 31 lands on Feb 28 (calendar arithmetic in UTC)', () => {
    expect(new Date(addDuration(Date.parse('2026-01-31T10:00:00Z'), 'P1M')).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(new Date(addDuration(Date.parse('2026-12-31T23:00:00Z'), 'PT2H')).toISOString()).toBe('2027-01-01T01:00:00.000Z');
  });
  it('a due period is at least its shortest length in days', () => {
    expect(minimumDays(1, 'days')).toBe(1);
    expect(minimumDays(1, 'weeks')).toBe(7);
    expect(minimumDays(1, 'months')).toBe(28);
  });
});
