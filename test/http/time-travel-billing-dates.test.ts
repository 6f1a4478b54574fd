// The sandbox clock, and the days subscriptions bill on as it advances through POST
// /sim/v1/clock/advance: billing dates (DESIGN.md §4.2–4.4), trials, month ends and leap years, and
// billings at 00:00 in the template's time zone across DST changes and the turn of the year. Each
// test has its own frozen sandbox; every date asserted is a calendar day in the template's time zone.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  ACTIVE_AT_ONCE,
  advance,
  at,
  expectRejected,
  generated,
  getSubscriber,
  inZone,
  launchSubscriber,
  NOTHING_PROCESSED as NONE,
  outbox,
  purchases,
  sandboxAt,
  sandboxWithTemplate,
  subscribe,
  subscriberBody,
  type Box,
} from '../builders/engine.ts';

const h = useHarness();

/** A sandbox frozen at `now` with one client and a template built from `overrides`. */
const setup = (now: string, overrides?: Record<string, unknown>) => sandboxWithTemplate(h, now, overrides);

/** A subscriber launched on the day of `now`: added pending, then its first purchase paid at once. */
const launchedToday = (now: string, templateOverrides?: Record<string, unknown>, subscriberOverrides?: Record<string, unknown>) =>
  launchSubscriber(h, now, templateOverrides, subscriberOverrides);

const clockNow = async (box: Box) => Date.parse(((await box.req('GET', '/sim/v1/clock')).body as { now: string }).now);

describe('the sandbox clock', () => {
  it('GET /sim/v1/capabilities → {clock: true, payments: true, events: true}', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const res = await box.req('GET', '/sim/v1/capabilities');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ clock: true, payments: true, events: true });
  });

  it('advance by an ISO duration is calendar arithmetic in UTC: Jan 31 + P1M = Feb 28, 2028-01-31 + P1M = Feb 29', async () => {
    const box = await sandboxAt(h, '2026-01-31T10:00:00Z');
    const month = await advance(box, { by: 'P1M' });
    expect(Date.parse(month.now)).toBe(Date.parse('2026-02-28T10:00:00Z'));
    expect(month.frozen).toBe(true);
    expect(month.processed).toMatchObject(NONE);
    expect(Date.parse((await advance(box, { by: 'P1DT14H' })).now)).toBe(Date.parse('2026-03-02T00:00:00Z'));
    expect(await clockNow(box)).toBe(Date.parse('2026-03-02T00:00:00Z'));

    const leap = await sandboxAt(h, '2028-01-31T23:30:00Z');
    expect(Date.parse((await advance(leap, { by: 'P1M' })).now)).toBe(Date.parse('2028-02-29T23:30:00Z'));
    expect(Date.parse((await advance(leap, { by: 'P1Y' })).now)).toBe(Date.parse('2029-02-28T23:30:00Z'));
  });

  it('advance to an instant; "to" in the past → 400 to min_value; both or neither of to/by → 400; the clock stays', async () => {
    const box = await sandboxAt(h, '2026-12-31T23:59:00Z');
    expect(Date.parse((await advance(box, { to: '2027-01-01T00:00:30Z' })).now)).toBe(Date.parse('2027-01-01T00:00:30Z'));
    // Not in the past: the current instant itself.
    expect(Date.parse((await advance(box, { to: '2027-01-01T00:00:30Z' })).now)).toBe(Date.parse('2027-01-01T00:00:30Z'));
    expectRejected(await box.req('POST', '/sim/v1/clock/advance', { to: '2027-01-01T00:00:29Z' }), 'to', 'min_value');
    for (const body of [{ to: '2027-02-01T00:00:00Z', by: 'P1D' }, {}]) {
      const res = await box.req('POST', '/sim/v1/clock/advance', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      for (const key of Object.keys(res.body as object)) expect(['__all__', 'to', 'by']).toContain(key);
    }
    expect(await clockNow(box)).toBe(Date.parse('2027-01-01T00:00:30Z'));
  });
});

describe('billing dates', () => {
  it('"activated on January 30, the February billing happens on the 28th when February has 28 days", then March 30 and April 30', async () => {
    const { box, client, template, subscriber } = await launchedToday('2026-01-30T09:00:00Z');
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({
      status: 'active',
      subscription_billing_scheduled_on: '2026-02-28',
      number_of_billing_cycles_passed: 1,
    });

    expect((await advance(box, { to: '2026-02-27T23:59:59Z' })).processed).toMatchObject(NONE);
    expect(await generated(box, template.id)).toHaveLength(1);

    expect((await advance(box, { to: '2026-02-28T00:00:00Z' })).processed).toMatchObject({ ...NONE, billings: 1 });
    const february = (await generated(box, template.id)).at(-1)!;
    expect(february).toMatchObject({
      client_id: client.id,
      billing_template_id: template.id,
      issued: '2026-02-28',
      due: at('2026-03-07T00:00:00Z'),
      status: 'sent',
    });
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({
      subscription_billing_scheduled_on: '2026-03-30',
      number_of_billing_cycles_passed: 2,
    });

    // The February invoice goes overdue on Mar 7 on the way.
    expect((await advance(box, { to: '2026-03-30T00:00:00Z' })).processed).toMatchObject({ ...NONE, billings: 1, overdue: 1 });
    await advance(box, { to: '2026-04-30T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => p.issued)).toEqual(['2026-01-30', '2026-02-28', '2026-03-30', '2026-04-30']);
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({
      subscription_billing_scheduled_on: '2026-05-30',
      number_of_billing_cycles_passed: 4,
    });
  });

  it('activated on January 30, 2028 (a leap year): the February billing happens on the 29th, then March 30', async () => {
    const { box, template, subscriber } = await launchedToday('2028-01-30T09:00:00Z');
    expect((await getSubscriber(box, template.id, subscriber.id)).subscription_billing_scheduled_on).toBe('2028-02-29');
    await advance(box, { to: '2028-02-28T23:59:59Z' });
    expect(await generated(box, template.id)).toHaveLength(1);
    await advance(box, { to: '2028-02-29T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => [p.issued, p.due])).toEqual([
      ['2028-01-30', at('2028-02-06T00:00:00Z')],
      ['2028-02-29', at('2028-03-07T00:00:00Z')],
    ]);
    expect((await getSubscriber(box, template.id, subscriber.id)).subscription_billing_scheduled_on).toBe('2028-03-30');
  });

  it('each billing date is counted from the launch date, not the previous one: Jan 31 → Feb 29 → Mar 31 → Apr 30 (2028)', async () => {
    const { box, client, template } = await setup('2028-01-27T12:00:00Z', ACTIVE_AT_ONCE);
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2028-01-31'));
    expect(subscriber.subscription_billing_scheduled_on).toBe('2028-02-29');
    await advance(box, { to: '2028-01-31T00:00:00Z' });
    const run = await advance(box, { to: '2028-05-01T00:00:00Z' });
    expect(run.processed.billings).toBe(3);
    expect((await generated(box, template.id)).map((p) => p.issued)).toEqual(['2028-02-29', '2028-03-31', '2028-04-30']);
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({
      subscription_billing_scheduled_on: '2028-05-31',
      number_of_billing_cycles_passed: 4,
    });
  });

  it('the turn of the year: launched Dec 31, 2026 → billings Jan 31 and Feb 28, 2027, next Mar 31', async () => {
    const { box, client, template } = await setup('2026-12-27T12:00:00Z', ACTIVE_AT_ONCE);
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-12-31'));
    expect(subscriber.subscription_billing_scheduled_on).toBe('2027-01-31');
    await advance(box, { to: '2027-03-01T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => [p.issued, p.due])).toEqual([
      ['2027-01-31', at('2027-02-07T00:00:00Z')],
      ['2027-02-28', at('2027-03-07T00:00:00Z')],
    ]);
    expect((await getSubscriber(box, template.id, subscriber.id)).subscription_billing_scheduled_on).toBe('2027-03-31');
  });

  it('"true: clients are charged at the end of billing periods, so the first invoice comes after one billing period"', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', ACTIVE_AT_ONCE);
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    await advance(box, { to: '2026-02-03T00:00:00Z' });
    expect(await generated(box, template.id)).toEqual([]);
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({
      number_of_billing_cycles_passed: 1,
      subscription_billing_scheduled_on: '2026-03-03',
    });
    await advance(box, { to: '2026-03-03T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => p.issued)).toEqual(['2026-03-03']);
  });
});

describe('trials: "With period 1 month and value 2, the client pays for the 3rd month"', () => {
  const TRIALS = { subscription_trial_periods: 2 };

  it('"That charge falls 3 months after launch if subscription_charge_period_end is false"', async () => {
    const { box, client, template } = await setup('2026-01-27T12:00:00Z', { ...TRIALS, subscription_charge_period_end: false });
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-01-31'));
    expect(purchase).toBeNull();
    expect(subscriber).toMatchObject({ status: 'active', subscription_billing_scheduled_on: '2026-04-30', number_of_billing_cycles_passed: 0 });

    await advance(box, { to: '2026-04-29T23:59:59Z' });
    expect(await purchases(box)).toEqual([]);
    expect(await outbox(box)).toEqual([]);
    // Jan 31 (launch), Feb 28 and Mar 31 (trials) have passed.
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({
      number_of_billing_cycles_passed: 3,
      subscription_billing_scheduled_on: '2026-04-30',
    });

    await advance(box, { to: '2026-04-30T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => p.issued)).toEqual(['2026-04-30']);
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({
      number_of_billing_cycles_passed: 4,
      subscription_billing_scheduled_on: '2026-05-31',
    });
  });

  it('"and 4 months after if true"', async () => {
    const { box, client, template } = await setup('2026-01-27T12:00:00Z', { ...TRIALS, subscription_charge_period_end: true });
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-01-31'));
    expect(purchase).toBeNull();
    expect(subscriber).toMatchObject({ status: 'active', subscription_billing_scheduled_on: '2026-05-31' });

    await advance(box, { to: '2026-05-30T23:59:59Z' });
    expect(await purchases(box)).toEqual([]);
    expect((await getSubscriber(box, template.id, subscriber.id)).number_of_billing_cycles_passed).toBe(4);

    await advance(box, { to: '2026-05-31T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => p.issued)).toEqual(['2026-05-31']);
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({
      number_of_billing_cycles_passed: 5,
      subscription_billing_scheduled_on: '2026-06-30',
    });
  });
});

describe('a billing runs at 00:00 of its date in the template\'s time zone', () => {
  it('Pacific/Auckland: Apr 4 starts at 2026-04-03T11:00Z (NZDT); due 7 days later is after the change to NZST', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', inZone('Pacific/Auckland', ACTIVE_AT_ONCE));
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-03-04'));
    expect(subscriber.subscription_billing_scheduled_on).toBe('2026-04-04');
    await advance(box, { to: '2026-04-03T10:59:59Z' });
    expect(await generated(box, template.id)).toEqual([]);
    await advance(box, { to: '2026-04-03T11:00:00Z' });
    const [billed] = await generated(box, template.id);
    expect(billed).toMatchObject({ issued: '2026-04-04', due: at('2026-04-10T12:00:00Z') });
    expect(billed!.purchase.timezone).toBe('Pacific/Auckland');
  });

  it('America/Los_Angeles: Mar 28 starts at 2026-03-28T07:00Z (PDT, after the Mar 8 change)', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', inZone('America/Los_Angeles', ACTIVE_AT_ONCE));
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-28'));
    expect(subscriber.subscription_billing_scheduled_on).toBe('2026-03-28');
    await advance(box, { to: '2026-03-28T06:59:59Z' });
    expect(await generated(box, template.id)).toEqual([]);
    await advance(box, { to: '2026-03-28T07:00:00Z' });
    expect((await generated(box, template.id)).map((p) => [p.issued, p.due])).toEqual([['2026-03-28', at('2026-04-04T07:00:00Z')]]);
  });
});

describe('the turn of the year east and west of UTC', () => {
  const cases = [
    { zone: 'Pacific/Auckland', before: '2026-12-31T10:59:59Z', start: '2026-12-31T11:00:00Z', due: '2027-01-07T11:00:00Z' },
    { zone: 'America/Los_Angeles', before: '2027-01-01T07:59:59Z', start: '2027-01-01T08:00:00Z', due: '2027-01-08T08:00:00Z' },
  ];
  for (const { zone, before, start, due } of cases) {
    it(`${zone}: the 2027-01-01 billing runs at ${start}, 00:00 there`, async () => {
      const { box, client, template } = await setup('2026-11-20T12:00:00Z', inZone(zone, ACTIVE_AT_ONCE));
      const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-12-01'));
      expect(subscriber.subscription_billing_scheduled_on).toBe('2027-01-01');
      await advance(box, { to: before });
      expect(await generated(box, template.id)).toEqual([]);
      await advance(box, { to: start });
      expect((await generated(box, template.id)).map((p) => [p.issued, p.due])).toEqual([['2027-01-01', at(due)]]);
      expect((await getSubscriber(box, template.id, subscriber.id)).subscription_billing_scheduled_on).toBe('2027-02-01');
    });
  }
});
