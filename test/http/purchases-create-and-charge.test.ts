// Purchases over HTTP: POST /purchases/ and charging with a recurring token, with the spec's "Rules
// on default_service_type" for both and the execution times of the service types.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  advance,
  at,
  createPurchase,
  DAY,
  eventTypesOf,
  expectField,
  expectRejected,
  getPurchase,
  outbox,
  payPurchase,
  purchaseBody,
  purchases,
  sandboxAt,
  sandboxWithClient,
  saveToken,
  typed,
  type Box,
  type Purchase,
} from '../builders/engine.ts';

const h = useHarness();

const NOW = '2026-01-30T12:00:00Z';

/** A sandbox at `now` with one client. */
const setup = (now = NOW) => sandboxWithClient(h, now);

const charge = (box: Box, purchaseId: string, token: string) =>
  box.req('POST', `/api/v1/purchases/${purchaseId}/charge/`, { recurring_token: token });

describe('POST /purchases/', () => {
  it('creates a purchase for a client: status created, issued today, an absolute checkout_url ("the client is redirected to purchase.checkout_url")', async () => {
    const { box, client } = await setup();
    const purchase = await createPurchase(box, client.id);
    expect(purchase).toMatchObject({
      type: 'purchase',
      brand_id: box.brandId,
      client_id: client.id,
      billing_template_id: null,
      status: 'created',
      issued: '2026-01-30',
      due: null,
      service_type: null,
      force_recurring: false,
      is_recurring_token: false,
      recurring_token: null,
      payment: null,
      created_on: at(NOW),
    });
    expect(purchase.purchase).toMatchObject({ currency: 'EUR', total: 1200, timezone: 'UTC' });
    expect(new URL(purchase.checkout_url).protocol).toMatch(/^https?:$/);
    expect(await getPurchase(box, purchase.id)).toEqual(purchase);
    expect(await eventTypesOf(box, purchase.id)).toContain('purchase.created');
    expect(await outbox(box)).toEqual([]);
  });

  it('"issued" defaults to today in purchase.timezone: Jan 31 in Pacific/Auckland at 2026-01-30T11:30Z, Jan 30 in America/Los_Angeles at 2026-01-31T00:30Z', async () => {
    const east = await setup('2026-01-30T11:30:00Z');
    const auckland = await createPurchase(east.box, east.client.id, { purchase: { currency: 'NZD', timezone: 'Pacific/Auckland', products: [{ name: 'A', price: 100 }] } });
    expect(auckland.issued).toBe('2026-01-31');
    expect((await createPurchase(east.box, east.client.id)).issued).toBe('2026-01-30');

    const west = await setup('2026-01-31T00:30:00Z');
    const losAngeles = await createPurchase(west.box, west.client.id, { purchase: { currency: 'USD', timezone: 'America/Los_Angeles', products: [{ name: 'A', price: 100 }] } });
    expect(losAngeles.issued).toBe('2026-01-30');
    expect((await createPurchase(west.box, west.client.id)).issued).toBe('2026-01-31');
  });

  it('a client object instead of client_id creates the client with the purchase', async () => {
    const box = await sandboxAt(h, NOW);
    const { client_id: _none, ...body } = purchaseBody(box, 'unused');
    const res = await box.req('POST', '/api/v1/purchases/', { ...body, client: { email: 'new.customer@example.com', full_name: 'New Customer' } });
    expect(res.status, res.text).toBe(201);
    const purchase = res.body as Purchase;
    const clients = ((await box.req('GET', '/api/v1/clients/')).body as { results: { id: string; email: string }[] }).results;
    expect(clients.map((c) => [c.id, c.email])).toEqual([[purchase.client_id, 'new.customer@example.com']]);
    expect(purchase.client).toMatchObject({ email: 'new.customer@example.com', full_name: 'New Customer' });
  });

  it('neither client_id nor client → 400 __all__, and nothing is created; both → the client_id pays, no client is made', async () => {
    const { box, client } = await setup();
    const { client_id: _none, ...neither } = purchaseBody(box, client.id);
    expectField(await box.req('POST', '/api/v1/purchases/', neither), '__all__');
    expect(await purchases(box)).toEqual([]);
    // The platform's Go SDK sends its client struct beside a client_id (DESIGN.md §11).
    const both = await box.req('POST', '/api/v1/purchases/', { ...purchaseBody(box, client.id), client: { email: 'x@example.com' } });
    expect(both.status).toBe(201);
    expect(both.body).toMatchObject({ client_id: client.id, client: { email: client.email } });
    expect(((await box.req('GET', '/api/v1/clients/')).body as { results: unknown[] }).results).toHaveLength(1);
  });

  it('"When creating a Purchase, force_recurring must be true to use the default_service_type": service_type alone → 400 service_type', async () => {
    const { box, client } = await setup();
    expectField(await box.req('POST', '/api/v1/purchases/', purchaseBody(box, client.id, { service_type: 'ONEDAY', due: at(NOW) + 5 * DAY })), 'service_type');
    expectField(
      await box.req('POST', '/api/v1/purchases/', purchaseBody(box, client.id, { service_type: 'ONEDAY', force_recurring: false, due: at(NOW) + 5 * DAY })),
      'service_type',
    );
    expect(await purchases(box)).toEqual([]);
  });

  it('"A Purchase due tomorrow cannot be created … with a TWODAY type"; ONEDAY due tomorrow and TWODAY due in two days can', async () => {
    const { box, client } = await setup();
    const tomorrow = at(NOW) + DAY;
    expectField(await box.req('POST', '/api/v1/purchases/', purchaseBody(box, client.id, typed('TWODAY', tomorrow))), 'service_type');
    expectField(await box.req('POST', '/api/v1/purchases/', purchaseBody(box, client.id, typed('TWODAY', at('2026-02-01T00:00:00Z')))), 'service_type');
    expectField(await box.req('POST', '/api/v1/purchases/', purchaseBody(box, client.id, typed('ONEDAY', at('2026-01-31T00:00:00Z')))), 'service_type');
    expect(await purchases(box)).toEqual([]);
    expect((await createPurchase(box, client.id, typed('ONEDAY', tomorrow))).service_type).toBe('ONEDAY');
    expect((await createPurchase(box, client.id, typed('ONEDAY', tomorrow + DAY))).service_type).toBe('ONEDAY');
    expect((await createPurchase(box, client.id, typed('TWODAY', tomorrow + DAY))).service_type).toBe('TWODAY');
  });
});

describe('POST /purchases/{id}/charge/', () => {
  it('a working token pays at once: 200 paid, payment and recurring_token set, event purchase.paid', async () => {
    const { box, client } = await setup();
    const token = await saveToken(box, client.id, { method: 'mastercard' });
    const purchase = await createPurchase(box, client.id);
    await advance(box, { to: '2026-01-30T13:00:00Z' });
    const res = await charge(box, purchase.id, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: purchase.id,
      status: 'paid',
      recurring_token: token,
      payment: { amount: 1200, currency: 'EUR', payment_method: 'mastercard', paid_on: at('2026-01-30T13:00:00Z') },
    });
    expect(await eventTypesOf(box, purchase.id)).toContain('purchase.paid');
  });

  it('a declined token: 400 purchase_charge_error, event purchase.payment_failure; the purchase keeps its status and stays payable', async () => {
    const { box, client } = await setup();
    const token = await saveToken(box, client.id, { tokenOutcome: 'failure' });
    const purchase = await createPurchase(box, client.id);
    expectRejected(await charge(box, purchase.id, token), '__all__', 'purchase_charge_error');
    expect(await getPurchase(box, purchase.id)).toMatchObject({ status: 'created', payment: null });
    expect(await eventTypesOf(box, purchase.id)).toContain('purchase.payment_failure');
    expect((await payPurchase(box, purchase.id)).status).toBe('paid');
  });

  it('a token never saved, or one of another sandbox → 400 __all__ invalid_recurring_token; the purchase is unchanged', async () => {
    const { box, client } = await setup();
    const elsewhere = await setup();
    const foreignToken = await saveToken(elsewhere.box, elsewhere.client.id);
    const purchase = await createPurchase(box, client.id);
    for (const token of ['6b042125-686a-43e0-8a68-23cf5bee102e', foreignToken]) {
      expectRejected(await charge(box, purchase.id, token), '__all__', 'invalid_recurring_token');
    }
    expect(await getPurchase(box, purchase.id)).toEqual(purchase);
  });

  it('"A ONEDAY Purchase needs a ONEDAY token": a TWODAY or untyped token → 400 __all__ purchase_charge_error; a ONEDAY token → pending_execute, paid a day later', async () => {
    const { box, client } = await setup();
    const twoDay = await saveToken(box, client.id, { serviceType: 'TWODAY' });
    const untyped = await saveToken(box, client.id);
    const oneDay = await saveToken(box, client.id, { serviceType: 'ONEDAY' });
    const purchase = await createPurchase(box, client.id, typed('ONEDAY', at(NOW) + 5 * DAY));
    for (const token of [twoDay, untyped]) expectRejected(await charge(box, purchase.id, token), '__all__', 'purchase_charge_error');
    expect(await getPurchase(box, purchase.id)).toEqual(purchase);
    // Nor does a ONEDAY token charge a purchase without a service type.
    const plain = await createPurchase(box, client.id);
    expectRejected(await charge(box, plain.id, oneDay), '__all__', 'purchase_charge_error');

    const res = await charge(box, purchase.id, oneDay);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'pending_execute', recurring_token: oneDay });
    expect(await eventTypesOf(box, purchase.id)).toContain('purchase.pending_execute');
    await advance(box, { to: '2026-01-31T11:59:59Z' });
    expect((await getPurchase(box, purchase.id)).status).toBe('pending_execute');
    // This charge and the ONEDAY token's own saving payment, both made at noon the day before.
    expect((await advance(box, { to: '2026-01-31T12:00:00Z' })).processed.executions).toBe(2);
    const paid = await getPurchase(box, purchase.id);
    expect(paid.status).toBe('paid');
    expect(paid.status_history.map((s) => s.status)).toEqual(['created', 'pending_execute', 'paid']);
  });

  it('"A Purchase due tomorrow cannot be … charged with a TWODAY … token"; two days ahead it can, and executes in two days', async () => {
    const { box, client } = await setup();
    const token = await saveToken(box, client.id, { serviceType: 'TWODAY' });
    const due = at('2026-02-02T12:00:00Z');
    const early = await createPurchase(box, client.id, typed('TWODAY', due));
    const late = await createPurchase(box, client.id, typed('TWODAY', due));

    await advance(box, { to: '2026-01-31T12:00:00Z' });
    const charged = await charge(box, early.id, token);
    expect(charged.status, charged.text).toBe(200);
    expect(charged.body).toMatchObject({ status: 'pending_execute' });

    await advance(box, { to: '2026-02-01T12:00:00Z' });
    const before = await getPurchase(box, late.id);
    expectRejected(await charge(box, late.id, token), '__all__', 'purchase_charge_error');
    expect(await getPurchase(box, late.id)).toEqual(before);

    await advance(box, { to: '2026-02-02T11:59:59Z' });
    expect((await getPurchase(box, early.id)).status).toBe('pending_execute');
    await advance(box, { to: '2026-02-02T12:00:00Z' });
    expect((await getPurchase(box, early.id)).status).toBe('paid');
  });

  it('a paid, cancelled or pending_execute purchase → 400 __all__ purchase_charge_error', async () => {
    const { box, client } = await setup();
    const token = await saveToken(box, client.id);
    const oneDay = await saveToken(box, client.id, { serviceType: 'ONEDAY' });
    const paid = await createPurchase(box, client.id);
    await payPurchase(box, paid.id);
    const cancelled = await createPurchase(box, client.id);
    expect((await box.req('POST', `/api/v1/purchases/${cancelled.id}/cancel/`)).status).toBe(200);
    const executing = await createPurchase(box, client.id, typed('ONEDAY', at(NOW) + 5 * DAY));
    expect((await charge(box, executing.id, oneDay)).status).toBe(200);
    for (const [purchase, tokenId] of [[paid, token], [cancelled, token], [executing, oneDay]] as const) {
      const before = await getPurchase(box, purchase.id);
      expectRejected(await charge(box, purchase.id, tokenId), '__all__', 'purchase_charge_error');
      expect(await getPurchase(box, purchase.id)).toEqual(before);
    }
  });

  it('an overdue purchase can still be charged', async () => {
    const { box, client } = await setup();
    const token = await saveToken(box, client.id);
    const purchase = await createPurchase(box, client.id, { due: at('2026-02-01T00:00:00Z') });
    await advance(box, { to: '2026-02-02T00:00:00Z' });
    expect((await getPurchase(box, purchase.id)).status).toBe('overdue');
    const res = await charge(box, purchase.id, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'paid' });
  });
});
