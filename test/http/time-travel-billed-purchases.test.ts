// What a subscription's billings leave as the clock advances through POST /sim/v1/clock/advance: the
// Purchase a billing creates, its automatic charge and its execution by service type, overdue
// marking, and the events and e-mails. Each test has its own frozen sandbox; every date asserted is a
// calendar day in the template's time zone.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  asPurchaseDetails,
  ACTIVE_AT_ONCE,
  advance,
  at,
  events,
  generated,
  getPurchase,
  getSubscriber,
  NOTHING_PROCESSED as NONE,
  outbox,
  payPurchase,
  sandboxWithTemplate,
  saveToken,
  subscribe,
  subscriberBody,
} from '../builders/engine.ts';

const h = useHarness();

/** A sandbox frozen at `now` with one client and a template built from `overrides`. */
const setup = (now: string, overrides?: Record<string, unknown>) => sandboxWithTemplate(h, now, overrides);

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
    await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03', { payment_method_whitelist: ['visa', 'maestro'], send_receipt: false }));
    await advance(box, { to: '2026-02-03T00:00:00Z' });
    expect((await advance(box, { to: '2026-03-03T00:00:00Z' })).processed).toMatchObject({ ...NONE, billings: 1 });
    const [billed] = await generated(box, template.id);
    expect(billed!.purchase).toEqual(asPurchaseDetails(template.purchase));
    expect(billed).toMatchObject({
      client_id: client.id,
      billing_template_id: template.id,
      payment_method_whitelist: ['visa', 'maestro'],
      issued: '2026-03-03',
      due: at('2026-03-10T00:00:00Z'),
      send_receipt: false,
      force_recurring: false,
      service_type: null,
      status: 'sent',
      payment: null,
    });
    expect(await outbox(box)).toEqual([
      {
        id: expect.any(String),
        kind: 'invoice',
        to: client.email,
        purchase_id: billed!.id,
        sent_on: at('2026-03-03T00:00:00Z'),
        subject: 'Invoice for Gym membership — £33.75',
        // A subscription's e-mail carries its cancel link (issue 42).
        cancel_url: `${h.origin}/subscription_cancel/${billed!.id}/`,
        body: expect.stringContaining(`To cancel your subscription: ${h.origin}/subscription_cancel/${billed!.id}/`),
      },
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
      // With its cancel link, as every e-mail of a subscription's purchase (issue 42).
      expect.objectContaining({ id: expect.any(String), kind: 'invoice', to: client.email, purchase_id: billed!.id, sent_on: at('2026-03-03T00:00:00Z'), subject: 'Invoice for Gym membership — €29.90', cancel_url: expect.stringContaining('/subscription_cancel/') }),
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
