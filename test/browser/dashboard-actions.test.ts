// The QA dashboard acts: each action is clicked on the page, and the sandbox's state is then read
// through the API, as a merchant's backend would see it. Each button is disabled while its request
// runs, and its result, or the API's first error message, shows in place in a role=status element.

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useHarness } from '../support/harness.ts';
import {
  createPurchase, eventTypesOf, generated, getPurchase, getSubscriber, makeClient, makeTemplate, payPurchase, sandboxAt, subscribe, subscriberBody, tokensOf,
} from '../builders/engine.ts';
import { useBrowser, screenshot } from './browser.ts';
import { openDashboard, purchaseRow, resultIn, subscriberCard } from './dashboard-page.ts';

const h = useHarness();
const browser = useBrowser(h);

const NOW = '2026-01-30T12:00:00Z';

/** Holds the page's requests to `path` until the returned function is called, so a test can look at the page while one runs. */
async function holdRequests(page: Page, path: RegExp): Promise<() => void> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(path, async (route) => {
    await gate;
    await route.fallback();
  });
  return release;
}

/** A sandbox with ada@example.com and one unpaid EUR 12.00 purchase of hers. */
async function unpaidPurchase() {
  const box = await sandboxAt(h, NOW);
  const client = await makeClient(box, { email: 'ada@example.com' });
  const purchase = await createPurchase(box, client.id);
  return { box, client, purchase };
}

describe('QA dashboard: actions', () => {
  it('"Pay…" opens a form: mastercard, approved, card saved; the button is disabled while it runs, the result shows in the row, and the API has the payment and the token', async () => {
    const { box, client, purchase } = await unpaidPurchase();
    const { page, blocked, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const row = purchaseRow(page, purchase.id);
      const toggle = row.getByRole('button', { name: /^Pay…/ });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      const form = page.getByRole('form', { name: /^Pay the purchase of ada@example\.com, €12\.00/ });
      expect(await form.getByLabel('Payment method').locator('option').allTextContents()).toEqual(['Visa', 'Mastercard', 'Maestro']);
      await form.getByLabel('Payment method').selectOption('mastercard');
      expect(await form.getByLabel('Later charges with the saved card').isDisabled(), 'no saved card, no later charges').toBe(true);
      await form.getByLabel('Save the card').check();
      const fits = (selector: string) => page.locator(selector).evaluate((section) => [section.scrollWidth, section.clientWidth]);
      const [wide, room] = await fits('#purchases');
      expect(wide, 'the table with its open form fits its section').toBeLessThanOrEqual(room!);
      await screenshot(page, 'dashboard-pay-form', page.locator('#purchases'));

      const release = await holdRequests(page, /\/sim\/v1\/purchases\/[^/]+\/pay$/);
      await form.getByRole('button', { name: 'Pay', exact: true }).click();
      await expect.poll(() => resultIn(row).textContent()).toBe('Working…');
      expect(await form.getByRole('button', { name: 'Pay', exact: true }).isDisabled()).toBe(true);
      expect(await row.getByRole('button', { name: /^Decline/ }).isDisabled()).toBe(true);
      release();

      await expect.poll(() => resultIn(row).textContent()).toBe('Paid with mastercard; card saved for later charges.');
      // The result is said first, then the view is read again.
      await expect.poll(() => row.locator('.badge').first().textContent()).toBe('paid');
      expect(await page.locator('tr.form-row').count(), 'the form closes once paid').toBe(0);
      const paid = await getPurchase(box, purchase.id);
      expect([paid.status, paid.payment?.payment_method, paid.is_recurring_token]).toEqual(['paid', 'mastercard', true]);
      expect((await tokensOf(box, client.id)).map((token) => token.id)).toEqual([purchase.id]);
      await screenshot(page, 'dashboard-paid', page.locator('#purchases'));
      expect(blocked, 'requests outside the simulator').toEqual([]);
    } finally {
      await close();
    }
  });

  it('the pay form offers what the checkout offers: a whitelist of the umbrella `razer` (EDD, Perfex, AbanteCart) lists the Razer wallets, never `razer` itself', async () => {
    const box = await sandboxAt(h, NOW);
    const client = await makeClient(box, { email: 'ada@example.com' });
    const purchase = await createPurchase(box, client.id, { payment_method_whitelist: ['razer'], purchase: { currency: 'MYR', products: [{ name: 'Ticket', price: 1500 }] } });
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      await purchaseRow(page, purchase.id).getByRole('button', { name: /^Pay…/ }).click();
      const form = page.getByRole('form', { name: /^Pay the purchase of ada@example\.com/ });
      const offered = await form.getByLabel('Payment method').locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
      expect(offered).toEqual(['razer_atome', 'razer_grabpay', 'razer_maybankqr', 'razer_shopeepay', 'razer_tng']);
      await form.getByLabel('Payment method').selectOption('razer_tng');
      await form.getByRole('button', { name: 'Pay', exact: true }).click();
      await expect.poll(async () => (await getPurchase(box, purchase.id)).status).toBe('paid');
      expect((await getPurchase(box, purchase.id)).transaction_data.payment_method).toBe('razer_tng');
    } finally {
      await close();
    }
  });

  it('"Decline" fails a payment (outcome failure): the purchase is in error with a failed attempt, and the row says why', async () => {
    const { box, purchase } = await unpaidPurchase();
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const row = purchaseRow(page, purchase.id);
      await row.getByRole('button', { name: /^Decline/ }).click();
      await expect.poll(() => resultIn(row).textContent()).toBe('Declined (Insufficient funds.); still payable.');
      const declined = await getPurchase(box, purchase.id);
      expect(declined.status).toBe('error');
      expect(declined.transaction_data.attempts.map((attempt) => [attempt.successful, attempt.error?.code])).toEqual([[false, 'insufficient_funds']]);
      expect(await eventTypesOf(box, purchase.id)).toContain('purchase.payment_failure');
      await expect.poll(() => row.locator('.badge').first().textContent()).toBe('error');
      // Still payable: the row offers paying again, and focus is back on its button.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Decline/);
    } finally {
      await close();
    }
  });

  it('later charges "failure, success" (token_outcomes): the saved card is declined at the next automatic charge, then accepted at the one after', async () => {
    const box = await sandboxAt(h, NOW);
    const client = await makeClient(box, { email: 'ada@example.com' });
    const template = await makeTemplate(box, { title: 'Gym monthly' });
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-05'));
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const row = purchaseRow(page, purchase!.id);
      await row.getByRole('button', { name: /^Pay…/ }).click();
      const form = page.getByRole('form', { name: /^Pay the purchase/ });
      await form.getByLabel('Save the card').check();
      const sent: unknown[] = [];
      page.on('request', (request) => request.url().endsWith('/pay') && sent.push(request.postDataJSON()));
      await form.getByLabel('Later charges with the saved card').fill('failure, success');
      await form.getByRole('button', { name: 'Pay', exact: true }).click();
      await expect.poll(() => resultIn(row).textContent()).toBe('Paid with visa; card saved for later charges.');
      expect(sent).toEqual([{ method: 'visa', outcome: 'success', save_token: true, token_outcomes: ['failure', 'success'] }]);

      // Feb 28: the first later charge is declined; Mar 30: the second is accepted.
      const card = subscriberCard(page, subscriber.id);
      await page.getByRole('button', { name: '+1 month' }).click();
      await expect.poll(() => card.locator('.warnings li').allTextContents()).toEqual([
        '1 failed charge, the last on 2026-02-28 00:00 UTC (Insufficient funds); 1 purchase still unpaid',
        'Declined: €29.90, due 2026-03-07 00:00 UTC, is still unpaid',
      ]);
      await page.getByRole('button', { name: '+1 month' }).click();
      await expect.poll(() => page.locator('#processed').textContent()).toMatch(/^Advanced to 2026-03-28T12:00:00.000Z: /);
      await page.getByRole('button', { name: '+1 day' }).click();
      await page.getByRole('button', { name: '+1 day' }).click();
      await expect.poll(() => page.locator('#processed').textContent()).toMatch(/^Advanced to 2026-03-30T12:00:00.000Z: billings: 1, charges: 1/);
      const [february, march] = (await generated(box, template.id)).slice(1);
      expect([february!.status, february!.transaction_data.attempts.map((attempt) => attempt.successful)]).toEqual(['overdue', [false]]);
      expect([march!.status, march!.payment?.payment_method]).toEqual(['paid', 'visa']);
      await expect.poll(() => card.locator('summary').textContent()).toBe('Timeline (3 purchases)');
      await screenshot(page, 'dashboard-token-outcomes', card);
    } finally {
      await close();
    }
  });

  it('a refused request shows the API\'s first error message in place, and the form keeps what was typed', async () => {
    const { box, purchase } = await unpaidPurchase();
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const row = purchaseRow(page, purchase.id);
      await row.getByRole('button', { name: /^Pay…/ }).click();
      const form = page.getByRole('form', { name: /^Pay the purchase/ });
      await form.getByLabel('Save the card').check();
      await form.getByLabel('Later charges with the saved card').fill('failure, maybe');
      await form.getByRole('button', { name: 'Pay', exact: true }).click();
      await expect.poll(() => resultIn(row).textContent()).toMatch(/^token_outcomes\.1: "maybe" is not a valid choice\. Allowed: success, failure, insufficient_funds, .* and 56 more \(openapi\.yaml lists them\)\.$/);
      expect(await resultIn(row).getAttribute('class')).toContain('error');
      expect(await form.getByLabel('Later charges with the saved card').inputValue(), 'the form stays open as it was').toBe('failure, maybe');
      expect((await getPurchase(box, purchase.id)).status).toBe('created');
      await screenshot(page, 'dashboard-pay-refused', page.locator('#purchases'));

      await form.getByRole('button', { name: 'Cancel' }).click();
      expect(await page.locator('tr.form-row').count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.textContent), 'focus back on the button that opened the form').toMatch(/^Pay…/);
    } finally {
      await close();
    }
  });

  it('"Pause" and "Resume" PATCH the subscriber\'s status; the card shows each result and focus stays on its button', async () => {
    const box = await sandboxAt(h, NOW);
    const client = await makeClient(box, { email: 'ada@example.com' });
    const template = await makeTemplate(box, { title: 'Gym monthly' });
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-05'));
    await payPurchase(box, purchase!.id);
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const card = subscriberCard(page, subscriber.id);
      await card.getByRole('button', { name: 'Pause the subscriber ada@example.com of Gym monthly' }).click();
      await expect.poll(() => resultIn(card).textContent()).toBe('Paused: no purchases or invoices until resumed.');
      expect((await getSubscriber(box, template.id, subscriber.id)).status).toBe('subscription_paused');
      await expect.poll(() => card.locator('.subscriber-status').textContent()).toBe('subscription_paused');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Resume/);
      await screenshot(page, 'dashboard-paused', page.locator('#subscribers'));

      await page.keyboard.press('Enter');
      await expect.poll(() => resultIn(card).textContent()).toBe('Resumed: next billing 2026-02-28.');
      expect((await getSubscriber(box, template.id, subscriber.id)).status).toBe('active');
      await expect.poll(() => card.locator('.subscriber-status').textContent()).toBe('active');
    } finally {
      await close();
    }
  });

  it('"New sandbox with fixtures" creates one, shows its token, switches to it and puts its token in the address', async () => {
    const { box } = await unpaidPurchase();
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      await page.getByRole('button', { name: 'New sandbox with fixtures' }).click();
      const shown = page.locator('#new-sandbox-result');
      await expect.poll(() => shown.textContent()).toMatch(/^New sandbox [0-9a-f-]{36} \(with fixtures\), now in use\. Its token: /);
      const token = await shown.locator('code').textContent();
      expect(token).not.toBe(box.token);
      expect(new URL(page.url()).hash).toBe(`#token=${token}`);
      expect(await page.getByLabel('Sandbox token (bearer JWT)').inputValue()).toBe(token);

      const clients = await h.request('GET', '/api/v1/clients/', { token: token! });
      expect((clients.body as { results: unknown[] }).results).toHaveLength(5);
      await expect.poll(() => page.locator('#templates tbody tr').count()).toBe(2);
      expect(await page.locator('#purchases').textContent()).toBe('No purchases.');
      expect(await page.getByRole('status').filter({ hasText: 'New sandbox' }).count()).toBe(1);
      await screenshot(page, 'dashboard-new-sandbox', page.locator('main > section').first());
      await screenshot(page, 'dashboard-fixtures');
    } finally {
      await close();
    }
  });

  it('a held purchase is captured or released, a paid one refunded by an amount (too much: the API\'s message in place), an unpaid one marked as paid', async () => {
    const { box, client } = await unpaidPurchase();
    const held = [await createPurchase(box, client.id, { skip_capture: true }), await createPurchase(box, client.id, { skip_capture: true })];
    for (const purchase of held) await payPurchase(box, purchase.id);
    const paid = await createPurchase(box, client.id);
    await payPurchase(box, paid.id);
    const unpaid = await createPurchase(box, client.id);
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const [captured, released] = held.map((purchase) => purchaseRow(page, purchase.id));
      await captured!.getByRole('button', { name: /^Capture/ }).click();
      await expect.poll(() => resultIn(captured!).textContent()).toBe('Captured €12.00.');
      await released!.getByRole('button', { name: /^Release/ }).click();
      await expect.poll(() => resultIn(released!).textContent()).toBe('Released: the reserved money went back, nothing was paid.');
      expect([(await getPurchase(box, held[0]!.id)).status, (await getPurchase(box, held[1]!.id)).status]).toEqual(['paid', 'released']);

      // The view is read again after each action. While that read is slow, the form must already take
      // a corrected amount: its buttons stayed disabled until the read came back, and Enter did nothing.
      const slowRead = (await box.req('POST', '/sim/v1/faults', { operation_id: 'listPurchases', latency_ms: 1500 })).body as { id: string };
      const refunded = purchaseRow(page, paid.id);
      await refunded.getByRole('button', { name: /^Refund…/ }).click();
      const amount = page.getByRole('form', { name: /^Refund the purchase/ }).getByLabel('Amount to refund (EUR)');
      expect(await amount.inputValue(), 'all that is left, by default').toBe('12.00');
      await amount.fill('20.00');
      await amount.press('Enter');
      await expect.poll(() => resultIn(refunded).textContent()).toBe('The amount 2000 is more than what is left to refund (1200).');
      expect(await amount.inputValue()).toBe('20.00');
      await amount.fill('5.00');
      await amount.press('Enter');
      await expect.poll(() => resultIn(refunded).textContent()).toBe('Refunded €5.00.');
      await box.req('DELETE', `/sim/v1/faults/${slowRead.id}`);
      const afterRefund = await getPurchase(box, paid.id);
      expect([afterRefund.status, afterRefund.refundable_amount]).toEqual(['paid', 700]);
      await expect.poll(() => refunded.locator('td').nth(4).textContent(), { timeout: 5000 }).toBe('€7.00');

      const marked = purchaseRow(page, unpaid.id);
      await marked.getByRole('button', { name: /^Mark as paid/ }).click();
      await expect.poll(() => resultIn(marked).textContent()).toBe('Marked as paid: paid outside the gateway.');
      const afterMark = await getPurchase(box, unpaid.id);
      expect([afterMark.status, afterMark.marked_as_paid]).toEqual(['paid', true]);
      await screenshot(page, 'dashboard-platform-actions', page.locator('#purchases'));
    } finally {
      await close();
    }
  });
});
