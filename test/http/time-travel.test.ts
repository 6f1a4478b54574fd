// Subscriber lifecycles over months through POST /sim/v1/clock/advance: billing dates (DESIGN.md
// §4.2–4.4), trials, month ends and leap years, time zones, pauses, mandate expiry, first
// deductions, overdue marking, and the events and e-mails they leave. Each test has its own
// frozen sandbox; every date asserted is a calendar day in the template's time zone.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';
import {
  advance,
  at,
  events,
  expectRejected,
  generated,
  getPurchase,
  getSubscriber,
  getTemplate,
  inZone,
  makeClient,
  makeTemplate,
  outbox,
  patchSubscriber,
  payPurchase,
  purchases,
  sandboxAt,
  saveToken,
  subscribe,
  subscriberBody,
  type Box,
} from '../builders/engine.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const NONE = { billings: 0, first_deductions: 0, charges: 0, executions: 0, overdue: 0 };
const ACTIVE_AT_ONCE = { subscription_charge_period_end: true };

async function setup(now: string, overrides: Record<string, unknown> = {}) {
  const box = await sandboxAt(h, now);
  const client = await makeClient(box);
  const template = await makeTemplate(box, overrides);
  return { box, client, template };
}

/**
 * A subscriber launched on the day of `now` the way the spec's pending row does it: added (charge
 * at period start, no trials), then its first purchase paid at once.
 */
async function launchedToday(now: string, templateOverrides: Record<string, unknown> = {}, subscriberOverrides: Record<string, unknown> = {}) {
  const { box, client, template } = await setup(now, templateOverrides);
  const deduction = new Date(Date.parse(now) + 10 * 86_400_000).toISOString().slice(0, 10);
  const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, deduction, subscriberOverrides));
  expect(subscriber.status).toBe('pending');
  await payPurchase(box, purchase!.id);
  return { box, client, template, subscriber, first: purchase! };
}

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

describe('a billing creates a Purchase', () => {
  it('with the template\'s purchase details "Copied 1:1", the subscriber\'s client and whitelist, and "an invoice" e-mailed when no card is saved', async () => {
    const details = {
      currency: 'GBP',
      timezone: 'UTC',
      language: 'en',
      notes: 'Thank you',
      products: [
        { name: 'Seat', price: 1000, quantity: 3, discount: 500, tax_percent: 20 },
        { name: 'Support', price: 250, quantity: 1.5 },
      ],
    };
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', { ...ACTIVE_AT_ONCE, purchase: details });
    await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03', { payment_method_whitelist: ['visa', 'direct_debit'], send_receipt: false }));
    await advance(box, { to: '2026-02-03T00:00:00Z' });
    expect((await advance(box, { to: '2026-03-03T00:00:00Z' })).processed).toMatchObject({ ...NONE, billings: 1 });
    const [billed] = await generated(box, template.id);
    expect(billed!.purchase).toEqual(template.purchase);
    expect(billed).toMatchObject({
      client_id: client.id,
      billing_template_id: template.id,
      payment_method_whitelist: ['visa', 'direct_debit'],
      issued: '2026-03-03',
      due: at('2026-03-10T00:00:00Z'),
      send_receipt: false,
      force_recurring: false,
      service_type: null,
      status: 'sent',
      payment: null,
    });
    expect(await outbox(box)).toEqual([
      { id: expect.any(String), kind: 'invoice', to: client.email, purchase_id: billed!.id, sent_on: at('2026-03-03T00:00:00Z') },
    ]);
    expect((await events(box)).filter((e) => e.object_id === billed!.id).map((e) => e.event_type)).toContain('purchase.created');
  });

  it('with force_recurring, the purchase takes the subscriber\'s default_service_type (TWODAY when not given)', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', { ...ACTIVE_AT_ONCE, force_recurring: true });
    const oneDay = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03', { default_service_type: 'ONEDAY' }));
    const twoDay = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-04'));
    await advance(box, { to: '2026-03-04T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => [p.issued, p.service_type, p.force_recurring])).toEqual([
      ['2026-03-03', 'ONEDAY', true],
      ['2026-03-04', 'TWODAY', true],
    ]);
    expect(oneDay.subscriber.default_service_type).toBe('ONEDAY');
    expect(twoDay.subscriber.default_service_type).toBe('TWODAY');
  });

  it('"Invoices are paid automatically when the client has saved a card", and "a receipt is sent when the subscription charge succeeds"', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', ACTIVE_AT_ONCE);
    const token = await saveToken(box, client.id);
    const mailed = (await outbox(box)).length;
    await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    await advance(box, { to: '2026-02-03T00:00:00Z' });
    expect((await advance(box, { to: '2026-03-03T00:00:00Z' })).processed).toMatchObject({ ...NONE, billings: 1, charges: 1 });
    const [billed] = await generated(box, template.id);
    expect(billed).toMatchObject({
      status: 'paid',
      send_receipt: true,
      recurring_token: token,
      payment: { amount: 2990, currency: 'EUR', paid_on: at('2026-03-03T00:00:00Z') },
    });
    const mail = await outbox(box);
    expect(mail).toHaveLength(mailed + 1);
    expect(mail[0]).toMatchObject({ kind: 'receipt', to: client.email, purchase_id: billed!.id, sent_on: at('2026-03-03T00:00:00Z') });
    expect((await events(box)).filter((e) => e.object_id === billed!.id).map((e) => e.event_type)).toContain('purchase.paid');
    // Paid: never overdue.
    await advance(box, { to: '2026-03-20T00:00:00Z' });
    expect((await getPurchase(box, billed!.id)).status).toBe('paid');
  });

  it('"send receipt on success" false: the charge succeeds and no e-mail is sent', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', ACTIVE_AT_ONCE);
    await saveToken(box, client.id);
    const before = await outbox(box);
    await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03', { send_receipt: false }));
    await advance(box, { to: '2026-03-03T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => p.status)).toEqual(['paid']);
    expect(await outbox(box)).toEqual(before);
  });

  it('a declined card: status sent, event purchase.subscription_charge_failure, and "an invoice is sent when the subscription charge fails"', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', ACTIVE_AT_ONCE);
    await saveToken(box, client.id, { tokenOutcome: 'failure' });
    await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    await advance(box, { to: '2026-03-03T00:00:00Z' });
    const [billed] = await generated(box, template.id);
    expect(billed).toMatchObject({ status: 'sent', payment: null });
    const types = (await events(box)).filter((e) => e.object_id === billed!.id).map((e) => e.event_type);
    expect(types).toContain('purchase.subscription_charge_failure');
    expect(types).not.toContain('purchase.paid');
    expect((await outbox(box)).filter((m) => m.purchase_id === billed!.id)).toEqual([
      { id: expect.any(String), kind: 'invoice', to: client.email, purchase_id: billed!.id, sent_on: at('2026-03-03T00:00:00Z') },
    ]);
  });

  it('"send invoice on failure" false: a declined charge e-mails nothing', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', ACTIVE_AT_ONCE);
    await saveToken(box, client.id, { tokenOutcome: 'failure' });
    await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03', { send_invoice_on_charge_failure: false }));
    await advance(box, { to: '2026-03-03T00:00:00Z' });
    const [billed] = await generated(box, template.id);
    expect(billed!.status).toBe('sent');
    expect((await outbox(box)).filter((m) => m.purchase_id === billed!.id)).toEqual([]);
  });

  it('ONEDAY: a billing charged with a ONEDAY token is pending_execute, then paid one day later', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', { ...ACTIVE_AT_ONCE, force_recurring: true });
    const token = await saveToken(box, client.id, { serviceType: 'ONEDAY' });
    await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03', { default_service_type: 'ONEDAY' }));
    await advance(box, { to: '2026-03-03T00:00:00Z' });
    const [billed] = await generated(box, template.id);
    expect(billed).toMatchObject({ service_type: 'ONEDAY', status: 'pending_execute', recurring_token: token });
    expect((await advance(box, { to: '2026-03-03T23:59:59Z' })).processed.executions).toBe(0);
    expect((await getPurchase(box, billed!.id)).status).toBe('pending_execute');
    expect((await advance(box, { to: '2026-03-04T00:00:00Z' })).processed).toMatchObject({ ...NONE, executions: 1 });
    expect((await getPurchase(box, billed!.id)).status).toBe('paid');
  });

  it('TWODAY: a billing charged with a TWODAY token is paid two days later', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', { ...ACTIVE_AT_ONCE, force_recurring: true });
    await saveToken(box, client.id, { serviceType: 'TWODAY' });
    await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    await advance(box, { to: '2026-03-04T23:59:59Z' });
    const [billed] = await generated(box, template.id);
    expect(billed).toMatchObject({ service_type: 'TWODAY', status: 'pending_execute' });
    await advance(box, { to: '2026-03-05T00:00:00Z' });
    expect((await getPurchase(box, billed!.id)).status).toBe('paid');
  });

  it('"A recurring token can only charge a Purchase of the same service type": a ONEDAY billing is not charged with a TWODAY token', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', { ...ACTIVE_AT_ONCE, force_recurring: true });
    await saveToken(box, client.id, { serviceType: 'TWODAY' });
    await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03', { default_service_type: 'ONEDAY' }));
    // Past the TWODAY token's own execution (Feb 1) and the launch date (Feb 3, no purchase at period end).
    await advance(box, { to: '2026-02-03T00:00:00Z' });
    const run = await advance(box, { to: '2026-03-03T00:00:00Z' });
    expect(run.processed).toMatchObject({ ...NONE, billings: 1 });
    const [billed] = await generated(box, template.id);
    expect(billed).toMatchObject({ service_type: 'ONEDAY', status: 'sent', recurring_token: null });
    expect((await outbox(box)).filter((m) => m.purchase_id === billed!.id).map((m) => m.kind)).toEqual(['invoice']);
  });
});

describe('pause', () => {
  it('"paused a day before the billing date and unpaused a day after it; the next billing, a month minus one day later, happens as usual"', async () => {
    const { box, template, subscriber } = await launchedToday('2026-01-30T09:00:00Z');
    await advance(box, { to: '2026-02-27T12:00:00Z' });
    expect((await patchSubscriber(box, template.id, subscriber.id, { status: 'subscription_paused' })).status).toBe(200);
    const mailed = await outbox(box);

    await advance(box, { to: '2026-03-01T12:00:00Z' });
    // "Cycle runs as normal, but no Purchases are created and no invoices sent while paused."
    expect(await generated(box, template.id)).toHaveLength(1);
    expect(await outbox(box)).toEqual(mailed);
    expect((await getSubscriber(box, template.id, subscriber.id)).number_of_billing_cycles_passed).toBe(2);

    const resumed = await patchSubscriber(box, template.id, subscriber.id, { status: 'active' });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ status: 'active', subscription_billing_scheduled_on: '2026-03-30' });
    await advance(box, { to: '2026-03-29T23:59:59Z' });
    expect(await generated(box, template.id)).toHaveLength(1);
    await advance(box, { to: '2026-03-30T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => p.issued)).toEqual(['2026-01-30', '2026-03-30']);
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({
      number_of_billing_cycles_passed: 3,
      subscription_billing_scheduled_on: '2026-04-30',
    });
  });

  it('"Setting subscription_paused true on the template acts like subscription_paused on every launched client"; their status is not rewritten', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', ACTIVE_AT_ONCE);
    const a = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    const b = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    await advance(box, { to: '2026-03-01T00:00:00Z' });
    const paused = await box.req('PATCH', `/api/v1/billing_templates/${template.id}/`, { subscription_paused: true });
    expect(paused.status, paused.text).toBe(200);

    await advance(box, { to: '2026-04-02T00:00:00Z' });
    expect(await purchases(box)).toEqual([]);
    expect(await outbox(box)).toEqual([]);
    for (const { subscriber } of [a, b]) {
      expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({ status: 'active', number_of_billing_cycles_passed: 2 });
    }

    expect((await box.req('PATCH', `/api/v1/billing_templates/${template.id}/`, { subscription_paused: false })).status).toBe(200);
    await advance(box, { to: '2026-04-03T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => p.issued)).toEqual(['2026-04-03', '2026-04-03']);
    expect((await getTemplate(box, template.id)).subscription_paused).toBe(false);
  });
});

describe('"mandate expiry date": no billing after it', () => {
  it('a billing on the expiry date itself still happens; then subscription_billing_scheduled_on is null and nothing more is billed', async () => {
    const { box, template, subscriber } = await launchedToday('2026-01-30T09:00:00Z', {}, { mandate_expiry_date: '2026-03-30' });
    await advance(box, { to: '2026-03-29T12:00:00Z' });
    expect((await getSubscriber(box, template.id, subscriber.id)).subscription_billing_scheduled_on).toBe('2026-03-30');
    await advance(box, { to: '2026-03-30T00:00:00Z' });
    expect((await getSubscriber(box, template.id, subscriber.id)).subscription_billing_scheduled_on).toBeNull();
    await advance(box, { to: '2026-07-01T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => p.issued)).toEqual(['2026-01-30', '2026-02-28', '2026-03-30']);
  });

  it('a mandate that expires before the first charged date: scheduled_on is null from the start and nothing is billed', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', ACTIVE_AT_ONCE);
    const early = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03', { mandate_expiry_date: '2026-03-02' }));
    const onTheDay = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03', { mandate_expiry_date: '2026-03-03' }));
    expect(early.subscriber.subscription_billing_scheduled_on).toBeNull();
    expect(onTheDay.subscriber.subscription_billing_scheduled_on).toBe('2026-03-03');
    await advance(box, { to: '2026-06-01T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => p.issued)).toEqual(['2026-03-03']);
    expect((await generated(box, template.id))[0]!.client_id).toBe(client.id);
    expect((await getSubscriber(box, template.id, onTheDay.subscriber.id)).subscription_billing_scheduled_on).toBeNull();
  });
});

describe('subscription_first_deduction_date: "Ad-hoc first collection"', () => {
  const TAXED = {
    ...ACTIVE_AT_ONCE,
    purchase: { currency: 'EUR', products: [{ name: 'Monthly membership', price: 2990, tax_percent: 20 }, { name: 'Locker', price: 500, discount: 100 }] },
  };

  it('"It is the exact amount collected and is not changed by template modifiers such as tax_percent"', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', TAXED);
    expect(template.purchase.total).toBe(3988);
    await subscribe(
      box,
      template.id,
      subscriberBody(client.id, '2026-02-28', { subscription_first_deduction_date: '2026-02-03', subscription_first_deduction_amount: 1234 }),
    );
    expect((await advance(box, { to: '2026-02-02T23:59:59Z' })).processed).toMatchObject(NONE);
    expect(await purchases(box)).toEqual([]);
    expect((await advance(box, { to: '2026-02-03T00:00:00Z' })).processed).toMatchObject({ ...NONE, first_deductions: 1 });
    const [first] = await generated(box, template.id);
    expect(first).toMatchObject({ client_id: client.id, issued: '2026-02-03', due: at('2026-02-10T00:00:00Z'), status: 'sent' });
    expect(first!.purchase.total).toBe(1234);
    expect(first!.purchase.currency).toBe('EUR');
    expect(first!.purchase.products).toHaveLength(1);
    expect((await outbox(box)).map((m) => [m.kind, m.purchase_id])).toEqual([['invoice', first!.id]]);
    // The cycle itself starts on subscription_deduction_date (Feb 28) and charges at period end.
    await advance(box, { to: '2026-03-28T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => [p.issued, p.purchase.total])).toEqual([
      ['2026-02-03', 1234],
      ['2026-03-28', 3988],
    ]);
  });

  it('charged like a billing: a saved card pays the first deduction at once', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', TAXED);
    const token = await saveToken(box, client.id);
    await subscribe(
      box,
      template.id,
      subscriberBody(client.id, '2026-02-28', { subscription_first_deduction_date: '2026-02-05', subscription_first_deduction_amount: 700 }),
    );
    await advance(box, { to: '2026-02-05T00:00:00Z' });
    const [first] = await generated(box, template.id);
    expect(first).toMatchObject({ status: 'paid', recurring_token: token, payment: { amount: 700, currency: 'EUR' } });
  });

  it('no first deduction for a subscriber that is not active on that date (pending, or paused)', async () => {
    const pendingCase = await setup('2026-01-30T12:00:00Z');
    const { purchase } = await subscribe(
      pendingCase.box,
      pendingCase.template.id,
      subscriberBody(pendingCase.client.id, '2026-02-20', { subscription_first_deduction_date: '2026-02-03', subscription_first_deduction_amount: 1234 }),
    );
    await advance(pendingCase.box, { to: '2026-02-04T00:00:00Z' });
    expect((await generated(pendingCase.box, pendingCase.template.id)).map((p) => p.id)).toEqual([purchase!.id]);

    const pausedCase = await setup('2026-01-30T12:00:00Z', ACTIVE_AT_ONCE);
    const { subscriber } = await subscribe(
      pausedCase.box,
      pausedCase.template.id,
      subscriberBody(pausedCase.client.id, '2026-02-20', { subscription_first_deduction_date: '2026-02-03', subscription_first_deduction_amount: 1234 }),
    );
    expect((await patchSubscriber(pausedCase.box, pausedCase.template.id, subscriber.id, { status: 'subscription_paused' })).status).toBe(200);
    await advance(pausedCase.box, { to: '2026-02-04T00:00:00Z' });
    expect(await purchases(pausedCase.box)).toEqual([]);
  });
});

describe('overdue', () => {
  it('an unpaid purchase whose due passes becomes overdue (event purchase.overdue) and can still be paid, launching the subscriber that day', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z');
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
    expect(purchase!.due).toBe(at('2026-02-06T00:00:00Z'));
    expect((await advance(box, { to: '2026-02-05T23:59:59Z' })).processed).toMatchObject(NONE);
    expect((await getPurchase(box, purchase!.id)).status).toBe('created');
    expect((await advance(box, { to: '2026-02-06T00:00:01Z' })).processed).toMatchObject({ ...NONE, overdue: 1 });
    expect((await getPurchase(box, purchase!.id)).status).toBe('overdue');
    const overdue = (await events(box)).find((e) => e.event_type === 'purchase.overdue');
    expect(overdue).toMatchObject({ object_type: 'purchase', object_id: purchase!.id });
    expect((overdue!.payload as { status: string }).status).toBe('overdue');

    await advance(box, { to: '2026-02-06T10:00:00Z' });
    expect((await payPurchase(box, purchase!.id)).status).toBe('paid');
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({
      status: 'active',
      subscription_billing_scheduled_on: '2026-03-06',
    });
  });
});

describe('events and outbox', () => {
  it('events are listed newest first with the object\'s JSON as payload; e-mails newest first', async () => {
    const { box, client, template } = await setup('2026-01-30T12:00:00Z', ACTIVE_AT_ONCE);
    await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    await advance(box, { to: '2026-03-03T00:00:00Z' });
    await advance(box, { to: '2026-04-03T00:00:00Z' });
    const [march, april] = await generated(box, template.id);
    expect([march!.issued, april!.issued]).toEqual(['2026-03-03', '2026-04-03']);

    const mail = await outbox(box);
    expect(mail.filter((m) => m.kind === 'invoice').map((m) => [m.purchase_id, m.sent_on])).toEqual([
      [april!.id, at('2026-04-03T00:00:00Z')],
      [march!.id, at('2026-03-03T00:00:00Z')],
    ]);

    const all = await events(box);
    const created = all.filter((e) => e.event_type === 'purchase.created');
    expect(created.map((e) => [e.object_id, e.created_on])).toEqual([
      [april!.id, at('2026-04-03T00:00:00Z')],
      [march!.id, at('2026-03-03T00:00:00Z')],
    ]);
    expect(created[0]!.object_type).toBe('purchase');
    expect(created[0]!.payload).toMatchObject({ id: april!.id, type: 'purchase', issued: '2026-04-03' });
    const times = all.map((e) => e.created_on);
    expect(times).toEqual([...times].sort((x, y) => y - x));
    // March went overdue on Mar 10.
    expect(all.find((e) => e.event_type === 'purchase.overdue')).toMatchObject({ object_id: march!.id, created_on: at('2026-03-10T00:00:00Z') });
  });
});
