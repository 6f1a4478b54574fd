// The QA dashboard and the platform's gateway flows (DESIGN.md §14, issue 38 item 7): a first visit
// asks for the token the terminal printed and, on this machine's own address, offers the default
// sandbox in one click; the processing setting (GET/PUT /sim/v1/processing) is shown and edited; the
// platform's pending steps (pending_capture, pending_release, pending_refund) and a card authorised
// with no charge (preauthorized) show with their own badges and no actions; a settled purchase says
// when it was settled. The states are made by clicking, or through the API as a merchant's backend would.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkInterfaces } from 'node:os';
import type { Browser } from 'playwright-core';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { useHarness } from '../support/harness.ts';
import { createPurchase, getPurchase, makeClient, payPurchase, sandboxAt, saveToken, type Purchase } from '../builders/engine.ts';
import { openPage, screenshot, sharedBrowser } from './browser.ts';
import { fieldMessage, openDashboard, purchaseRow, resultIn } from './dashboard-page.ts';

const h = useHarness();
let browser: Browser | undefined;
// The worker's browser (browser.ts): this file's pages open the harness and a simulator started here with its default sandbox.
beforeAll(async () => {
  browser = await sharedBrowser();
}, 60_000);

const NOW = '2026-01-30T12:00:00Z';

/** An address of this machine that is not loopback (a LAN or container interface), if it has one. */
const lanAddress = Object.values(networkInterfaces()).flat().find((net) => net && net.family === 'IPv4' && !net.internal)?.address;

describe('QA dashboard: a first visit', () => {
  let sim: RunningSimulator;
  let port: number;
  beforeAll(async () => {
    // Bound to every interface, so that a page can also open it by a LAN address.
    sim = await startSimulator({ port: 0, quiet: true, host: '0.0.0.0' });
    port = Number(new URL(sim.url).port);
  }, 120_000);
  afterAll(() => sim?.stop());

  it('opened with no token, the dashboard says where the terminal printed it; on this machine\'s own address "Use the default sandbox" opens the default sandbox in one click', async () => {
    const local = `http://127.0.0.1:${port}`;
    const { page, blocked, close } = await openPage(browser!, local);
    try {
      await page.goto(`${local}/`);
      const welcome = page.locator('#first-visit');
      await welcome.waitFor();
      // One instruction, then its alternative: the one-click way first, pasting the token as the other way (issue 42:
      // "Copy it into the field below" right above the one-click button told the first-time user two things at once).
      const paragraphs = (await welcome.locator('p:visible').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
      expect(paragraphs).toEqual([
        'Choose a sandbox to begin. The clock, clients, templates and purchases below are those of one sandbox.',
        'Use the default sandbox The sandbox the simulator made when it started: this page is open on this machine\'s own address, so the simulator can hand it the token itself.',
        expect.stringMatching(/^Or paste a sandbox's token into the field below: when the simulator started, its terminal printed the default sandbox's token on the line bearer token eyJ… \(in a container: docker logs\)\. "New sandbox with fixtures", under the field, makes a fresh sandbox instead\.$/),
      ]);
      expect(await welcome.locator('code').first().textContent()).toBe('bearer token   eyJ…');
      expect(await page.locator('#message').textContent()).toBe('No sandbox chosen yet: choose one above to use the controls below.');
      await screenshot(page, 'dashboard-first-visit', page.locator('section[aria-labelledby="sandbox-heading"]'));

      await page.getByRole('button', { name: 'Use the default sandbox' }).click();
      await expect.poll(() => page.locator('#message').textContent()).toMatch(/^Sandbox loaded: 2 template\(s\)/);
      expect(await page.getByLabel('Sandbox token (bearer JWT)').inputValue(), 'the token serve printed').toBe(sim.token);
      expect(new URL(page.url()).hash).toBe(`#token=${sim.token}`);
      expect(await page.evaluate(() => localStorage.getItem('billing-sim.token'))).toBe(sim.token);
      expect(await welcome.isHidden()).toBe(true);

      // Without a token again, the page asks again.
      await page.getByRole('button', { name: 'Forget token' }).click();
      await welcome.waitFor();
      expect(blocked, 'requests outside the simulator').toEqual([]);
    } finally {
      await close();
    }
  });

  it.skipIf(!lanAddress)('opened by a LAN address, the dashboard asks for the token and offers no one-click default sandbox', async () => {
    const lan = `http://${lanAddress}:${port}`;
    const { page, close } = await openPage(browser!, lan);
    try {
      await page.goto(`${lan}/`);
      await page.locator('#first-visit').waitFor();
      expect(await page.locator('#one-click').isHidden()).toBe(true);
      expect(await page.getByRole('button', { name: 'Use the default sandbox' }).count()).toBe(0);
      // Pasting is then the way, not an alternative to one.
      expect(await page.locator('#paste-token').textContent()).toMatch(/^Paste a sandbox's token into the field below/);
      // A pasted token still works.
      await page.getByLabel('Sandbox token (bearer JWT)').fill(sim.token);
      await page.getByRole('button', { name: 'Use this sandbox' }).click();
      await expect.poll(() => page.locator('#message').textContent()).toMatch(/^Sandbox loaded/);
    } finally {
      await close();
    }
  });
});

/** A purchase (EUR 12.00 unless `overrides` say otherwise) paid with visa through the API: held when it has skip_capture. */
async function paid(box: Awaited<ReturnType<typeof sandboxAt>>, clientId: string, overrides: Record<string, unknown> = {}): Promise<Purchase> {
  const purchase = await createPurchase(box, clientId, overrides);
  await payPurchase(box, purchase.id, { method: 'visa' });
  return purchase;
}

describe('QA dashboard: processing, pending steps and settlement', () => {
  it('the processing setting is shown and saved from the page; a refused duration gets the API\'s message beside its field', async () => {
    const box = await sandboxAt(h, NOW);
    const { page, close } = await openPage(browser!, h.origin);
    try {
      await openDashboard(page, h.origin, box.token);
      const now = page.locator('#processing-now');
      await expect.poll(() => now.textContent()).toBe(
        'Pending steps end at once: a capture, release, refund or token deletion passes its pending state within the same request. Paid purchases are never settled.',
      );
      const delay = page.getByLabel('Pending steps last');
      const settlement = page.getByLabel('Settle paid purchases after');
      expect([await delay.inputValue(), await settlement.inputValue()]).toEqual(['PT0S', '']);

      await delay.fill('soon');
      await page.getByRole('button', { name: 'Save processing' }).click();
      await expect.poll(() => fieldMessage(delay)).toBeTruthy();
      expect(await page.locator('#processing-result').getAttribute('class')).toContain('error');
      expect((await box.req('GET', '/sim/v1/processing')).body, 'a refused setting changes nothing').toEqual({ delay: 'PT0S', settlement: null });
      await screenshot(page, 'dashboard-processing-refused', page.locator('section[aria-labelledby="processing-heading"]'));

      await delay.fill('PT2S');
      await settlement.fill('P1D');
      await page.getByRole('button', { name: 'Save processing' }).click();
      await expect.poll(() => page.locator('#processing-result').textContent()).toBe(
        'Saved. Pending steps last PT2S of sandbox time: a charge with a saved card, a capture, release or refund answers pending_charge, pending_capture, pending_release or pending_refund until then. Paid purchases are settled P1D after payment (purchase.settled).',
      );
      expect(await fieldMessage(delay)).toBeNull();
      expect((await box.req('GET', '/sim/v1/processing')).body).toEqual({ delay: 'PT2S', settlement: 'P1D' });
      expect([await delay.inputValue(), await settlement.inputValue()]).toEqual(['PT2S', 'P1D']);

      // Emptied, settlement is "never" again.
      await settlement.fill('');
      await page.getByRole('button', { name: 'Save processing' }).click();
      await expect.poll(async () => (await box.req('GET', '/sim/v1/processing')).body).toEqual({ delay: 'PT2S', settlement: null });
      await expect.poll(() => now.textContent()).toMatch(/Paid purchases are never settled\.$/);
    } finally {
      await close();
    }
  });

  it('with a processing delay, Capture, Release and Refund answer their pending state, and a charge with a saved card is pending_charge: each row shows its pending badge and offers no action until the delay has passed; a settled purchase says when', async () => {
    const box = await sandboxAt(h, NOW);
    const client = await makeClient(box, { email: 'ada@example.com' });
    const toCapture = await paid(box, client.id, { skip_capture: true });
    const toRelease = await paid(box, client.id, { skip_capture: true });
    const toRefund = await paid(box, client.id);
    const token = await saveToken(box, client.id);
    expect((await box.req('PUT', '/sim/v1/processing', { delay: 'PT1H', settlement: 'P1D' })).status).toBe(200);
    const settles = await paid(box, client.id);
    const charged = await createPurchase(box, client.id);
    const charge = await box.req('POST', `/api/v1/purchases/${charged.id}/charge/`, { recurring_token: token });
    expect([charge.status, (charge.body as Purchase).status]).toEqual([200, 'pending_charge']);

    const { page, blocked, close } = await openPage(browser!, h.origin);
    try {
      await openDashboard(page, h.origin, box.token);
      const rows = { capture: purchaseRow(page, toCapture.id), release: purchaseRow(page, toRelease.id), refund: purchaseRow(page, toRefund.id), charge: purchaseRow(page, charged.id) };
      await rows.capture.getByRole('button', { name: /^Capture/ }).click();
      await expect.poll(() => resultIn(rows.capture).textContent()).toBe('Capture requested: pending_capture until the processing delay (PT1H of sandbox time) has passed.');
      await rows.release.getByRole('button', { name: /^Release/ }).click();
      await expect.poll(() => resultIn(rows.release).textContent()).toBe('Release requested: pending_release until the processing delay (PT1H of sandbox time) has passed.');
      await rows.refund.getByRole('button', { name: /^Refund…/ }).click();
      await page.getByRole('form', { name: /^Refund the purchase/ }).getByRole('button', { name: 'Refund' }).click();
      await expect.poll(() => resultIn(rows.refund).textContent()).toBe('Refund of €12.00 requested: pending_refund until the processing delay (PT1H of sandbox time) has passed.');

      const expected = { capture: 'pending_capture', release: 'pending_release', refund: 'pending_refund', charge: 'pending_charge' };
      for (const [name, status] of Object.entries(expected)) {
        const row = rows[name as keyof typeof rows];
        await expect.poll(() => row.locator('.badge').first().textContent(), { message: name }).toBe(status);
        const badge = row.locator('.badge').first();
        expect(await badge.getAttribute('title'), name).toMatch(/under way/);
        // Polled: the table the last action reloads may replace the row between two reads, and a node taken out
        // of the page has no computed style ('', as CI once saw).
        await expect.poll(() => badge.evaluate((node) => getComputedStyle(node).borderStyle), { message: `${name}: a pending step is dashed` }).toBe('dashed');
        expect(await row.getByRole('button').count(), `${name}: no action while pending`).toBe(0);
        expect(await row.locator('td').nth(4).textContent(), `${name}: nothing refundable while pending`).toBe('—');
      }
      expect(await rows.capture.locator('td').nth(5).textContent()).toMatch(/^capture of the €12\.00 authorised under way: paid once the processing delay has passed/);
      await screenshot(page, 'dashboard-pending-steps', page.locator('#purchases'));

      // The delay passes: each step ends in its final state, and the actions of that state are back.
      await page.getByRole('button', { name: '+1 week' }).click();
      await expect.poll(() => rows.capture.locator('.badge').first().textContent()).toBe('paid');
      await expect.poll(() => rows.release.locator('.badge').first().textContent()).toBe('released');
      await expect.poll(() => rows.refund.locator('.badge').first().textContent()).toBe('refunded');
      await expect.poll(() => rows.charge.locator('.badge').first().textContent()).toBe('paid');
      expect(await rows.capture.getByRole('button', { name: /^Refund…/ }).count()).toBe(1);

      // Settled P1D after payment: the mark beside `paid`, and the time in the details, as the API answers it.
      const settled = await getPurchase(box, settles.id);
      const settledOn = (settled as unknown as { transaction_data: { extra: { settlement?: { settled_on: number } } } }).transaction_data.extra.settlement?.settled_on;
      expect(settledOn, 'settled by the advance').toBeTypeOf('number');
      const row = purchaseRow(page, settles.id);
      expect(await row.locator('.badge').allTextContents()).toEqual(['paid', 'settled']);
      const when = new Date(settledOn! * 1000).toISOString().slice(0, 16).replace('T', ' ');
      expect(await row.locator('.badge.settled').getAttribute('title')).toBe(`settled with the merchant ${when} UTC`);
      expect(await row.locator('td').nth(5).textContent()).toMatch(new RegExp(`^paid 2026-01-30 12:00 with visa; settled ${when} checkout`));
      expect(blocked, 'requests outside the simulator').toEqual([]);
    } finally {
      await close();
    }
  });

  it('a card authorised with no charge (preauthorized) shows its own badge and offers neither Capture nor Release', async () => {
    const box = await sandboxAt(h, NOW);
    const client = await makeClient(box, { email: 'ada@example.com' });
    const zero = await paid(box, client.id, {
      skip_capture: true, force_recurring: true, purchase: { currency: 'EUR', products: [{ name: 'Add payment method', price: 0 }] },
    });
    expect((await getPurchase(box, zero.id)).status).toBe('preauthorized');
    const { page, close } = await openPage(browser!, h.origin);
    try {
      await openDashboard(page, h.origin, box.token);
      const row = purchaseRow(page, zero.id);
      const badge = row.locator('.badge').first();
      expect(await badge.textContent()).toBe('preauthorized');
      expect(await badge.getAttribute('title')).toBe('card authorised with no charge (zero-amount authorisation): nothing to capture or release');
      const colour = await badge.evaluate((node) => getComputedStyle(node).backgroundColor);
      expect(colour, 'not the neutral grey of a status the dashboard does not know').not.toBe('rgb(238, 240, 243)');
      expect(await row.getByRole('button').count()).toBe(0);
      expect(await row.locator('td').nth(5).textContent()).toMatch(/^card authorised with no charge, saved for later charges; nothing to capture/);
    } finally {
      await close();
    }
  });
});
