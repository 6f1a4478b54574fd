// The bound of the webhook delivery log (engine/delivery-log.ts): a sandbox keeps its newest
// MAX_DELIVERIES_KEPT done deliveries and every pending one. Ten thousand deliveries are too many to
// make over HTTP in a test, so the walk is checked here with a small limit.

import { describe, expect, it } from 'vitest';
import { markDone, trimDeliveryLog } from '../../src/engine/delivery-log.ts';
import { createIds } from '../../src/engine/ids.ts';
import { MAX_DELIVERIES_KEPT } from '../../src/engine/limits.ts';
import { createSandbox } from '../../src/engine/sandboxes.ts';
import type { Delivery, DeliveryStatus, Sandbox } from '../../src/store/store.ts';

const wall = { now: () => Date.parse('2026-02-28T12:00:00Z') };

function sandboxWith(statuses: DeliveryStatus[]): Sandbox {
  const sandbox = createSandbox({ nowMs: wall.now(), frozen: true, fixtures: false, seed: 1 }, wall, createIds(3));
  statuses.forEach((status, i) => {
    const id = `d${i}`;
    const delivery: Delivery = { id, webhookId: 'w', objectId: `o${i}`, body: '{}', attempts: 1, eventId: null, eventType: 'purchase.paid', url: 'http://127.0.0.1:9/', status, tries: [], nextAttemptAt: null, createdOn: 0 };
    sandbox.deliveries.set(id, delivery);
  });
  return sandbox;
}

const kept = (sandbox: Sandbox) => [...sandbox.deliveries.keys()];

describe('the delivery log keeps the newest done deliveries', () => {
  it('drops the oldest done ones past the limit, and never a pending one, however old', () => {
    const sandbox = sandboxWith(['pending', 'delivered', 'failed', 'pending', 'delivered', 'delivered']);
    trimDeliveryLog(sandbox, 2);
    expect(kept(sandbox)).toEqual(['d0', 'd3', 'd4', 'd5']);
    trimDeliveryLog(sandbox, 0);
    expect(kept(sandbox)).toEqual(['d0', 'd3']);
  });

  it('a delivery done now counts, and pushes the oldest done one out at the limit of 10,000', () => {
    const sandbox = sandboxWith([...Array(MAX_DELIVERIES_KEPT).fill('delivered'), 'pending']);
    const last = sandbox.deliveries.get(`d${MAX_DELIVERIES_KEPT}`)!;
    markDone(sandbox, { ...last, status: 'failed' });
    expect(sandbox.deliveries.size).toBe(MAX_DELIVERIES_KEPT);
    expect(sandbox.deliveries.has('d0')).toBe(false);
    expect(sandbox.deliveries.get(last.id)!.status).toBe('failed');
  });
});
