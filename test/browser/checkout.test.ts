// The checkout page in a real browser: a payer opens purchase.checkout_url, picks a payment
// method and a test outcome, and pays; the API then shows what the payment did (spec: a pending
// subscriber "becomes active" once its first purchase is paid, from "the day of payment").

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  createPurchase,
  getPurchase,
  getSubscriber,
  makeClient,
  makeTemplate,
  sandboxAt,
  saveToken,
  subscribe,
  subscriberBody,
  tokensOf,
  type Box,
} from '../builders/engine.ts';
import { useBrowser, screenshot, type TestPage } from './browser.ts';

const h = useHarness();
const browser = useBrowser(h);

const NOW = '2026-01-30T12:00:00Z';

/** A pending subscriber of a monthly EUR 29.90 template, and its first purchase, waiting for payment. */
async function pendingSubscriber(box?: Box) {
  box ??= await sandboxAt(h, NOW);
  const client = await makeClient(box);
  const template = await makeTemplate(box);
  const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-05'));
  expect(subscriber.status).toBe('pending');
  return { box, client, template, subscriber, purchase: purchase! };
}

async function withPage(test: (tab: TestPage) => Promise<void>): Promise<void> {
  const tab = await browser.open();
  try {
    await test(tab);
    expect(tab.blocked, 'requests outside the simulator').toEqual([]);
  } finally {
    await tab.close();
  }
}

describe('checkout page', () => {
  it('paying a pending subscriber\'s first purchase with a new card: the purchase is paid, the card saved, and the subscriber becomes active', () =>
    withPage(async ({ page }) => {
      const { box, client, template, subscriber, purchase } = await pendingSubscriber();
      await page.goto(purchase.checkout_url);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Pay €29.90');
      expect(await page.locator('header.brand').textContent()).toContain('brand');
      expect(await page.locator('#total').textContent()).toBe('€29.90');
      expect(await page.getByRole('cell', { name: 'Monthly membership' }).count()).toBe(1);
      // Opening the page is what a "viewed" purchase means.
      expect((await getPurchase(box, purchase.id)).status).toBe('viewed');
      await screenshot(page, 'checkout-form');

      await page.getByLabel('Mastercard').check();
      await page.getByLabel('Save this card for later payments').check();
      await page.getByLabel('Approve', { exact: true }).check();
      await page.getByRole('button', { name: 'Pay €29.90' }).click();
      await page.getByRole('heading', { name: 'Paid' }).waitFor();
      expect(await page.locator('#result').textContent()).toContain('with Mastercard. The card was saved');
      await screenshot(page, 'checkout-paid');

      expect(await getPurchase(box, purchase.id)).toMatchObject({ status: 'paid', is_recurring_token: true, payment: { payment_method: 'mastercard' } });
      expect((await getSubscriber(box, template.id, subscriber.id)).status).toBe('active');
      expect((await tokensOf(box, client.id)).map((t) => t.id)).toEqual([purchase.id]);
    }));

  it('declining, with the keyboard only: the purchase is in error, the page says so and offers the form again, the subscriber stays pending', () =>
    withPage(async ({ page }) => {
      const { box, template, subscriber, purchase } = await pendingSubscriber();
      await page.goto(purchase.checkout_url);
      // Tab order: payment method (Visa checked), the test card's fields (left empty: the default card), save card, test outcome, decline reason, pay.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('pay-method-visa');
      for (const id of ['card-number', 'cardholder-name', 'card-expiry', 'save-token']) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.id)).toBe(id);
      }
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowDown');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('outcome-decline');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('decline-code');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('pay');
      await page.keyboard.press('Enter');
      await page.locator('#result.error').waitFor();
      expect(await page.locator('#result').textContent()).toContain('The payment was declined');
      expect(await page.getByRole('button', { name: 'Pay €29.90' }).count()).toBe(1);
      await screenshot(page, 'checkout-declined');

      expect((await getPurchase(box, purchase.id)).status).toBe('error');
      expect((await getSubscriber(box, template.id, subscriber.id)).status).toBe('pending');
    }));

  it('the decline reason select beside "Decline" offers the common reasons, insufficient_funds chosen, and posts the chosen code: the attempt and the page name it', () =>
    withPage(async ({ page }) => {
      const { box, purchase } = await pendingSubscriber();
      await page.goto(purchase.checkout_url);
      const reason = page.getByLabel('Decline reason');
      expect(await reason.inputValue()).toBe('insufficient_funds');
      expect(await reason.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(
        expect.arrayContaining(['insufficient_funds', 'expired_card', 'do_not_honour', '3ds_authentication_failed', 'lost_card', 'stolen_card', 'suspected_fraud', 'timeout']),
      );
      await page.getByLabel('Decline', { exact: true }).check();
      await reason.selectOption('expired_card');
      await page.getByRole('button', { name: 'Pay €29.90' }).click();
      await page.locator('#result.error').waitFor();
      expect(await page.locator('#result').textContent()).toContain('The payment was declined: The card has expired. Choose a payment method');
      await screenshot(page, 'checkout-declined-reason');
      const declined = await getPurchase(box, purchase.id);
      expect(declined.transaction_data.attempts[0]).toMatchObject({ type: 'execute', successful: false, error: { code: 'expired_card', message: 'The card has expired.' } });
    }));

  it('a deleted recurring token is not offered; the live one is, and paying with it charges that token', () =>
    withPage(async ({ page }) => {
      const box = await sandboxAt(h, NOW);
      const client = await makeClient(box);
      const deleted = await saveToken(box, client.id, { method: 'visa' });
      const live = await saveToken(box, client.id, { method: 'maestro' });
      const gone = await box.req('DELETE', `/api/v1/clients/${client.id}/recurring_tokens/${deleted}/`);
      expect(gone.status, gone.text).toBe(204);
      const purchase = await createPurchase(box, client.id);

      await page.goto(purchase.checkout_url);
      expect(await page.locator('input[name=pay_with][value^="token:"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual([`token:${live}`]);
      expect(await page.content()).not.toContain(deleted);
      await screenshot(page, 'checkout-saved-card');

      await page.getByLabel('Saved Maestro •••• 0005').check();
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.getByRole('heading', { name: 'Paid' }).waitFor();
      expect(await getPurchase(box, purchase.id)).toMatchObject({ status: 'paid', recurring_token: live });
    }));

  it('"Decline" with a saved card preselected declines: the purchase is error with a failed attempt, the payer goes to failure_redirect, and the card still works', () =>
    withPage(async ({ page }) => {
      const box = await sandboxAt(h, NOW);
      const client = await makeClient(box);
      const card = await saveToken(box, client.id, { method: 'visa' });
      const created = await box.req('POST', '/api/v1/purchases/', {
        brand_id: box.brandId,
        client_id: client.id,
        purchase: { currency: 'EUR', products: [{ name: 'Returning order', price: 1500 }] },
        success_redirect: `${h.origin}/healthz?paid`,
        failure_redirect: `${h.origin}/healthz?failed`,
      });
      expect(created.status, created.text).toBe(201);
      const purchase = created.body as { id: string; checkout_url: string };

      await page.goto(purchase.checkout_url);
      // A returning customer's saved card is the preselected choice.
      expect(await page.locator(`input[name=pay_with][value="token:${card}"]`).isChecked()).toBe(true);
      await page.getByLabel('Decline', { exact: true }).check();
      await page.getByLabel('Decline reason').selectOption('do_not_honour');
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL(/\/healthz\?failed$/);
      const after = await getPurchase(box, purchase.id);
      expect(after).toMatchObject({ status: 'error', payment: null, recurring_token: null });
      expect(after.transaction_data.attempts[0]).toMatchObject({ type: 'recurring_execute', successful: false, payment_method: 'visa', error: { code: 'do_not_honour' } });

      // Declining this payment did not spend the card: a charge with it still goes through.
      const charged = await box.req('POST', `/api/v1/purchases/${purchase.id}/charge/`, { recurring_token: card });
      expect(charged.status, charged.text).toBe(200);
      expect(charged.body).toMatchObject({ status: 'paid', recurring_token: card });
    }));

  it('on a 390 px phone the order table stays inside its card, quantities read 2 and 1.5, and a paid page shows no "Due:"', () =>
    withPage(async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const box = await sandboxAt(h, NOW);
      const client = await makeClient(box);
      const created = await box.req('POST', '/api/v1/purchases/', {
        brand_id: box.brandId,
        client_id: client.id,
        due: Math.floor(Date.parse(NOW) / 1000) + 86_400,
        purchase: {
          currency: 'EUR',
          products: [
            { name: 'Annual membership with priority support and the printed yearbook', price: 1_234_500, quantity: 2, tax_percent: 7.5, discount: 50_000 },
            { name: 'Consulting', price: 12_000, quantity: '1.5' },
          ],
        },
      });
      expect(created.status, created.text).toBe(201);
      const purchase = created.body as { id: string; checkout_url: string };
      await page.goto(purchase.checkout_url);
      const fits = () =>
        page.evaluate(() => {
          const card = document.querySelector('section[aria-labelledby="order-heading"]')!.getBoundingClientRect();
          // The table, or the box that scrolls it sideways when the amounts need more room than a phone has.
          const table = document.querySelector('section[aria-labelledby="order-heading"] .table-wrap')!.getBoundingClientRect();
          return { page: document.documentElement.scrollWidth <= window.innerWidth, table: table.right <= card.right + 0.5 };
        });
      expect(await fits()).toEqual({ page: true, table: true });
      expect(await page.locator('tbody td.num:nth-child(2)').allTextContents()).toEqual(['2', '1.5']);
      expect(await page.locator('#due').count()).toBe(1);
      await screenshot(page, 'checkout-390px');

      await page.getByRole('button', { name: /^Pay / }).click();
      await page.getByRole('heading', { name: 'Paid' }).waitFor();
      expect(await page.locator('#due').count()).toBe(0);
      expect(await page.content()).not.toContain('Due:');
      expect(await fits()).toEqual({ page: true, table: true });
    }));

  it('force_recurring: "save card" is checked, disabled and explained, and the payment saves the card', () =>
    withPage(async ({ page }) => {
      const box = await sandboxAt(h, NOW);
      const client = await makeClient(box);
      const purchase = await createPurchase(box, client.id, { force_recurring: true });
      await page.goto(purchase.checkout_url);
      const save = page.getByLabel('Save this card for later payments');
      expect([await save.isChecked(), await save.isDisabled()]).toEqual([true, true]);
      expect(await page.locator('#save-token-hint').textContent()).toContain('force_recurring');
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.getByRole('heading', { name: 'Paid' }).waitFor();
      expect((await tokensOf(box, client.id)).map((t) => t.id)).toEqual([purchase.id]);
    }));

  it('success_redirect and failure_redirect are followed after the payment', () =>
    withPage(async ({ page }) => {
      const box = await sandboxAt(h, NOW);
      const client = await makeClient(box);
      const redirects = { success_redirect: `${h.origin}/healthz?paid`, failure_redirect: `${h.origin}/healthz?failed` };
      const declined = await createPurchase(box, client.id, redirects);
      await page.goto(declined.checkout_url);
      await page.getByLabel('Decline', { exact: true }).check();
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL(redirects.failure_redirect);

      const paid = await createPurchase(box, client.id, redirects);
      await page.goto(paid.checkout_url);
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL(redirects.success_redirect);
      expect([(await getPurchase(box, declined.id)).status, (await getPurchase(box, paid.id)).status]).toEqual(['error', 'paid']);
    }));

  it('a MYR purchase\'s methods each have their own label: one DuitNow QR, one ShopeePay, found by their label', () =>
    withPage(async ({ page }) => {
      const box = await sandboxAt(h, NOW);
      const client = await makeClient(box);
      const purchase = await createPurchase(box, client.id, { purchase: { currency: 'MYR', products: [{ name: 'Hour', price: 1200 }] } });
      await page.goto(purchase.checkout_url);
      const labels = await page.locator('label[for^="pay-method-"]').allTextContents();
      expect(labels.length).toBeGreaterThan(10);
      expect(new Set(labels).size, labels.join(', ')).toBe(labels.length);
      expect(labels.filter((label) => label === 'DuitNow QR' || label === 'ShopeePay')).toEqual(['DuitNow QR', 'ShopeePay']);
      await screenshot(page, 'checkout-myr-methods', page.locator('fieldset').first());
      // getByLabel is strict: a label two radios shared would throw here.
      await page.getByLabel('ShopeePay', { exact: true }).check();
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.getByRole('heading', { name: 'Paid' }).waitFor();
      expect(await page.locator('#result').textContent()).toContain('with ShopeePay.');
      expect((await getPurchase(box, purchase.id)).payment?.payment_method).toBe('razer_shopeepay');
    }));

  it('checkout_url?preferred=fpx (the iOS SDK) and ?active=razer_tng (Perfex) have that method selected on load, before a saved card; paying pays with it', () =>
    withPage(async ({ page }) => {
      const box = await sandboxAt(h, NOW);
      const client = await makeClient(box);
      const card = await saveToken(box, client.id, { method: 'visa', currency: 'MYR' });
      const myr = { purchase: { currency: 'MYR', products: [{ name: 'Hour', price: 1200 }] } };
      const purchase = await createPurchase(box, client.id, myr);
      await page.goto(`${purchase.checkout_url}?preferred=fpx`);
      expect(await page.getByLabel('FPX', { exact: true }).isChecked()).toBe(true);
      expect(await page.locator('input[name=pay_with]:checked').count()).toBe(1);
      expect(await page.locator(`input[name=pay_with][value="token:${card}"]`).isChecked()).toBe(false);
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.getByRole('heading', { name: 'Paid' }).waitFor();
      expect((await getPurchase(box, purchase.id)).payment?.payment_method).toBe('fpx');

      const perfex = await createPurchase(box, client.id, { ...myr, payment_method_whitelist: ['fpx', 'razer_grabpay', 'razer_tng', 'razer'] });
      await page.goto(`${perfex.checkout_url}?active=razer_tng`);
      expect(await page.getByLabel("Touch 'n Go eWallet").isChecked()).toBe(true);
      // A method the purchase does not offer changes nothing: the saved card stays the choice.
      await page.goto(`${perfex.checkout_url}?preferred=razer_atome`);
      expect(await page.locator('input[name=pay_with]:checked').getAttribute('value')).toBe(`token:${card}`);
    }));
});
