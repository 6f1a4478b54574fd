// The QA dashboard in a real browser: a tester pastes a sandbox token, sees the clock, templates
// and subscribers, advances the clock with a button, and sees the billing it caused in the
// subscriber's timeline (DESIGN.md §4.2: launched Jan 30, the next billing date is Feb 28).

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { makeClient, makeTemplate, payPurchase, sandboxAt, subscribe, subscriberBody } from '../builders/engine.ts';
import { useBrowser, screenshot } from './browser.ts';

const h = useHarness();
const browser = useBrowser(h);

describe('QA dashboard', () => {
  it('a pasted token shows the sandbox; "+1 month" bills the active subscriber and the new purchase appears in its timeline; the token is remembered', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const client = await makeClient(box, { email: 'ada@example.com' });
    const template = await makeTemplate(box, { title: 'Gym monthly' });
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-05'));
    await payPurchase(box, purchase!.id, { save_token: true });

    const { page, blocked, close } = await browser.open();
    try {
      await page.goto(`${h.origin}/`);
      await page.getByLabel('Sandbox token (bearer JWT)').fill(box.token);
      await page.getByRole('button', { name: 'Use this sandbox' }).click();
      await expect.poll(() => page.locator('#clock-now').textContent()).toBe('2026-01-30T12:00:00.000Z');
      const timeline = page.locator(`details[data-subscriber="${subscriber.id}"]`);
      expect(await timeline.locator('summary').textContent()).toBe(
        'ada@example.com — Gym monthly: active, next billing 2026-02-28, 1 cycle(s) passed',
      );
      expect(await page.locator('#templates').textContent()).toContain('Gym monthly');
      const purchaseRows = timeline.locator('tbody tr[data-kind=purchase]');
      expect(await purchaseRows.count()).toBe(1);
      await screenshot(page, 'dashboard-before-advance');

      await page.getByRole('button', { name: '+1 month' }).click();
      await expect.poll(() => page.locator('#processed').textContent()).toMatch(/^Advanced to 2026-02-28T12:00:00.000Z: billings: 1, charges: 1/);
      await expect.poll(() => purchaseRows.count()).toBe(2);
      expect(await purchaseRows.nth(1).textContent()).toContain('issued 2026-02-28, €29.90, now paid');
      expect(await timeline.locator('tbody tr[data-kind=charge]', { hasText: 'purchase.paid' }).count()).toBe(2);
      expect(await timeline.locator('summary').textContent()).toContain('next billing 2026-03-30, 2 cycle(s) passed');
      await screenshot(page, 'dashboard-after-advance');

      // A new visit starts from the token kept in localStorage.
      await page.reload();
      await expect.poll(() => page.locator('#clock-now').textContent()).toBe('2026-02-28T12:00:00.000Z');
      expect(await page.getByLabel('Sandbox token (bearer JWT)').inputValue()).toBe(box.token);
      expect(blocked, 'requests outside the simulator').toEqual([]);
    } finally {
      await close();
    }
  });

  it('a refused token is said so on the page, not thrown away silently', async () => {
    const { page, close } = await browser.open();
    try {
      await page.goto(`${h.origin}/`);
      expect(await page.locator('#message').textContent()).toBe('Paste a sandbox token to begin.');
      await page.getByLabel('Sandbox token (bearer JWT)').fill('not-a-token');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('#message').textContent()).toMatch(/→ 401/);
    } finally {
      await close();
    }
  });
});
