// DESIGN.md §10: "`GET /sim/v1/webhook_deliveries` (event, url, attempts with status, time and error,
// next retry) and `POST /sim/v1/webhook_deliveries/{id}/resend`." Each attempt's answer is logged in
// a turn after its POST (§6: requests and advances never wait for a receiver); done deliveries stay
// in the log, in the data file and in snapshots.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.ts';
import { useHarness } from '../support/harness.ts';
import { log, logWhen, type Delivery } from '../builders/deliveries.ts';
import { HANG_GUARD_MS, useReceivers } from '../support/receiver.ts';
import { send } from '../support/spawn-sim.ts';
import { advance, createPurchase, events, expectRejected, makeClient, sandboxAt, type Box, type Errors, type List } from '../builders/engine.ts';

const NOW = '2026-02-28T23:59:30Z';
const h = useHarness({ now: NOW });
const { receiver, hanging, silent, closed, dir } = useReceivers('billing-sim-deliveries-');

async function register(box: Box, callback: string, events = ['purchase.created']): Promise<string> {
  const res = await box.req('POST', '/api/v1/webhooks/', { callback, events });
  expect(res.status, res.text).toBe(201);
  return (res.body as { id: string }).id;
}

const answered = (delivery: Delivery | undefined, count: number) => delivery !== undefined && delivery.attempts.length === count && delivery.attempts.every((a) => a.duration_ms !== null);

describe('the delivery log', () => {
  it('a receiver that answers 500 then 200: each attempt with its status and time, the retry one minute later (past midnight into March), then delivered and kept', async () => {
    const box = await sandboxAt(h, NOW);
    const webhookId = await register(box, `${receiver.url}/flaky`);
    receiver.script('/flaky', [500]);
    const client = await makeClient(box);
    const purchase = await createPurchase(box, client.id);

    const [first] = await logWhen(box, ([d]) => answered(d, 1));
    const created = (await events(box)).find((e) => e.object_id === purchase.id && e.event_type === 'purchase.created')!;
    expect(first).toMatchObject({
      webhook_id: webhookId,
      event_id: created.id,
      event_type: 'purchase.created',
      object_id: purchase.id,
      url: `${receiver.url}/flaky`,
      status: 'pending',
      next_attempt_at: '2026-03-01T00:00:30.000Z',
      created_on: Date.parse(NOW) / 1000,
    });
    expect(first!.attempts).toEqual([{ at: '2026-02-28T23:59:30.000Z', status: 500, error: null, duration_ms: expect.any(Number) }]);

    // 59 s later the retry is not due yet; one more second and it goes.
    expect((await advance(box, { by: 'PT59S' })).processed.webhook_deliveries).toBe(0);
    expect((await advance(box, { by: 'PT1S' })).processed.webhook_deliveries).toBe(1);
    const [done] = await logWhen(box, ([d]) => d?.status === 'delivered');
    expect(done!.id).toBe(first!.id);
    expect(done!.attempts.map((a) => [a.at, a.status, a.error])).toEqual([
      ['2026-02-28T23:59:30.000Z', 500, null],
      ['2026-03-01T00:00:30.000Z', 200, null],
    ]);
    expect(done!.next_attempt_at).toBeNull();
    expect(receiver.at('/flaky')).toHaveLength(2);
    // Done, it stays: a day later it is still in the log, and nothing is sent again.
    await advance(box, { by: 'P1D' });
    expect((await log(box)).map((d) => [d.id, d.status])).toEqual([[first!.id, 'delivered']]);
    expect(receiver.at('/flaky')).toHaveLength(2);
  });

  it('a receiver that refuses the connection: "connection refused" for each of the 7 attempts, 1 min, 5 min, 30 min, 2 h, 6 h and 24 h apart; failed at once after the last', async () => {
    const box = await sandboxAt(h, NOW);
    await register(box, closed.url);
    const purchase = await createPurchase(box, (await makeClient(box)).id);
    await logWhen(box, ([d]) => answered(d, 1));
    for (const [count, wait] of [[2, 'PT1M'], [3, 'PT5M'], [4, 'PT30M'], [5, 'PT2H'], [6, 'PT6H'], [7, 'PT24H']] as const) {
      await advance(box, { by: wait });
      await logWhen(box, ([d]) => answered(d, count));
    }
    // The last attempt's failure gives the delivery up when it is logged, not 5 s of sandbox time later.
    const [failed] = await log(box);
    expect(failed).toMatchObject({ object_id: purchase.id, status: 'failed', next_attempt_at: null });
    expect(failed!.attempts.map((a) => [a.at, a.status, a.error])).toEqual(
      ['2026-02-28T23:59:30', '2026-03-01T00:00:30', '2026-03-01T00:05:30', '2026-03-01T00:35:30', '2026-03-01T02:35:30', '2026-03-01T08:35:30', '2026-03-02T08:35:30'].map((at) => [
        `${at}.000Z`,
        null,
        'connection refused',
      ]),
    );
  });

  it('a receiver that never answers holds nothing: requests and an advance past every retry answer while the POST is out; the attempts due meanwhile are logged "not sent", the first "timeout" after 5 s', async () => {
    const box = await sandboxAt(h, NOW);
    await register(box, silent.url);
    await createPurchase(box, (await makeClient(box)).id);
    // The POST goes out after the answer: waited for as it arrives (100 × 10 ms, a guess, was 1 s at most).
    await expect.poll(() => hanging.length, { timeout: HANG_GUARD_MS }).toBeGreaterThan(0);
    expect(hanging).toHaveLength(1);
    const [out] = await log(box);
    expect(out!.attempts).toEqual([{ at: '2026-02-28T23:59:30.000Z', status: null, error: null, duration_ms: null }]);
    expect(out!.next_attempt_at).toBe('2026-03-01T00:00:30.000Z');

    const advanced = await advance(box, { by: 'P2D' });
    // Answered while the POST is still out: the simulator gives up on it (closing it) only after 5 s.
    expect(hanging[0]!.closed).toBe(false);
    expect(advanced.processed.webhook_deliveries).toBe(6);
    const [given] = await logWhen(box, ([d]) => d!.attempts.slice(1).every((a) => a.error !== null));
    expect(given!.status).toBe('failed');
    expect(given!.attempts.slice(1).map((a) => [a.status, a.error, a.duration_ms])).toEqual(
      Array(6).fill([null, 'not sent: the previous attempt was still waiting for its answer', 0]),
    );
    expect(hanging).toHaveLength(1);

    // The 5 s are the product's own timer (ATTEMPT_TIMEOUT_MS, no setting): waited for, up to the hang guard.
    const [timedOut] = await logWhen(box, ([d]) => d!.attempts[0]!.error !== null);
    expect(timedOut!.attempts[0]).toMatchObject({ status: null, error: 'timeout' });
    expect(timedOut!.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(4_900);
  });
});

describe('POST /sim/v1/webhook_deliveries/{id}/resend', () => {
  it('makes a new delivery of the same signed body to the same webhook, sent at once; the original stays as it was', async () => {
    const box = await sandboxAt(h, NOW);
    const webhookId = await register(box, `${receiver.url}/again`);
    await createPurchase(box, (await makeClient(box)).id);
    const [original] = await logWhen(box, ([d]) => d?.status === 'delivered');

    const resent = await box.req('POST', `/sim/v1/webhook_deliveries/${original!.id}/resend`);
    expect(resent.status, resent.text).toBe(201);
    const copy = resent.body as Delivery;
    expect(copy.id).not.toBe(original!.id);
    expect(copy).toMatchObject({ webhook_id: webhookId, event_id: original!.event_id, event_type: 'purchase.created', object_id: original!.object_id, status: 'pending', attempts: [], next_attempt_at: '2026-02-28T23:59:30.000Z' });

    const received = await receiver.waitFor('/again', 2);
    expect(received[1]!.raw).toBe(received[0]!.raw);
    const both = await logWhen(box, (deliveries) => deliveries.every((d) => d.status === 'delivered'));
    // Newest first: the resend, then the original, untouched.
    expect(both.map((d) => d.id)).toEqual([copy.id, original!.id]);
    expect(both[1]).toEqual(original);
  });

  it('its webhook deleted → 400 invalid_state; an unknown or another sandbox\'s delivery → 404', async () => {
    const box = await sandboxAt(h, NOW);
    const webhookId = await register(box, `${receiver.url}/deleted`);
    await createPurchase(box, (await makeClient(box)).id);
    const [original] = await logWhen(box, ([d]) => d?.status === 'delivered');
    const other = await sandboxAt(h, NOW);
    expect((await other.req('POST', `/sim/v1/webhook_deliveries/${original!.id}/resend`)).status).toBe(404);
    expect((await box.req('POST', '/sim/v1/webhook_deliveries/7d4b1c8e-1111-4222-8333-444455556666/resend')).status).toBe(404);
    expect((await box.req('DELETE', `/api/v1/webhooks/${webhookId}/`)).status).toBe(204);
    expectRejected(await box.req('POST', `/sim/v1/webhook_deliveries/${original!.id}/resend`), '__all__', 'invalid_state');
    expect(await log(box)).toHaveLength(1);
  });
});

describe('filters', () => {
  it('status, webhook_id and event_type narrow the list; next and previous keep them; a bad value → 400 naming the parameter', async () => {
    const box = await sandboxAt(h, NOW);
    const good = await register(box, `${receiver.url}/filters`, ['purchase.created', 'purchase.cancelled']);
    const bad = await register(box, closed.url, ['purchase.cancelled']);
    const client = await makeClient(box);
    const purchases = [await createPurchase(box, client.id), await createPurchase(box, client.id)];
    expect((await box.req('POST', `/api/v1/purchases/${purchases[0]!.id}/cancel/`)).status).toBe(200);
    // Both creations and the cancellation to the good webhook (delivered), the cancellation to the refusing one (pending, its retry due in a minute).
    await logWhen(box, (deliveries) => deliveries.length === 4 && deliveries.every((d) => answered(d, 1)));

    expect((await log(box, '&status=delivered')).map((d) => d.webhook_id)).toEqual([good, good, good]);
    expect((await log(box, '&status=pending')).map((d) => [d.webhook_id, d.event_type])).toEqual([[bad, 'purchase.cancelled']]);
    expect(await log(box, '&status=failed')).toEqual([]);
    expect((await log(box, `&webhook_id=${bad}`)).map((d) => d.attempts[0]!.error)).toEqual(['connection refused']);
    expect((await log(box, `&event_type=purchase.cancelled&webhook_id=${good}`)).map((d) => d.object_id)).toEqual([purchases[0]!.id]);
    expect((await log(box, '&event_type=purchase.created')).map((d) => d.object_id)).toEqual([purchases[1]!.id, purchases[0]!.id]);

    const first = await box.req('GET', `/sim/v1/webhook_deliveries?webhook_id=${good}&page_size=2`);
    const page = first.body as List<Delivery>;
    expect(page.results).toHaveLength(2);
    const next = new URL(page.next!);
    expect([next.searchParams.get('webhook_id'), next.searchParams.get('page')]).toEqual([good, '2']);
    const second = (await box.req('GET', next.pathname + next.search)).body as List<Delivery>;
    expect(second.results.map((d) => d.webhook_id)).toEqual([good]);
    expect(new URL(second.previous!).searchParams.get('webhook_id')).toBe(good);

    for (const [query, field] of [['status=done', 'status'], ['webhook_id=42', 'webhook_id'], ['event_type=purchase.sent', 'event_type']]) {
      const res = await box.req('GET', `/sim/v1/webhook_deliveries?${query}`);
      expect(res.status, res.text).toBe(400);
      expect(Object.keys(res.body as Errors)).toEqual([field]);
    }
  });
});

describe('kept with the sandbox', () => {
  it('a snapshot holds the done deliveries with their attempts, and so does its copy', async () => {
    const box = await sandboxAt(h, NOW);
    await register(box, `${receiver.url}/snap`);
    await createPurchase(box, (await makeClient(box)).id);
    const [done] = await logWhen(box, ([d]) => d?.status === 'delivered');
    const snapshot = (await box.req('GET', '/sim/v1/snapshot')).body as { sandbox: { deliveries: [string, { status: string; tries: unknown[] }][] } };
    expect(snapshot.sandbox.deliveries.map(([id, d]) => [id, d.status, d.tries.length])).toEqual([[done!.id, 'delivered', 1]]);
    expect((await box.req('DELETE', '/sim/v1/sandbox')).status).toBe(204);
    const copy = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot } });
    expect(copy.status, copy.text).toBe(201);
    const copied: Box = { h, token: (copy.body as { token: string }).token, brandId: box.brandId, req: (method, path, body) => h.request(method, path, { token: copied.token, body }) };
    expect(await log(copied)).toEqual([done]);
  });

  it('a snapshot written before the log, whose delivery under way has only its count of attempts, loads as a pending delivery', async () => {
    const box = await sandboxAt(h, NOW);
    await register(box, closed.url);
    const purchase = await createPurchase(box, (await makeClient(box)).id);
    await logWhen(box, ([d]) => answered(d, 1));
    const snapshot = (await box.req('GET', '/sim/v1/snapshot')).body as { sandbox: { deliveries: [string, Record<string, unknown>][] } };
    const [[id, delivery]] = snapshot.sandbox.deliveries as [[string, Record<string, unknown>]];
    snapshot.sandbox.deliveries = [[id, { id, webhookId: delivery.webhookId, objectId: delivery.objectId, body: delivery.body, attempts: 1 }]];
    expect((await box.req('DELETE', '/sim/v1/sandbox')).status).toBe(204);
    const copy = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot } });
    expect(copy.status, copy.text).toBe(201);
    const copied: Box = { h, token: (copy.body as { token: string }).token, brandId: box.brandId, req: (method, path, body) => h.request(method, path, { token: copied.token, body }) };
    expect(await log(copied)).toEqual([
      { id, kind: 'webhook', webhook_id: delivery.webhookId, event_id: null, event_type: 'purchase.created', object_id: purchase.id, url: closed.url, status: 'pending', attempts: [], next_attempt_at: '2026-03-01T00:00:30.000Z', created_on: Date.parse(NOW) / 1000, chaos: [], duplicate_of: null },
    ]);
  });

  it('a snapshot whose object queue holds a done delivery is refused, naming it: it would hold the object\'s later deliveries for good', async () => {
    const box = await sandboxAt(h, NOW);
    await register(box, closed.url);
    await createPurchase(box, (await makeClient(box)).id);
    await logWhen(box, ([d]) => answered(d, 1));
    const snapshot = (await box.req('GET', '/sim/v1/snapshot')).body as { sandbox: { deliveries: [string, Record<string, unknown>][] } };
    snapshot.sandbox.deliveries[0]![1].status = 'delivered';
    const refusedCopy = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot } });
    expectRejected(refusedCopy, 'snapshot.sandbox.deliveryQueues.0.1.0', 'invalid');
  });

  it('a data file keeps the log across a restart', async () => {
    const file = join(dir, 'log.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const created = (await send(first.url, 'POST', '/sim/v1/sandboxes', null, { now: NOW })).body as { token: string; brand_id: string };
    const box: Box = { h, token: created.token, brandId: created.brand_id, req: (method, path, body) => send(first.url, method, path, created.token, body) };
    await register(box, `${receiver.url}/file`);
    await createPurchase(box, (await makeClient(box)).id);
    const before = await logWhen(box, ([d]) => d?.status === 'delivered');
    await first.stop();

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      const after = await send(second.url, 'GET', '/sim/v1/webhook_deliveries', created.token);
      expect((after.body as List<Delivery>).results).toEqual(before);
    } finally {
      await second.stop();
    }
  });
});
