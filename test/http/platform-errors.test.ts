// Tokens and refusals as the platform's own client code meets them (DESIGN.md §11): a token of
// another client charges, and is recorded; a token that can charge nothing is refused under
// `__all__` with `invalid_recurring_token`, where the WooCommerce plugin looks before it drops the
// stored card; refused refunds, captures and releases are under `__all__` with the platform's codes
// (`purchase_refund_error`, …), which the plugin reads. Bodies are the plugin's: the renewal charge
// sends `{recurring_token}`, a refund `{amount}` in minor units.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  createPurchase,
  eventTypesOf,
  events,
  expectRejected,
  getPurchase,
  makeClient,
  payPurchase,
  sandboxWithClient,
  saveToken,
  type Box,
  type Purchase,
} from '../builders/engine.ts';

const h = useHarness();

const NOW = '2026-03-01T09:00:00Z';

const charge = (box: Box, purchaseId: string, token: string) => box.req('POST', `/api/v1/purchases/${purchaseId}/charge/`, { recurring_token: token });
const act = (box: Box, purchase: Purchase, action: string, body?: unknown) => box.req('POST', `/api/v1/purchases/${purchase.id}/${action}/`, body);

/** A purchase as the plugin creates it for a renewal: from the shopper's `client` details, MYR, the plugin's recurring card methods. */
const renewalBody = (box: Box, email: string) => ({
  brand_id: box.brandId,
  client: { email, full_name: 'Siti Aminah' },
  purchase: { currency: 'MYR', products: [{ name: 'Monthly box', price: 4900 }] },
  payment_method_whitelist: ['visa', 'mastercard', 'maestro'],
});

describe('a recurring token may charge another client\'s purchase', () => {
  it('a recurring token may charge another client\'s purchase: paid with that token, recorded as purchase.charged_with_other_clients_token', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const token = await saveToken(box, client.id);
    const other = await makeClient(box, { email: 'grace@example.com' });
    const purchase = await createPurchase(box, other.id);
    const res = await charge(box, purchase.id, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'paid', client_id: other.id, recurring_token: token });
    // Newest first: the record follows the payment.
    expect((await eventTypesOf(box, purchase.id)).slice(0, 2)).toEqual(['purchase.charged_with_other_clients_token', 'purchase.paid']);
    // A simulator-only event: listed by type, never a platform event.
    const listed = await box.req('GET', '/sim/v1/events?type=purchase.charged_with_other_clients_token');
    expect(listed.status, listed.text).toBe(200);
    expect((listed.body as { results: { object_id: string }[] }).results.map((e) => e.object_id)).toEqual([purchase.id]);
  });

  it('a renewal purchase created from client details is charged with the token saved on the shopper\'s first purchase', async () => {
    const { box } = await sandboxWithClient(h, NOW);
    const first = (await box.req('POST', '/api/v1/purchases/', { ...renewalBody(box, 'siti@example.com'), force_recurring: true })).body as Purchase;
    expect((await payPurchase(box, first.id, { method: 'visa' })).is_recurring_token).toBe(true);
    const renewal = await box.req('POST', '/api/v1/purchases/', renewalBody(box, 'siti@example.com'));
    expect(renewal.status, renewal.text).toBe(201);
    const charged = await charge(box, (renewal.body as Purchase).id, first.id);
    expect(charged.status, charged.text).toBe(200);
    expect(charged.body).toMatchObject({ status: 'paid', recurring_token: first.id });
  });

  it('a declined charge with another client\'s token is recorded too, and answered purchase_charge_error', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const token = await saveToken(box, client.id, { tokenOutcome: 'failure' });
    const purchase = await createPurchase(box, (await makeClient(box, { email: 'grace@example.com' })).id);
    expectRejected(await charge(box, purchase.id, token), '__all__', 'purchase_charge_error');
    expect((await eventTypesOf(box, purchase.id)).slice(0, 2)).toEqual(['purchase.charged_with_other_clients_token', 'purchase.payment_failure']);
  });

  it('a charge with the client\'s own token records no such event', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const token = await saveToken(box, client.id);
    const purchase = await createPurchase(box, client.id);
    expect((await charge(box, purchase.id, token)).status).toBe(200);
    expect((await events(box)).map((e) => e.event_type)).not.toContain('purchase.charged_with_other_clients_token');
  });

  it('"a recurring token can only charge a Purchase of the same service type" still holds for another client\'s token', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const token = await saveToken(box, client.id, { serviceType: 'ONEDAY' });
    const purchase = await createPurchase(box, (await makeClient(box, { email: 'grace@example.com' })).id);
    expectRejected(await charge(box, purchase.id, token), '__all__', 'purchase_charge_error');
    expect(await getPurchase(box, purchase.id)).toEqual(purchase);
  });
});

describe('a token that can charge nothing → __all__ invalid_recurring_token', () => {
  it('a deleted token\'s charge answers __all__ invalid_recurring_token (the code on which the plugin drops its stored card)', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const token = await saveToken(box, client.id);
    const purchase = await createPurchase(box, client.id);
    expect((await box.req('POST', `/api/v1/purchases/${token}/delete_recurring_token/`)).status).toBe(200);
    const res = await charge(box, purchase.id, token);
    expectRejected(res, '__all__', 'invalid_recurring_token');
    expect((res.body as Record<string, { message: string }[]>).__all__![0]!.message).toContain(token);
    expect(await getPurchase(box, purchase.id)).toEqual(purchase);
  });

  it('a token never saved, the id of a purchase that saved none, and another sandbox\'s token → __all__ invalid_recurring_token', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const elsewhere = await sandboxWithClient(h, NOW);
    const foreign = await saveToken(elsewhere.box, elsewhere.client.id);
    const plain = await payPurchase(box, (await createPurchase(box, client.id)).id);
    const purchase = await createPurchase(box, client.id);
    for (const token of ['0b5e9c1a-2f3d-4e5f-8a6b-7c8d9e0f1a2b', plain.id, foreign]) {
      expectRejected(await charge(box, purchase.id, token), '__all__', 'invalid_recurring_token');
    }
    expect(await getPurchase(box, purchase.id)).toEqual(purchase);
  });

  it('a body the schema refuses stays on its field: no recurring_token, or one that is not a UUID', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const purchase = await createPurchase(box, client.id);
    expectRejected(await box.req('POST', `/api/v1/purchases/${purchase.id}/charge/`, {}), 'recurring_token', 'required');
    expect(Object.keys((await charge(box, purchase.id, 'not-a-uuid')).body as object)).toEqual(['recurring_token']);
  });
});

describe('refused refunds, captures and releases → __all__ with the platform\'s code', () => {
  async function paidPurchase() {
    const { box, client } = await sandboxWithClient(h, NOW);
    const purchase = await payPurchase(box, (await createPurchase(box, client.id)).id, { method: 'visa' });
    return { box, client, purchase };
  }

  it('a refund above what is left is refused under __all__ purchase_refund_error; nothing changes', async () => {
    const { box, purchase } = await paidPurchase();
    // The plugin sends round(amount * 100): EUR 12.01 of a EUR 12.00 purchase.
    const res = await act(box, purchase, 'refund', { amount: 1201 });
    expectRejected(res, '__all__', 'purchase_refund_error');
    expect(JSON.stringify(res.body)).toContain('1200');
    expect(await getPurchase(box, purchase.id)).toEqual(purchase);
    expect((await act(box, purchase, 'refund', { amount: 1200 })).status).toBe(200);
  });

  it('a refund of a purchase that is not paid, or is refunded, → __all__ purchase_refund_error', async () => {
    const { box, client, purchase } = await paidPurchase();
    const unpaid = await createPurchase(box, client.id);
    expectRejected(await act(box, unpaid, 'refund', {}), '__all__', 'purchase_refund_error');
    expect((await act(box, purchase, 'refund', {})).status).toBe(200);
    expectRejected(await act(box, purchase, 'refund', { amount: 100 }), '__all__', 'purchase_refund_error');
  });

  it('an amount the schema refuses (a fraction, a string that is no integer, 0) stays on amount', async () => {
    const { box, purchase } = await paidPurchase();
    // "1200" would be read as 1200, as the platform (Django REST framework) reads an integer field; "12.5" is not.
    for (const amount of [12.5, '12.5', 'all', 0]) expect(Object.keys((await act(box, purchase, 'refund', { amount })).body as object)).toEqual(['amount']);
    expect((await getPurchase(box, purchase.id)).refundable_amount).toBe(purchase.refundable_amount);
  });

  it('a capture above the total → __all__ purchase_capture_error; a release of a purchase not on hold → __all__ purchase_release_error', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const held = await payPurchase(box, (await createPurchase(box, client.id, { skip_capture: true })).id, { method: 'visa' });
    expect(held.status).toBe('hold');
    expectRejected(await act(box, held, 'capture', { amount: 1201 }), '__all__', 'purchase_capture_error');
    const unpaid = await createPurchase(box, client.id);
    expectRejected(await act(box, unpaid, 'release'), '__all__', 'purchase_release_error');
    expectRejected(await act(box, unpaid, 'capture', {}), '__all__', 'purchase_capture_error');
    expect((await getPurchase(box, held.id)).status).toBe('hold');
  });
});
