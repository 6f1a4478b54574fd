// Issue 43, "Use with the rest": the dashboard can load a recording into a new sandbox (the objects it
// created, at the end state) for a QA tester to look at. The recording is made against one sandbox of
// the harness (a client, a purchase the payer paid on the checkout page, which the API shows only as
// its status); the page loads the .har file through its file input, and switches to a new sandbox
// where the same client and a paid purchase are, with what the replay found said in words.

import { describe, expect, it } from 'vitest';
import { sandboxAt } from '../builders/engine.ts';
import { useHarness } from '../support/harness.ts';
import { HarRecorder } from '../support/har-recorder.ts';
import { useBrowser } from './browser.ts';

const h = useHarness();
const browser = useBrowser(h);

/** A recording of a month-end purchase paid outside the API: its create, then a GET showing `paid`. */
async function recording(): Promise<{ har: string; email: string }> {
  const box = await sandboxAt(h, '2028-01-31T22:00:00Z');
  const recorder = new HarRecorder(h.origin);
  const email = 'grace@example.com';
  const client = await recorder.call('POST', '/api/v1/clients/', { token: box.token, body: { email, full_name: 'Grace Hopper' } });
  const purchase = await recorder.call('POST', '/api/v1/purchases/', {
    token: box.token,
    body: { brand_id: box.brandId, client_id: client.body.id, purchase: { currency: 'EUR', products: [{ name: 'Annual plan', price: 11900 }] } },
  });
  await recorder.call('POST', `/sim/v1/purchases/${purchase.body.id}/pay`, { token: box.token, body: { method: 'visa' }, record: false });
  const paid = await recorder.call('GET', `/api/v1/purchases/${purchase.body.id}/`, { token: box.token });
  expect(paid.body.status).toBe('paid');
  return { har: JSON.stringify(recorder.har()), email };
}

describe('QA dashboard: load a recording', () => {
  it('replays a .har file into a new sandbox and switches to it: the recorded client and its paid purchase are there, and the result says there is no drift', async () => {
    const { har, email } = await recording();
    const { page, close } = await browser.open();
    try {
      await page.goto(`${h.origin}/`);
      await page.getByLabel('Load a recording (.har)').setInputFiles({ name: 'month-end.har', mimeType: 'application/json', buffer: Buffer.from(har) });
      const result = page.locator('#recording-result');
      await expect.poll(() => result.textContent(), { timeout: 60_000 }).toMatch(/now in use/);
      expect(await result.textContent()).toMatch(/^month-end\.har: 3 of 3 exchange\(s\) replayed into sandbox [0-9a-f-]{36}, now in use; no drift; 0 value\(s\)/);
      const token = (await result.locator('code').textContent())!;
      expect(await page.locator('#token').inputValue()).toBe(token);
      await expect.poll(() => page.locator('#message').textContent()).toMatch(/^Sandbox loaded/);
      expect(await page.locator('#purchases').textContent()).toContain(email);

      // The new sandbox is the recording's end state, as the API shows it.
      const purchases = await h.request('GET', '/api/v1/purchases/', { token });
      const [only] = (purchases.body as { results: { status: string; client: { email: string }; purchase: { total: number } }[] }).results;
      expect(only).toMatchObject({ status: 'paid', client: { email }, purchase: { total: 11900 } });
    } finally {
      await close();
    }
  });

  it('says why a file that is no recording is refused, and stays on no sandbox', async () => {
    const { page, close } = await browser.open();
    try {
      await page.goto(`${h.origin}/`);
      await page.getByLabel('Load a recording (.har)').setInputFiles({ name: 'notes.har', mimeType: 'application/json', buffer: Buffer.from('{"not": "a recording"') });
      const result = page.locator('#recording-result');
      await expect.poll(() => result.textContent()).toMatch(/not a HAR file/);
      expect(await result.getAttribute('class')).toContain('error');
      expect(await page.locator('#token').inputValue()).toBe('');
    } finally {
      await close();
    }
  });
});
