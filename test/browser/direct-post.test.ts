// Direct Post in a real browser (DESIGN.md §14): a shop on another origin serves its own card form,
// whose action is the purchase's direct_post_url, as the platform's WooCommerce plugin does. The payer
// fills it in and submits; the simulator pays the purchase and sends the browser back to the shop's
// success_redirect (or failure_redirect after a decline). The API then shows what the payment did.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { Receiver } from '../support/receiver.ts';
import { createPurchase, getPurchase, makeClient, sandboxAt, tokensOf } from '../builders/engine.ts';
import { screenshot, useBrowser, type TestPage } from './browser.ts';

const NOW = '2026-01-30T12:00:00Z';
const h = useHarness({ now: NOW });
const browser = useBrowser(h);
const receiver = new Receiver();

/**
 * The shop: `/pay/{purchase id}` is its card form posting to the purchase's direct_post_url (set in
 * `forms` by the test), `/thanks` and `/sorry` its pages for a payer sent back.
 */
const shop = { origin: '', forms: new Map<string, string>(), server: undefined as Server | undefined };

const PAGES: Record<string, string> = {
  '/thanks': '<h1>Thank you for your order</h1>',
  '/sorry': '<h1>Your payment did not go through</h1>',
};

function cardForm(action: string): string {
  return `<form method="post" action="${action}">
  <label for="name">Name on card</label><input id="name" name="cardholder_name" autocomplete="cc-name">
  <label for="number">Card number</label><input id="number" name="card_number" inputmode="numeric" autocomplete="cc-number">
  <label for="expires">Expiry (MM/YY)</label><input id="expires" name="expires" autocomplete="cc-exp">
  <label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc">
  <label><input type="checkbox" name="remember_card" value="on"> Remember this card</label>
  <button type="submit">Pay now</button>
</form>`;
}

beforeAll(async () => {
  await receiver.start();
  shop.server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://shop').pathname;
    const action = shop.forms.get(path.replace(/^\/pay\//, ''));
    const body = path.startsWith('/pay/') ? action && cardForm(action) : PAGES[path];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>${body ?? 'Not found'}</body></html>`);
  });
  await new Promise<void>((resolve) => shop.server!.listen(0, '127.0.0.1', resolve));
  shop.origin = `http://127.0.0.1:${(shop.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  shop.server?.closeAllConnections();
  await new Promise((resolve) => shop.server?.close(resolve));
  await receiver.stop();
});

/** A purchase whose redirects are the shop's pages and whose success_callback is `callbackPath` on the receiver, with its form on the shop. */
async function shopPurchase(callbackPath: string) {
  const box = await sandboxAt(h, NOW);
  const client = await makeClient(box);
  const purchase = await createPurchase(box, client.id, {
    success_redirect: `${shop.origin}/thanks`,
    failure_redirect: `${shop.origin}/sorry`,
    success_callback: receiver.url + callbackPath,
  });
  shop.forms.set(purchase.id, purchase.direct_post_url as string);
  return { box, client, purchase };
}

async function withShopPage(test: (tab: TestPage) => Promise<void>): Promise<void> {
  const tab = await browser.open(shop.origin);
  try {
    await test(tab);
    expect(tab.blocked, 'requests outside the simulator and the shop').toEqual([]);
  } finally {
    await tab.close();
  }
}

async function fillCard(tab: TestPage, number: string): Promise<void> {
  const { page } = tab;
  await page.getByLabel('Name on card').fill('Siti Aminah');
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/28');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Remember this card').check();
}

describe('Direct Post from a shop\'s own card form', () => {
  it('paying with the platform\'s Visa test card and "remember card": the browser lands on the shop\'s success page, the purchase is paid, the card saved as a recurring token and success_callback delivered', () =>
    withShopPage(async (tab) => {
      const { box, client, purchase } = await shopPurchase('/paid-browser');
      await tab.page.goto(`${shop.origin}/pay/${purchase.id}`);
      await fillCard(tab, '4444 3333 2222 1111');
      await screenshot(tab.page, 'direct-post-shop-form');
      await tab.page.getByRole('button', { name: 'Pay now' }).click();
      await tab.page.waitForURL(`${shop.origin}/thanks`);
      expect(await tab.page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you for your order');

      const paid = await getPurchase(box, purchase.id);
      expect(paid).toMatchObject({ status: 'paid', is_recurring_token: true, payment: { payment_method: 'visa' } });
      expect(paid.transaction_data.extra).toMatchObject({ masked_pan: '444433******1111', expiry_month: 12, expiry_year: 28, cardholder_name: 'Siti Aminah' });
      expect((await tokensOf(box, client.id)).map((t) => t.id)).toEqual([purchase.id]);
      const [callback] = await receiver.waitFor('/paid-browser', 1);
      expect(callback!.body).toMatchObject({ id: purchase.id, event_type: 'purchase.paid', status: 'paid' });
    }));

  it('a decline test card (4000 0000 0000 9995): the browser lands on the shop\'s failure page, the purchase is in error with insufficient_funds, nothing is saved', () =>
    withShopPage(async (tab) => {
      const { box, client, purchase } = await shopPurchase('/paid-declined');
      await tab.page.goto(`${shop.origin}/pay/${purchase.id}`);
      await fillCard(tab, '4000 0000 0000 9995');
      await tab.page.getByRole('button', { name: 'Pay now' }).click();
      await tab.page.waitForURL(`${shop.origin}/sorry`);
      expect(await tab.page.getByRole('heading', { level: 1 }).textContent()).toBe('Your payment did not go through');

      const declined = await getPurchase(box, purchase.id);
      expect(declined.status).toBe('error');
      expect(declined.transaction_data.attempts[0]!.error).toMatchObject({ code: 'insufficient_funds' });
      expect(await tokensOf(box, client.id)).toEqual([]);
    }));

  it('the platform\'s iOS SDK\'s form, built in a page without a base URL (Origin: null) and posted to checkout_url: the browser lands on the shop\'s success page, the purchase is paid', () =>
    withShopPage(async (tab) => {
      const { box, client, purchase } = await shopPurchase('/paid-ios-browser');
      // GateWebViewController.swift loads this markup with loadHTMLString(_, baseURL: nil) and submits it on load;
      // setContent on about:blank gives the page the same opaque origin.
      const posted = tab.page.waitForRequest((request) => request.method() === 'POST');
      await tab.page.setContent(`<html><body><form method="POST" action="${purchase.checkout_url}" name="card_form">
<input type="hidden" name="card_number" value="4444 3333 2222 1111" />
<input type="hidden" name="expires" value="12/28" />
<input type="hidden" name="cvc" value="123" />
<input type="hidden" name="cardholder_name" value="Siti Aminah" />
</form><script>document.forms.card_form.submit();</script></body></html>`);
      expect((await (await posted).allHeaders()).origin).toBe('null');
      await tab.page.waitForURL(`${shop.origin}/thanks`);
      expect(await getPurchase(box, purchase.id)).toMatchObject({ status: 'paid', is_recurring_token: false, payment: { payment_method: 'visa' } });
      expect(await tokensOf(box, client.id)).toEqual([]);
    }));
});
