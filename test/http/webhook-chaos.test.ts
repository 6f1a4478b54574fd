// Issue 31, delivery chaos (DESIGN.md §13): "the platform, like every payment platform, may deliver
// an event twice, late, or after a later one; a merchant that does not deduplicate charges its
// customer twice." `GET/PUT/DELETE /sim/v1/webhook_chaos` {duplicate, reorder, delay, seed}:
// probabilities 0..1, an ISO-8601 duration in sandbox time, a seed that makes the disturbances
// repeat; it applies to webhooks and success_callback, and a duplicate carries the same event id and body.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAOS_STREAMS, chaosDraw } from '../../src/domain/webhook-chaos.ts';
import { startSimulator } from '../../src/index.ts';
import { useHarness } from '../support/harness.ts';
import { log, logWhen, type Delivery } from '../builders/deliveries.ts';
import { useReceivers } from '../support/receiver.ts';
import { send } from '../support/spawn-sim.ts';
import { advance, createPurchase, expectRejected, makeClient, payPurchase, sandboxAt, type Box } from '../builders/engine.ts';

const NOW = '2026-01-30T12:00:00Z';
const h = useHarness({ now: NOW });
const { receiver, dir } = useReceivers('billing-sim-chaos-');

const NO_CHAOS = { duplicate: 0, reorder: 0, delay: null, seed: 0 };

async function register(box: Box, path: string, events = ['purchase.created']): Promise<void> {
  const res = await box.req('POST', '/api/v1/webhooks/', { callback: receiver.url + path, events });
  expect(res.status, res.text).toBe(201);
}

async function putChaos(box: Box, settings: Record<string, unknown>): Promise<void> {
  const res = await box.req('PUT', '/sim/v1/webhook_chaos', settings);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ ...NO_CHAOS, ...settings });
}

const getChaos = async (box: Box) => (await box.req('GET', '/sim/v1/webhook_chaos')).body;

/**
 * Nothing has reached `path`, and by the simulator's own record nothing is on its way: every delivery
 * of the sandbox is pending and has never been tried (an attempt is logged in the turn that starts it,
 * before its POST goes out). A sleep here showed only that nothing came within the sleep.
 */
async function nothingSentTo(box: Box, path: string): Promise<void> {
  const deliveries = await log(box);
  expect(deliveries.length).toBeGreaterThan(0);
  expect(deliveries.map((d) => [d.event_type, d.status, d.attempts])).toEqual(deliveries.map((d) => [d.event_type, 'pending', []]));
  expect(receiver.at(path)).toEqual([]);
}

/** `count` purchases of one client, each one event `purchase.created`, oldest first. */
async function createPurchases(box: Box, count: number): Promise<string[]> {
  const client = await makeClient(box);
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) ids.push((await createPurchase(box, client.id)).id);
  return ids;
}

/** The log, oldest first, as what chaos did to the delivery of each purchase (by its place in `objects`): comparable across sandboxes. */
function disturbances(deliveries: Delivery[], objects: string[]) {
  const byId = new Map(deliveries.map((d) => [d.id, d]));
  return [...deliveries].reverse().map((d) => ({
    purchase: objects.indexOf(d.object_id),
    chaos: d.chaos,
    copies: d.duplicate_of === null ? null : objects.indexOf(byId.get(d.duplicate_of)!.object_id),
  }));
}

describe('delivery chaos: settings', () => {
  it('GET answers no chaos (all 0, delay null) for a sandbox that has none; PUT replaces the settings; DELETE turns chaos off (204)', async () => {
    const box = await sandboxAt(h, NOW);
    expect(await getChaos(box)).toEqual(NO_CHAOS);
    await putChaos(box, { duplicate: 0.25, reorder: 1, delay: 'PT30M', seed: 7 });
    expect(await getChaos(box)).toEqual({ duplicate: 0.25, reorder: 1, delay: 'PT30M', seed: 7 });
    // A field left out takes its value of no chaos.
    await putChaos(box, { reorder: 0.5 });
    expect(await getChaos(box)).toEqual({ ...NO_CHAOS, reorder: 0.5 });
    const deleted = await box.req('DELETE', '/sim/v1/webhook_chaos');
    expect(deleted.status).toBe(204);
    expect(await getChaos(box)).toEqual(NO_CHAOS);
    // Another sandbox's settings are its own.
    await putChaos(box, { duplicate: 1 });
    expect(await getChaos(await sandboxAt(h, NOW))).toEqual(NO_CHAOS);
  });

  it.each([
    ['a probability above 1', { duplicate: 1.5 }, 'duplicate', 'max_value'],
    ['a negative probability', { reorder: -0.1 }, 'reorder', 'min_value'],
    ['a delay that is no ISO-8601 duration', { delay: 'one hour' }, 'delay', 'invalid'],
    ['a negative delay', { delay: '-PT1H' }, 'delay', 'min_value'],
    ['a delay past 30 days', { delay: 'P31D' }, 'delay', 'max_value'],
    ['a seed that is no integer', { seed: 1.5 }, 'seed', 'invalid'],
    ['an unknown field', { duplicates: 1 }, 'duplicates', 'unknown_field'],
  ])('PUT validation: %s is a 400 naming the field, and changes nothing', async (_, body, field, code) => {
    const box = await sandboxAt(h, NOW);
    await putChaos(box, { duplicate: 0.5, seed: 3 });
    const res = await box.req('PUT', '/sim/v1/webhook_chaos', body);
    if (code === 'invalid') {
      expect(res.status, res.text).toBe(400);
      expect(Object.keys(res.body as object)).toEqual([field]);
    } else expectRejected(res, field, code);
    expect(await getChaos(box)).toEqual({ ...NO_CHAOS, duplicate: 0.5, seed: 3 });
  });
});

describe('delivery chaos: what deliveries do', () => {
  it('with duplicate: 1 every event reaches the receiver twice with the same event id, the same body and the same signature', async () => {
    const box = await sandboxAt(h, NOW);
    await register(box, '/twice');
    await putChaos(box, { duplicate: 1 });
    const [purchase] = await createPurchases(box, 1);
    const received = await receiver.waitFor('/twice', 2);
    expect(received).toHaveLength(2);
    expect(received[1]!.raw).toBe(received[0]!.raw);
    expect(received[1]!.signature).toBe(received[0]!.signature);
    expect(received[0]!.body.id).toBe(purchase);

    const [copy, first] = await logWhen(box, (all) => all.length === 2 && all.every((d) => d.status === 'delivered'));
    expect(first).toMatchObject({ chaos: [], duplicate_of: null, object_id: purchase });
    expect(copy).toMatchObject({ chaos: ['duplicate'], duplicate_of: first!.id, event_id: first!.event_id, event_type: 'purchase.created' });
    expect(copy!.id).not.toBe(first!.id);
  });

  it('with a seed, the same disturbances repeat: two sandboxes, the same settings and the same requests disturb the same deliveries in the same way', async () => {
    const settings = { duplicate: 0.5, reorder: 0.5, seed: 42 };
    const runs = [];
    for (const path of ['/seeded-a', '/seeded-b']) {
      const box = await sandboxAt(h, NOW);
      await register(box, path);
      await putChaos(box, settings);
      const objects = await createPurchases(box, 10);
      runs.push(disturbances(await log(box), objects));
    }
    expect(runs[1]).toEqual(runs[0]);
    // The sequence disturbs some deliveries and leaves others alone.
    const kinds = new Set(runs[0]!.map((d) => d.chaos.join('+')));
    expect(kinds).toEqual(new Set(['', 'reordered', 'duplicate']));
    // Another seed, another sequence.
    const other = await sandboxAt(h, NOW);
    await register(other, '/seeded-c');
    await putChaos(other, { ...settings, seed: 43 });
    const objects = await createPurchases(other, 10);
    expect(disturbances(await log(other), objects)).not.toEqual(runs[0]);
  });

  it('a checkpoint holds the settings and how far their sequence has got: after a restore, the same requests are disturbed the same way again', async () => {
    const box = await sandboxAt(h, NOW);
    await register(box, '/restored');
    await putChaos(box, { duplicate: 0.5, reorder: 0.5, seed: 42 });
    const client = await makeClient(box);
    await createPurchase(box, client.id);
    const taken = (await box.req('POST', '/sim/v1/checkpoints', {})).body as { id: string };
    const runs = [];
    for (let run = 0; run < 2; run += 1) {
      const objects: string[] = [];
      for (let i = 0; i < 8; i += 1) objects.push((await createPurchase(box, client.id)).id);
      runs.push(disturbances((await log(box)).filter((d) => objects.includes(d.object_id)), objects));
      expect((await box.req('POST', `/sim/v1/checkpoints/${taken.id}/restore`)).status).toBe(200);
    }
    expect(runs[1]).toEqual(runs[0]);
    expect(new Set(runs[0]!.map((d) => d.chaos.join('+'))).size).toBeGreaterThan(1);
    expect(await getChaos(box)).toEqual({ duplicate: 0.5, reorder: 0.5, delay: null, seed: 42 });
  });

  it('reorder: with reorder: 1 an object\'s later event reaches the receiver before an earlier one', async () => {
    const box = await sandboxAt(h, NOW);
    await register(box, '/reordered', ['purchase.created', 'purchase.paid']);
    await putChaos(box, { reorder: 1 });
    const [purchase] = await createPurchases(box, 1);
    await payPurchase(box, purchase!, { method: 'visa' });
    // Each is held back for a later one; the paid one, which nothing passes, goes a minute late.
    await nothingSentTo(box, '/reordered');
    await advance(box, { by: 'PT1M' });
    const received = await receiver.waitFor('/reordered', 2);
    expect(received.map((r) => r.body.event_type)).toEqual(['purchase.paid', 'purchase.created']);
    const deliveries = await logWhen(box, (all) => all.length === 2 && all.every((d) => d.status === 'delivered'));
    expect(deliveries.map((d) => [d.event_type, d.chaos])).toEqual([
      ['purchase.paid', ['reordered']],
      ['purchase.created', ['reordered']],
    ]);
  });

  it('reorder: a delivery held back goes right behind the later one that passed it, with no advance of the clock; one delayed too keeps its delay', async () => {
    // A seed whose first draw holds back (purchase.created) and whose second does not (purchase.paid).
    const seed = [...Array(100).keys()].find((n) => chaosDraw(n, 0, CHAOS_STREAMS.reorder) < 0.5 && chaosDraw(n, 1, CHAOS_STREAMS.reorder) >= 0.5)!;
    const box = await sandboxAt(h, NOW);
    await register(box, '/passed', ['purchase.created', 'purchase.paid']);
    await putChaos(box, { reorder: 0.5, seed });
    const [purchase] = await createPurchases(box, 1);
    await nothingSentTo(box, '/passed');
    await payPurchase(box, purchase!, { method: 'visa' });
    const received = await receiver.waitFor('/passed', 2);
    expect(received.map((r) => r.body.event_type)).toEqual(['purchase.paid', 'purchase.created']);
    const deliveries = await logWhen(box, (all) => all.length === 2 && all.every((d) => d.status === 'delivered'));
    expect(deliveries.map((d) => [d.event_type, d.chaos, d.attempts.map((a) => a.at)])).toEqual([
      ['purchase.paid', [], ['2026-01-30T12:00:00.000Z']],
      ['purchase.created', ['reordered'], ['2026-01-30T12:00:00.000Z']],
    ]);

    // With a delay, the one passed goes when its delay is over, not a minute after.
    const late = await sandboxAt(h, NOW);
    await register(late, '/passed-late', ['purchase.created', 'purchase.paid']);
    await putChaos(late, { reorder: 0.5, seed, delay: 'PT10M' });
    const [other] = await createPurchases(late, 1);
    await payPurchase(late, other!, { method: 'visa' });
    await nothingSentTo(late, '/passed-late');
    // The paid one goes as the clock passes its delay; the created one right behind it, once it is answered.
    expect((await advance(late, { by: 'PT10M' })).processed.webhook_deliveries).toBe(1);
    expect((await receiver.waitFor('/passed-late', 2)).map((r) => r.body.event_type)).toEqual(['purchase.paid', 'purchase.created']);
    const delayed = await logWhen(late, (all) => all.length === 2 && all.every((d) => d.status === 'delivered'));
    expect(delayed.map((d) => [d.event_type, d.chaos, d.attempts.map((a) => a.at)])).toEqual([
      ['purchase.paid', ['delayed'], ['2026-01-30T12:10:00.000Z']],
      ['purchase.created', ['reordered', 'delayed'], ['2026-01-30T12:10:00.000Z']],
    ]);
  });

  it('delay PT1H: nothing arrives until the sandbox clock is advanced past it; then it arrives and the log says delayed', async () => {
    const box = await sandboxAt(h, NOW);
    await register(box, '/late');
    await putChaos(box, { delay: 'PT1H' });
    await createPurchases(box, 1);
    await nothingSentTo(box, '/late');
    const [pending] = await log(box);
    expect(pending).toMatchObject({ status: 'pending', attempts: [], chaos: ['delayed'], next_attempt_at: '2026-01-30T13:00:00.000Z' });

    expect((await advance(box, { by: 'PT59M' })).processed.webhook_deliveries).toBe(0);
    await nothingSentTo(box, '/late');
    expect((await advance(box, { by: 'PT1M' })).processed.webhook_deliveries).toBe(1);
    await receiver.waitFor('/late', 1);
    const [delivered] = await logWhen(box, ([d]) => d?.status === 'delivered');
    expect(delivered!.chaos).toEqual(['delayed']);
    expect(delivered!.attempts.map((a) => a.at)).toEqual(['2026-01-30T13:00:00.000Z']);
  });

  it('success_callback is disturbed too: with duplicate: 1 the paid purchase is called back twice, with the same body and signature', async () => {
    const box = await sandboxAt(h, NOW);
    await putChaos(box, { duplicate: 1 });
    const client = await makeClient(box);
    const purchase = await createPurchase(box, client.id, { success_callback: `${receiver.url}/callback-twice` });
    await payPurchase(box, purchase.id);
    const received = await receiver.waitFor('/callback-twice', 2);
    expect(received).toHaveLength(2);
    expect(received[1]!.raw).toBe(received[0]!.raw);
    expect(received[1]!.signature).toBe(received[0]!.signature);
    const [copy, first] = await logWhen(box, (all) => all.length === 2 && all.every((d) => d.status === 'delivered'), '&kind=success_callback');
    expect(copy).toMatchObject({ kind: 'success_callback', chaos: ['duplicate'], duplicate_of: first!.id, event_id: first!.event_id });
  });

  it('a resend is sent as asked, and DELETE leaves deliveries made before it as they were drawn', async () => {
    const box = await sandboxAt(h, NOW);
    await register(box, '/resend-calm');
    await putChaos(box, { delay: 'PT1H' });
    await createPurchases(box, 1);
    expect((await box.req('DELETE', '/sim/v1/webhook_chaos')).status).toBe(204);
    const [delayed] = await log(box);
    const resent = await box.req('POST', `/sim/v1/webhook_deliveries/${delayed!.id}/resend`);
    expect(resent.status, resent.text).toBe(201);
    expect(resent.body).toMatchObject({ chaos: [], duplicate_of: null });
    // The resend waits behind the object's delayed delivery, which still waits for its hour.
    await nothingSentTo(box, '/resend-calm');
    await advance(box, { by: 'PT1H' });
    expect((await receiver.waitFor('/resend-calm', 2)).length).toBe(2);
  });
});

describe('delivery chaos: saved with the sandbox', () => {
  it('a snapshot holds the settings and the position of the draws: its copy disturbs the next deliveries as the original does', async () => {
    const box = await sandboxAt(h, NOW);
    await register(box, '/original');
    const settings = { duplicate: 0.5, reorder: 0.5, delay: 'PT5M', seed: 9 };
    await putChaos(box, settings);
    await createPurchases(box, 3);
    const exported = await box.req('GET', '/sim/v1/snapshot');
    const document = exported.body as { sandbox: { webhookChaos: unknown } };
    expect(document.sandbox.webhookChaos).toEqual({ ...settings, drawn: 3 });

    const imported = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: document } });
    expect(imported.status, imported.text).toBe(201);
    // The copy's ids are new ones (the original's are taken on this server), its brand's too.
    const { token, brand_id: brandId } = imported.body as { token: string; brand_id: string };
    const copy: Box = { h, token, brandId, req: (method, path, body) => h.request(method, path, { token, body }) };
    expect(await getChaos(copy)).toEqual(settings);

    const next = async (sandbox: Box) => {
      const objects = await createPurchases(sandbox, 6);
      return disturbances((await log(sandbox)).filter((d) => objects.includes(d.object_id)), objects);
    };
    const continued = await next(copy);
    expect(continued).toEqual(await next(box));
    // Not the start of the sequence again: a fresh sandbox with the same settings draws otherwise.
    const fresh = await sandboxAt(h, NOW);
    await register(fresh, '/fresh');
    await putChaos(fresh, settings);
    expect(await next(fresh)).not.toEqual(continued);
  });

  it('a snapshot without webhookChaos (an earlier version\'s) loads with no chaos', async () => {
    const box = await sandboxAt(h, NOW);
    const document = (await box.req('GET', '/sim/v1/snapshot')).body as { sandbox: Record<string, unknown> };
    delete document.sandbox.webhookChaos;
    const imported = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: document } });
    expect(imported.status, imported.text).toBe(201);
    const token = (imported.body as { token: string }).token;
    expect((await h.request('GET', '/sim/v1/webhook_chaos', { token })).body).toEqual(NO_CHAOS);
  });

  it('a snapshot whose chaos delay is no duration is refused, naming it', async () => {
    const box = await sandboxAt(h, NOW);
    await putChaos(box, { delay: 'PT1H' });
    const document = (await box.req('GET', '/sim/v1/snapshot')).body as { sandbox: { webhookChaos: { delay: string } } };
    document.sandbox.webhookChaos.delay = 'P1Q';
    const imported = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: document } });
    expect(imported.status).toBe(400);
    expect(Object.keys(imported.body as object)).toEqual(['snapshot.sandbox.webhookChaos.delay']);
  });

  it('POST /sim/v1/reset keeps the settings', async () => {
    const box = await sandboxAt(h, NOW);
    await putChaos(box, { reorder: 0.3, seed: 5 });
    expect((await box.req('POST', '/sim/v1/reset')).status).toBe(200);
    expect(await getChaos(box)).toEqual({ ...NO_CHAOS, reorder: 0.3, seed: 5 });
  });

  it('the settings and the position of the draws survive a restart with --data', async () => {
    const file = join(dir, 'chaos.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const created = (await send(first.url, 'POST', '/sim/v1/sandboxes', null, { now: NOW, frozen: true })).body as { token: string; brand_id: string };
    const on = (url: string): Box => ({ h, token: created.token, brandId: created.brand_id, req: (method, path, body) => send(url, method, path, created.token, body) });
    const settings = { duplicate: 1, reorder: 0, delay: 'PT2H', seed: 11 };
    await putChaos(on(first.url), settings);
    await register(on(first.url), '/restart');
    await createPurchases(on(first.url), 2);
    await first.stop();

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      const again = on(second.url);
      expect(await getChaos(again)).toEqual(settings);
      const document = (await again.req('GET', '/sim/v1/snapshot')).body as { sandbox: { webhookChaos: unknown } };
      expect(document.sandbox.webhookChaos).toEqual({ ...settings, drawn: 2 });
      // Two deliveries and their copies, all still waiting for their two hours.
      expect((await log(again)).map((d) => d.chaos)).toEqual([['duplicate', 'delayed'], ['delayed'], ['duplicate', 'delayed'], ['delayed']]);
    } finally {
      await second.stop();
    }
  });
});
