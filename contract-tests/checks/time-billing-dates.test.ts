// The days the spec's time scenarios bill on: trials, the charge at period start or end, a pending
// subscriber that starts on the day of payment, month ends, and "today plus 4 days" across time
// zones. Each check runs in a simulator sandbox of its own, frozen at a chosen instant and moved with
// POST /sim/v1/clock/advance.
//
// A normative check pins the day a billing happens, not the hour (scenario.ts, `expectBilledOn`);
// that a billing runs at 00:00 in the template's time zone is billing-sim's decision
// (docs/behaviour.md#billing-dates), checked by informative checks.

import { describe, expect } from 'vitest';
import { check, type CheckSpec } from '../lib/check.ts';
import type { ApiClient } from '../lib/client.ts';
import { ACTIVE_AT_ONCE, subscriberBody, zoned } from '../lib/primitives.ts';
import {
  addSubscriber,
  advanceTo,
  expectBilledOn,
  generated,
  getSubscriber,
  issuedBy,
  makeTemplate,
  pay,
  refusal,
  sandboxSubscriber as subscribed,
  sandboxTemplate as setup,
  subscribe,
  subscribersOf,
} from '../lib/scenario.ts';

/** A sandbox frozen at `now` with one client, a UTC template and one in `timezone`, both charged at period end. */
async function twoZones(api: ApiClient, now: string, currency: string, timezone: string) {
  const { account, client, template: utc } = await setup(api, now, ACTIVE_AT_ONCE);
  const zone = await makeTemplate(account, { ...ACTIVE_AT_ONCE, ...zoned(currency, timezone) });
  return { account, client, utc, zone };
}

describe('time', () => {
  // ----------------------------------------------------------------------------------- trials
  for (const { id, title, chargePeriodEnd, day } of [
    {
      id: 'TIME-TRIAL-EXAMPLE-START',
      title: '"With period 1 month and value 2, the client pays for the 3rd month. That charge falls 3 months after launch if subscription_charge_period_end is false"',
      chargePeriodEnd: false,
      day: '2026-05-05',
    },
    {
      id: 'TIME-TRIAL-EXAMPLE-END',
      title: '"With period 1 month and value 2 … That charge falls … 4 months after [launch] if [subscription_charge_period_end is] true"',
      chargePeriodEnd: true,
      day: '2026-06-05',
    },
  ]) {
    check(
      { id, title, cites: 'docs/behaviour.md#first-charge: "t > 0 | L + (t + 1) periods | L + (t + 2) periods"; docs/behaviour.md#launch: "Added as active: L is its subscription_deduction_date"', requires: ['clock'] },
      async ({ api }) => {
        const trial = { subscription_trial_periods: 2, subscription_charge_period_end: chargePeriodEnd };
        const { account, client, template, subscriber, purchase } = await subscribed(api, '2026-02-01T12:00:00Z', trial, '2026-02-05');
        expect([subscriber.status, purchase]).toEqual(['active', null]);
        await expectBilledOn(account, template.id, client.id, day);
      },
    );
  }

  check(
    {
      id: 'TIME-TRIAL-SCHEDULED-ON',
      title: 'subscription_billing_scheduled_on names the first charged date: launch + 3 months (period start), + 4 months (period end); cycles passed count trial dates',
      cites:
        'docs/behaviour.md#billing-dates: "subscription_billing_scheduled_on is the next date that will create a purchase (trial dates are not counted)", ' +
        '"number_of_billing_cycles_passed counts the billing dates passed since launch, trial and paused dates included" ' +
        "(billing-sim's reading: the platform's field reports the date when the next billing is scheduled, and no source says whether a trial date is a billing, docs/fidelity.md#subscribers)",
      level: 'informative',
      requires: ['clock'],
    },
    async ({ api }) => {
      const start = await subscribed(api, '2026-02-01T12:00:00Z', { subscription_trial_periods: 2 }, '2026-02-05');
      expect(start.subscriber).toMatchObject({ subscription_billing_scheduled_on: '2026-05-05', number_of_billing_cycles_passed: 0 });
      const end = await subscribed(api, '2026-02-01T12:00:00Z', { subscription_trial_periods: 2, subscription_charge_period_end: true }, '2026-02-05');
      expect(end.subscriber.subscription_billing_scheduled_on).toBe('2026-06-05');
      await advanceTo(end.account, '2026-04-05T00:00:00Z');
      // Feb 5 (launch), Mar 5 and Apr 5 have passed; none was charged.
      expect(await getSubscriber(end.account, end.template.id, end.subscriber.id)).toMatchObject({ number_of_billing_cycles_passed: 3, subscription_billing_scheduled_on: '2026-06-05' });
    },
  );

  // -------------------------------------------------------------- charge at period start / end
  check(
    {
      id: 'TIME-PERIOD-START-SAME-DAY',
      title: '"false: a newly added subscriber receives the first invoice the same day": issued today in purchase.timezone (Jan 30 in UTC, Jan 31 in Pacific/Auckland at 2026-01-30T11:30Z)',
      cites:
        'docs/behaviour.md#template-fields: "false: a newly added subscriber receives the first invoice the same day", "when omitted, generated from the current day in purchase.timezone"; ' +
        'docs/behaviour.md#first-charge: "t = 0 | at L"',
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api, '2026-01-30T11:30:00Z');
      const auckland = await makeTemplate(account, zoned('NZD', 'Pacific/Auckland'));
      const utc = await subscribe(account, template.id, subscriberBody(client.id, '2026-02-10'));
      const nz = await subscribe(account, auckland.id, subscriberBody(client.id, '2026-02-10'));
      expect([utc.purchase?.issued, nz.purchase?.issued]).toEqual(['2026-01-30', '2026-01-31']);
    },
  );

  check(
    {
      id: 'TIME-PERIOD-END-FIRST-INVOICE',
      title: '"true: clients are charged at the end of billing periods, so the first invoice comes after one billing period"',
      cites: 'docs/behaviour.md#template-fields: "true: clients are charged at the end of billing periods, so the first invoice comes after one billing period"; docs/behaviour.md#first-charge: "L + 1 period"',
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client, template } = await subscribed(api, '2026-02-01T12:00:00Z', { ...ACTIVE_AT_ONCE, subscription_period: 2, subscription_period_units: 'weeks' }, '2026-02-05');
      await expectBilledOn(account, template.id, client.id, '2026-02-19');
      expect(await issuedBy(account, template.id, client.id, '2026-03-05T23:59:59Z')).toEqual(['2026-02-19', '2026-03-05']);
    },
  );

  check(
    {
      id: 'TIME-PENDING-STARTS-ON-PAYMENT',
      title: 'pending → active: "Subscription starts from the day of payment": paid Feb 2, the next monthly billing is Mar 2',
      cites: 'docs/behaviour.md#launch: "Added as pending: L is the day its first purchase is paid", "That purchase is the billing of L"',
      requires: ['clock', 'payments'],
    },
    async ({ api }) => {
      const { account, client, template, subscriber, purchase } = await subscribed(api, '2026-01-30T12:00:00Z', {}, '2026-02-10');
      await advanceTo(account, '2026-02-02T09:00:00Z');
      await pay(account, purchase!.id);
      expect((await getSubscriber(account, template.id, subscriber.id)).status).toBe('active');
      await expectBilledOn(account, template.id, client.id, '2026-03-02', ['2026-01-30']);
    },
  );

  check(
    {
      id: 'TIME-PENDING-NOT-BILLED',
      title: 'a pending subscriber (its Purchase unpaid) is not billed again',
      cites: 'docs/behaviour.md#billing: "A charged billing date d creates a purchase, provided the subscriber is active"; docs/behaviour.md#billing-dates: "null while pending"',
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client, template, purchase } = await subscribed(api, '2026-01-30T12:00:00Z', {}, '2026-02-10');
      await advanceTo(account, '2026-04-15T00:00:00Z');
      expect((await generated(account, template.id, client.id)).map((p) => p.id)).toEqual([purchase!.id]);
    },
  );

  // ------------------------------------------------------------------------------- month ends
  for (const { id, title, now, launch, day } of [
    {
      id: 'TIME-MONTH-END-FEB-28',
      title: '"with period 1 month and a cycle activated on January 30, the February billing happens on the 28th when February has 28 days"',
      now: '2026-01-26T12:00:00Z',
      launch: '2026-01-30',
      day: '2026-02-28',
    },
    {
      id: 'TIME-MONTH-END-FEB-29',
      title: 'a cycle activated on January 30, 2028 (a leap year): the February billing happens on the 29th',
      now: '2028-01-26T12:00:00Z',
      launch: '2028-01-30',
      day: '2028-02-29',
    },
  ]) {
    check({ id, title, cites: 'docs/behaviour.md#template-fields: "Month lengths are respected"; docs/behaviour.md#billing-dates: "month lengths are respected both ways"', requires: ['clock'] }, async ({ api }) => {
      const { account, client, template } = await subscribed(api, now, ACTIVE_AT_ONCE, launch);
      await expectBilledOn(account, template.id, client.id, day);
    });
  }

  check(
    {
      id: 'TIME-MONTH-END-MAR-30',
      title: 'billing dates count from the launch date: January 30 → February 28 → March 30 → April 30',
      cites:
        'docs/behaviour.md#billing-dates: "each computed from L, never from the previous date", "L = January 30 → February 28 (29 in a leap year) → March 30 → April 30" ' +
        "(billing-sim's reading: the spec's example stops at February, and the platform's sources do not say whether March is the 28th or the 30th)",
      level: 'informative',
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client, template, subscriber } = await subscribed(api, '2026-01-26T12:00:00Z', ACTIVE_AT_ONCE, '2026-01-30');
      expect(await issuedBy(account, template.id, client.id, '2026-03-29T23:59:59Z')).toEqual(['2026-02-28']);
      expect(await issuedBy(account, template.id, client.id, '2026-04-30T00:00:00Z')).toEqual(['2026-02-28', '2026-03-30', '2026-04-30']);
      expect(await getSubscriber(account, template.id, subscriber.id)).toMatchObject({ subscription_billing_scheduled_on: '2026-05-30', number_of_billing_cycles_passed: 4 });
    },
  );

  check(
    {
      id: 'TIME-ADVANCE-PROCESSED',
      title: 'clock advance reports the work it ran: one billing on Feb 28, nothing the day before',
      cites: 'docs/behaviour.md#time-travel: "The answer comes after all of it"; openapi.yaml#/components/schemas/ClockAdvanceResult (the simulator control API is billing-sim\'s own)',
      level: 'informative',
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account } = await subscribed(api, '2026-01-26T12:00:00Z', ACTIVE_AT_ONCE, '2026-01-30');
      const quiet = { billings: 0, first_deductions: 0, charges: 0, executions: 0, overdue: 0 };
      await advanceTo(account, '2026-01-30T00:00:00Z');
      const before = await advanceTo(account, '2026-02-27T23:59:59Z');
      expect(before.processed).toMatchObject(quiet);
      const billed = await advanceTo(account, '2026-02-28T00:00:00Z');
      expect(billed).toMatchObject({ frozen: true, processed: { ...quiet, billings: 1 } });
      expect(Date.parse(billed.now)).toBe(Date.parse('2026-02-28T00:00:00Z'));
    },
  );

  // ------------------------------------------------------------- "today" in the template's zone
  /** The rule of the two checks below. */
  const TODAY_PLUS_4: Pick<CheckSpec, 'cites' | 'level' | 'requires'> & { field: string; code: string } = {
    cites:
      `docs/behaviour.md#subscriber-fields: "Minimum: today plus 4 days (400 min_value)"; docs/behaviour.md#formats: "in a date rule is the sandbox clock's day in that time zone" ` +
      "(billing-sim's reading: the spec does not say in which time zone its today falls)",
    level: 'informative',
    requires: ['clock'],
    field: 'subscription_deduction_date',
    code: 'min_value',
  };

  refusal(
    {
      id: 'TIME-TODAY-PLUS-4-AUCKLAND',
      title: '"Minimum: today plus 4 days" with today in Pacific/Auckland: at 2026-01-30T23:30Z (Jan 31 there) Feb 3 is rejected, Feb 4 accepted; Feb 3 on a UTC template accepted',
      ...TODAY_PLUS_4,
    },
    async ({ api }) => {
      const { account, client, utc, zone: auckland } = await twoZones(api, '2026-01-30T23:30:00Z', 'NZD', 'Pacific/Auckland');
      return {
        attempt: () => addSubscriber(account, auckland.id, subscriberBody(client.id, '2026-02-03')),
        state: () => subscribersOf(account, auckland.id),
        after: async () => {
          expect((await subscribe(account, auckland.id, subscriberBody(client.id, '2026-02-04'))).subscriber.subscription_deduction_date).toBe('2026-02-04');
          expect((await subscribe(account, utc.id, subscriberBody(client.id, '2026-02-03'))).subscriber.subscription_deduction_date).toBe('2026-02-03');
        },
      };
    },
  );

  refusal(
    {
      id: 'TIME-TODAY-PLUS-4-LOS-ANGELES',
      title: '"Minimum: today plus 4 days" with today in America/Los_Angeles: at 2026-01-31T00:30Z (still Jan 30 there) Feb 3 is accepted, Feb 2 rejected; Feb 3 on a UTC template rejected',
      ...TODAY_PLUS_4,
    },
    async ({ api }) => {
      const { account, client, utc, zone: losAngeles } = await twoZones(api, '2026-01-31T00:30:00Z', 'USD', 'America/Los_Angeles');
      return {
        attempt: () => addSubscriber(account, losAngeles.id, subscriberBody(client.id, '2026-02-02')),
        state: () => subscribersOf(account, losAngeles.id),
        after: async () => {
          expect((await subscribe(account, losAngeles.id, subscriberBody(client.id, '2026-02-03'))).subscriber.subscription_deduction_date).toBe('2026-02-03');
          const before = await subscribersOf(account, utc.id);
          expect((await addSubscriber(account, utc.id, subscriberBody(client.id, '2026-02-03'))).status).toBeGreaterThanOrEqual(400);
          expect(await subscribersOf(account, utc.id)).toEqual(before);
        },
      };
    },
  );
});
