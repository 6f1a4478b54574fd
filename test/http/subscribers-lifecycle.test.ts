// The subscriber resource over HTTP: add_subscriber against the spec's status table and DESIGN.md
// §4.1 (launch), PATCH of a subscriber, and the template's cycle fields once a subscriber is launched.
// Each test has a sandbox of its own, frozen at the instant it names.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  asPurchaseDetails,
  ACTIVE_AT_ONCE,
  advance,
  at,
  expectRejected,
  generated,
  getSubscriber,
  getTemplate,
  inZone,
  listSubscribers,
  makeClient,
  outbox,
  patchSubscriber,
  payPurchase,
  purchases,
  sandboxWithTemplate,
  saveToken,
  subscribe,
  subscriberBody,
} from '../builders/engine.ts';

const h = useHarness();

// 2026-01-30T12:00:00Z: "today" in UTC is Jan 30, so the earliest deduction date is Feb 3.
const NOW = '2026-01-30T12:00:00Z';

/** A sandbox at NOW with one client and a template built from `overrides`. */
const setup = (overrides?: Record<string, unknown>, now = NOW) => sandboxWithTemplate(h, now, overrides);

describe('add_subscriber: the status table', () => {
  it('"subscription_charge_period_end is true and/or subscription_trial_periods > 0" → active; "No Purchase is created; response purchase is null"', async () => {
    const cases = [
      { fields: { subscription_charge_period_end: true, subscription_trial_periods: 0 }, next: '2026-03-03' },
      { fields: { subscription_charge_period_end: false, subscription_trial_periods: 1 }, next: '2026-04-03' },
      { fields: { subscription_charge_period_end: true, subscription_trial_periods: 1 }, next: '2026-05-03' },
    ];
    for (const { fields, next } of cases) {
      const { box, client, template } = await setup(fields);
      const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
      expect(purchase, JSON.stringify(fields)).toBeNull();
      expect(subscriber, JSON.stringify(fields)).toMatchObject({
        type: 'billing_template_client',
        billing_template_id: template.id,
        client_id: client.id,
        status: 'active',
        subscription_deduction_date: '2026-02-03',
        mandate_expiry_date: '2029-12-31',
        send_receipt: true,
        send_invoice_on_charge_failure: true,
        send_invoice_on_add_subscriber: false,
        default_service_type: 'TWODAY',
        subscription_first_deduction_date: null,
        subscription_first_deduction_amount: null,
        payment_method_whitelist: null,
        number_of_billing_cycles_passed: 0,
        subscription_billing_scheduled_on: next,
      });
      expect(await getSubscriber(box, template.id, subscriber.id)).toEqual(subscriber);
      expect(await purchases(box)).toEqual([]);
      expect(await outbox(box)).toEqual([]);
      expect((await getTemplate(box, template.id)).subscription_has_active_clients).toBe(true);
    }
  });

  it('"subscription_charge_period_end is false and subscription_trial_periods is 0" → pending; "A Purchase is created and returned"', async () => {
    const { box, client, template } = await setup({
      purchase: { currency: 'EUR', products: [{ name: 'Monthly membership', price: 2990, tax_percent: 20 }] },
    });
    const { subscriber, purchase } = await subscribe(
      box,
      template.id,
      subscriberBody(client.id, '2026-02-10', { payment_method_whitelist: ['mastercard', 'visa'] }),
    );
    expect(subscriber).toMatchObject({ status: 'pending', subscription_billing_scheduled_on: null, number_of_billing_cycles_passed: 0 });
    expect(purchase).not.toBeNull();
    expect(purchase).toMatchObject({
      type: 'purchase',
      status: 'created',
      client_id: client.id,
      billing_template_id: template.id,
      issued: '2026-01-30',
      due: at('2026-02-06T00:00:00Z'),
      payment_method_whitelist: ['mastercard', 'visa'],
      payment: null,
      service_type: null,
    });
    expect(purchase!.purchase).toEqual(asPurchaseDetails(template.purchase));
    expect(purchase!.purchase.total).toBe(3588);
    expect(purchase!.status_history.map((s) => s.status)).toEqual(['created']);
    // "The caller redirects the client to purchase.checkout_url to pay": an absolute URL.
    expect(new URL(purchase!.checkout_url).protocol).toMatch(/^https?:$/);
    expect((await purchases(box)).map((p) => p.id)).toEqual([purchase!.id]);
    // Created, not e-mailed; the template has no launched subscriber yet.
    expect(await outbox(box)).toEqual([]);
    expect((await getTemplate(box, template.id)).subscription_has_active_clients).toBe(false);
  });

  it('a pending subscriber\'s purchase is not charged automatically, even when the client has a saved card', async () => {
    const { box, client, template } = await setup();
    await saveToken(box, client.id);
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
    await advance(box, { to: '2026-02-05T23:00:00Z' });
    expect((await generated(box, template.id)).map((p) => [p.id, p.status])).toEqual([[purchase!.id, 'created']]);
    expect((await getSubscriber(box, template.id, subscriber.id)).status).toBe('pending');
  });

  it('pending → active when "the created Purchase is paid": "Subscription starts from the day of payment"', async () => {
    const { box, client, template } = await setup();
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
    await advance(box, { to: '2026-02-02T09:00:00Z' });
    const paid = await payPurchase(box, purchase!.id);
    expect(paid.status).toBe('paid');
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({
      status: 'active',
      number_of_billing_cycles_passed: 1,
      subscription_billing_scheduled_on: '2026-03-02',
      // Stored as sent, though the cycle runs from the day of payment.
      subscription_deduction_date: '2026-02-10',
    });
    expect((await getTemplate(box, template.id)).subscription_has_active_clients).toBe(true);
    await advance(box, { to: '2026-03-02T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => p.issued)).toEqual(['2026-01-30', '2026-03-02']);
  });

  it('a failed payment leaves the purchase "error" and the subscriber pending; a later successful payment launches it that day', async () => {
    const { box, client, template } = await setup();
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
    const failed = await payPurchase(box, purchase!.id, { outcome: 'failure' });
    expect(failed).toMatchObject({ status: 'error', payment: null });
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({
      status: 'pending',
      subscription_billing_scheduled_on: null,
      number_of_billing_cycles_passed: 0,
    });
    expect((await getTemplate(box, template.id)).subscription_has_active_clients).toBe(false);
    await advance(box, { to: '2026-01-31T18:00:00Z' });
    expect((await payPurchase(box, purchase!.id)).status).toBe('paid');
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({
      status: 'active',
      subscription_billing_scheduled_on: '2026-02-28',
      number_of_billing_cycles_passed: 1,
    });
  });

  it('"the day of payment" is a day in Pacific/Auckland: paid at 2026-02-27T11:30Z (Feb 28 there) → next billing Mar 28', async () => {
    const { box, client, template } = await setup(inZone('Pacific/Auckland'), '2026-02-27T11:30:00Z');
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-03-04'));
    // issued = today there; due = 00:00 there of today + 7 days (NZDT, UTC+13).
    expect(purchase).toMatchObject({ issued: '2026-02-28', due: at('2026-03-06T11:00:00Z') });
    await payPurchase(box, purchase!.id);
    expect((await getSubscriber(box, template.id, subscriber.id)).subscription_billing_scheduled_on).toBe('2026-03-28');
  });

  it('"the day of payment" is a day in America/Los_Angeles: paid at 2026-03-01T07:30Z (still Feb 28 there) → next billing Mar 28', async () => {
    const { box, client, template } = await setup(inZone('America/Los_Angeles'), '2026-03-01T07:30:00Z');
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-03-04'));
    expect(purchase).toMatchObject({ issued: '2026-02-28', due: at('2026-03-07T08:00:00Z') });
    await payPurchase(box, purchase!.id);
    expect((await getSubscriber(box, template.id, subscriber.id)).subscription_billing_scheduled_on).toBe('2026-03-28');
  });
});

describe('editing a subscriber: PATCH /billing_templates/{id}/clients/{id}/', () => {
  it('status is "Editable between active and subscription_paused only"', async () => {
    const { box, client, template } = await setup(ACTIVE_AT_ONCE);
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    const paused = await patchSubscriber(box, template.id, subscriber.id, { status: 'subscription_paused' });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ id: subscriber.id, status: 'subscription_paused' });
    expect((await getSubscriber(box, template.id, subscriber.id)).status).toBe('subscription_paused');
    const resumed = await patchSubscriber(box, template.id, subscriber.id, { status: 'active' });
    expect(resumed.status).toBe(200);
    expect((await getSubscriber(box, template.id, subscriber.id)).status).toBe('active');
    const before = await getSubscriber(box, template.id, subscriber.id);
    for (const status of ['pending', 'inactive']) {
      expectRejected(await patchSubscriber(box, template.id, subscriber.id, { status }), '__all__', 'invalid_state');
    }
    expect(await getSubscriber(box, template.id, subscriber.id)).toEqual(before);
  });

  it('status is "Read-only while the record is inactive (internal status) or pending": PATCH of a pending subscriber → 400 __all__ invalid_state', async () => {
    const { box, client, template } = await setup();
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    for (const status of ['subscription_paused', 'active']) {
      expectRejected(await patchSubscriber(box, template.id, subscriber.id, { status }), '__all__', 'invalid_state');
    }
    expect(await getSubscriber(box, template.id, subscriber.id)).toEqual(subscriber);
    expect((await purchases(box)).map((p) => [p.id, p.status])).toEqual([[purchase!.id, 'created']]);
  });

  it('client reference: "Read-only after creation" → a different client_id is 400 client_id read_only', async () => {
    const { box, client, template } = await setup(ACTIVE_AT_ONCE);
    const other = await makeClient(box, { email: 'grace@example.com' });
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    expectRejected(await patchSubscriber(box, template.id, subscriber.id, { client_id: other.id }), 'client_id', 'read_only');
    expect(await getSubscriber(box, template.id, subscriber.id)).toEqual(subscriber);
    expect((await patchSubscriber(box, template.id, subscriber.id, { client_id: client.id })).status).toBe(200);
  });
});

describe('the template once a subscriber is launched', () => {
  const CYCLE = {
    subscription_period: 2,
    subscription_period_units: 'weeks',
    subscription_charge_period_end: true,
    subscription_trial_periods: 3,
  };

  it('"Once any client is activated … these four fields are read-only": subscription_has_active_clients becomes true when the first purchase is paid', async () => {
    const { box, client, template } = await setup();
    const { purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    // Pending is not launched: the cycle fields may still change (and change back).
    const early = await box.req('PATCH', `/api/v1/billing_templates/${template.id}/`, { subscription_period: 3 });
    expect(early.status, early.text).toBe(200);
    expect((await box.req('PATCH', `/api/v1/billing_templates/${template.id}/`, { subscription_period: 1 })).status).toBe(200);

    await payPurchase(box, purchase!.id);
    const launched = await getTemplate(box, template.id);
    expect(launched.subscription_has_active_clients).toBe(true);
    for (const [field, value] of Object.entries(CYCLE)) {
      expectRejected(await box.req('PATCH', `/api/v1/billing_templates/${template.id}/`, { [field]: value }), field, 'read_only');
    }
    expect(await getTemplate(box, template.id)).toEqual(launched);
    // The stored values may be sent back unchanged.
    const same = await box.req('PATCH', `/api/v1/billing_templates/${template.id}/`, {
      subscription_period: 1,
      subscription_period_units: 'months',
      subscription_charge_period_end: false,
      subscription_trial_periods: 0,
    });
    expect(same.status, same.text).toBe(200);
  });

  it('subscription_has_active_clients is true as soon as a subscriber is added active, and stays true while it is paused', async () => {
    const { box, client, template } = await setup(ACTIVE_AT_ONCE);
    expect(template.subscription_has_active_clients).toBe(false);
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    expect((await getTemplate(box, template.id)).subscription_has_active_clients).toBe(true);
    expect((await patchSubscriber(box, template.id, subscriber.id, { status: 'subscription_paused' })).status).toBe(200);
    const paused = await getTemplate(box, template.id);
    expect(paused.subscription_has_active_clients).toBe(true);
    expectRejected(await box.req('PATCH', `/api/v1/billing_templates/${template.id}/`, { subscription_trial_periods: 1 }), 'subscription_trial_periods', 'read_only');
    expect(await getTemplate(box, template.id)).toEqual(paused);
  });

  it('deleting a client that still has subscribers → 400 protected, and the client and its subscribers stay', async () => {
    const { box, client, template } = await setup();
    await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    const before = await listSubscribers(box, template.id);
    const res = await box.req('DELETE', `/api/v1/clients/${client.id}/`);
    expectRejected(res, '__all__', 'protected');
    expect((await box.req('GET', `/api/v1/clients/${client.id}/`)).status).toBe(200);
    expect(await listSubscribers(box, template.id)).toEqual(before);
  });
});
