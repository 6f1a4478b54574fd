// POST /billing_templates/{id}/add_subscriber/ rejections over HTTP: each rule of the spec's
// BillingTemplateClient table, and the decisions on validation, answers a 400 naming the field and
// changes nothing. Each test has a sandbox of its own, frozen at the instant it names.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  ACTIVE_AT_ONCE,
  addSubscriber,
  expectRejected,
  inZone,
  listSubscribers,
  makeClient,
  makeOneTimeTemplate,
  makeTemplate,
  patchSubscriber,
  sandboxAt,
  sandboxWithTemplate,
  snapshot,
  subscribe,
  subscriberBody,
  type Box,
} from '../builders/engine.ts';

const h = useHarness();

// 2026-01-30T12:00:00Z: "today" in UTC is Jan 30, so the earliest deduction date is Feb 3.
const NOW = '2026-01-30T12:00:00Z';

/** A sandbox at NOW with one client and a template built from `overrides`. */
const setup = (overrides?: Record<string, unknown>, now = NOW) => sandboxWithTemplate(h, now, overrides);

/** The request is a 400 naming `field` with `code`, and no subscriber, purchase or e-mail appeared. */
async function expectRefused(box: Box, templateId: string, body: Record<string, unknown>, field: string, code: string) {
  const before = await snapshot(box, templateId);
  expectRejected(await addSubscriber(box, templateId, body), field, code);
  expect(await snapshot(box, templateId)).toEqual(before);
}

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

  // "Today" is the sandbox's day in the template's time zone: near midnight UTC, the same instant is
  // already tomorrow in Auckland and still yesterday in Los Angeles, so the earliest date moves.
  const ZONES = [
    { zone: 'Pacific/Auckland', now: '2026-01-30T11:30:00Z', local: 'already Jan 31', tooEarly: '2026-02-03', earliest: '2026-02-04', utc: ['2026-02-03', 201] },
    { zone: 'Pacific/Auckland', now: '2026-01-30T23:30:00Z', local: 'Jan 31 near midnight UTC', tooEarly: '2026-02-03', earliest: '2026-02-04', utc: ['2026-02-03', 201] },
    { zone: 'America/Los_Angeles', now: '2026-01-31T00:30:00Z', local: 'still Jan 30', tooEarly: '2026-02-02', earliest: '2026-02-03', utc: ['2026-02-03', 400] },
  ] as const;
  for (const { zone, now, local, tooEarly, earliest, utc } of ZONES) {
    it(`"Minimum: today plus 4 days" in ${zone}: at ${now} it is ${local} there, so ${tooEarly} → min_value, ${earliest} accepted; UTC's own today decides ${utc[0]}`, async () => {
      const box = await sandboxAt(h, now);
      const client = await makeClient(box);
      const zoned = await makeTemplate(box, inZone(zone, ACTIVE_AT_ONCE));
      const utcTemplate = await makeTemplate(box, ACTIVE_AT_ONCE);
      await expectRefused(box, zoned.id, subscriberBody(client.id, tooEarly), 'subscription_deduction_date', 'min_value');
      expect((await addSubscriber(box, zoned.id, subscriberBody(client.id, earliest))).status).toBe(201);
      if (utc[1] === 400) await expectRefused(box, utcTemplate.id, subscriberBody(client.id, utc[0]), 'subscription_deduction_date', 'min_value');
      else expect((await addSubscriber(box, utcTemplate.id, subscriberBody(client.id, utc[0]))).status).toBe(201);
    });
  }

  it('subscription_first_deduction_date has the same "Minimum: today plus 4 days", in the template\'s time zone (Pacific/Auckland)', async () => {
    const box = await sandboxAt(h, '2026-01-30T11:30:00Z');
    const client = await makeClient(box);
    const auckland = await makeTemplate(box, inZone('Pacific/Auckland', ACTIVE_AT_ONCE));
    await expectRefused(
      box,
      auckland.id,
      subscriberBody(client.id, '2026-02-20', { subscription_first_deduction_date: '2026-02-03', subscription_first_deduction_amount: 500 }),
      'subscription_first_deduction_date',
      'min_value',
    );
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
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03', { payment_method_whitelist: ['visa', 'fpx'] }));
    expect(subscriber.payment_method_whitelist).toEqual(['visa', 'fpx']);
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
