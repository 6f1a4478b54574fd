// POST /billing_templates/{id}/add_subscriber/ and the subscriber resource over HTTP: the spec's
// BillingTemplateClient table and status table, DESIGN.md §4.1 (launch), and the decisions on
// validation. Each test has a sandbox of its own, frozen at the instant it names.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';
import {
  addSubscriber,
  advance,
  at,
  expectRejected,
  generated,
  getSubscriber,
  getTemplate,
  inZone,
  listSubscribers,
  makeClient,
  makeOneTimeTemplate,
  makeTemplate,
  outbox,
  patchSubscriber,
  payPurchase,
  purchases,
  sandboxAt,
  saveToken,
  snapshot,
  subscribe,
  subscriberBody,
  type Box,
} from '../builders/engine.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

// 2026-01-30T12:00:00Z: "today" in UTC is Jan 30, so the earliest deduction date is Feb 3.
const NOW = '2026-01-30T12:00:00Z';
const ACTIVE_AT_ONCE = { subscription_charge_period_end: true };

/** A sandbox at NOW with one client and a template built from `overrides`. */
async function setup(overrides: Record<string, unknown> = {}, now = NOW) {
  const box = await sandboxAt(h, now);
  const client = await makeClient(box);
  const template = await makeTemplate(box, overrides);
  return { box, client, template };
}

/** The request is a 400 naming `field` with `code`, and no subscriber, purchase or e-mail appeared. */
async function expectRefused(box: Box, templateId: string, body: Record<string, unknown>, field: string, code: string) {
  const before = await snapshot(box, templateId);
  expectRejected(await addSubscriber(box, templateId, body), field, code);
  expect(await snapshot(box, templateId)).toEqual(before);
}

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
    expect(purchase!.purchase).toEqual(template.purchase);
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

describe('add_subscriber: rejected requests change nothing', () => {
  it('"The template must have is_subscription true": a one-time template → 400 __all__ invalid_state', async () => {
    const box = await sandboxAt(h, NOW);
    const client = await makeClient(box);
    const template = await makeOneTimeTemplate(box);
    await expectRefused(box, template.id, subscriberBody(client.id, '2026-02-03'), '__all__', 'invalid_state');
  });

  it('"ID of an existing Client": an unknown client, or another sandbox\'s → 400 client_id does_not_exist', async () => {
    const { box, template } = await setup();
    const other = await sandboxAt(h, NOW);
    const foreign = await makeClient(other);
    for (const clientId of ['6b042125-686a-43e0-8a68-23cf5bee102e', foreign.id]) {
      await expectRefused(box, template.id, subscriberBody(clientId, '2026-02-03'), 'client_id', 'does_not_exist');
    }
  });

  it('subscription_deduction_date "Minimum: today plus 4 days": Feb 2 → min_value, Feb 3 accepted (today Jan 30, UTC)', async () => {
    const { box, client, template } = await setup(ACTIVE_AT_ONCE);
    await expectRefused(box, template.id, subscriberBody(client.id, '2026-02-02'), 'subscription_deduction_date', 'min_value');
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    expect(subscriber.subscription_deduction_date).toBe('2026-02-03');
  });

  it('"Minimum: today plus 4 days" in Pacific/Auckland: at 2026-01-30T11:30Z it is already Jan 31 there, so Feb 3 → min_value, Feb 4 accepted', async () => {
    const box = await sandboxAt(h, '2026-01-30T11:30:00Z');
    const client = await makeClient(box);
    const auckland = await makeTemplate(box, inZone('Pacific/Auckland', ACTIVE_AT_ONCE));
    const utc = await makeTemplate(box, ACTIVE_AT_ONCE);
    await expectRefused(box, auckland.id, subscriberBody(client.id, '2026-02-03'), 'subscription_deduction_date', 'min_value');
    expect((await addSubscriber(box, auckland.id, subscriberBody(client.id, '2026-02-04'))).status).toBe(201);
    // The same date on a UTC template (still Jan 30 there) is fine.
    expect((await addSubscriber(box, utc.id, subscriberBody(client.id, '2026-02-03'))).status).toBe(201);
    // subscription_first_deduction_date has the same minimum, in the same time zone.
    await expectRefused(
      box,
      auckland.id,
      subscriberBody(client.id, '2026-02-20', { subscription_first_deduction_date: '2026-02-03', subscription_first_deduction_amount: 500 }),
      'subscription_first_deduction_date',
      'min_value',
    );
  });

  it('"Minimum: today plus 4 days" in Pacific/Auckland near midnight UTC: at 2026-01-30T23:30Z (Jan 31 there) Feb 3 → min_value', async () => {
    const box = await sandboxAt(h, '2026-01-30T23:30:00Z');
    const client = await makeClient(box);
    const auckland = await makeTemplate(box, inZone('Pacific/Auckland', ACTIVE_AT_ONCE));
    const utc = await makeTemplate(box, ACTIVE_AT_ONCE);
    await expectRefused(box, auckland.id, subscriberBody(client.id, '2026-02-03'), 'subscription_deduction_date', 'min_value');
    expect((await addSubscriber(box, auckland.id, subscriberBody(client.id, '2026-02-04'))).status).toBe(201);
    expect((await addSubscriber(box, utc.id, subscriberBody(client.id, '2026-02-03'))).status).toBe(201);
  });

  it('"Minimum: today plus 4 days" in America/Los_Angeles: at 2026-01-31T00:30Z it is still Jan 30 there, so Feb 3 accepted, Feb 2 → min_value', async () => {
    const box = await sandboxAt(h, '2026-01-31T00:30:00Z');
    const client = await makeClient(box);
    const losAngeles = await makeTemplate(box, inZone('America/Los_Angeles', ACTIVE_AT_ONCE));
    const utc = await makeTemplate(box, ACTIVE_AT_ONCE);
    await expectRefused(box, losAngeles.id, subscriberBody(client.id, '2026-02-02'), 'subscription_deduction_date', 'min_value');
    expect((await addSubscriber(box, losAngeles.id, subscriberBody(client.id, '2026-02-03'))).status).toBe(201);
    // In UTC it is already Jan 31: Feb 3 is too early there.
    await expectRefused(box, utc.id, subscriberBody(client.id, '2026-02-03'), 'subscription_deduction_date', 'min_value');
  });

  it('"Requires subscription_first_deduction_amount when set" and "Requires subscription_first_deduction_date when set"', async () => {
    const { box, client, template } = await setup(ACTIVE_AT_ONCE);
    await expectRefused(
      box,
      template.id,
      subscriberBody(client.id, '2026-02-20', { subscription_first_deduction_date: '2026-02-05' }),
      'subscription_first_deduction_amount',
      'required',
    );
    await expectRefused(
      box,
      template.id,
      subscriberBody(client.id, '2026-02-20', { subscription_first_deduction_amount: 1500 }),
      'subscription_first_deduction_date',
      'required',
    );
  });

  it('subscription_first_deduction_date "Must be earlier than subscription_deduction_date. Minimum: today plus 4 days"', async () => {
    const { box, client, template } = await setup(ACTIVE_AT_ONCE);
    const first = (date: string, deduction = '2026-02-20') =>
      subscriberBody(client.id, deduction, { subscription_first_deduction_date: date, subscription_first_deduction_amount: 1500 });
    await expectRefused(box, template.id, first('2026-02-02'), 'subscription_first_deduction_date', 'min_value');
    await expectRefused(box, template.id, first('2026-02-20'), 'subscription_first_deduction_date', 'max_value');
    await expectRefused(box, template.id, first('2026-02-21'), 'subscription_first_deduction_date', 'max_value');
    const { subscriber } = await subscribe(box, template.id, first('2026-02-03', '2026-02-04'));
    expect(subscriber).toMatchObject({ subscription_first_deduction_date: '2026-02-03', subscription_first_deduction_amount: 1500 });
  });

  it('mandate_expiry_date not later than subscription_deduction_date → 400 min_value; the day after is accepted', async () => {
    const { box, client, template } = await setup(ACTIVE_AT_ONCE);
    await expectRefused(box, template.id, subscriberBody(client.id, '2026-02-10', { mandate_expiry_date: '2026-02-10' }), 'mandate_expiry_date', 'min_value');
    await expectRefused(box, template.id, subscriberBody(client.id, '2026-02-10', { mandate_expiry_date: '2026-02-09' }), 'mandate_expiry_date', 'min_value');
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10', { mandate_expiry_date: '2026-02-11' }));
    expect(subscriber.mandate_expiry_date).toBe('2026-02-11');
  });

  it('payment_method_whitelist: "Payment method names as returned by GET /payment_methods/"; another name → payment_method_whitelist.1 invalid_choice', async () => {
    const { box, client, template } = await setup(ACTIVE_AT_ONCE);
    await expectRefused(
      box,
      template.id,
      subscriberBody(client.id, '2026-02-03', { payment_method_whitelist: ['visa', 'paypal'] }),
      'payment_method_whitelist.1',
      'invalid_choice',
    );
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03', { payment_method_whitelist: ['visa', 'direct_debit'] }));
    expect(subscriber.payment_method_whitelist).toEqual(['visa', 'direct_debit']);
  });

  it('"A Purchase due must be valid for at least the execution time of the service type": TWODAY on a 1-day due period → default_service_type invalid', async () => {
    const { box, client, template } = await setup({ ...ACTIVE_AT_ONCE, subscription_due_period: 1, subscription_due_period_units: 'days' });
    await expectRefused(box, template.id, subscriberBody(client.id, '2026-02-03', { default_service_type: 'TWODAY' }), 'default_service_type', 'invalid');
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03', { default_service_type: 'ONEDAY' }));
    expect(subscriber.default_service_type).toBe('ONEDAY');
    // Two days of due period fit TWODAY's two days of execution exactly.
    const twoDays = await makeTemplate(box, { ...ACTIVE_AT_ONCE, subscription_due_period: 2, subscription_due_period_units: 'days' });
    expect((await addSubscriber(box, twoDays.id, subscriberBody(client.id, '2026-02-03', { default_service_type: 'TWODAY' }))).status).toBe(201);
  });

  it('status is set by the server ("Values named: inactive, pending, active, subscription_paused"): a different value → status read_only', async () => {
    const pendingCase = await setup();
    await expectRefused(pendingCase.box, pendingCase.template.id, subscriberBody(pendingCase.client.id, '2026-02-03', { status: 'active' }), 'status', 'read_only');
    const activeCase = await setup(ACTIVE_AT_ONCE);
    await expectRefused(activeCase.box, activeCase.template.id, subscriberBody(activeCase.client.id, '2026-02-03', { status: 'pending' }), 'status', 'read_only');
    await expectRefused(activeCase.box, activeCase.template.id, subscriberBody(activeCase.client.id, '2026-02-03', { status: 'subscription_paused' }), 'status', 'read_only');
    // The value the server would set anyway is accepted.
    const { subscriber } = await subscribe(pendingCase.box, pendingCase.template.id, subscriberBody(pendingCase.client.id, '2026-02-03', { status: 'pending' }));
    expect(subscriber.status).toBe('pending');
  });

  it('limits: subscription_first_deduction_amount "at least 1", payment_method_whitelist "at least 1 item"', async () => {
    const { box, client, template } = await setup(ACTIVE_AT_ONCE);
    await expectRefused(
      box,
      template.id,
      subscriberBody(client.id, '2026-02-20', { subscription_first_deduction_date: '2026-02-05', subscription_first_deduction_amount: 0 }),
      'subscription_first_deduction_amount',
      'min_value',
    );
    await expectRefused(box, template.id, subscriberBody(client.id, '2026-02-20', { payment_method_whitelist: [] }), 'payment_method_whitelist', 'min_items');
  });

  it('another sandbox\'s template or subscriber → 404, and nothing is added', async () => {
    const { box, client, template } = await setup(ACTIVE_AT_ONCE);
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    const other = await sandboxAt(h, NOW);
    const stranger = await makeClient(other);
    expect((await addSubscriber(other, template.id, subscriberBody(stranger.id, '2026-02-03'))).status).toBe(404);
    expect((await other.req('GET', `/api/v1/billing_templates/${template.id}/clients/${subscriber.id}/`)).status).toBe(404);
    expect((await patchSubscriber(other, template.id, subscriber.id, { status: 'subscription_paused' })).status).toBe(404);
    expect(await listSubscribers(box, template.id)).toEqual([subscriber]);
  });

  it('"The same Client may be added to one template several times"', async () => {
    const { box, client, template } = await setup(ACTIVE_AT_ONCE);
    const first = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    const second = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-15'));
    expect(second.subscriber.id).not.toBe(first.subscriber.id);
    const list = await listSubscribers(box, template.id);
    expect(list.map((s) => [s.id, s.client_id, s.subscription_deduction_date])).toEqual([
      [second.subscriber.id, client.id, '2026-02-15'],
      [first.subscriber.id, client.id, '2026-02-03'],
    ]);
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
