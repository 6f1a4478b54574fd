// What holds a subscription's billing back or adds to it as the clock advances through POST
// /sim/v1/clock/advance: pausing a subscriber or its template, mandate expiry, and the ad-hoc first
// deduction. Each test has its own frozen sandbox; every date asserted is a calendar day in the
// template's time zone.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  ACTIVE_AT_ONCE,
  advance,
  at,
  generated,
  getSubscriber,
  getTemplate,
  launchSubscriber,
  NOTHING_PROCESSED as NONE,
  outbox,
  patchSubscriber,
  purchases,
  sandboxWithTemplate,
  saveToken,
  subscribe,
  subscriberBody,
} from '../builders/engine.ts';

const h = useHarness();

/** A sandbox frozen at `now` with one client and a template built from `overrides`. */
const setup = (now: string, overrides?: Record<string, unknown>) => sandboxWithTemplate(h, now, overrides);

/** A subscriber launched on the day of `now`: added pending, then its first purchase paid at once. */
const launchedToday = (now: string, templateOverrides?: Record<string, unknown>, subscriberOverrides?: Record<string, unknown>) =>
  launchSubscriber(h, now, templateOverrides, subscriberOverrides);

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
