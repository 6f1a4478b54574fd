// The dashboard's purchase list in a real browser: every status the simulator produces after a
// payment (held, captured, released, refunded in part or in full, marked as paid, overdue, expired,
// declined) shows with its own words and colour, and a paid purchase shows what can still be refunded; a
// declined one, its decline reason (code and message). The states are made through the API, as a
// merchant's backend would.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { advance, at, createPurchase, DAY, makeClient, payPurchase, sandboxAt, type Box } from '../builders/engine.ts';
import { useBrowser, screenshot } from './browser.ts';

const h = useHarness();
const browser = useBrowser(h);

const NOW = '2026-01-30T12:00:00Z';

async function act(box: Box, id: string, action: string, body: Record<string, unknown> = {}): Promise<void> {
  const call = await box.req('POST', `/api/v1/purchases/${id}/${action}/`, body);
  expect(call.status, `${action}: ${call.text.slice(0, 500)}`).toBe(200);
}

/** One EUR 12.00 purchase per state, named by what the test expects of it. */
async function purchasesInEveryState(box: Box) {
  const client = await makeClient(box, { email: 'ada@example.com' });
  const make = (overrides: Record<string, unknown> = {}) => createPurchase(box, client.id, overrides);
  const ids: Record<string, string> = {};
  const due = at(NOW) + DAY;

  ids.overdue = (await make({ due })).id;
  ids.expired = (await make({ due, purchase: { currency: 'EUR', due_strict: true, products: [{ name: 'Consulting hour', price: 1200 }] } })).id;
  for (const name of ['hold', 'released', 'captured']) {
    ids[name] = (await make({ skip_capture: true })).id;
    await payPurchase(box, ids[name]!);
  }
  await act(box, ids.released!, 'release');
  await act(box, ids.captured!, 'capture', { amount: 800 });
  for (const name of ['paid', 'partly_refunded', 'refunded']) {
    ids[name] = (await make()).id;
    await payPurchase(box, ids[name]!, { method: 'mastercard' });
  }
  await act(box, ids.partly_refunded!, 'refund', { amount: 500 });
  await act(box, ids.refunded!, 'refund');
  ids.marked = (await make()).id;
  await act(box, ids.marked, 'mark_as_paid');
  ids.declined = (await make()).id;
  await payPurchase(box, ids.declined, { outcome: 'failure', decline_code: 'expired_card' });
  await advance(box, { by: 'P2D' });
  return ids;
}

describe('QA dashboard: purchases', () => {
  it('each status shows with its own label and colour, a paid purchase shows its refundable amount, a declined one its decline reason (code and message), and "marked as paid" is marked', async () => {
    const box = await sandboxAt(h, NOW);
    const ids = await purchasesInEveryState(box);

    const { page, blocked, close } = await browser.open();
    try {
      await page.goto(`${h.origin}/`);
      await page.getByLabel('Sandbox token (bearer JWT)').fill(box.token);
      await page.getByRole('button', { name: 'Use this sandbox' }).click();
      const section = page.locator('#purchases');
      await expect.poll(() => section.locator('tbody tr').count()).toBe(Object.keys(ids).length);

      const row = (name: string) => section.locator(`tr[data-purchase="${ids[name]}"]`);
      const cells = async (name: string) => (await row(name).locator('td').allInnerTexts()).map((text) => text.trim());
      // Columns: Created, Client, Amount, Status, Refundable, Details.
      const expected: Record<string, [status: string, refundable: string, details: RegExp]> = {
        overdue: ['overdue', '—', /^due 2026-01-31 12:00 passed unpaid; still payable/],
        expired: ['expired', '—', /^due 2026-01-31 12:00 passed with due_strict: no longer payable/],
        hold: ['hold', '—', /^€12\.00 authorised, awaiting capture/],
        released: ['released', '—', /^authorisation released: no payment taken/],
        captured: ['paid', '€8.00', /^paid 2026-01-30 12:00 with visa; captured €8\.00 of €12\.00 authorised/],
        paid: ['paid', '€12.00', /^paid 2026-01-30 12:00 with mastercard checkout/],
        partly_refunded: ['paid', '€7.00', /^paid 2026-01-30 12:00 with mastercard; €5\.00 refunded/],
        refunded: ['refunded', '—', /^€12\.00 refunded in full/],
        marked: ['paid marked as paid', '—', /^marked as paid 2026-01-30 12:00: paid outside the gateway, nothing to refund/],
        declined: ['error', '—', /^declined: The card has expired\. \(expired_card\)/],
      };
      for (const [name, [status, refundable, details]] of Object.entries(expected)) {
        const [, client, amount, shownStatus, shownRefundable, shownDetails] = await cells(name);
        expect([client, amount, shownStatus, shownRefundable], name).toEqual(['ada@example.com', '€12.00', status, refundable]);
        expect(shownDetails, name).toMatch(details);
      }

      // Colours: the new statuses differ from each other and from paid, hold and cancelled's grey.
      const colour = (name: string) => row(name).locator('.badge').first().evaluate((badge) => getComputedStyle(badge).backgroundColor);
      const colours = await Promise.all(['released', 'refunded', 'expired', 'paid', 'hold', 'overdue'].map(colour));
      expect(new Set(colours).size).toBe(colours.length);
      expect(await row('marked').locator('.badge.marked-as-paid').textContent()).toBe('marked as paid');
      expect(await row('expired').locator('.badge').getAttribute('title')).toBe('due passed with due_strict: no longer payable');
      await screenshot(page, 'dashboard-purchases', section);
      expect(blocked, 'requests outside the simulator').toEqual([]);
    } finally {
      await close();
    }
  });
});
