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

  it('before a sandbox is chosen every control that acts on one is disabled ("+1 day", "Save processing", the creating forms…), and choosing one enables them; a refused token or "Forget token" disables them again (issue 42)', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const { page, close } = await browser.open();
    try {
      await page.goto(`${h.origin}/`);
      const button = (name: string) => page.getByRole('button', { name, exact: true });
      const needSandbox = [
        button('+1 day'), button('+1 week'), button('+1 month'), page.getByLabel('Advance to date (00:00 UTC)'), button('Advance to date'),
        page.getByLabel('E-mail', { exact: true }), button('Create client'), page.getByLabel('Title', { exact: true }), button('Create template'),
        page.getByLabel('Name (optional)'), button('Take checkpoint'),
        page.getByLabel('Pending steps last'), button('Save processing'), button('Forget token'),
      ];
      const disabled = () => Promise.all(needSandbox.map((control) => control.isDisabled()));
      const none = needSandbox.map(() => true);
      expect(await disabled(), 'no sandbox yet').toEqual(none);
      // What chooses a sandbox stays usable.
      for (const free of [page.getByLabel('Sandbox token (bearer JWT)'), button('Use this sandbox'), button('New sandbox with fixtures')]) {
        expect(await free.isEnabled()).toBe(true);
      }
      // Each disabled group says why, to a pointer (its tooltip) and to a screen reader (the group's name).
      const groups = page.locator('fieldset.needs-sandbox');
      expect(new Set(await groups.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('title'))))).toEqual(new Set(['Choose a sandbox first (Sandbox, at the top)']));
      await screenshot(page, 'dashboard-no-sandbox');

      // A token the API refuses is no sandbox either.
      await page.getByLabel('Sandbox token (bearer JWT)').fill('not-a-token');
      await button('Use this sandbox').click();
      await expect.poll(() => page.locator('#message').textContent()).toMatch(/→ 401/);
      expect((await disabled()).slice(0, -1), 'a refused token').toEqual(none.slice(0, -1));
      expect(await button('Forget token').isEnabled(), 'a refused token can be forgotten').toBe(true);

      await page.getByLabel('Sandbox token (bearer JWT)').fill(box.token);
      await button('Use this sandbox').click();
      await expect.poll(disabled).toEqual(needSandbox.map(() => false));
      expect(await groups.evaluateAll((nodes) => nodes.filter((node) => node.hasAttribute('title')).length)).toBe(0);
      await button('+1 day').click();
      await expect.poll(() => page.locator('#clock-now').textContent()).toBe('2026-01-31T12:00:00.000Z');

      await button('Forget token').click();
      await expect.poll(disabled).toEqual(none);
    } finally {
      await close();
    }
  });

  it('the sections come in the order a tester uses them: the sandbox and its clock, its objects, what it sent, then the advanced settings (issue 42)', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      expect(await page.locator('main > section > h2').allTextContents()).toEqual([
        'Sandbox', 'Clock', 'Clients', 'Billing templates', 'Subscribers', 'Purchases', 'Outbox', 'Webhook deliveries', 'Checkpoints', 'Processing',
      ]);
    } finally {
      await close();
    }
  });

  it('a refused token is said so on the page, not thrown away silently', async () => {
    const { page, close } = await browser.open();
    try {
      await page.goto(`${h.origin}/`);
      expect(await page.locator('#message').textContent()).toBe('No sandbox chosen yet: choose one above to use the controls below.');
      await page.getByLabel('Sandbox token (bearer JWT)').fill('not-a-token');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('#message').textContent()).toMatch(/→ 401/);
    } finally {
      await close();
    }
  });
});
