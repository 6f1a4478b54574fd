// DESIGN.md §13: "The dashboard … lists checkpoints with a Restore button." A tester takes a
// checkpoint on the page, advances the clock past a renewal, and restores it: the sandbox, read
// through the API, is back at the checkpoint's instant, with what was billed since gone.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { generated, launchSubscriber } from '../builders/engine.ts';
import { useBrowser, screenshot } from './browser.ts';
import { openDashboard } from './dashboard-page.ts';

const h = useHarness();
const browser = useBrowser(h);

describe('QA dashboard: checkpoints', () => {
  it('"Take checkpoint", "+1 month", then "Restore": the clock is back, the renewal billed since is gone, and the checkpoint is still listed', async () => {
    const { box, template } = await launchSubscriber(h, '2026-01-31T00:00:00Z');
    const billedBefore = (await generated(box, template.id)).length;
    const { page, blocked, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      await expect.poll(() => page.locator('#checkpoints').textContent()).toContain('No checkpoints yet.');
      await page.getByLabel('Name (optional)').fill('Before February');
      await page.getByRole('button', { name: 'Take checkpoint' }).click();
      await expect.poll(() => page.locator('#checkpoint-result').textContent()).toBe('Checkpoint taken at sandbox time 2026-01-31T00:00:00.000Z.');
      const row = page.locator('#checkpoints tr', { hasText: 'Before February' });
      await expect.poll(() => row.count()).toBe(1);

      await page.getByRole('button', { name: '+1 month' }).click();
      await expect.poll(() => page.locator('#clock-now').textContent()).toBe('2026-02-28T00:00:00.000Z');
      expect((await generated(box, template.id)).length).toBeGreaterThan(billedBefore);

      await screenshot(page, 'dashboard-checkpoints', page.locator('#checkpoints-heading').locator('..'));
      await row.getByRole('button', { name: /^Restore checkpoint Before February/ }).click();
      await expect.poll(() => page.locator('#clock-now').textContent()).toBe('2026-01-31T00:00:00.000Z');
      await expect.poll(() => row.getByRole('status').textContent()).toBe('Restored: sandbox time is 2026-01-31T00:00:00.000Z again; everything made since is gone.');
      expect((await box.req('GET', '/sim/v1/clock')).body).toEqual({ now: '2026-01-31T00:00:00.000Z', frozen: true });
      expect((await generated(box, template.id)).length).toBe(billedBefore);

      await row.getByRole('button', { name: /^Delete checkpoint Before February/ }).click();
      await expect.poll(() => page.locator('#checkpoints').textContent()).toContain('No checkpoints yet.');
      expect((await box.req('GET', '/sim/v1/checkpoints')).body).toMatchObject({ results: [] });
      expect(blocked).toEqual([]);
    } finally {
      await close();
    }
  });
});
