// The platform's gateway flows (DESIGN.md §14) as its plugins run them: zero-amount authorisation
// ("Add payment method": total 0, skip_capture, force_recurring → preauthorized), the pending steps of
// capture, release, refund and token deletion (GET/PUT /sim/v1/processing `delay`), settlement
// (`settlement`, purchase.settled), purchase.viewed delivered, and attempts' fee_amount. The plugins'
// conditions are written here as facts (WooCommerce gateway: `if ( 'preauthorized' !== $payment['status'] )`
// → "Unable to add payment method"), never their code.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.ts';
import { useHarness } from '../support/harness.ts';
import { Receiver } from '../support/receiver.ts';
import { send } from '../support/spawn-sim.ts';
import {
  advance,
  createPurchase,
  eventTypesOf,
  events,
  expectRejected,
  getPurchase,
  makeClient,
  payPurchase,
  sandboxAt,
  sandboxWithClient,
  saveToken,
  type Box,
  type Purchase,
} from '../builders/engine.ts';

const NOW = '2026-01-30T12:00:00Z';
const h = useHarness({ now: NOW });
const receiver = new Receiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

/** The body of WooCommerce's "Add payment method" purchase: one product of price 0, the card saved, nothing captured. */
const addPaymentMethod = (box: Box) => ({
  brand_id: box.brandId,
  client: { email: 'shopper@example.com', full_name: 'Shop Per' },
  payment_method_whitelist: ['visa', 'mastercard'],
  platform: 'woocommerce_subscriptions',
  force_recurring: true,
  skip_capture: true,
  success_redirect: 'https://shop.example/?tokenization=yes',
  failure_redirect: 'https://shop.example/?tokenization=yes',
  purchase: { currency: 'MYR', products: [{ name: 'Add payment method', price: 0 }] },
});

const statuses = (purchase: Purchase) => purchase.status_history.map((entry) => entry.status);
const setProcessing = (box: Box, body: Record<string, unknown>) => box.req('PUT', '/sim/v1/processing', body);

async function register(box: Box, path: string, events: string[]) {
  const res = await box.req('POST', '/api/v1/webhooks/', { callback: receiver.url + path, events });
  expect(res.status, res.text).toBe(201);
}

/** A purchase of `box` paid by card with skip_capture: on hold. */
async function held(box: Box, clientId: string): Promise<Purchase> {
  const purchase = await createPurchase(box, clientId, { skip_capture: true });
  const paid = await payPurchase(box, purchase.id, { method: 'visa' });
  expect(paid.status).toBe('hold');
  return paid;
}

describe('zero-amount authorisation (WooCommerce "Add payment method", free trials, pre-orders)', () => {
  it('a purchase of total 0 with skip_capture and force_recurring paid by card is preauthorized, with a token, an authorize attempt and purchase.preauthorized delivered', async () => {
    const box = await sandboxAt(h, NOW);
    await register(box, '/preauth', ['purchase.preauthorized']);
    const created = (await box.req('POST', '/api/v1/purchases/', addPaymentMethod(box))).body as Purchase;
    expect(created.purchase.total).toBe(0);
    const paid = await payPurchase(box, created.id, { method: 'visa', card: { number: '4444333322221111', cardholder_name: 'Shop Per', expiry: '12/30' } });
    expect(paid.status).toBe('preauthorized');
    expect(paid.is_recurring_token).toBe(true);
    expect(paid.transaction_data.attempts[0]).toMatchObject({ type: 'authorize', successful: true, payment_method: 'visa' });
    // The plugin stores the card from transaction_data.extra.
    expect(paid.transaction_data.extra).toMatchObject({ card_brand: 'visa', masked_pan: '444433******1111', expiry_month: 12, expiry_year: 30 });
    expect(statuses(paid)).toEqual(['created', 'pending_execute', 'preauthorized']);
    const [delivered] = await receiver.waitFor('/preauth', 1);
    expect(delivered!.body).toMatchObject({ id: created.id, event_type: 'purchase.preauthorized', status: 'preauthorized' });
  });

  it('paid by Direct Post, as the plugin\'s card form posts it: preauthorized with its token, and the payer lands on success_redirect', async () => {
    const box = await sandboxAt(h, NOW);
    const created = (await box.req('POST', '/api/v1/purchases/', addPaymentMethod(box))).body as Purchase & { direct_post_url: string };
    const posted = await fetch(created.direct_post_url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://shop.example' },
      body: new URLSearchParams({ cardholder_name: 'Shop Per', card_number: '5555 5555 5555 4444', expires: '11/29', cvc: '123', remember_card: 'on' }).toString(),
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('https://shop.example/?tokenization=yes');
    const after = await getPurchase(box, created.id);
    expect(after).toMatchObject({ status: 'preauthorized', is_recurring_token: true });
    expect(after.transaction_data.attempts[0]).toMatchObject({ type: 'authorize', successful: true, payment_method: 'mastercard' });
  });

  it('a preauthorized purchase cannot be captured or released (400 under __all__ naming its status); its token charges a later purchase', async () => {
    const box = await sandboxAt(h, NOW);
    const created = (await box.req('POST', '/api/v1/purchases/', addPaymentMethod(box))).body as Purchase;
    await payPurchase(box, created.id, { method: 'visa' });
    const capture = await box.req('POST', `/api/v1/purchases/${created.id}/capture/`, {});
    expectRejected(capture, '__all__', 'purchase_capture_error');
    expect(capture.text).toContain('preauthorized');
    expectRejected(await box.req('POST', `/api/v1/purchases/${created.id}/release/`), '__all__', 'purchase_release_error');
    expect((await getPurchase(box, created.id)).status).toBe('preauthorized');

    const renewal = (await box.req('POST', '/api/v1/purchases/', {
      brand_id: box.brandId,
      client_id: created.client_id,
      purchase: { currency: 'MYR', products: [{ name: 'Renewal', price: 2500 }] },
    })).body as Purchase;
    const charged = await box.req('POST', `/api/v1/purchases/${renewal.id}/charge/`, { recurring_token: created.id });
    expect(charged.status, charged.text).toBe(200);
    expect(charged.body).toMatchObject({ status: 'paid', recurring_token: created.id });
  });
});

describe('the platform\'s pending steps, no delay (PUT /sim/v1/processing default PT0S)', () => {
  it('capture: purchase.pending_capture, then purchase.captured and purchase.paid, in the same request; status_history as the platform\'s purchase.captured', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const purchase = await held(box, client.id);
    const captured = (await box.req('POST', `/api/v1/purchases/${purchase.id}/capture/`, {})).body as Purchase;
    expect(captured.status).toBe('paid');
    expect(statuses(captured)).toEqual(['created', 'pending_execute', 'hold', 'pending_capture', 'paid']);
    expect((await eventTypesOf(box, purchase.id)).reverse()).toEqual(['purchase.created', 'purchase.hold', 'purchase.pending_capture', 'purchase.captured', 'purchase.paid']);
  });

  it('release: purchase.pending_release, then purchase.released', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const purchase = await held(box, client.id);
    const released = (await box.req('POST', `/api/v1/purchases/${purchase.id}/release/`)).body as Purchase;
    expect(released.status).toBe('released');
    expect(statuses(released).slice(-2)).toEqual(['pending_release', 'released']);
    expect((await eventTypesOf(box, purchase.id)).slice(0, 2).reverse()).toEqual(['purchase.pending_release', 'purchase.released']);
  });

  it('refund: purchase.pending_refund, then payment.refunded with the Payment answered; a part refunded leaves the purchase paid again', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const purchase = await createPurchase(box, client.id);
    await payPurchase(box, purchase.id, { method: 'visa' });
    const payment = (await box.req('POST', `/api/v1/purchases/${purchase.id}/refund/`, { amount: 200 })).body as { id: string; payment: { amount: number } };
    expect(payment.payment.amount).toBe(200);
    const partly = await getPurchase(box, purchase.id);
    expect(partly).toMatchObject({ status: 'paid', refundable_amount: 1000 });
    expect(statuses(partly).slice(-2)).toEqual(['pending_refund', 'paid']);
    const all = await events(box);
    const refunded = all.find((event) => event.event_type === 'payment.refunded')!;
    expect(refunded.object_id).toBe(payment.id);
    expect(all.findIndex((event) => event.event_type === 'purchase.pending_refund')).toBeGreaterThan(all.indexOf(refunded));
  });

  it('token deletion: purchase.pending_recurring_token_delete with the status unchanged, then purchase.recurring_token_deleted, as the platform\'s deliveries show', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const token = await saveToken(box, client.id);
    expect((await box.req('POST', `/api/v1/purchases/${token}/delete_recurring_token/`)).body).toMatchObject({ status: 'paid', is_recurring_token: false });
    const types = (await eventTypesOf(box, token)).slice(0, 2).reverse();
    expect(types).toEqual(['purchase.pending_recurring_token_delete', 'purchase.recurring_token_deleted']);
    const pending = (await events(box)).find((event) => event.event_type === 'purchase.pending_recurring_token_delete')!;
    expect(pending.payload).toMatchObject({ status: 'paid', is_recurring_token: true });
  });
});

describe('the platform\'s pending steps with a delay on the sandbox clock', () => {
  it('GET /sim/v1/processing answers the default; PUT changes what it is sent and keeps the rest; a bad duration is a 400 naming its field and changes nothing', async () => {
    const box = await sandboxAt(h, NOW);
    expect((await box.req('GET', '/sim/v1/processing')).body).toEqual({ delay: 'PT0S', settlement: null });
    expect((await setProcessing(box, { delay: 'PT1H' })).body).toEqual({ delay: 'PT1H', settlement: null });
    expect((await setProcessing(box, { settlement: 'P1D' })).body).toEqual({ delay: 'PT1H', settlement: 'P1D' });
    expectRejected(await setProcessing(box, { delay: 'soon' }), 'delay', 'invalid');
    expectRejected(await setProcessing(box, { settlement: '-P1D' }), 'settlement', 'min_value');
    expectRejected(await setProcessing(box, { delay: 'P32D' }), 'delay', 'max_value');
    // A month is taken whatever its length (P1M from January 29, 2028 is the 31 days to February 29).
    expect((await setProcessing(box, { settlement: 'P1M' })).status).toBe(200);
    expect((await setProcessing(box, { settlement: 'P1D' })).status).toBe(200);
    expectRejected(await setProcessing(box, { delay: 'PT1S', lag: 'PT1S' }), 'lag', 'unknown_field');
    expect((await box.req('GET', '/sim/v1/processing')).body).toEqual({ delay: 'PT1H', settlement: 'P1D' });
  });

  it('a capture answers pending_capture until the delay passes; meanwhile an action answers 400 under __all__ naming the state; an advance ends it', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    await setProcessing(box, { delay: 'PT1H' });
    const purchase = await held(box, client.id);
    const pending = (await box.req('POST', `/api/v1/purchases/${purchase.id}/capture/`, { amount: 700 })).body as Purchase;
    expect(pending.status).toBe('pending_capture');
    expect((await getPurchase(box, purchase.id)).status).toBe('pending_capture');
    const again = await box.req('POST', `/api/v1/purchases/${purchase.id}/capture/`, {});
    expectRejected(again, '__all__', 'purchase_capture_error');
    expect(again.text).toContain('pending_capture');
    const cancel = await box.req('POST', `/api/v1/purchases/${purchase.id}/cancel/`);
    expectRejected(cancel, '__all__', 'invalid_state');
    expect(cancel.text).toContain('pending_capture');

    expect((await advance(box, { by: 'PT59M' })).processed).not.toHaveProperty('steps');
    expect((await getPurchase(box, purchase.id)).status).toBe('pending_capture');
    expect((await advance(box, { by: 'PT1M' })).processed).toMatchObject({ steps: 1 });
    const paid = await getPurchase(box, purchase.id);
    expect(paid).toMatchObject({ status: 'paid', payment: { amount: 700 } });
    expect(paid.status_history.slice(-2)).toEqual([
      { status: 'pending_capture', timestamp: Date.parse(NOW) / 1000 },
      { status: 'paid', timestamp: Date.parse(NOW) / 1000 + 3600 },
    ]);
  });

  it('a refund answers its Payment at once; payment.refunded comes with the same Payment when the delay has passed', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    await setProcessing(box, { delay: 'P1D' });
    const purchase = await createPurchase(box, client.id);
    await payPurchase(box, purchase.id, { method: 'visa' });
    const payment = (await box.req('POST', `/api/v1/purchases/${purchase.id}/refund/`, {})).body as { id: string; related_to: { id: string } };
    expect(payment.related_to.id).toBe(purchase.id);
    expect(await getPurchase(box, purchase.id)).toMatchObject({ status: 'pending_refund', refundable_amount: 1200 });
    expectRejected(await box.req('POST', `/api/v1/purchases/${purchase.id}/refund/`, {}), '__all__', 'purchase_refund_error');
    expect((await events(box)).some((event) => event.event_type === 'payment.refunded')).toBe(false);
    await advance(box, { by: 'P1D' });
    expect(await getPurchase(box, purchase.id)).toMatchObject({ status: 'refunded', refundable_amount: 0 });
    const refunded = (await events(box)).find((event) => event.event_type === 'payment.refunded')!;
    expect(refunded.object_id).toBe(payment.id);
  });

  it('a token being deleted charges nothing at once, and is deleted when the delay passes', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    await setProcessing(box, { delay: 'PT10M' });
    const token = await saveToken(box, client.id);
    expect((await box.req('POST', `/api/v1/purchases/${token}/delete_recurring_token/`)).body).toMatchObject({ is_recurring_token: true });
    const other = await createPurchase(box, client.id);
    expectRejected(await box.req('POST', `/api/v1/purchases/${other.id}/charge/`, { recurring_token: token }), '__all__', 'invalid_recurring_token');
    expect((await box.req('POST', `/api/v1/purchases/${token}/delete_recurring_token/`)).status).toBe(404);
    await advance(box, { by: 'PT10M' });
    expect((await getPurchase(box, token)).is_recurring_token).toBe(false);
    expect((await eventTypesOf(box, token)).slice(0, 2)).toEqual(['purchase.recurring_token_deleted', 'purchase.pending_recurring_token_delete']);
  });

  it('a snapshot carries the setting and the pending step: imported, the copy ends the capture when advanced', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    await setProcessing(box, { delay: 'PT1H', settlement: 'P2D' });
    const purchase = await held(box, client.id);
    await box.req('POST', `/api/v1/purchases/${purchase.id}/capture/`, {});
    const exported = (await box.req('GET', '/sim/v1/snapshot')).body as { sandbox: { processing: unknown; jobs: { kind: string; method?: string }[] } };
    expect(exported.sandbox.processing).toEqual({ delay: 'PT1H', settlement: 'P2D' });
    expect(exported.sandbox.jobs).toContainEqual(expect.objectContaining({ kind: 'step', method: 'capture', amount: 1200 }));
    const created = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: exported } });
    expect(created.status, created.text.slice(0, 300)).toBe(201);
    const copy: Box = { h, token: (created.body as { token: string }).token, brandId: box.brandId, req: (method, path, body) => h.request(method, path, { token: (created.body as { token: string }).token, body }) };
    expect((await copy.req('GET', '/sim/v1/processing')).body).toEqual({ delay: 'PT1H', settlement: 'P2D' });
    // Imported beside its original, the copy's objects have new ids: its one purchase is the captured one.
    const [copied] = ((await copy.req('GET', '/api/v1/purchases/')).body as { results: Purchase[] }).results;
    expect(copied!.status).toBe('pending_capture');
    await advance(copy, { by: 'PT1H' });
    expect((await getPurchase(copy, copied!.id)).status).toBe('paid');
    // The copy's payment settles two days after the capture.
    await advance(copy, { by: 'P2D' });
    expect((await getPurchase(copy, copied!.id)).transaction_data.extra).toMatchObject({ settlement: { settled_on: Date.parse(NOW) / 1000 + 3600 + 2 * 86_400 } });
  });

  it('a checkpoint holds the setting and the pending step: restored, the capture is pending again and ends when advanced', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    await setProcessing(box, { delay: 'PT1H' });
    const purchase = await held(box, client.id);
    await box.req('POST', `/api/v1/purchases/${purchase.id}/capture/`, {});
    const taken = (await box.req('POST', '/sim/v1/checkpoints', { name: 'capture under way' })).body as { id: string };
    await advance(box, { by: 'PT1H' });
    expect((await getPurchase(box, purchase.id)).status).toBe('paid');
    await setProcessing(box, { delay: 'PT0S' });
    expect((await box.req('POST', `/sim/v1/checkpoints/${taken.id}/restore`)).status).toBe(200);
    expect((await box.req('GET', '/sim/v1/processing')).body).toEqual({ delay: 'PT1H', settlement: null });
    expect((await getPurchase(box, purchase.id)).status).toBe('pending_capture');
    await advance(box, { by: 'PT1H' });
    expect((await getPurchase(box, purchase.id)).status).toBe('paid');
  });

  it('a data file keeps the setting and the pending step across a restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'billing-sim-processing-')), 'sim.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const made = (await send(first.url, 'POST', '/sim/v1/sandboxes', null, { now: NOW, frozen: true })).body as { token: string; brand_id: string };
    const on = (url: string): Box => ({ h, token: made.token, brandId: made.brand_id, req: (method, path, body) => send(url, method, path, made.token, body) });
    const box = on(first.url);
    await setProcessing(box, { delay: 'P1D', settlement: 'P2D' });
    const purchase = await held(box, (await makeClient(box)).id);
    expect(((await box.req('POST', `/api/v1/purchases/${purchase.id}/capture/`, {})).body as Purchase).status).toBe('pending_capture');
    await first.stop();

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      const again = on(second.url);
      expect((await again.req('GET', '/sim/v1/processing')).body).toEqual({ delay: 'P1D', settlement: 'P2D' });
      expect((await getPurchase(again, purchase.id)).status).toBe('pending_capture');
      expect((await advance(again, { by: 'P3D' })).processed).toMatchObject({ steps: 1, settlements: 1 });
      // Captured a day on, settled two days after that.
      expect((await getPurchase(again, purchase.id)).transaction_data.extra).toMatchObject({ settlement: { settled_on: Date.parse(NOW) / 1000 + 3 * 86_400 } });
    } finally {
      await second.stop();
    }
  });

  it('a reset keeps the setting, as it keeps delivery chaos', async () => {
    const box = await sandboxAt(h, NOW);
    await setProcessing(box, { delay: 'PT5M' });
    expect((await box.req('POST', '/sim/v1/reset')).status).toBeLessThan(300);
    expect((await box.req('GET', '/sim/v1/processing')).body).toEqual({ delay: 'PT5M', settlement: null });
  });
});

describe('settlement (PUT /sim/v1/processing settlement)', () => {
  it('a purchase paid through the gateway is settled once, `settlement` after payment: purchase.settled delivered, still paid, transaction_data.extra.settlement.settled_on', async () => {
    const box = await sandboxAt(h, '2026-01-31T10:00:00Z');
    await register(box, '/settled', ['purchase.settled']);
    await setProcessing(box, { settlement: 'P1M' });
    const client = await makeClient(box);
    const purchase = await createPurchase(box, client.id);
    await payPurchase(box, purchase.id, { method: 'visa' });
    // P1M from January 31 is February 28 (2026 has no February 29).
    expect((await advance(box, { to: '2026-02-28T09:59:59Z' })).processed).not.toHaveProperty('settlements');
    expect((await advance(box, { to: '2026-02-28T10:00:00Z' })).processed).toMatchObject({ settlements: 1 });
    const settled = await getPurchase(box, purchase.id);
    expect(settled.status).toBe('paid');
    expect(settled.transaction_data.extra).toMatchObject({ card_brand: 'visa', settlement: { settled_on: Date.parse('2026-02-28T10:00:00Z') / 1000 } });
    const [delivered] = await receiver.waitFor('/settled', 1);
    expect(delivered!.body).toMatchObject({ id: purchase.id, event_type: 'purchase.settled', status: 'paid' });
    await advance(box, { by: 'P3M' });
    expect((await events(box)).filter((event) => event.event_type === 'purchase.settled')).toHaveLength(1);
  });

  it('across the turn of a year and onto February 29 of a leap year; a purchase marked as paid (no money through the gateway) is never settled', async () => {
    const box = await sandboxAt(h, '2027-12-31T23:30:00Z');
    await setProcessing(box, { settlement: 'PT1H' });
    const client = await makeClient(box);
    const card = await createPurchase(box, client.id);
    await payPurchase(box, card.id, { method: 'visa' });
    const marked = await createPurchase(box, client.id);
    expect((await box.req('POST', `/api/v1/purchases/${marked.id}/mark_as_paid/`, {})).status).toBe(200);
    await advance(box, { to: '2028-01-01T00:30:00Z' });
    expect((await getPurchase(box, card.id)).transaction_data.extra).toMatchObject({ settlement: { settled_on: Date.parse('2028-01-01T00:30:00Z') / 1000 } });
    expect((await getPurchase(box, marked.id)).transaction_data.extra).toEqual({});

    await advance(box, { to: '2028-01-29T08:00:00Z' });
    expect((await setProcessing(box, { settlement: 'P1M' })).status).toBe(200);
    const leap = await createPurchase(box, client.id, { purchase: { currency: 'MYR', products: [{ name: 'Box', price: 4900 }] } });
    await payPurchase(box, leap.id, { method: 'fpx' });
    await advance(box, { to: '2028-02-29T08:00:00Z' });
    // FPX's messages beside it (issue 42), no card.
    expect((await getPurchase(box, leap.id)).transaction_data.extra).toEqual({
      settlement: { settled_on: Date.parse('2028-02-29T08:00:00Z') / 1000 },
      user_web_browser_data: expect.objectContaining({ fpx_txnAmount: '49.00' }),
      webhook_payload: expect.objectContaining({ fpx_msgType: ['AC'] }),
    });
  });

  it('off (the default), a payment schedules nothing: the sandbox\'s jobs are as before', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const purchase = await createPurchase(box, client.id);
    await payPurchase(box, purchase.id, { method: 'visa' });
    const exported = (await box.req('GET', '/sim/v1/snapshot')).body as { sandbox: { jobs: { kind: string }[] } };
    expect(exported.sandbox.jobs.filter((job) => job.kind === 'settlement')).toEqual([]);
  });
});

describe('purchase.viewed and the attempts\' fee_amount', () => {
  it('opening the checkout page delivers purchase.viewed to a webhook that subscribes to it and sets viewed_on, once', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    await register(box, '/viewed', ['purchase.viewed']);
    const purchase = await createPurchase(box, client.id);
    expect((await fetch(purchase.checkout_url)).status).toBe(200);
    expect((await fetch(purchase.checkout_url)).status).toBe(200);
    const [delivered] = await receiver.waitFor('/viewed', 1);
    expect(delivered!.body).toMatchObject({ id: purchase.id, event_type: 'purchase.viewed', status: 'viewed', viewed_on: Date.parse(NOW) / 1000 });
    expect((await getPurchase(box, purchase.id)).viewed_on).toBe(Date.parse(NOW) / 1000);
    expect((await events(box)).filter((event) => event.event_type === 'purchase.viewed')).toHaveLength(1);
  });

  it('fee_amount is 20 for an attempt and 10 for a capture, as on the platform\'s deliveries; a card payment shows pending_execute in its history, an FPX one not', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const purchase = await held(box, client.id);
    const captured = (await box.req('POST', `/api/v1/purchases/${purchase.id}/capture/`, {})).body as Purchase & { transaction_data: { attempts: { type: string; fee_amount: number }[] } };
    expect(captured.transaction_data.attempts.map((tried) => [tried.type, tried.fee_amount])).toEqual([['capture', 10], ['authorize', 20]]);
    const fpx = (await box.req('POST', '/api/v1/purchases/', {
      brand_id: box.brandId,
      client_id: client.id,
      purchase: { currency: 'MYR', products: [{ name: 'Box', price: 4900 }] },
    })).body as Purchase;
    expect(statuses(await payPurchase(box, fpx.id, { method: 'fpx' }))).toEqual(['created', 'paid']);
  });
});

describe('on a running clock (a simulator on wall time)', () => {
  it('with delay PT2S a capture answers pending_capture, and a webhook receives purchase.pending_capture then purchase.captured; the same for release, refund and token deletion', async () => {
    const sim = await startSimulator({ port: 0, quiet: true });
    try {
      const made = (await send(sim.url, 'POST', '/sim/v1/sandboxes', null, { frozen: false })).body as { token: string; brand_id: string };
      const box: Box = { h, token: made.token, brandId: made.brand_id, req: (method, path, body) => send(sim.url, method, path, made.token, body) };
      await register(box, '/running', ['purchase.pending_capture', 'purchase.captured', 'purchase.pending_release', 'purchase.released', 'purchase.pending_refund', 'payment.refunded', 'purchase.pending_recurring_token_delete', 'purchase.recurring_token_deleted']);
      expect((await setProcessing(box, { delay: 'PT2S' })).status).toBe(200);
      const client = await makeClient(box);
      const toCapture = await held(box, client.id);
      const toRelease = await held(box, client.id);
      const toRefund = await createPurchase(box, client.id);
      await payPurchase(box, toRefund.id, { method: 'visa' });
      const token = await saveToken(box, client.id);

      expect(((await box.req('POST', `/api/v1/purchases/${toCapture.id}/capture/`, {})).body as Purchase).status).toBe('pending_capture');
      expect(((await box.req('POST', `/api/v1/purchases/${toRelease.id}/release/`)).body as Purchase).status).toBe('pending_release');
      expect((await box.req('POST', `/api/v1/purchases/${toRefund.id}/refund/`, {})).status).toBe(200);
      expect((await box.req('POST', `/api/v1/purchases/${token}/delete_recurring_token/`)).status).toBe(200);
      const received = await receiver.waitFor('/running', 8);
      const order = (id: string) => received.filter((r) => r.body.id === id || (r.body as { related_to?: { id: string } }).related_to?.id === id).map((r) => r.body.event_type);
      expect(order(toCapture.id)).toEqual(['purchase.pending_capture', 'purchase.captured']);
      expect(order(toRelease.id)).toEqual(['purchase.pending_release', 'purchase.released']);
      expect(order(toRefund.id)).toEqual(['purchase.pending_refund', 'payment.refunded']);
      expect(order(token)).toEqual(['purchase.pending_recurring_token_delete', 'purchase.recurring_token_deleted']);
      expect((await getPurchase(box, toCapture.id)).status).toBe('paid');
    } finally {
      await sim.stop();
    }
  });
});
