// The QA dashboard in a real browser: a tester pastes a sandbox token, sees the clock, templates
// and subscribers, advances the clock with a button, and sees the billing it caused in the
// subscriber's timeline (DESIGN.md §4.2: launched Jan 30, the next billing date is Feb 28).

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { makeClient, makeTemplate, payPurchase, sandboxAt, subscribe, subscriberBody } from '../builders/engine.ts';
import { useBrowser, screenshot } from './browser.ts';
import { openDashboard, subscriberCard } from './dashboard-page.ts';

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
      const card = subscriberCard(page, subscriber.id);
      const timeline = card.locator('details');
      const head = card.locator('.subscriber-head');
      expect(await head.locator('.who, .subscriber-status, .schedule').allTextContents()).toEqual([
        'ada@example.com — Gym monthly', 'active', 'next billing 2026-02-28, 1 cycle(s) passed',
      ]);
      expect(await head.getByRole('button').textContent()).toBe('Pause the subscriber ada@example.com of Gym monthly');
      expect(await card.locator('.warnings').count(), 'a paid subscriber needs no attention').toBe(0);
      expect(await page.locator('#templates').textContent()).toContain('Gym monthly');
      const purchaseRows = timeline.locator('tbody tr[data-kind=purchase]');
      expect(await purchaseRows.count()).toBe(1);
      await screenshot(page, 'dashboard-before-advance');

      await page.getByRole('button', { name: '+1 month' }).click();
      await expect.poll(() => page.locator('#processed').textContent()).toMatch(/^Advanced to 2026-02-28T12:00:00.000Z: billings: 1, charges: 1/);
      await expect.poll(() => purchaseRows.count()).toBe(2);
      expect(await purchaseRows.nth(1).textContent()).toContain('issued 2026-02-28, €29.90, now paid');
      expect(await timeline.locator('tbody tr[data-kind=charge]', { hasText: 'purchase.paid' }).count()).toBe(2);
      expect(await card.locator('.schedule').textContent()).toBe('next billing 2026-03-30, 2 cycle(s) passed');
      expect(await timeline.locator('summary').textContent()).toBe('Timeline (2 purchases)');
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

  it('a link with #token= (or ?token=) opens that sandbox over the remembered one, and the address keeps showing the token in use', async () => {
    const kept = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const linked = await sandboxAt(h, '2026-03-01T09:00:00Z');
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, kept.token);
      expect(await page.evaluate(() => localStorage.getItem('billing-sim.token'))).toBe(kept.token);

      // A shared link names another sandbox: it wins over localStorage, which now remembers it.
      await page.goto(`${h.origin}/?token=${linked.token}`);
      await expect.poll(() => page.locator('#clock-now').textContent()).toBe('2026-03-01T09:00:00.000Z');
      expect(new URL(page.url()).search, 'the token leaves the query, which servers see').toBe('');
      expect(new URL(page.url()).hash).toBe(`#token=${linked.token}`);
      expect(await page.getByLabel('Sandbox token (bearer JWT)').inputValue()).toBe(linked.token);
      expect(await page.evaluate(() => localStorage.getItem('billing-sim.token'))).toBe(linked.token);

      // Pasting a token switches the sandbox and the address with it.
      await page.getByLabel('Sandbox token (bearer JWT)').fill(kept.token);
      await page.getByRole('button', { name: 'Use this sandbox' }).click();
      await expect.poll(() => page.locator('#clock-now').textContent()).toBe('2026-01-30T12:00:00.000Z');
      expect(new URL(page.url()).hash).toBe(`#token=${kept.token}`);

      // A link pasted into the address bar of the open page changes only the hash: it switches too.
      await page.evaluate((token) => (location.hash = `token=${token}`), linked.token);
      await expect.poll(() => page.locator('#clock-now').textContent()).toBe('2026-03-01T09:00:00.000Z');

      await page.getByRole('button', { name: 'Forget token' }).click();
      await expect.poll(() => page.url()).toBe(`${h.origin}/`);
      expect(await page.evaluate(() => localStorage.getItem('billing-sim.token'))).toBeNull();
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
