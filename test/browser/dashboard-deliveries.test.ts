// The dashboard lists the sandbox's webhook deliveries and marks those that delivery chaos (issue 31,
// DESIGN.md §13: "may deliver an event twice, late, or after a later one") sent twice or late.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { createPurchase, makeClient, sandboxAt } from '../builders/engine.ts';
import { useBrowser } from './browser.ts';
import { openDashboard } from './dashboard-page.ts';

const h = useHarness();
const browser = useBrowser(h);

describe('QA dashboard: webhook deliveries', () => {
  it('marks a duplicate delivery and a late (delayed) one where it lists deliveries', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    // Nothing listens there: the deliveries stay pending, which is all the table needs.
    expect((await box.req('POST', '/api/v1/webhooks/', { callback: 'http://127.0.0.1:9/hook', events: ['purchase.created'] })).status).toBe(201);
    expect((await box.req('PUT', '/sim/v1/webhook_chaos', { duplicate: 1, delay: 'PT1H' })).status).toBe(200);
    await createPurchase(box, (await makeClient(box)).id);
    const deliveries = (await box.req('GET', '/sim/v1/webhook_deliveries')).body as { results: { id: string; duplicate_of: string | null }[] };
    const [copy, first] = deliveries.results;

    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const marks = (id: string) => page.locator(`#deliveries tr[data-delivery="${id}"] .badge.chaos`).allTextContents();
      expect(await marks(first!.id)).toEqual(['late: delayed']);
      expect(await marks(copy!.id)).toEqual(['duplicate', 'late: delayed']);
      expect(await page.locator(`#deliveries tr[data-delivery="${copy!.id}"] .badge.chaos`).first().getAttribute('title')).toBe(`a copy of delivery ${first!.id}`);
    } finally {
      await close();
    }
  });
});
