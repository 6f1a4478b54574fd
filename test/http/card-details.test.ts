// Card details after a card payment (DESIGN.md §11): the attempt's `extra` and
// `transaction_data.extra` carry what the platform gives and its WooCommerce plugin stores with a
// saved card (`card_brand`, `masked_pan`, `expiry_month` and `expiry_year` as integers, the year in
// two digits, as the platform sends them (its published deliveries: `10`, `24`), `card_issuer`,
// `cardholder_name`, `card_issuer_country`, `card_type`), from the test card of the payment or the
// platform's documented test card. The plugin reads them on the purchase it was paid with, or,
// when a token paid it, on the purchase whose `recurring_token` it is.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  createPurchase,
  events,
  expectRejected,
  getPurchase,
  makeClient,
  payPurchase,
  sandboxAt,
  sandboxWithClient,
  saveToken,
  tokensOf,
  type Box,
  type Purchase,
} from '../builders/engine.ts';

const h = useHarness();

const NOW = '2026-02-28T23:30:00Z';

const charge = (box: Box, purchaseId: string, token: string) => box.req('POST', `/api/v1/purchases/${purchaseId}/charge/`, { recurring_token: token });

/** The card fields the plugin stores, as the platform's test card 4444 3333 2222 1111 gives them to client Ada Lovelace. */
const TEST_VISA = {
  card_brand: 'visa',
  masked_pan: '444433******1111',
  // The sandbox clock's month, three years on: integers, as the platform sends them.
  expiry_month: 2,
  expiry_year: 29,
  cardholder_name: 'Ada Lovelace',
  card_issuer: '',
  card_issuer_country: 'MY',
  card_type: 'credit',
};

describe('after a card payment transaction_data carries card_brand, masked_pan, expiry_month, expiry_year, cardholder_name', () => {
  it('after a card payment transaction_data carries card_brand, masked_pan, expiry_month, expiry_year, cardholder_name: by default the platform\'s test card', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const paid = await payPurchase(box, (await createPurchase(box, client.id)).id, { method: 'visa' });
    expect(paid.transaction_data.attempts[0]!.extra).toEqual(TEST_VISA);
    expect(paid.transaction_data.extra).toEqual(TEST_VISA);
    // What the plugin makes of them: last four digits, and a four-digit year.
    const extra = paid.transaction_data.extra as typeof TEST_VISA;
    expect([extra.masked_pan.slice(-4), `20${extra.expiry_year}`]).toEqual(['1111', '2029']);
    expect(await getPurchase(box, paid.id)).toEqual(paid);
  });

  it('the card typed in POST /sim/v1/purchases/{id}/pay: its number masked, its holder and expiry as given', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const purchase = await createPurchase(box, client.id);
    const paid = await payPurchase(box, purchase.id, { method: 'mastercard', card: { number: '5555 5555 5555 4444', cardholder_name: 'GRACE HOPPER', expiry: '07/31' } });
    expect(paid.transaction_data.extra).toEqual({
      card_brand: 'mastercard',
      masked_pan: '555555******4444',
      expiry_month: 7,
      expiry_year: 31,
      cardholder_name: 'GRACE HOPPER',
      card_issuer: '',
      card_issuer_country: 'MY',
      card_type: 'credit',
    });
  });

  it('a Maestro payment is a debit card; the issuer country is the client\'s', async () => {
    const box = await sandboxAt(h, NOW);
    const client = await makeClient(box, { country: 'DE' });
    const paid = await payPurchase(box, (await createPurchase(box, client.id)).id, { method: 'maestro' });
    expect(paid.transaction_data.extra).toMatchObject({ card_brand: 'maestro', masked_pan: '675900******0005', card_type: 'debit', card_issuer_country: 'DE' });
  });

  it('a saved card\'s token is described by its last four digits; the token charge carries the saving card\'s extra, on the attempt and in transaction_data', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const saving = await createPurchase(box, client.id);
    await payPurchase(box, saving.id, { method: 'visa', save_token: true, card: { number: '4242424242424242', cardholder_name: 'Ada L', expiry: '11/30' } });
    expect((await tokensOf(box, client.id)).map((t) => t.description)).toEqual(['•••• 4242']);
    const card = { ...TEST_VISA, masked_pan: '424242******4242', cardholder_name: 'Ada L', expiry_month: 11, expiry_year: 30 };

    const renewal = await createPurchase(box, client.id);
    const res = await charge(box, renewal.id, saving.id);
    expect(res.status, res.text).toBe(200);
    const charged = res.body as Purchase;
    expect(charged.transaction_data.attempts[0]).toMatchObject({ type: 'recurring_execute', successful: true, extra: card });
    expect(charged.transaction_data.extra).toEqual(card);
    // The same in every answer: a read, and the event's payload.
    expect((await getPurchase(box, renewal.id)).transaction_data.extra).toEqual(card);
    const paidEvent = (await events(box)).find((e) => e.object_id === renewal.id && e.event_type === 'purchase.paid')!;
    expect((paidEvent.payload as Purchase).transaction_data.extra).toEqual(card);
  });

  it('the card stays known after its token is deleted, for the purchases it paid and for the saving purchase, whose deletion attempt shows it (as the platform\'s purchase.recurring_token_deleted does)', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const token = await saveToken(box, client.id);
    const renewal = await createPurchase(box, client.id);
    expect((await charge(box, renewal.id, token)).status).toBe(200);
    expect((await box.req('POST', `/api/v1/purchases/${token}/delete_recurring_token/`)).status).toBe(200);
    expect((await getPurchase(box, renewal.id)).transaction_data.extra).toEqual(TEST_VISA);
    const saving = await getPurchase(box, token);
    expect(saving.transaction_data.attempts.map((a) => [a.type, a.extra])).toEqual([
      ['delete_recurring_token', TEST_VISA],
      ['execute', TEST_VISA],
    ]);
  });

  it('a snapshot keeps the card once, with the saving purchase: imported, the token charge shows it again', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const token = await saveToken(box, client.id);
    const renewal = await createPurchase(box, client.id);
    expect((await charge(box, renewal.id, token)).status).toBe(200);
    const exported = await box.req('GET', '/sim/v1/snapshot');
    const stored = (exported.body as { sandbox: { purchases: [string, Purchase][] } }).sandbox.purchases.find(([id]) => id === renewal.id)![1];
    expect(stored.transaction_data.attempts[0]!.extra).toEqual({});
    const created = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: exported.body } });
    expect(created.status, created.text.slice(0, 500)).toBe(201);
    const copy = created.body as { token: string };
    const read = await h.request('GET', '/api/v1/purchases/?page_size=10', { token: copy.token });
    const charged = (read.body as { results: Purchase[] }).results.find((p) => p.recurring_token !== null)!;
    expect(charged.transaction_data.extra).toEqual(TEST_VISA);
  });

  it('a declined token charge records the card that was declined', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const token = await saveToken(box, client.id, { tokenOutcome: 'failure' });
    const purchase = await createPurchase(box, client.id);
    expectRejected(await charge(box, purchase.id, token), '__all__', 'purchase_charge_error');
    const after = await getPurchase(box, purchase.id);
    expect(after.transaction_data.attempts[0]).toMatchObject({ type: 'recurring_execute', successful: false, extra: TEST_VISA });
    // Nothing was paid: no card paid it.
    expect(after.transaction_data.extra).toEqual({});
  });

  it('a skip_capture purchase charged with a token: the authorize attempt carries the card, and so does the capture (as the platform\'s purchase.captured shows)', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const token = await saveToken(box, client.id);
    const held = await createPurchase(box, client.id, { skip_capture: true });
    expect((await charge(box, held.id, token)).body).toMatchObject({ status: 'hold' });
    const captured = (await box.req('POST', `/api/v1/purchases/${held.id}/capture/`, {})).body as Purchase;
    expect(captured.transaction_data.attempts.map((a) => [a.type, a.extra])).toEqual([
      ['capture', TEST_VISA],
      ['authorize', TEST_VISA],
    ]);
    expect(captured.transaction_data.extra).toEqual(TEST_VISA);
  });

  it('a payment with a method that is not a card has extra {}; a new purchase has transaction_data.extra {}', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const created = await createPurchase(box, client.id, { purchase: { currency: 'MYR', products: [{ name: 'Box', price: 4900 }] } });
    expect(created.transaction_data.extra).toEqual({});
    const paid = await payPurchase(box, created.id, { method: 'fpx' });
    expect(paid.transaction_data.attempts[0]!.extra).toEqual({});
    expect(paid.transaction_data.extra).toEqual({});
  });

  it('refused: card details with a method that is not a card, a number of another scheme, a malformed number or expiry; nothing is paid', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const myr = await createPurchase(box, client.id, { purchase: { currency: 'MYR', products: [{ name: 'Box', price: 4900 }] } });
    const pay = (id: string, body: Record<string, unknown>) => box.req('POST', `/sim/v1/purchases/${id}/pay`, body);
    expectRejected(await pay(myr.id, { method: 'fpx', card: { cardholder_name: 'Ada' } }), 'card', 'invalid');
    const purchase = await createPurchase(box, client.id);
    expectRejected(await pay(purchase.id, { method: 'visa', card: { number: '5555555555554444' } }), 'card.number', 'invalid');
    expectRejected(await pay(purchase.id, { method: 'visa', card: { number: '4444' } }), 'card.number', 'invalid');
    expectRejected(await pay(purchase.id, { method: 'visa', card: { expiry: '13/30' } }), 'card.expiry', 'invalid');
    expectRejected(await pay(purchase.id, { method: 'visa', card: { cvc: '123' } }), 'card.cvc', 'unknown_field');
    expect((await getPurchase(box, purchase.id)).status).toBe('created');
  });
});

describe('the checkout page\'s card fields', () => {
  async function post(purchase: Purchase, fields: Record<string, string>) {
    const response = await fetch(purchase.checkout_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
    return { status: response.status, text: await response.text() };
  }

  it('the card typed on the checkout page is the payment\'s; empty fields take the test card', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const page = await (await fetch((await createPurchase(box, client.id)).checkout_url)).text();
    for (const id of ['card-number', 'cardholder-name', 'card-expiry']) expect(page).toContain(`<label for="${id}">`);

    const typed = await createPurchase(box, client.id);
    const sent = await post(typed, { pay_with: 'method:visa', card_number: '4111 1111 1111 1111', cardholder_name: 'Ada Lovelace', card_expiry: '09/28' });
    expect(sent.status, sent.text).toBe(303);
    expect((await getPurchase(box, typed.id)).transaction_data.extra).toMatchObject({ masked_pan: '411111******1111', expiry_month: 9, expiry_year: 28 });

    const blank = await createPurchase(box, client.id);
    expect((await post(blank, { pay_with: 'method:visa', card_number: '', cardholder_name: '', card_expiry: '' })).status).toBe(303);
    expect((await getPurchase(box, blank.id)).transaction_data.extra).toEqual(TEST_VISA);
  });

  it('a card number of another scheme is refused on the page, and nothing is paid', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const purchase = await createPurchase(box, client.id);
    const refused = await post(purchase, { pay_with: 'method:mastercard', card_number: '4444 3333 2222 1111' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('is not a Mastercard card number');
    expect((await getPurchase(box, purchase.id)).status).toBe('created');
  });
});
