// Purchases over HTTP once created: cancel, overdue marking, the simulated checkout (POST
// /sim/v1/purchases/{id}/pay) with saved tokens, and one-time templates' send_invoice.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  asPurchaseDetails,
  advance,
  at,
  createPurchase,
  DAY,
  events,
  eventTypesOf,
  expectField,
  expectRejected,
  getPurchase,
  listSubscribers,
  makeOneTimeTemplate,
  makeTemplate,
  outbox,
  payPurchase,
  receivedPayment,
  purchases,
  sandboxWithClient,
  tokensOf,
  typed,
  type Purchase,
} from '../builders/engine.ts';

const h = useHarness();

const NOW = '2026-01-30T12:00:00Z';

/** A sandbox at `now` with one client. */
const setup = (now = NOW) => sandboxWithClient(h, now);
/** Purchase details in `currency`: the methods offered depend on it (MYR: CHIP's fpx, duitnow_qr…; ZAR: Revio's eft). */
const inCurrency = (currency: string) => ({ purchase: { currency, products: [{ name: 'Consulting hour', price: 1200 }] } });

describe('POST /purchases/{id}/cancel/', () => {
  it('a pending_execute purchase cannot be cancelled → 400 __all__ invalid_state', async () => {
    const { box, client } = await setup();
    const purchase = await createPurchase(box, client.id, typed('TWODAY', at(NOW) + 5 * DAY));
    expect((await payPurchase(box, purchase.id)).status).toBe('pending_execute');
    const before = await getPurchase(box, purchase.id);
    expectRejected(await box.req('POST', `/api/v1/purchases/${purchase.id}/cancel/`), '__all__', 'invalid_state');
    expect(await getPurchase(box, purchase.id)).toEqual(before);
  });

  it('an unpaid purchase is cancelled (event purchase.cancelled); a paid or cancelled one → 400 __all__ invalid_state', async () => {
    const { box, client } = await setup();
    const unpaid = await createPurchase(box, client.id);
    const res = await box.req('POST', `/api/v1/purchases/${unpaid.id}/cancel/`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: unpaid.id, status: 'cancelled' });
    expect(await eventTypesOf(box, unpaid.id)).toContain('purchase.cancelled');
    expectRejected(await box.req('POST', `/api/v1/purchases/${unpaid.id}/cancel/`), '__all__', 'invalid_state');
    expectRejected(await box.req('POST', `/sim/v1/purchases/${unpaid.id}/pay`, {}), '__all__', 'invalid_state');

    const paid = await createPurchase(box, client.id);
    await payPurchase(box, paid.id);
    const before = await getPurchase(box, paid.id);
    expectRejected(await box.req('POST', `/api/v1/purchases/${paid.id}/cancel/`), '__all__', 'invalid_state');
    expect(await getPurchase(box, paid.id)).toEqual(before);
  });
});

describe('overdue: an unpaid purchase whose due passes', () => {
  it('created, sent and error purchases all become overdue once due has passed (event purchase.overdue); paid and cancelled ones do not', async () => {
    const { box, client } = await setup();
    const due = at('2026-02-01T00:00:00Z');
    const created = await createPurchase(box, client.id, { due });
    const failed = await createPurchase(box, client.id, { due });
    await payPurchase(box, failed.id, { outcome: 'failure' });
    const template = await makeOneTimeTemplate(box, { due });
    const sent = (await box.req('POST', `/api/v1/billing_templates/${template.id}/send_invoice/`, { client_id: client.id })).body as Purchase;
    expect(sent.status).toBe('sent');
    const paid = await createPurchase(box, client.id, { due });
    await payPurchase(box, paid.id);
    const cancelled = await createPurchase(box, client.id, { due });
    expect((await box.req('POST', `/api/v1/purchases/${cancelled.id}/cancel/`)).status).toBe(200);

    expect((await advance(box, { to: '2026-01-31T23:59:59Z' })).processed.overdue).toBe(0);
    expect((await advance(box, { to: '2026-02-01T00:00:01Z' })).processed.overdue).toBe(3);
    const statuses = await Promise.all([created, failed, sent, paid, cancelled].map(async (p) => (await getPurchase(box, p.id)).status));
    expect(statuses).toEqual(['overdue', 'overdue', 'overdue', 'paid', 'cancelled']);
    const overdue = (await events(box)).filter((e) => e.event_type === 'purchase.overdue').map((e) => e.object_id);
    expect(overdue.sort()).toEqual([created.id, failed.id, sent.id].sort());
    // "Overdue purchases can still be paid."
    expect((await payPurchase(box, created.id)).status).toBe('paid');
  });
});

describe('POST /sim/v1/purchases/{id}/pay (the checkout page)', () => {
  it('method defaults to the first method of the whitelist, else visa; payment = the platform\'s PaymentDetails with the method', async () => {
    const { box, client } = await setup();
    const listed = await createPurchase(box, client.id, { payment_method_whitelist: ['mastercard', 'visa'] });
    expect((await payPurchase(box, listed.id)).payment).toEqual(receivedPayment(1200, 'EUR', 'mastercard', at(NOW)));
    const open = await createPurchase(box, client.id);
    const paid = await payPurchase(box, open.id);
    expect(paid).toMatchObject({ status: 'paid', payment: { amount: 1200, currency: 'EUR', payment_method: 'visa', paid_on: at(NOW) } });
    expect(paid.is_recurring_token).toBe(false);
    expect(await tokensOf(box, client.id)).toEqual([]);
    expect(await eventTypesOf(box, open.id)).toContain('purchase.paid');
  });

  it('a method outside the whitelist → 400 method; nothing changes', async () => {
    const { box, client } = await setup();
    const purchase = await createPurchase(box, client.id, { payment_method_whitelist: ['visa'] });
    expectRejected(await box.req('POST', `/sim/v1/purchases/${purchase.id}/pay`, { method: 'mastercard' }), 'method', 'invalid_choice');
    expect(await getPurchase(box, purchase.id)).toEqual(purchase);
  });

  it('skip_capture: a successful payment leaves the purchase on hold', async () => {
    const { box, client } = await setup();
    const purchase = await createPurchase(box, client.id, { skip_capture: true });
    expect((await payPurchase(box, purchase.id)).status).toBe('hold');
  });

  it('outcome failure → status error and event purchase.payment_failure', async () => {
    const { box, client } = await setup();
    const purchase = await createPurchase(box, client.id);
    expect(await payPurchase(box, purchase.id, { outcome: 'failure' })).toMatchObject({ status: 'error', payment: null });
    expect(await eventTypesOf(box, purchase.id)).toContain('purchase.payment_failure');
  });

  it('save_token saves a recurring token whose id is the purchase\'s; "the token\'s service type is that of the creating Purchase"', async () => {
    const { box, client } = await setup();
    const purchase = await createPurchase(box, client.id, { ...typed('ONEDAY', at(NOW) + 5 * DAY), ...inCurrency('ZAR') });
    // force_recurring saves the bank account without being asked (Revio's eft debit order); a service-typed payment executes later.
    const paid = await payPurchase(box, purchase.id, { method: 'eft' });
    expect(paid).toMatchObject({ status: 'pending_execute', is_recurring_token: true });
    const token = await box.req('GET', `/api/v1/clients/${client.id}/recurring_tokens/${purchase.id}/`);
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({ id: purchase.id, type: 'recurring_token', client_id: client.id, payment_method: 'eft', service_type: 'ONEDAY' });
    await advance(box, { by: 'P1D' });
    expect((await getPurchase(box, purchase.id)).status).toBe('paid');
  });

  it('force_recurring saves the card "when the payment method supports it": paid by fpx, no token is saved', async () => {
    const { box, client } = await setup();
    const purchase = await createPurchase(box, client.id, { force_recurring: true, ...inCurrency('MYR') });
    const paid = await payPurchase(box, purchase.id, { method: 'fpx' });
    expect(paid).toMatchObject({ status: 'paid', is_recurring_token: false, payment: { payment_method: 'fpx' } });
    expect(await tokensOf(box, client.id)).toEqual([]);
  });

  it('save_token with duitnow_qr (it cannot save a token) → 400 save_token; nothing changes', async () => {
    const { box, client } = await setup();
    const purchase = await createPurchase(box, client.id, inCurrency('MYR'));
    expectField(await box.req('POST', `/sim/v1/purchases/${purchase.id}/pay`, { method: 'duitnow_qr', save_token: true }), 'save_token');
    expect(await getPurchase(box, purchase.id)).toEqual(purchase);
    expect(await tokensOf(box, client.id)).toEqual([]);
  });
});

describe('one-time templates: POST /billing_templates/{id}/send_invoice/', () => {
  it('each call creates and e-mails one Purchase (status sent); "BillingTemplateClient records of non-subscription templates are not stored"', async () => {
    const { box, client } = await setup();
    const template = await makeOneTimeTemplate(box);
    const send = (body: Record<string, unknown>) => box.req('POST', `/api/v1/billing_templates/${template.id}/send_invoice/`, body);
    const first = await send({ client_id: client.id, payment_method_whitelist: ['visa'] });
    expect(first.status, first.text).toBe(201);
    const invoice = first.body as Purchase;
    expect(invoice).toMatchObject({
      status: 'sent',
      client_id: client.id,
      billing_template_id: template.id,
      issued: '2026-01-30',
      due: at('2026-02-14T00:00:00Z'),
      payment_method_whitelist: ['visa'],
    });
    expect(invoice.purchase).toEqual(asPurchaseDetails(template.purchase));
    expect(await outbox(box)).toEqual([
      // A one-time template's e-mail has no cancel link; its body asks for payment at the checkout page.
      { id: expect.any(String), kind: 'invoice', to: client.email, purchase_id: invoice.id, sent_on: at(NOW), subject: 'Invoice for Setup fee — €49.00', cancel_url: null, body: expect.stringContaining(`/checkout/${invoice.id}/`) },
    ]);

    const second = await send({ client_id: client.id });
    expect(second.status, second.text).toBe(201);
    expect((second.body as Purchase).id).not.toBe(invoice.id);
    expect((second.body as Purchase).payment_method_whitelist).toBeNull();
    expect((await purchases(box)).map((p) => p.id)).toEqual([(second.body as Purchase).id, invoice.id]);
    expect((await outbox(box)).map((m) => m.purchase_id)).toEqual([(second.body as Purchase).id, invoice.id]);
    expect(await listSubscribers(box, template.id)).toEqual([]);
  });

  it('"issued … When omitted, generated from the current day in purchase.timezone": Jan 31 in Pacific/Auckland at 2026-01-30T11:30Z', async () => {
    const { box, client } = await setup('2026-01-30T11:30:00Z');
    const template = await makeOneTimeTemplate(box, { purchase: { currency: 'NZD', timezone: 'Pacific/Auckland', products: [{ name: 'Setup', price: 4900 }] } });
    const res = await box.req('POST', `/api/v1/billing_templates/${template.id}/send_invoice/`, { client_id: client.id });
    expect(res.status, res.text).toBe(201);
    expect((res.body as Purchase).issued).toBe('2026-01-31');
  });

  it('on a subscription template → 400 __all__ invalid_state; an unknown client → 400 client_id does_not_exist; nothing is sent', async () => {
    const { box, client } = await setup();
    const subscription = await makeTemplate(box);
    expectRejected(await box.req('POST', `/api/v1/billing_templates/${subscription.id}/send_invoice/`, { client_id: client.id }), '__all__', 'invalid_state');
    const oneTime = await makeOneTimeTemplate(box);
    expectRejected(
      await box.req('POST', `/api/v1/billing_templates/${oneTime.id}/send_invoice/`, { client_id: '6b042125-686a-43e0-8a68-23cf5bee102e' }),
      'client_id',
      'does_not_exist',
    );
    expect(await purchases(box)).toEqual([]);
    expect(await outbox(box)).toEqual([]);
  });
});
