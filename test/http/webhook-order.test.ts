// Issue 42: a purchase's events arrive at a webhook in the order they happened, those of the
// Payments related to it included (DESIGN.md §4.14, §6 "order per object", §14 pending steps). A
// refund's `payment.refunded` is the Payment's event, not the purchase's; with processing.delay PT0S
// it happens in the same turn as `purchase.pending_refund`, and a plugin that marks its order
// "processing" on `pending_refund` ends there if it comes second. Deliveries therefore queue per
// (webhook, purchase): a receiver that fails or never answers holds only its own webhook's
// deliveries of that purchase, never another webhook's, another purchase's or another sandbox's.
// The receivers here hold each answer a moment, as a slow merchant server does: a simulator that
// POSTed a purchase's next event before the last one was answered would show it in the order of arrival.

import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { HANG_GUARD_MS } from '../support/receiver.ts';
import { logWhen } from '../builders/deliveries.ts';
import { advance, createPurchase, events, makeClient, payPurchase, sandboxAt, type Box, type Purchase, type SimEvent } from '../builders/engine.ts';

const NOW = '2026-01-30T12:00:00Z';
const h = useHarness({ now: NOW });

/** What arrived: the path, the event and the purchase it belongs to (a Payment's `related_to`). */
interface Arrival {
  path: string;
  eventType: string;
  purchaseId: string;
}

/**
 * A receiver that records each POST as it arrives and answers it HOLD_MS later (a slow merchant
 * server), or never for a path under /never. `fail` answers 500 to the next POSTs of a path.
 */
const HOLD_MS = 15;
const arrivals: Arrival[] = [];
const fail = new Map<string, number>();
const hanging: ServerResponse[] = [];
const waiting = new Set<() => void>();
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; event_type: string; related_to?: { id: string } };
      arrivals.push({ path: req.url!, eventType: body.event_type, purchaseId: body.related_to?.id ?? body.id });
      for (const check of [...waiting]) check();
      if (req.url!.startsWith('/never')) return void hanging.push(res);
      const failures = fail.get(req.url!) ?? 0;
      if (failures > 0) fail.set(req.url!, failures - 1);
      setTimeout(() => res.writeHead(failures > 0 ? 500 : 200).end(), HOLD_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const at = (path: string) => arrivals.filter((a) => a.path === path);

/** Waits until `count` POSTs have reached `path`; fails naming what came after HANG_GUARD_MS (a hang). */
function arrived(path: string, count: number): Promise<Arrival[]> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (at(path).length < count) return;
      done();
      resolve(at(path));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`waited for ${count} POST(s) to ${path}; ${at(path).length} came: ${at(path).map((a) => a.eventType).join(', ')}`));
    }, HANG_GUARD_MS);
    const done = () => {
      clearTimeout(timer);
      waiting.delete(check);
    };
    waiting.add(check);
    check();
  });
}

const ALL_ACTIONS = [
  'purchase.created',
  'purchase.paid',
  'purchase.hold',
  'purchase.pending_refund',
  'payment.refunded',
  'purchase.pending_capture',
  'purchase.captured',
  'purchase.pending_release',
  'purchase.released',
];

async function register(box: Box, path: string, events = ALL_ACTIONS): Promise<string> {
  const res = await box.req('POST', '/api/v1/webhooks/', { callback: base + path, events });
  expect(res.status, res.text).toBe(201);
  return (res.body as { id: string }).id;
}

/** The purchase an event belongs to: its own, or a Payment's `related_to`. */
const purchaseOf = (event: SimEvent): string => (event.payload as { related_to?: { id: string } }).related_to?.id ?? event.object_id;

/** Per purchase, the types of `types` its events (and its Payments') happened in, oldest first, from /sim/v1/events. */
async function happened(box: Box, types: readonly string[]): Promise<Map<string, string[]>> {
  const order = new Map<string, string[]>();
  for (const event of (await events(box)).reverse()) {
    if (!types.includes(event.event_type)) continue;
    order.set(purchaseOf(event), [...(order.get(purchaseOf(event)) ?? []), event.event_type]);
  }
  return order;
}

/** Per purchase, the event types that reached `path`, in the order they arrived. */
function received(path: string): Map<string, string[]> {
  const order = new Map<string, string[]>();
  for (const a of at(path)) order.set(a.purchaseId, [...(order.get(a.purchaseId) ?? []), a.eventType]);
  return order;
}

const refund = async (box: Box, id: string, body: Record<string, unknown> = {}) => {
  const res = await box.req('POST', `/api/v1/purchases/${id}/refund/`, body);
  expect(res.status, res.text).toBe(200);
};

async function paid(box: Box, clientId: string, overrides: Record<string, unknown> = {}): Promise<Purchase> {
  const purchase = await createPurchase(box, clientId, overrides);
  await payPurchase(box, purchase.id, { method: 'visa' });
  return purchase;
}

describe('a purchase\'s events arrive in the order they happened (issue 42)', () => {
  it('the event sequence: a refund records purchase.pending_refund, then payment.refunded (its Payment related to the purchase), then the simulator-only purchase.refunded', async () => {
    const box = await sandboxAt(h, NOW);
    const client = await makeClient(box);
    const purchase = await paid(box, client.id);
    await refund(box, purchase.id, { amount: 200 });
    const recorded = (await events(box)).reverse().filter((event) => purchaseOf(event) === purchase.id);
    expect(recorded.map((event) => event.event_type)).toEqual(['purchase.created', 'purchase.paid', 'purchase.pending_refund', 'payment.refunded', 'purchase.refunded']);
    expect(recorded[3]).toMatchObject({ object_type: 'payment', payload: { related_to: { type: 'purchase', id: purchase.id } } });
  });

  it('with processing.delay PT0S, over many refunds (full and partial), captures and releases, each purchase\'s deliveries arrive in the order its events happened: purchase.pending_refund always before payment.refunded', async () => {
    const box = await sandboxAt(h, NOW);
    expect((await box.req('GET', '/sim/v1/processing')).body).toMatchObject({ delay: 'PT0S' });
    await register(box, '/many');
    const client = await makeClient(box);
    const RUNS = 8;
    for (let run = 0; run < RUNS; run += 1) {
      const full = await paid(box, client.id);
      const partly = await paid(box, client.id);
      const held = await paid(box, client.id, { skip_capture: true });
      const released = await paid(box, client.id, { skip_capture: true });
      // Each action right after the payment, while the receiver still holds its earlier answers.
      await refund(box, full.id);
      await refund(box, partly.id, { amount: 200 });
      await refund(box, partly.id, { amount: 300 });
      expect((await box.req('POST', `/api/v1/purchases/${held.id}/capture/`, { amount: 500 })).status).toBe(200);
      expect((await box.req('POST', `/api/v1/purchases/${released.id}/release/`)).status).toBe(200);
    }
    const expected = await happened(box, ALL_ACTIONS);
    const count = [...expected.values()].reduce((sum, types) => sum + types.length, 0);
    await arrived('/many', count);
    const got = received('/many');
    expect(got.size).toBe(4 * RUNS);
    for (const [purchaseId, types] of expected) expect(got.get(purchaseId), `purchase ${purchaseId}`).toEqual(types);
    // The order the issue is about, stated outright for every refund.
    for (const types of got.values()) {
      types.forEach((type, i) => {
        if (type === 'payment.refunded') expect(types[i - 1]).toBe('purchase.pending_refund');
      });
    }
    const refunds = [...got.values()].flat().filter((type) => type === 'payment.refunded');
    expect(refunds).toHaveLength(3 * RUNS);
  });

  it('a failed delivery of purchase.pending_refund holds the refund\'s payment.refunded behind it until the retry on the sandbox clock has been answered', async () => {
    const box = await sandboxAt(h, NOW);
    await register(box, '/retry', ['purchase.pending_refund', 'payment.refunded']);
    fail.set('/retry', 1);
    const client = await makeClient(box);
    const purchase = await paid(box, client.id);
    await refund(box, purchase.id);
    await arrived('/retry', 1);
    // The 500 is logged; the Payment's delivery, never tried, waits behind the purchase's retry a minute on.
    const [refunded, pending] = await logWhen(box, (all) => all.length === 2 && all[1]!.attempts[0]?.status === 500);
    expect(pending).toMatchObject({ event_type: 'purchase.pending_refund', object_id: purchase.id, status: 'pending', next_attempt_at: '2026-01-30T12:01:00.000Z' });
    expect(refunded).toMatchObject({ event_type: 'payment.refunded', status: 'pending', attempts: [], next_attempt_at: null });
    expect(refunded!.object_id).not.toBe(purchase.id);
    expect(at('/retry').map((a) => a.eventType)).toEqual(['purchase.pending_refund']);
    await advance(box, { by: 'PT1M' });
    expect((await arrived('/retry', 3)).map((a) => a.eventType)).toEqual(['purchase.pending_refund', 'purchase.pending_refund', 'payment.refunded']);
  });

  it('a receiver that never answers holds only its own webhook\'s deliveries of the purchase: another webhook receives them all, in order, and the silent one\'s other purchases are not held either', async () => {
    const box = await sandboxAt(h, NOW);
    const events = ['purchase.created', 'purchase.paid', 'purchase.pending_refund', 'payment.refunded'];
    await register(box, '/never', events);
    await register(box, '/beside', events);
    const client = await makeClient(box);
    const first = await paid(box, client.id);
    await refund(box, first.id);
    // The silent receiver has the first purchase's purchase.created and no answer; the other webhook gets everything.
    expect((await arrived('/beside', 4)).map((a) => a.eventType)).toEqual(events);
    const second = await createPurchase(box, client.id);
    await arrived('/never', 2);
    expect(at('/never').map((a) => [a.purchaseId, a.eventType])).toEqual([
      [first.id, 'purchase.created'],
      [second.id, 'purchase.created'],
    ]);
    // Another sandbox's deliveries go as ever.
    const other = await sandboxAt(h, NOW);
    await register(other, '/other', ['purchase.created']);
    await createPurchase(other, (await makeClient(other)).id);
    await arrived('/other', 1);
  });
});
