// Direct Post (DESIGN.md §14, "Gateway flows"): a browser form POST to a purchase's direct_post_url,
// urlencoded, from any origin, with the fields the platform's WooCommerce plugin posts
// (cardholder_name, card_number, expires MM/YY, cvc, remember_card on/off), pays the purchase with that
// card — the test card numbers decide success or the decline reason — saves a token when remember_card
// is on, and answers 303 to success_redirect or failure_redirect. A bad form answers 400 in HTML.
// Posted here as a browser posts it, without one; the browser flow is in test/browser/direct-post.test.ts.
// The same form posted to checkout_url, as the platform's iOS SDK posts it (Origin: null), is taken the same way.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { useReceivers } from '../support/receiver.ts';
import { createPurchase, events, getPurchase, makeClient, payPurchase, sandboxAt, tokensOf, type Box, type Purchase } from '../builders/engine.ts';

const NOW = '2026-01-30T12:00:00Z';
const h = useHarness({ now: NOW });
const { receiver } = useReceivers('billing-sim-direct-post-');

const SHOP = 'https://shop.example';
const REDIRECTS = { success_redirect: `${SHOP}/thanks`, failure_redirect: `${SHOP}/sorry` };

/** The plugin's fields for the platform's documented Visa test card, valid until Dec 2028. */
const CARD = { cardholder_name: 'Siti Aminah', card_number: '4444 3333 2222 1111', expires: '12/28', cvc: '123' };

/** The form posted as a browser posts it: urlencoded, redirects not followed, with extra headers when given. */
async function post(url: string, fields: Record<string, string>, options: { raw?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
    body: options.raw ?? new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: response.status, type: response.headers.get('content-type') ?? '', location: response.headers.get('location'), text: await response.text() };
}

/** The purchase's direct_post_url: a string in every answer (the records' type leaves it unknown). */
const directPostUrl = (purchase: Purchase): string => purchase.direct_post_url as string;

async function setup(overrides: Record<string, unknown> = {}): Promise<{ box: Box; clientId: string; purchase: Purchase }> {
  const box = await sandboxAt(h, NOW);
  const clientId = (await makeClient(box)).id;
  return { box, clientId, purchase: await createPurchase(box, clientId, { ...REDIRECTS, ...overrides }) };
}

describe('Direct Post: the test cards decide', () => {
  it('every purchase answers direct_post_url on this server\'s origin', async () => {
    const { purchase } = await setup();
    expect(purchase.direct_post_url).toBe(`${h.origin}/direct_post/${purchase.id}/`);
  });

  it('the platform\'s Visa test card with remember_card=on: 303 to success_redirect, paid, a recurring token saved, the posted card in transaction_data.extra, success_callback delivered', async () => {
    const { box, clientId, purchase } = await setup({ success_callback: `${receiver.url}/paid` });
    const res = await post(directPostUrl(purchase), { ...CARD, remember_card: 'on' });
    expect([res.status, res.location]).toEqual([303, REDIRECTS.success_redirect]);

    const paid = await getPurchase(box, purchase.id);
    expect(paid).toMatchObject({ status: 'paid', is_recurring_token: true, payment: { payment_method: 'visa' } });
    expect(paid.transaction_data.extra).toMatchObject({ card_brand: 'visa', masked_pan: '444433******1111', expiry_month: 12, expiry_year: 28, cardholder_name: 'Siti Aminah' });
    const tokens = await tokensOf(box, clientId);
    expect(tokens.map((t) => [t.id, t.description])).toEqual([[purchase.id, '•••• 1111']]);

    const [callback] = await receiver.waitFor('/paid', 1);
    expect(callback!.body).toMatchObject({ id: purchase.id, event_type: 'purchase.paid', status: 'paid' });
    expect((await events(box)).filter((e) => e.object_id === purchase.id).map((e) => e.event_type)).toContain('purchase.paid');
  });

  it('the platform\'s Mastercard test card, with dashes, remember_card left out: paid with mastercard, no token saved', async () => {
    const { box, clientId, purchase } = await setup();
    const res = await post(directPostUrl(purchase), { ...CARD, card_number: '5555-5555-5555-4444', expires: '07 / 27', cvc: '1234' });
    expect([res.status, res.location]).toEqual([303, REDIRECTS.success_redirect]);
    const paid = await getPurchase(box, purchase.id);
    expect(paid).toMatchObject({ status: 'paid', is_recurring_token: false, payment: { payment_method: 'mastercard' } });
    expect(paid.transaction_data.extra).toMatchObject({ card_brand: 'mastercard', masked_pan: '555555******4444', expiry_month: 7, expiry_year: 27 });
    expect(await tokensOf(box, clientId)).toEqual([]);
  });

  it('a force_recurring purchase saves the card though remember_card is off ("saves a token when remember_card is on or force_recurring is true")', async () => {
    const { box, clientId, purchase } = await setup({ force_recurring: true });
    const res = await post(directPostUrl(purchase), { ...CARD, remember_card: 'off' });
    expect([res.status, res.location]).toEqual([303, REDIRECTS.success_redirect]);
    expect(await getPurchase(box, purchase.id)).toMatchObject({ status: 'paid', is_recurring_token: true });
    expect((await tokensOf(box, clientId)).map((token) => token.id)).toEqual([purchase.id]);
  });

  it('the simulator\'s decline test cards: 303 to failure_redirect, status error, the card\'s decline code on the attempt, no token saved though remember_card=on', async () => {
    const table: [string, string][] = [
      ['4000 0000 0000 0002', 'do_not_honour'],
      ['4000 0000 0000 9995', 'insufficient_funds'],
      ['4000 0000 0000 9987', 'lost_card'],
      ['4000 0000 0000 9979', 'stolen_card'],
      ['4000 0000 0000 0069', 'expired_card'],
      ['4000 0000 0000 0119', 'general_transaction_error'],
      ['4100 0000 0000 0019', 'suspected_fraud'],
      ['5100 0000 0000 0008', 'do_not_honour'],
      ['6759 0000 0000 0018', 'insufficient_funds'],
    ];
    const { box, clientId } = await setup();
    for (const [number, code] of table) {
      const purchase = await createPurchase(box, clientId, REDIRECTS);
      const res = await post(directPostUrl(purchase), { ...CARD, card_number: number, remember_card: 'on' });
      expect([res.status, res.location], number).toEqual([303, REDIRECTS.failure_redirect]);
      const declined = await getPurchase(box, purchase.id);
      expect(declined.status, number).toBe('error');
      expect(declined.transaction_data.attempts[0], number).toMatchObject({ type: 'execute', successful: false, error: { code } });
    }
    expect(await tokensOf(box, clientId)).toEqual([]);
  });

  it('a number failing the Luhn check declines invalid_card_number', async () => {
    const { box, purchase } = await setup();
    const res = await post(directPostUrl(purchase), { ...CARD, card_number: '4444 3333 2222 1112' });
    expect([res.status, res.location]).toEqual([303, REDIRECTS.failure_redirect]);
    expect((await getPurchase(box, purchase.id)).transaction_data.attempts[0]!.error).toMatchObject({ code: 'invalid_card_number' });
  });

  it('expires before the sandbox clock\'s month declines expired_card; the clock\'s own month (01/26 on 30 Jan 2026) still pays', async () => {
    const { box, clientId, purchase } = await setup();
    const res = await post(directPostUrl(purchase), { ...CARD, expires: '12/25' });
    expect([res.status, res.location]).toEqual([303, REDIRECTS.failure_redirect]);
    expect((await getPurchase(box, purchase.id)).transaction_data.attempts[0]!.error).toMatchObject({ code: 'expired_card' });

    const current = await createPurchase(box, clientId, REDIRECTS);
    expect((await post(directPostUrl(current), { ...CARD, expires: '01/26' })).location).toBe(REDIRECTS.success_redirect);
    expect((await getPurchase(box, current.id)).status).toBe('paid');
  });

  it('a declined purchase can be posted again and paid', async () => {
    const { box, purchase } = await setup();
    expect((await post(directPostUrl(purchase), { ...CARD, card_number: '4000000000009995' })).location).toBe(REDIRECTS.failure_redirect);
    expect((await post(directPostUrl(purchase), CARD)).location).toBe(REDIRECTS.success_redirect);
    expect((await getPurchase(box, purchase.id)).status).toBe('paid');
  });
});

describe('Direct Post: where the payer goes, and from where', () => {
  it('a form posted from another site (Origin https://shop.example) is accepted and pays', async () => {
    const { box, purchase } = await setup();
    const res = await post(directPostUrl(purchase), CARD, { headers: { origin: SHOP } });
    expect([res.status, res.location]).toEqual([303, REDIRECTS.success_redirect]);
    expect((await getPurchase(box, purchase.id)).status).toBe('paid');
  });

  it('without success_redirect or failure_redirect, 303 to the purchase\'s checkout page, which shows the result', async () => {
    const box = await sandboxAt(h, NOW);
    const clientId = (await makeClient(box)).id;
    for (const [number, status] of [['4444333322221111', 'paid'], ['4000000000009995', 'error']] as const) {
      const purchase = await createPurchase(box, clientId);
      const res = await post(directPostUrl(purchase), { ...CARD, card_number: number });
      expect([res.status, res.location]).toEqual([303, new URL(purchase.checkout_url).pathname]);
      expect((await getPurchase(box, purchase.id)).status).toBe(status);
    }
  });

  it('a seeded sandbox\'s purchase answers /direct_post/{sandbox_id}/{id}/, and that address pays it', async () => {
    const { token, brandId, id } = await h.newSandbox({ now: NOW, frozen: true, seed: 42 });
    const box: Box = { h, token, brandId, req: (method, path, body) => h.request(method, path, { token, body }) };
    const purchase = await createPurchase(box, (await makeClient(box)).id, REDIRECTS);
    expect(purchase.direct_post_url).toBe(`${h.origin}/direct_post/${id}/${purchase.id}/`);
    expect((await post(directPostUrl(purchase), CARD)).location).toBe(REDIRECTS.success_redirect);
    expect((await getPurchase(box, purchase.id)).status).toBe('paid');
  });
});

describe('Direct Post: a bad form answers 400 in HTML and changes nothing', () => {
  it('a missing field, a card number that is no number or of no brand taken, a bad expires, cvc or remember_card: 400 naming the field', async () => {
    const { box, purchase } = await setup();
    const before = await getPurchase(box, purchase.id);
    const { cvc: _cvc, ...withoutCvc } = CARD;
    const bad: [Record<string, string>, string][] = [
      [withoutCvc, 'cvc: This field is required.'],
      [{ ...CARD, cardholder_name: '  ' }, 'cardholder_name: This field is required.'],
      [{ ...CARD, card_number: 'abcd' }, 'card_number: Enter a card number of 12 to 19 digits.'],
      [{ ...CARD, card_number: '3782 822463 10005' }, 'card_number: A number starting 37 is of no brand'],
      [{ ...CARD, expires: '13/30' }, 'expires: Enter the expiry as MM/YY'],
      [{ ...CARD, expires: '12/2028' }, 'expires: Enter the expiry as MM/YY'],
      [{ ...CARD, cvc: '12' }, 'cvc: Enter the CVC: 3 or 4 digits.'],
      [{ ...CARD, remember_card: 'yes' }, 'remember_card: Send on or off.'],
    ];
    for (const [fields, message] of bad) {
      const res = await post(directPostUrl(purchase), fields);
      expect([res.status, res.type], message).toEqual([400, 'text/html; charset=utf-8']);
      expect(res.text).toContain(message);
    }
    expect(await getPurchase(box, purchase.id)).toEqual(before);
  });

  it('a card brand the purchase\'s payment_method_whitelist does not offer: 400 naming the method', async () => {
    const { box, purchase } = await setup({ payment_method_whitelist: ['visa'] });
    const before = await getPurchase(box, purchase.id);
    const res = await post(directPostUrl(purchase), { ...CARD, card_number: '5555 5555 5555 4444' });
    expect([res.status, res.type]).toEqual([400, 'text/html; charset=utf-8']);
    expect(res.text).toMatch(/<p>method: .*mastercard/);
    expect(await getPurchase(box, purchase.id)).toEqual(before);
  });

  it('a purchase already paid, or cancelled: 400 with the reason, and it stays as it was', async () => {
    const { box, clientId, purchase: paid } = await setup();
    await payPurchase(box, paid.id);
    const cancelled = await createPurchase(box, clientId, REDIRECTS);
    expect((await box.req('POST', `/api/v1/purchases/${cancelled.id}/cancel/`)).status).toBe(200);
    for (const [purchase, status] of [[paid, 'paid'], [cancelled, 'cancelled']] as const) {
      const before = await getPurchase(box, purchase.id);
      const res = await post(directPostUrl(purchase), { ...CARD, remember_card: 'on' });
      expect([res.status, res.type], status).toEqual([400, 'text/html; charset=utf-8']);
      expect(res.text).toContain(`Purchase is ${status}`);
      expect(await getPurchase(box, purchase.id)).toEqual(before);
    }
    expect(await tokensOf(box, clientId)).toEqual([]);
  });

  it('a body that is not a urlencoded form (JSON) is a 400 page; a form over 16 KiB a 413 page, never a 500', async () => {
    const { box, purchase } = await setup();
    const before = await getPurchase(box, purchase.id);
    const json = await post(directPostUrl(purchase), {}, { raw: JSON.stringify(CARD), headers: { 'content-type': 'application/json' } });
    expect([json.status, json.type]).toEqual([400, 'text/html; charset=utf-8']);
    expect(json.text).toContain('application/x-www-form-urlencoded');
    const big = await post(directPostUrl(purchase), {}, { raw: `${new URLSearchParams(CARD).toString()}&pad=${'x'.repeat(20_000)}` });
    expect([big.status, big.type]).toEqual([413, 'text/html; charset=utf-8']);
    expect(big.text).toContain('larger than 16 KiB');
    expect(await getPurchase(box, purchase.id)).toEqual(before);
  });

  it('an unknown purchase is a 404 page; opening the address (GET) is a 405 page that names POST', async () => {
    const unknown = await post(`${h.origin}/direct_post/7d4b1c8e-1111-4222-8333-444455556666/`, CARD);
    expect([unknown.status, unknown.type]).toEqual([404, 'text/html; charset=utf-8']);
    expect(unknown.text).toContain('<h1>Purchase not found</h1>');
    const { purchase } = await setup();
    const opened = await fetch(directPostUrl(purchase));
    expect([opened.status, opened.headers.get('allow'), opened.headers.get('content-type')]).toEqual([405, 'POST', 'text/html; charset=utf-8']);
  });
});

describe('a Direct Post form POSTed to checkout_url is taken exactly as at direct_post_url, from any origin', () => {
  // CHIPAsia/chip-ios-sdk: GateCardViewController.swift posts these four fields (its card field puts a space
  // after every four digits; no remember_card) to GateUi.redirectUrl, the purchase's checkout_url, from a
  // page GateWebViewController.swift loads without a base URL: the browser sends `Origin: null`.
  const IOS_CARD = { card_number: '4444 3333 2222 1111', expires: '12/28', cvc: '123', cardholder_name: 'Siti Aminah' };

  it('the iOS SDK\'s form with Origin: null and the spaces its field inserts: paid with visa, no token saved, 303 to success_redirect, success_callback delivered', async () => {
    const { box, clientId, purchase } = await setup({ success_callback: `${receiver.url}/paid-ios` });
    const res = await post(purchase.checkout_url, IOS_CARD, { headers: { origin: 'null' } });
    expect([res.status, res.location]).toEqual([303, REDIRECTS.success_redirect]);
    const paid = await getPurchase(box, purchase.id);
    expect(paid).toMatchObject({ status: 'paid', is_recurring_token: false, payment: { payment_method: 'visa' } });
    expect(paid.transaction_data.extra).toMatchObject({ card_brand: 'visa', masked_pan: '444433******1111', expiry_month: 12, expiry_year: 28, cardholder_name: 'Siti Aminah' });
    expect(await tokensOf(box, clientId)).toEqual([]);
    const [callback] = await receiver.waitFor('/paid-ios', 1);
    expect(callback!.body).toMatchObject({ id: purchase.id, event_type: 'purchase.paid', status: 'paid' });
  });

  it('a declined test card (4000 0000 0000 9995) with Origin: null: 303 to failure_redirect, status error, insufficient_funds', async () => {
    const { box, purchase } = await setup();
    const res = await post(purchase.checkout_url, { ...IOS_CARD, card_number: '4000 0000 0000 9995' }, { headers: { origin: 'null' } });
    expect([res.status, res.location]).toEqual([303, REDIRECTS.failure_redirect]);
    const declined = await getPurchase(box, purchase.id);
    expect(declined.status).toBe('error');
    expect(declined.transaction_data.attempts[0]).toMatchObject({ type: 'execute', successful: false, error: { code: 'insufficient_funds' } });
  });

  it('without an Origin header, and from a shop\'s origin, it pays too; remember_card=on saves the token, as at direct_post_url', async () => {
    const { box, clientId, purchase } = await setup();
    expect((await post(purchase.checkout_url, IOS_CARD)).location).toBe(REDIRECTS.success_redirect);
    expect((await getPurchase(box, purchase.id)).status).toBe('paid');

    const fromShop = await createPurchase(box, clientId, REDIRECTS);
    const res = await post(fromShop.checkout_url, { ...IOS_CARD, card_number: '5555555555554444', remember_card: 'on' }, { headers: { origin: SHOP } });
    expect([res.status, res.location]).toEqual([303, REDIRECTS.success_redirect]);
    expect(await getPurchase(box, fromShop.id)).toMatchObject({ status: 'paid', is_recurring_token: true, payment: { payment_method: 'mastercard' } });
    expect((await tokensOf(box, clientId)).map((token) => token.id)).toEqual([fromShop.id]);
  });

  it('a seeded sandbox\'s long checkout_url takes it too', async () => {
    const { token, brandId } = await h.newSandbox({ now: NOW, frozen: true, seed: 42 });
    const box: Box = { h, token, brandId, req: (method, path, body) => h.request(method, path, { token, body }) };
    const purchase = await createPurchase(box, (await makeClient(box)).id, REDIRECTS);
    expect((await post(purchase.checkout_url, IOS_CARD, { headers: { origin: 'null' } })).location).toBe(REDIRECTS.success_redirect);
    expect((await getPurchase(box, purchase.id)).status).toBe('paid');
  });

  it('the checkout page\'s own form (pay_with) from another origin, or Origin: null, is still refused (403), card fields or not', async () => {
    const { box, purchase } = await setup();
    for (const origin of ['null', SHOP]) {
      for (const fields of [{ pay_with: 'method:visa', outcome: 'approve' }, { pay_with: 'method:visa', outcome: 'approve', ...IOS_CARD }]) {
        const res = await post(purchase.checkout_url, fields, { headers: { origin } });
        expect(res.status, origin).toBe(403);
        expect(res.text).toContain(`This form was sent from ${origin}`);
      }
    }
    expect((await getPurchase(box, purchase.id)).status).toBe('created');
  });

  it('a mixed or garbage form with card_number and no pay_with gets the answer direct_post_url gives it (400 naming the fields), and changes nothing', async () => {
    const { box, purchase } = await setup();
    const before = await getPurchase(box, purchase.id);
    const forms: Record<string, string>[] = [
      // The checkout page's own card fields without its pay_with: card_expiry is not Direct Post's expires.
      { card_number: '4444 3333 2222 1111', cardholder_name: 'Siti Aminah', card_expiry: '12/28', outcome: 'approve' },
      { card_number: '' },
      { card_number: 'abcd', expires: '13/30', cvc: '12', cardholder_name: 'x', remember_card: 'yes' },
      { ...IOS_CARD, card_number: '3782 822463 10005' },
    ];
    for (const fields of forms) {
      const atCheckout = await post(purchase.checkout_url, fields, { headers: { origin: 'null' } });
      const atDirectPost = await post(directPostUrl(purchase), fields, { headers: { origin: 'null' } });
      expect([atCheckout.status, atCheckout.type], JSON.stringify(fields)).toEqual([400, 'text/html; charset=utf-8']);
      expect(atCheckout.text, JSON.stringify(fields)).toBe(atDirectPost.text);
      expect(atCheckout.text).toContain('<h1>Payment form refused</h1>');
    }
    expect(await getPurchase(box, purchase.id)).toEqual(before);
    const card = await post(purchase.checkout_url, forms[0]!);
    expect(card.text).toContain('expires: This field is required.');
    expect(card.text).toContain('cvc: This field is required.');
  });

  it('a purchase no longer payable: the 400 direct_post_url gives, with its reason', async () => {
    const { box, purchase } = await setup();
    await payPurchase(box, purchase.id);
    const res = await post(purchase.checkout_url, IOS_CARD, { headers: { origin: 'null' } });
    expect([res.status, res.type]).toEqual([400, 'text/html; charset=utf-8']);
    expect(res.text).toContain('Purchase is paid');
    expect(res.text).toBe((await post(directPostUrl(purchase), IOS_CARD)).text);
  });
});
