// Subscribers that need attention are marked in the subscriber list itself, with the reason in
// words, not only in their timelines (issue: "a subscriber with two failed charges and an overdue
// purchase shows as plain 'active' until its timeline is opened"). The states are made through the
// API: a saved card that declines every later charge, and a due_strict template left unpaid.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { advance, makeClient, makeTemplate, payPurchase, purchases, sandboxAt, subscribe, subscriberBody, type Box } from '../builders/engine.ts';
import { useBrowser, screenshot } from './browser.ts';
import { openDashboard, subscriberCard } from './dashboard-page.ts';

const h = useHarness();
const browser = useBrowser(h);

/** A subscriber of `templateId` launched on Jan 30; its first purchase paid with a card saved to answer `later` to every later charge, or left unpaid. */
async function launched(box: Box, templateId: string, email: string, later: 'success' | 'failure' | 'unpaid') {
  const client = await makeClient(box, { email });
  const { subscriber, purchase } = await subscribe(box, templateId, subscriberBody(client.id, '2026-02-05'));
  if (later !== 'unpaid') await payPurchase(box, purchase!.id, { save_token: true, token_outcome: later });
  return subscriber;
}

describe('QA dashboard: warnings', () => {
  it('a subscriber with two failed charges and an overdue purchase, and one whose purchase expired, are marked in the list with the reasons; a healthy one is not', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const gym = await makeTemplate(box, { title: 'Gym monthly' });
    const strict = await makeTemplate(box, {
      title: 'Strict monthly',
      purchase: { currency: 'EUR', due_strict: true, products: [{ name: 'Monthly membership', price: 2990 }] },
    });
    const declining = await launched(box, gym.id, 'ada@example.com', 'failure');
    const healthy = await launched(box, gym.id, 'bob@example.com', 'success');
    const expired = await launched(box, strict.id, 'cy@example.com', 'unpaid');
    // Feb 28 and Mar 30: both automatic charges are declined; each purchase is due 7 days later.
    await advance(box, { to: '2026-03-31T00:00:00Z' });

    const { page, blocked, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const warningsOf = (id: string) => subscriberCard(page, id).getByRole('list', { name: /^Warnings about/ }).getByRole('listitem').allTextContents();
      expect(await warningsOf(declining.id)).toEqual([
        '2 failed charges, the last on 2026-03-30 00:00 UTC (Insufficient funds); 2 purchases still unpaid',
        // Declined on Mar 30 and not yet past its due: unpaid too, so the count above has a line for each (newest first).
        'Declined: €29.90, due 2026-04-06 00:00 UTC, is still unpaid',
        'Overdue: €29.90 was due 2026-03-07 00:00 UTC and is still unpaid',
      ]);
      // Still "active" for the API: the warning is the dashboard's reading of its purchases.
      expect(await subscriberCard(page, declining.id).locator('.subscriber-status').textContent()).toBe('active');
      expect(await warningsOf(expired.id)).toEqual(['Expired: €29.90 was due 2026-02-06 00:00 UTC; it can no longer be paid']);
      expect(await subscriberCard(page, healthy.id).locator('.warnings').count()).toBe(0);
      expect(await page.locator('article.subscriber.attention').count()).toBe(2);
      expect(await page.locator('#attention').textContent()).toBe('2 of 3 subscriber(s) need attention: failed charges or unpaid purchases past due.');

      // The marks are in the list itself: they stay in sight with the timeline closed.
      const card = subscriberCard(page, declining.id);
      await card.locator('details > summary').click();
      expect(await card.locator('details').getAttribute('open')).toBeNull();
      expect(await card.locator('.warnings').isVisible()).toBe(true);
      await screenshot(page, 'dashboard-warnings', page.locator('#subscribers').locator('..'));
      expect(blocked, 'requests outside the simulator').toEqual([]);
    } finally {
      await close();
    }
  });

  it('the count of unpaid purchases agrees with the lines under it: one declined charge and three overdue invoices say "3 purchases still unpaid" above three lines (issue 42)', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const gym = await makeTemplate(box, { title: 'Gym monthly' });
    const client = await makeClient(box, { email: 'ada@example.com' });
    const { subscriber, purchase } = await subscribe(box, gym.id, subscriberBody(client.id, '2026-02-05'));
    // Paid without saving the card: each later billing is an invoice to pay, never an automatic charge.
    await payPurchase(box, purchase!.id);
    await advance(box, { to: '2026-03-01T00:00:00Z' });
    const [february] = (await purchases(box)).filter((p) => p.id !== purchase!.id);
    // The tester declines February's invoice once; March's and April's are never tried.
    await payPurchase(box, february!.id, { outcome: 'failure' });
    await advance(box, { to: '2026-05-20T00:00:00Z' });
    const overdue = (await purchases(box)).filter((p) => p.status === 'overdue');
    expect(overdue.map((p) => p.due), 'Feb 28, Mar 30 and Apr 30, each due 7 days later').toEqual(
      ['2026-05-07', '2026-04-06', '2026-03-07'].map((day) => Date.parse(`${day}T00:00:00Z`) / 1000),
    );

    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const lines = await subscriberCard(page, subscriber.id).locator('.warnings li').allTextContents();
      expect(lines).toEqual([
        '1 failed charge, the last on 2026-03-01 00:00 UTC (Insufficient funds); 3 purchases still unpaid',
        'Overdue: €29.90 was due 2026-05-07 00:00 UTC and is still unpaid',
        'Overdue: €29.90 was due 2026-04-06 00:00 UTC and is still unpaid',
        'Overdue: €29.90 was due 2026-03-07 00:00 UTC and is still unpaid',
      ]);
      // The purchases table below shows the same three as overdue.
      expect(await page.locator('#purchases [data-status=overdue]').count()).toBe(3);
      await screenshot(page, 'dashboard-warnings-count', subscriberCard(page, subscriber.id));
    } finally {
      await close();
    }
  });

  it('a charge declined once and then paid stays marked, as "since paid"', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const gym = await makeTemplate(box, { title: 'Gym monthly' });
    const subscriber = await launched(box, gym.id, 'ada@example.com', 'failure');
    await advance(box, { to: '2026-02-28T00:00:00Z' });
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const card = subscriberCard(page, subscriber.id);
      expect(await card.locator('.warnings li').allTextContents()).toEqual([
        '1 failed charge, the last on 2026-02-28 00:00 UTC (Insufficient funds); 1 purchase still unpaid',
        'Declined: €29.90, due 2026-03-07 00:00 UTC, is still unpaid',
      ]);
      // The tester pays the declined purchase from the dashboard: the mark stays, saying it was paid since.
      const declined = page.locator('#purchases tr[data-purchase]').first();
      await declined.getByRole('button', { name: /^Pay…/ }).click();
      await page.getByRole('form', { name: /^Pay the purchase/ }).getByRole('button', { name: 'Pay', exact: true }).click();
      await expect.poll(() => card.locator('.warnings li').allTextContents()).toEqual(['1 failed charge, the last on 2026-02-28 00:00 UTC (Insufficient funds); since paid']);
    } finally {
      await close();
    }
  });
});
