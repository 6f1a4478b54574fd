// The checkout page over plain HTTP (what a browser sends, without one): which page each purchase
// status gets, the `viewed` status, escaping, the form post beside the API's JSON-only rule, the
// engine's refusals shown as messages, and the payer sent on to success_redirect by a paid one's
// page. The browser flows are in test/browser/checkout.test.ts.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  advance,
  at,
  createPurchase,
  events,
  getPurchase,
  makeClient,
  makeOneTimeTemplate,
  payPurchase,
  sandboxAt,
  saveToken,
  tokensOf,
  type Box,
  type Purchase,
} from '../builders/engine.ts';

const h = useHarness();

const NOW = '2026-01-30T12:00:00Z';

async function page(url: string) {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** The checkout form as a browser posts it: urlencoded, redirects not followed, from `origin` when given. */
async function post(purchase: Purchase, fields: Record<string, string>, raw?: string, origin?: string) {
  const response = await fetch(purchase.checkout_url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
    body: raw ?? new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: response.status, location: response.headers.get('location'), text: await response.text() };
}

async function setup(): Promise<{ box: Box; clientId: string }> {
  const box = await sandboxAt(h, NOW);
  return { box, clientId: (await makeClient(box)).id };
}

describe('checkout page: what each purchase gets', () => {
  it('an unknown or malformed id gets a 404 page in HTML, not the API\'s JSON or a stack trace', async () => {
    for (const id of ['7d4b1c8e-1111-4222-8333-444455556666', 'not-a-uuid']) {
      const res = await page(`${h.origin}/checkout/${id}/`);
      expect([res.status, res.type]).toEqual([404, 'text/html; charset=utf-8']);
      expect(res.text).toContain('<h1>Purchase not found</h1>');
    }
  });

  it('opening a created or sent purchase marks it viewed, once (event purchase.viewed); the path without the trailing slash works too', async () => {
    const { box, clientId } = await setup();
    const created = await createPurchase(box, clientId);
    const template = await makeOneTimeTemplate(box);
    const sent = (await box.req('POST', `/api/v1/billing_templates/${template.id}/send_invoice/`, { client_id: clientId })).body as Purchase;
    expect(sent.status).toBe('sent');
    for (const purchase of [created, sent]) {
      expect((await page(purchase.checkout_url)).status).toBe(200);
      expect((await page(purchase.checkout_url.replace(/\/$/, ''))).status).toBe(200);
      const history = (await getPurchase(box, purchase.id)).status_history.map((s) => s.status);
      expect(history).toEqual([...purchase.status_history.map((s) => s.status), 'viewed']);
    }
    const viewed = (await events(box)).filter((e) => e.event_type === 'purchase.viewed').map((e) => e.object_id);
    expect(viewed.sort()).toEqual([created.id, sent.id].sort());
  });

  it('a paid or cancelled purchase gets a 200 page that says so, and no form', async () => {
    const { box, clientId } = await setup();
    const paid = await createPurchase(box, clientId);
    expect((await post(paid, { pay_with: 'method:visa', outcome: 'approve' })).status).toBe(303);
    const cancelled = await createPurchase(box, clientId);
    expect((await box.req('POST', `/api/v1/purchases/${cancelled.id}/cancel/`)).status).toBe(200);

    const paidPage = await page(paid.checkout_url);
    expect(paidPage.status).toBe(200);
    expect(paidPage.text).toContain('<h1>Paid</h1>');
    expect(paidPage.text).toContain('Payment approved: paid 30 Jan 2026, 12:00 (UTC) with Visa.');
    const cancelledPage = await page(cancelled.checkout_url);
    expect(cancelledPage.status).toBe(200);
    expect(cancelledPage.text).toContain('This purchase was cancelled: there is nothing to pay.');
    for (const text of [paidPage.text, cancelledPage.text]) expect(text).not.toContain('<form');
  });

  it('escapes what the merchant wrote: a product named <script> is text on the page', async () => {
    const { box, clientId } = await setup();
    const purchase = await createPurchase(box, clientId, {
      purchase: { currency: 'EUR', products: [{ name: '<script>alert(1)</script>', price: 100 }], notes: '"quoted" & <b>bold</b>' },
    });
    const { text } = await page(purchase.checkout_url);
    expect(text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text).toContain('&quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(text).not.toContain('<script>alert(1)');
  });

  it('offers only what payment_method_whitelist allows, and only saved cards of the purchase\'s service type', async () => {
    const { box, clientId } = await setup();
    const oneday = await saveToken(box, clientId, { serviceType: 'ONEDAY' });
    const plain = await saveToken(box, clientId);
    const visaOnly = await createPurchase(box, clientId, { payment_method_whitelist: ['visa'] });
    const typed = await createPurchase(box, clientId, { force_recurring: true, service_type: 'ONEDAY', due: at(NOW) + 10 * 86_400 });

    const choices = (text: string) => [...text.matchAll(/name="pay_with" id="[^"]+" value="([^"]+)"/g)].map((m) => m[1]);
    expect(choices((await page(visaOnly.checkout_url)).text)).toEqual([`token:${plain}`, 'method:visa']);
    expect(choices((await page(typed.checkout_url)).text)).toEqual([
      `token:${oneday}`,
      ...['visa', 'mastercard', 'maestro'].map((m) => `method:${m}`),
    ]);
  });
});

describe('checkout form post', () => {
  it('a urlencoded form is the page\'s business: 303 back to the page; the API still refuses urlencoded bodies', async () => {
    const { box, clientId } = await setup();
    const purchase = await createPurchase(box, clientId);
    const res = await post(purchase, { pay_with: 'method:maestro', outcome: 'approve' });
    expect([res.status, res.location]).toEqual([303, new URL(purchase.checkout_url).pathname]);
    expect((await getPurchase(box, purchase.id)).payment?.payment_method).toBe('maestro');

    const api = await fetch(`${h.origin}/api/v1/clients/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${box.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a%40example.com',
    });
    expect(api.status).toBe(400);
    expect(Object.values((await api.json()) as Record<string, { code: string }[]>)[0]![0]!.code).toBe('unsupported_media_type');
  });

  it('a form posted from another site is refused (403 page) and pays nothing; from the page\'s own origin it pays', async () => {
    const { box, clientId } = await setup();
    const purchase = await createPurchase(box, clientId);
    for (const origin of ['https://evil.example', 'null', 'http://localhost:5173']) {
      const refused = await post(purchase, { pay_with: 'method:visa', outcome: 'approve' }, undefined, origin);
      expect(refused.status, origin).toBe(403);
      expect(refused.text).toContain(`sent from ${origin}`);
    }
    expect((await getPurchase(box, purchase.id)).status).toBe('created');
    const own = await post(purchase, { pay_with: 'method:visa', outcome: 'approve' }, undefined, h.origin);
    expect(own.status).toBe(303);
    expect((await getPurchase(box, purchase.id)).status).toBe('paid');
  });

  it('"approve now and decline later charges" pays and saves a card whose later charge is declined', async () => {
    const { box, clientId } = await setup();
    const first = await createPurchase(box, clientId);
    expect((await post(first, { pay_with: 'method:visa', outcome: 'approve_decline_later' })).status).toBe(303);
    expect((await getPurchase(box, first.id)).status).toBe('paid');
    expect((await tokensOf(box, clientId)).map((t) => t.id)).toEqual([first.id]);

    const later = await createPurchase(box, clientId);
    const charged = await box.req('POST', `/api/v1/purchases/${later.id}/charge/`, { recurring_token: first.id });
    expect(charged.status).toBe(400);
    expect(Object.values(charged.body as Record<string, { code: string }[]>)[0]![0]!.code).toBe('purchase_charge_error');
  });

  it('an engine refusal is a 400 page with the message, and changes nothing: expired (past due with due_strict), a method outside the whitelist, no method', async () => {
    const { box, clientId } = await setup();
    const strict = await createPurchase(box, clientId, {
      due: at(NOW) + 86_400,
      purchase: { currency: 'EUR', due_strict: true, products: [{ name: 'Ticket', price: 5000 }] },
    });
    await advance(box, { by: 'P2D' });
    expect((await getPurchase(box, strict.id)).status).toBe('expired');
    const expired = await post(strict, { pay_with: 'method:visa', outcome: 'approve' });
    expect(expired.status).toBe(400);
    expect(expired.text).toContain('Purchase expired');
    expect((await getPurchase(box, strict.id)).status).toBe('expired');

    const visaOnly = await createPurchase(box, clientId, { payment_method_whitelist: ['visa'] });
    const outside = await post(visaOnly, { pay_with: 'method:mastercard', outcome: 'approve' });
    expect(outside.status).toBe(400);
    expect(outside.text).toMatch(/<p>method: .*mastercard/);
    const none = await post(visaOnly, { outcome: 'approve' });
    expect(none.status).toBe(400);
    expect(none.text).toContain('pay_with: Choose a payment method.');
    expect((await getPurchase(box, visaOnly.id)).status).toBe('created');
  });

  it('a page that offers no method still posts its own form (an empty pay_with beside its card fields, not a Direct Post form): "Choose a payment method"', async () => {
    const { box, clientId } = await setup();
    const fpxOnEur = await createPurchase(box, clientId, { payment_method_whitelist: ['fpx'] });
    const { text } = await page(fpxOnEur.checkout_url);
    expect(text).toContain('id="no-methods"');
    expect(text).toContain('<input type="hidden" name="pay_with" value="">');
    // What a browser sends from that page: every field of the form, the card's left empty.
    const fields = { pay_with: '', card_number: '', cardholder_name: '', card_expiry: '', outcome: 'approve', decline_code: 'insufficient_funds' };
    const res = await post(fpxOnEur, fields, undefined, h.origin);
    expect(res.status).toBe(400);
    expect(res.text).toContain('pay_with: Choose a payment method.');
    expect((await getPurchase(box, fpxOnEur.id)).status).toBe('viewed');
  });

  it('the checkout page\'s declines carry the decline reason posted beside "Decline"; an unknown one is a 400 page naming decline_code, and pays nothing', async () => {
    const { box, clientId } = await setup();
    const purchase = await createPurchase(box, clientId);
    const unknown = await post(purchase, { pay_with: 'method:visa', outcome: 'decline', decline_code: 'card_on_fire' });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('decline_code: &quot;card_on_fire&quot; is not a valid choice.');
    expect((await getPurchase(box, purchase.id)).status).toBe('created');
    // Sent with every outcome (the select is always there), it is read only with "Decline".
    expect((await post(purchase, { pay_with: 'method:visa', outcome: 'decline', decline_code: 'suspected_fraud' })).status).toBe(303);
    expect((await getPurchase(box, purchase.id)).transaction_data.attempts[0]!.error).toMatchObject({ code: 'suspected_fraud', message: 'Declined as suspected fraud.' });
    expect((await post(purchase, { pay_with: 'method:visa', outcome: 'approve', decline_code: 'suspected_fraud' })).status).toBe(303);
    expect((await getPurchase(box, purchase.id)).status).toBe('paid');
  });

  it('a form over 16 KiB gets a 413 page, and an unknown purchase a 404 page', async () => {
    const { box, clientId } = await setup();
    const purchase = await createPurchase(box, clientId);
    const big = await post(purchase, {}, `pay_with=method:visa&pad=${'x'.repeat(20_000)}`);
    expect(big.status).toBe(413);
    expect(big.text).toContain('<h1>Payment form refused</h1>');
    // The form's own limit, not the API's 1 MiB.
    expect(big.text).toContain('larger than 16 KiB');
    const unknown = await post({ ...purchase, checkout_url: `${h.origin}/checkout/7d4b1c8e-1111-4222-8333-444455556666/` }, { pay_with: 'method:visa' });
    expect(unknown.status).toBe(404);
  });
});

describe('checkout_url?preferred=METHOD and ?active=METHOD choose that method on load when the purchase offers it', () => {
  /** The page's pay_with choices that are checked on load. */
  const checked = (text: string) => [...text.matchAll(/name="pay_with" id="[^"]+" value="([^"]+)" checked>/g)].map((m) => m[1]);
  const MYR = { purchase: { currency: 'MYR', products: [{ name: 'Hour', price: 1200 }] } };

  it('?preferred=fpx (the iOS SDK\'s link for a method that is not a card) and ?active=razer_tng (Perfex\'s): that method alone is checked, before a saved card', async () => {
    const { box, clientId } = await setup();
    const saved = await saveToken(box, clientId);
    const purchase = await createPurchase(box, clientId, MYR);
    expect(checked((await page(purchase.checkout_url)).text)).toEqual([`token:${saved}`]);
    expect(checked((await page(`${purchase.checkout_url}?preferred=fpx`)).text)).toEqual(['method:fpx']);
    expect(checked((await page(`${purchase.checkout_url}?active=razer_tng`)).text)).toEqual(['method:razer_tng']);
    // Perfex's own choices `card` and `razer` name a group: its first method offered.
    expect(checked((await page(`${purchase.checkout_url}?active=card`)).text)).toEqual(['method:visa']);
    expect(checked((await page(`${purchase.checkout_url}?active=razer`)).text)).toEqual(['method:razer_atome']);
  });

  it('an unknown method, one the whitelist or the currency leaves out, an empty or a repeated value: ignored, the page is the one without it', async () => {
    const { box, clientId } = await setup();
    const visaOnly = await createPurchase(box, clientId, { ...MYR, payment_method_whitelist: ['visa', 'maestro'] });
    const eur = await createPurchase(box, clientId);
    for (const purchase of [visaOnly, eur]) {
      const plain = await page(purchase.checkout_url);
      expect(checked(plain.text)).toEqual(['method:visa']);
      for (const query of ['?preferred=paypal', '?preferred=fpx_b2b1', '?active=razer', '?preferred=', '?preferred=fpx&preferred=maestro', '?preferred[]=maestro']) {
        const res = await fetch(`${purchase.checkout_url}${query}`);
        expect(res.status, query).toBe(200);
        // The page names nothing it ignores, as for any other query parameter (Billing-Sim-Ignored is the API's).
        expect(res.headers.get('billing-sim-ignored'), query).toBeNull();
        expect(await res.text(), query).toBe(plain.text);
      }
    }
  });

  it('both parameters: ?preferred= is read first; one that picks nothing leaves the page\'s own default', async () => {
    const { box, clientId } = await setup();
    const purchase = await createPurchase(box, clientId, MYR);
    expect(checked((await page(`${purchase.checkout_url}?preferred=fpx_b2b1&active=fpx`)).text)).toEqual(['method:fpx_b2b1']);
    expect(checked((await page(`${purchase.checkout_url}?preferred=paypal&active=fpx`)).text)).toEqual(['method:visa']);
  });
});

describe('checkout page of a successful payment: the payer goes on to success_redirect', () => {
  const THANKS = 'https://shop.example.test/order/42/thanks?paid=1';

  /** The page's answer as a browser gets it before following a redirect. */
  async function open(url: string, method = 'GET') {
    const response = await fetch(url, { method, redirect: 'manual' });
    return { status: response.status, location: response.headers.get('location'), text: await response.text() };
  }

  const act = async (box: Box, id: string, action: string) => expect((await box.req('POST', `/api/v1/purchases/${id}/${action}/`)).status).toBe(200);

  it('the checkout page of a paid purchase sends the payer on to success_redirect (303), as the platform\'s does; so does a held one (authorised, awaiting capture), and opening it changes nothing', async () => {
    const { box, clientId } = await setup();
    const paid = await createPurchase(box, clientId, { success_redirect: THANKS, failure_redirect: 'https://shop.example.test/failed' });
    await payPurchase(box, paid.id);
    const held = await createPurchase(box, clientId, { success_redirect: THANKS, skip_capture: true });
    await payPurchase(box, held.id);
    const before = await Promise.all([paid, held].map((p) => getPurchase(box, p.id)));
    expect(before.map((p) => p.status)).toEqual(['paid', 'hold']);
    const eventCount = (await events(box)).length;

    for (const purchase of [paid, held]) {
      for (const method of ['GET', 'HEAD']) {
        const res = await open(purchase.checkout_url, method);
        expect([res.status, res.location], `${method} ${purchase.id}`).toEqual([303, THANKS]);
      }
      expect((await open(purchase.checkout_url.replace(/\/$/, ''))).location).toBe(THANKS);
    }
    expect(await Promise.all([paid, held].map((p) => getPurchase(box, p.id)))).toEqual(before);
    expect((await events(box)).length).toBe(eventCount);
  });

  it('a paid purchase without success_redirect ("" or none) gets the page that says it is paid, as before', async () => {
    const { box, clientId } = await setup();
    for (const overrides of [{ success_redirect: '' }, {}]) {
      const purchase = await createPurchase(box, clientId, overrides);
      await payPurchase(box, purchase.id);
      const res = await open(purchase.checkout_url);
      expect([res.status, res.location]).toEqual([200, null]);
      expect(res.text).toContain('<h1>Paid</h1>');
    }
  });

  it('a purchase not paid yet (created, declined, cancelled) or whose money went back (released, refunded) gets its own page, never the merchant\'s success page', async () => {
    const { box, clientId } = await setup();
    const make = () => createPurchase(box, clientId, { success_redirect: THANKS });
    const created = await make();
    const declined = await make();
    await payPurchase(box, declined.id, { outcome: 'failure' });
    const cancelled = await make();
    await act(box, cancelled.id, 'cancel');
    const released = await createPurchase(box, clientId, { success_redirect: THANKS, skip_capture: true });
    await payPurchase(box, released.id);
    await act(box, released.id, 'release');
    const refunded = await make();
    await payPurchase(box, refunded.id);
    await act(box, refunded.id, 'refund');

    const headings: Record<string, string> = {};
    for (const [name, purchase] of Object.entries({ created, declined, cancelled, released, refunded })) {
      const res = await open(purchase.checkout_url);
      expect([res.status, res.location], name).toEqual([200, null]);
      headings[name] = /<h1>(.*?)<\/h1>/.exec(res.text)?.[1] ?? '';
    }
    expect(headings).toEqual({
      created: 'Pay €12.00', declined: 'Pay €12.00', cancelled: 'Purchase cancelled', released: 'Authorisation released', refunded: 'Refunded',
    });
    // Opening a created purchase's page still makes it viewed.
    expect((await getPurchase(box, created.id)).status).toBe('viewed');
  });

  it('with a processing delay, a purchase in a pending step gets a page that says so: a capture under way sends the payer on to success_redirect, a release or refund under way does not', async () => {
    const { box, clientId } = await setup();
    const held = async (overrides: Record<string, unknown> = {}) => {
      const purchase = await createPurchase(box, clientId, { skip_capture: true, ...overrides });
      await payPurchase(box, purchase.id);
      return purchase;
    };
    const capturedWithRedirect = await held({ success_redirect: THANKS });
    const captured = await held();
    const released = await held({ success_redirect: THANKS });
    const refunded = await createPurchase(box, clientId, { success_redirect: THANKS });
    await payPurchase(box, refunded.id);
    expect((await box.req('PUT', '/sim/v1/processing', { delay: 'PT1H' })).status).toBe(200);
    for (const purchase of [capturedWithRedirect, captured]) await act(box, purchase.id, 'capture');
    await act(box, released.id, 'release');
    await act(box, refunded.id, 'refund');

    expect([(await open(capturedWithRedirect.checkout_url)).status, (await open(capturedWithRedirect.checkout_url)).location]).toEqual([303, THANKS]);
    const pages: Record<string, [number, string]> = {};
    for (const [name, purchase] of Object.entries({ captured, released, refunded })) {
      const res = await open(purchase.checkout_url);
      pages[name] = [res.status, /<span id="status">(.*?)<\/span>[\s\S]*$/.exec(res.text)?.[1] + ': ' + /<h1>(.*?)<\/h1>/.exec(res.text)?.[1]];
    }
    expect(pages).toEqual({
      captured: [200, 'pending_capture: Payment authorised'],
      released: [200, 'pending_release: Authorisation being released'],
      refunded: [200, 'pending_refund: Refund under way'],
    });
  });

  // Needs the zero-amount authorisation of DESIGN.md §14 (issue 38, item 2).
  it('a card authorised with no charge (preauthorized) is a successful payment too: its page sends the payer on to success_redirect', async () => {
    const { box, clientId } = await setup();
    const purchase = await createPurchase(box, clientId, {
      success_redirect: THANKS, skip_capture: true, force_recurring: true,
      purchase: { currency: 'EUR', products: [{ name: 'Add payment method', price: 0 }] },
    });
    expect((await payPurchase(box, purchase.id, { method: 'visa' })).status).toBe('preauthorized');
    expect([(await open(purchase.checkout_url)).status, (await open(purchase.checkout_url)).location]).toEqual([303, THANKS]);
    // Without the URL, the page says what happened: nothing was charged.
    const unlinked = await createPurchase(box, clientId, { skip_capture: true, force_recurring: true, purchase: { currency: 'EUR', products: [{ name: 'Add payment method', price: 0 }] } });
    await payPurchase(box, unlinked.id, { method: 'visa' });
    const res = await open(unlinked.checkout_url);
    expect([res.status, /<h1>(.*?)<\/h1>/.exec(res.text)?.[1]]).toEqual([200, 'Card authorised']);
    expect(res.text).toContain('The card was verified and saved for later payments: nothing was charged.');
  });
});

describe('checkout_url + receipt/: the page OpenCart and Arastta send the payer to', () => {
  const THANKS = 'https://shop.example.test/order/42/thanks?paid=1';
  const receiptOf = (purchase: Purchase) => `${purchase.checkout_url}receipt/`;

  async function open(url: string, method = 'GET') {
    const response = await fetch(url, { method, redirect: 'manual' });
    return { status: response.status, location: response.headers.get('location'), type: response.headers.get('content-type') ?? '', text: await response.text() };
  }

  it('a paid purchase\'s receipt/ shows its status page (200, "Paid"), never the 303 to success_redirect; the path without the trailing slash and HEAD too', async () => {
    const { box, clientId } = await setup();
    const purchase = await createPurchase(box, clientId, { success_redirect: THANKS });
    await payPurchase(box, purchase.id);
    expect((await open(purchase.checkout_url)).location).toBe(THANKS);
    for (const url of [receiptOf(purchase), receiptOf(purchase).replace(/\/$/, '')]) {
      const res = await open(url);
      expect([res.status, res.location, res.type], url).toEqual([200, null, 'text/html; charset=utf-8']);
      expect(res.text).toContain('<h1>Paid</h1>');
    }
    expect([(await open(receiptOf(purchase), 'HEAD')).status]).toEqual([200]);
  });

  it('a created purchase\'s receipt/ is the page the checkout shows, and does not make it viewed (no purchase.viewed)', async () => {
    const { box, clientId } = await setup();
    const purchase = await createPurchase(box, clientId);
    const eventCount = (await events(box)).length;
    const res = await open(receiptOf(purchase));
    expect(res.status).toBe(200);
    expect(/<h1>(.*?)<\/h1>/.exec(res.text)?.[1]).toBe('Pay €12.00');
    expect(res.text).toContain(`action="${new URL(purchase.checkout_url).pathname}"`);
    expect((await getPurchase(box, purchase.id)).status).toBe('created');
    expect((await events(box)).length).toBe(eventCount);
  });

  it('an unknown purchase\'s receipt/ is a 404 page; a seeded sandbox\'s long checkout path has its receipt/ too', async () => {
    const unknown = await open(`${h.origin}/checkout/7d4b1c8e-1111-4222-8333-444455556666/receipt/`);
    expect([unknown.status, unknown.type]).toEqual([404, 'text/html; charset=utf-8']);
    expect(unknown.text).toContain('<h1>Purchase not found</h1>');

    const { token, brandId, id } = await h.newSandbox({ now: NOW, frozen: true, seed: 42 });
    const box: Box = { h, token, brandId, req: (method, path, body) => h.request(method, path, { token, body }) };
    const purchase = await createPurchase(box, (await makeClient(box)).id);
    await payPurchase(box, purchase.id);
    expect(purchase.checkout_url).toBe(`${h.origin}/checkout/${id}/${purchase.id}/`);
    const res = await open(receiptOf(purchase));
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>Paid</h1>');
    expect((await open(`${h.origin}/checkout/${id}/7d4b1c8e-1111-4222-8333-444455556666/receipt/`)).status).toBe(404);
  });
});
