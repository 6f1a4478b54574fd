// The checkout page of a purchase that can no longer be paid, in a real browser: each state is made
// through the API as a merchant would (capture/, release/, refund/, mark_as_paid/, a clock advance
// past due), and the page must say what happened to the money (DESIGN.md §9: hold → capture or
// release; refund, full or partial; mark_as_paid; `expired` for a due_strict purchase past due,
// while `overdue` stays payable).

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { advance, at, createPurchase, DAY, getPurchase, makeClient, payPurchase, sandboxAt, type Box, type Purchase } from '../builders/engine.ts';
import { useBrowser, screenshot, type TestPage } from './browser.ts';

const h = useHarness();
const browser = useBrowser(h);

const NOW = '2026-01-30T12:00:00Z';
const PRODUCTS = [{ name: 'Consulting hour', price: 1200 }];

async function withPage(test: (tab: TestPage) => Promise<void>): Promise<void> {
  const tab = await browser.open();
  try {
    await test(tab);
    expect(tab.blocked, 'requests outside the simulator').toEqual([]);
  } finally {
    await tab.close();
  }
}

/** A purchase action of the API (capture/, release/, refund/, mark_as_paid/) that must answer 200. */
async function act(box: Box, id: string, action: string, body: Record<string, unknown> = {}): Promise<void> {
  const call = await box.req('POST', `/api/v1/purchases/${id}/${action}/`, body);
  expect(call.status, `${action}: ${call.text.slice(0, 500)}`).toBe(200);
}

/** A EUR 12.00 purchase paid at checkout with skip_capture: authorised, on hold. */
async function held(): Promise<{ box: Box; purchase: Purchase }> {
  const box = await sandboxAt(h, NOW);
  const client = await makeClient(box);
  const purchase = await createPurchase(box, client.id, { skip_capture: true });
  expect((await payPurchase(box, purchase.id, { method: 'visa' })).status).toBe('hold');
  return { box, purchase };
}

/** A EUR 12.00 purchase paid at checkout with Visa. */
async function paid(): Promise<{ box: Box; purchase: Purchase }> {
  const box = await sandboxAt(h, NOW);
  const client = await makeClient(box);
  const purchase = await createPurchase(box, client.id);
  expect((await payPurchase(box, purchase.id, { method: 'visa' })).status).toBe('paid');
  return { box, purchase };
}

const heading = (tab: TestPage) => tab.page.getByRole('heading', { level: 1 }).textContent();
const result = (tab: TestPage) => tab.page.locator('#result').innerText();
const payButtons = (tab: TestPage) => tab.page.getByRole('button', { name: /^Pay / }).count();

describe('checkout page after the payment', () => {
  it('a purchase on hold shows as authorised: the amount is reserved, not taken, and no form is offered', () =>
    withPage(async (tab) => {
      const { purchase } = await held();
      await tab.page.goto(purchase.checkout_url);
      expect(await heading(tab)).toBe('Payment authorised');
      expect(await result(tab)).toContain('€12.00 is reserved on the card and not yet taken');
      expect(await payButtons(tab)).toBe(0);
      expect(await tab.page.locator('#status').textContent()).toBe('hold');
      await screenshot(tab.page, 'checkout-hold');
    }));

  it('capturing less than was authorised: the page shows the purchase paid, and how much was captured', () =>
    withPage(async (tab) => {
      const { box, purchase } = await held();
      await act(box, purchase.id, 'capture', { amount: 800 });
      await tab.page.goto(purchase.checkout_url);
      expect(await heading(tab)).toBe('Paid');
      expect(await result(tab)).toContain('with Visa');
      expect(await tab.page.locator('#captured').innerText()).toBe('The merchant captured €8.00 of the €12.00 authorised; the rest was released.');
      await screenshot(tab.page, 'checkout-captured-part');
    }));

  it('a released purchase shows that no payment was taken', () =>
    withPage(async (tab) => {
      const { box, purchase } = await held();
      await act(box, purchase.id, 'release');
      await tab.page.goto(purchase.checkout_url);
      expect(await heading(tab)).toBe('Authorisation released');
      expect(await result(tab)).toBe('The merchant released the €12.00 reserved on the card: no payment was taken.');
      expect(await payButtons(tab)).toBe(0);
      await screenshot(tab.page, 'checkout-released');
    }));

  it('a partly refunded purchase shows the refunded amount and what can still be refunded; refunding the rest shows it refunded', () =>
    withPage(async (tab) => {
      const { box, purchase } = await paid();
      await act(box, purchase.id, 'refund', { amount: 500 });
      await tab.page.goto(purchase.checkout_url);
      expect(await heading(tab)).toBe('Paid');
      expect(await tab.page.locator('#refund').innerText()).toBe('Partly refunded: €5.00 went back to the payer; €7.00 can still be refunded.');
      await screenshot(tab.page, 'checkout-partly-refunded');

      await act(box, purchase.id, 'refund');
      await tab.page.reload();
      expect(await heading(tab)).toBe('Refunded');
      expect(await result(tab)).toBe('This purchase was paid, then refunded in full: €12.00 went back to the payer.');
      expect(await payButtons(tab)).toBe(0);
      await screenshot(tab.page, 'checkout-refunded');
    }));

  it('past due, an overdue purchase can still be paid; a due_strict one is expired, shows no form and refuses a posted one', () =>
    withPage(async (tab) => {
      const box = await sandboxAt(h, NOW);
      const client = await makeClient(box);
      const due = at(NOW) + DAY;
      const late = await createPurchase(box, client.id, { due });
      const strict = await createPurchase(box, client.id, { due, purchase: { currency: 'EUR', due_strict: true, products: PRODUCTS } });
      await advance(box, { by: 'P2D' });
      expect([(await getPurchase(box, late.id)).status, (await getPurchase(box, strict.id)).status]).toEqual(['overdue', 'expired']);

      await tab.page.goto(strict.checkout_url);
      expect(await heading(tab)).toBe('Purchase expired');
      expect(await result(tab)).toBe(
        'This purchase expired unpaid: it was due 31 Jan 2026, 12:00 (UTC).\n\nThe merchant does not accept late payment (due_strict), so it can no longer be paid.',
      );
      expect(await payButtons(tab)).toBe(0);
      await screenshot(tab.page, 'checkout-expired');
      // A form posted anyway (an old tab, a script) is refused and changes nothing.
      const posted = await tab.page.request.post(strict.checkout_url, {
        form: { pay_with: 'method:visa', outcome: 'approve' },
        headers: { origin: h.origin },
        maxRedirects: 0,
      });
      expect(posted.status()).toBe(400);
      expect((await getPurchase(box, strict.id)).status).toBe('expired');

      await tab.page.goto(late.checkout_url);
      expect(await heading(tab)).toBe('Pay €12.00');
      expect(await result(tab)).toBe('This purchase is overdue: it was due 31 Jan 2026, 12:00 (UTC). It can still be paid.');
      await screenshot(tab.page, 'checkout-overdue');
      await tab.page.getByRole('button', { name: 'Pay €12.00' }).click();
      await tab.page.getByRole('heading', { name: 'Paid' }).waitFor();
      expect((await getPurchase(box, late.id)).status).toBe('paid');
    }));

  it('a purchase marked as paid shows as paid outside the gateway, with nothing to refund', () =>
    withPage(async (tab) => {
      const box = await sandboxAt(h, NOW);
      const client = await makeClient(box);
      const purchase = await createPurchase(box, client.id);
      await act(box, purchase.id, 'mark_as_paid', { paid_on: at(NOW) - 3600 });
      await tab.page.goto(purchase.checkout_url);
      expect(await heading(tab)).toBe('Paid outside the gateway');
      expect(await result(tab)).toBe(
        'Paid outside the gateway: the merchant marked this purchase as paid on 30 Jan 2026, 11:00 (UTC).\n\nNo money moved through the gateway, so there is nothing to refund through it.',
      );
      expect(await payButtons(tab)).toBe(0);
      await screenshot(tab.page, 'checkout-marked-as-paid');
    }));
});
