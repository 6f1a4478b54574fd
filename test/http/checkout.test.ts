// The checkout page over plain HTTP (what a browser sends, without one): which page each purchase
// status gets, the `viewed` status, escaping, the form post beside the API's JSON-only rule, and the
// engine's refusals shown as messages. The browser flows are in test/browser/checkout.test.ts.

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
    const unknown = await post({ ...purchase, checkout_url: `${h.origin}/checkout/7d4b1c8e-1111-4222-8333-444455556666/` }, { pay_with: 'method:visa' });
    expect(unknown.status).toBe(404);
  });
});
