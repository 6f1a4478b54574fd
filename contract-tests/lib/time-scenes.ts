// What the time checks share beyond scenario.ts: the events of one object, a purchase read back at an
// instant, and instants around a purchase's own `due`. A check that watches a due pass moves the clock
// relative to the `due` the target answered, not to an hour it computed itself: when a billing runs and
// which hour its due falls on are billing-sim's decisions (docs/behaviour.md#billing-dates), that the
// purchase is overdue once its due has passed is the platform's rule (docs/behaviour.md#overdue).

import { expect } from 'vitest';
import { advanceTo, getPurchase, listAll, type Account, type Purchase } from './scenario.ts';
import type { SimEvent } from './records.ts';

/** The event types recorded for one object, oldest first (GET /sim/v1/events is newest first). Requires 'events'. */
export async function eventTypesOf(account: Account, objectId: string): Promise<string[]> {
  const events = await listAll<SimEvent>(account.api.sim, `/events?object_id=${objectId}`);
  return events.map((event) => event.event_type).reverse();
}

/** The ISO instant `seconds` (Unix seconds) plus `offset` seconds. */
export const instant = (seconds: number, offset = 0): string => new Date((seconds + offset) * 1000).toISOString();

/** Advances the sandbox's clock to `iso`, then reads the purchase back. */
export async function purchaseAt(account: Account, id: string, iso: string): Promise<Purchase> {
  await advanceTo(account, iso);
  return getPurchase(account, id);
}

/**
 * The purchase `id` (unpaid, with a due) a second before its due and a second after it: the status it
 * has while the due is ahead, and the one it has once the due has passed.
 */
export async function aroundDue(account: Account, purchase: Purchase): Promise<{ before: Purchase; after: Purchase }> {
  expect(typeof purchase.due, 'the purchase has a due (Unix seconds)').toBe('number');
  const before = await purchaseAt(account, purchase.id, instant(purchase.due!, -1));
  const after = await purchaseAt(account, purchase.id, instant(purchase.due!, 1));
  return { before, after };
}
