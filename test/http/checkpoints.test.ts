// DESIGN.md §13 "Checkpoints": POST /sim/v1/checkpoints {name?} → 201 {id, name, created_on, clock};
// GET /sim/v1/checkpoints; POST /sim/v1/checkpoints/{id}/restore "puts the sandbox back exactly (tokens,
// queued deliveries, event log; later objects gone, ids not reused)"; POST /sim/v1/sandboxes
// {"from_checkpoint"} forks a new sandbox from one. "A restored sandbox equals its snapshot at the
// checkpoint; ids are never reused." Persistence across a restart is in test/durability/checkpoints.test.ts.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { HANG_GUARD_MS } from '../support/receiver.ts';
import {
  advance,
  createPurchase,
  events,
  expectRejected,
  generated,
  listSubscribers,
  makeClient,
  makeTemplate,
  outbox,
  payPurchase,
  purchases,
  sandboxAt,
  subscribe,
  subscriberBody,
  type Box,
} from '../builders/engine.ts';

const h = useHarness({ now: '2026-01-30T12:00:00Z' });

interface CheckpointAnswer {
  id: string;
  name: string | null;
  created_on: number;
  clock: { now: string; frozen: boolean };
}

const boxOf = (token: string, brandId: string): Box => ({ h, token, brandId, req: (method, path, body) => h.request(method, path, { token, body }) });

async function checkpoint(box: Box, body?: Record<string, unknown>): Promise<CheckpointAnswer> {
  const taken = await box.req('POST', '/sim/v1/checkpoints', body);
  expect(taken.status, taken.text).toBe(201);
  return taken.body as CheckpointAnswer;
}

async function restore(box: Box, id: string) {
  const restored = await box.req('POST', `/sim/v1/checkpoints/${id}/restore`);
  expect(restored.status, restored.text).toBe(200);
  return restored.body as { now: string; frozen: boolean; clock: { now: string; frozen: boolean }; checkpoint: CheckpointAnswer };
}

/** The snapshot's text, byte for byte as GET /sim/v1/snapshot sends it. */
async function snapshotText(box: Box): Promise<string> {
  const exported = await box.req('GET', '/sim/v1/snapshot');
  expect(exported.status).toBe(200);
  return exported.text;
}

/**
 * A sandbox frozen on Jan 30 with two subscribers of a monthly template who paid their first purchase
 * with a saved card (B's card declines every later charge), and a webhook whose receiver never
 * answers, so its deliveries wait in the queue for their retries in sandbox time.
 */
async function shop() {
  const box = await sandboxAt(h, '2026-01-30T10:00:00Z');
  const template = await makeTemplate(box);
  const clients = [await makeClient(box, { email: 'a@example.com' }), await makeClient(box, { email: 'b@example.com' })];
  await box.req('POST', '/api/v1/webhooks/', { callback: 'http://127.0.0.1:9/hook', all_events: true, events: [] });
  for (const [index, client] of clients.entries()) {
    const { purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
    await payPurchase(box, purchase!.id, { method: 'visa', save_token: true, token_outcome: index === 0 ? 'success' : 'failure' });
  }
  await settledDeliveries(box);
  return { box, template, clients };
}

/**
 * Waits until no delivery has an attempt due or out: the first attempt of each object's first delivery
 * goes at once, after the answer; the others wait behind it, with no next attempt. Fails with the log
 * as it last was if that never comes (HANG_GUARD_MS only catches a hang).
 */
async function settledDeliveries(box: Box): Promise<void> {
  type Logged = { attempts: { duration_ms: number | null }[]; next_attempt_at: string | null };
  const settled = (delivery: Logged) => (delivery.attempts.length > 0 || delivery.next_attempt_at === null) && delivery.attempts.every((attempt) => attempt.duration_ms !== null);
  let log: Logged[] = [];
  for (const started = Date.now(); Date.now() - started < HANG_GUARD_MS; await new Promise((resolve) => setTimeout(resolve, 25))) {
    log = ((await box.req('GET', '/sim/v1/webhook_deliveries?page_size=1000')).body as { results: Logged[] }).results;
    if (log.length > 0 && log.every(settled)) return;
  }
  throw new Error(`deliveries never settled within ${HANG_GUARD_MS} ms; the log was:\n${JSON.stringify(log, null, 1)}`);
}

/** What billing did: purchases by client, date and status, subscribers' next dates, events, e-mails. */
async function history(box: Box, templateId: string) {
  return {
    purchases: (await generated(box, templateId)).map((p) => [p.id, p.client_id, p.issued, p.status]),
    subscribers: (await listSubscribers(box, templateId)).map((s) => [s.client_id, s.status, s.subscription_billing_scheduled_on]),
    events: (await events(box)).map((e) => [e.event_type, e.created_on]),
    outbox: (await outbox(box)).map((e) => [e.kind, e.to, e.sent_on]),
  };
}

describe('checkpoints', () => {
  it('POST /sim/v1/checkpoints {name?} → 201 {id, name, created_on, clock}; GET lists them newest first', async () => {
    const box = await sandboxAt(h, '2028-02-29T23:30:00Z');
    const first = await checkpoint(box, { name: 'Leap day' });
    expect(first).toEqual({ id: expect.any(String), name: 'Leap day', created_on: Math.floor(h.wall.ms / 1000), clock: { now: '2028-02-29T23:30:00.000Z', frozen: true } });
    await advance(box, { by: 'PT1H' });
    const second = await checkpoint(box);
    expect(second).toMatchObject({ name: null, clock: { now: '2028-03-01T00:30:00.000Z', frozen: true } });
    const listed = await box.req('GET', '/sim/v1/checkpoints');
    expect(listed.body).toEqual({ results: [second, first], next: null, previous: null });
  });

  it('restore after a 3-month advance gives back the sandbox byte for byte as its snapshot was at the checkpoint, and its clock', async () => {
    const { box, template } = await shop();
    const taken = await checkpoint(box, { name: 'Before February' });
    const before = await snapshotText(box);
    const billedBefore = await history(box, template.id);

    const advanced = await advance(box, { by: 'P3M' });
    expect(advanced.processed.billings).toBeGreaterThan(0);
    await makeClient(box, { email: 'later@example.com' });
    expect(await snapshotText(box)).not.toBe(before);

    const restored = await restore(box, taken.id);
    expect(restored).toEqual({ now: '2026-01-30T10:00:00.000Z', frozen: true, clock: { now: '2026-01-30T10:00:00.000Z', frozen: true }, checkpoint: taken });
    expect((await box.req('GET', '/sim/v1/clock')).body).toEqual({ now: '2026-01-30T10:00:00.000Z', frozen: true });
    expect(await snapshotText(box)).toBe(before);
    expect(await history(box, template.id)).toEqual(billedBefore);
  });

  it('a restored sandbox keeps its tokens, their outcomes and its queued deliveries: the same advance bills and declines again on the same dates', async () => {
    const { box, template, clients } = await shop();
    const taken = await checkpoint(box);
    await advance(box, { to: '2026-04-01T00:00:00Z' });
    const firstRun = (await generated(box, template.id)).map((p) => [p.client_id, p.issued, p.status]);
    const deliveriesAfter = ((await box.req('GET', '/sim/v1/webhook_deliveries?page_size=1000')).body as { results: unknown[] }).results.length;

    await restore(box, taken.id);
    expect((await box.req('GET', `/api/v1/clients/${clients[0]!.id}/recurring_tokens/`)).body).toMatchObject({ results: [{ client_id: clients[0]!.id }] });
    await advance(box, { to: '2026-04-01T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => [p.client_id, p.issued, p.status])).toEqual(firstRun);
    // B's saved card declines again: its outcome was restored with the token.
    expect(firstRun.filter(([client]) => client === clients[1]!.id).map(([, issued, status]) => [issued, status])).toEqual([
      ['2026-01-30', 'paid'],
      ['2026-02-28', 'overdue'],
      ['2026-03-30', 'sent'],
    ]);
    expect(((await box.req('GET', '/sim/v1/webhook_deliveries?page_size=1000')).body as { results: unknown[] }).results).toHaveLength(deliveriesAfter);
  });

  it('after a restore, later objects are gone and ids are not reused, in a sandbox created with a seed too', async () => {
    const created = await h.newSandbox({ seed: 42 });
    const box = boxOf(created.token, created.brandId);
    const client = await makeClient(box);
    const taken = await checkpoint(box);
    const later = await createPurchase(box, client.id);

    await restore(box, taken.id);
    expect((await box.req('GET', `/api/v1/purchases/${later.id}/`)).status).toBe(404);
    expect(await purchases(box)).toEqual([]);
    const again = await createPurchase(box, client.id);
    expect(again.id).not.toBe(later.id);
    // Taking a checkpoint draws no id of the sandbox's own sequence: a twin sandbox without one gets the same ids.
    const twin = await h.newSandbox({ seed: 42 });
    const twinBox = boxOf(twin.token, twin.brandId);
    expect((await makeClient(twinBox)).id).toBe(client.id);
    expect((await createPurchase(twinBox, client.id)).id).toBe(later.id);
  });

  it('a checkpoint can be restored any number of times, and survives a reset of its sandbox', async () => {
    const box = await sandboxAt(h, '2026-12-31T23:00:00Z');
    const client = await makeClient(box);
    const taken = await checkpoint(box);
    for (const by of ['PT2H', 'P1Y']) {
      await advance(box, { by });
      await restore(box, taken.id);
      expect((await box.req('GET', '/sim/v1/clock')).body).toEqual({ now: '2026-12-31T23:00:00.000Z', frozen: true });
    }
    expect((await box.req('POST', '/sim/v1/reset')).status).toBe(200);
    expect((await box.req('GET', `/api/v1/clients/${client.id}/`)).status).toBe(404);
    await restore(box, taken.id);
    expect((await box.req('GET', `/api/v1/clients/${client.id}/`)).status).toBe(200);
  });

  it('a restored running clock runs on from the checkpoint instant', async () => {
    const created = await h.newSandbox({ now: '2026-01-31T23:59:00-05:00', frozen: false });
    const box = boxOf(created.token, created.brandId);
    const taken = await checkpoint(box);
    expect(taken.clock).toEqual({ now: '2026-02-01T04:59:00.000Z', frozen: false });
    h.wall.ms += 60_000;
    const restored = await restore(box, taken.id);
    expect(restored.clock).toEqual({ now: '2026-02-01T04:59:00.000Z', frozen: false });
    h.wall.ms += 30_000;
    expect((await box.req('GET', '/sim/v1/clock')).body).toEqual({ now: '2026-02-01T04:59:30.000Z', frozen: false });
  });

  it('a checkpoint is the sandbox\'s own: another sandbox\'s token gets 404, as for an unknown id; DELETE removes it', async () => {
    const box = await sandboxAt(h, '2026-01-30T10:00:00Z');
    const other = await sandboxAt(h, '2026-01-30T10:00:00Z');
    const taken = await checkpoint(box);
    expect((await other.req('POST', `/sim/v1/checkpoints/${taken.id}/restore`)).status).toBe(404);
    expect((await other.req('DELETE', `/sim/v1/checkpoints/${taken.id}`)).status).toBe(404);
    expect((await other.req('GET', '/sim/v1/checkpoints')).body).toEqual({ results: [], next: null, previous: null });
    expect((await box.req('DELETE', `/sim/v1/checkpoints/${taken.id}`)).status).toBe(204);
    expect((await box.req('POST', `/sim/v1/checkpoints/${taken.id}/restore`)).status).toBe(404);
    expect((await box.req('GET', '/sim/v1/checkpoints')).body).toEqual({ results: [], next: null, previous: null });
  });

  it('bad input: a name over 100 characters or an unknown field → 400 naming it, and no checkpoint is taken', async () => {
    const box = await sandboxAt(h, '2026-01-30T10:00:00Z');
    expectRejected(await box.req('POST', '/sim/v1/checkpoints', { name: 'x'.repeat(101) }), 'name', 'max_length');
    expectRejected(await box.req('POST', '/sim/v1/checkpoints', { nmae: 'typo' }), 'nmae', 'unknown_field');
    expect((await box.req('GET', '/sim/v1/checkpoints')).body).toEqual({ results: [], next: null, previous: null });
  });

  it('bounded: a sandbox keeps at most 20 checkpoints (400 max_value), and deleting one makes room', async () => {
    const box = await sandboxAt(h, '2026-01-30T10:00:00Z');
    const taken = [];
    for (let i = 0; i < 20; i += 1) taken.push(await checkpoint(box, { name: `#${i}` }));
    expectRejected(await box.req('POST', '/sim/v1/checkpoints', {}), '__all__', 'max_value');
    expect((await box.req('DELETE', `/sim/v1/checkpoints/${taken[0]!.id}`)).status).toBe(204);
    await checkpoint(box);
  });
});

describe('forks', () => {
  async function fork(box: Box, checkpointId: string): Promise<Box & { id: string; clock: unknown }> {
    const created = await h.request('POST', '/sim/v1/sandboxes', { token: box.token, body: { from_checkpoint: checkpointId } });
    expect(created.status, created.text).toBe(201);
    const { id, token, brand_id, clock } = created.body as { id: string; token: string; brand_id: string; clock: unknown };
    return { ...boxOf(token, brand_id), id, clock };
  }

  it('a fork and its origin diverge independently', async () => {
    const { box, template } = await shop();
    const taken = await checkpoint(box);
    await advance(box, { to: '2026-03-01T00:00:00Z' });
    const originAfter = await history(box, template.id);

    const copy = await fork(box, taken.id);
    expect(copy.clock).toEqual({ now: '2026-01-30T10:00:00.000Z', frozen: true });
    // A new account: fresh ids everywhere, none of its origin's.
    const originIds = new Set((await purchases(box)).map((p) => p.id));
    const copied = await purchases(copy);
    expect(copied).toHaveLength(2);
    expect(copied.some((p) => originIds.has(p.id))).toBe(false);
    const [copiedTemplate] = ((await copy.req('GET', '/api/v1/billing_templates/')).body as { results: { id: string }[] }).results;

    await advance(copy, { to: '2026-05-01T00:00:00Z' });
    await makeClient(copy, { email: 'fork-only@example.com' });
    expect(await history(box, template.id)).toEqual(originAfter);
    expect(((await box.req('GET', '/api/v1/clients/?page_size=1000')).body as { results: { email: string }[] }).results.map((c) => c.email)).not.toContain('fork-only@example.com');
    await makeClient(box, { email: 'origin-only@example.com' });
    expect(((await copy.req('GET', '/api/v1/clients/?page_size=1000')).body as { results: { email: string }[] }).results.map((c) => c.email)).not.toContain('origin-only@example.com');
    // The copy billed on its own dates: Feb 28, Mar 30 and Apr 30 for each subscriber, after their first purchases.
    expect((await generated(copy, copiedTemplate!.id)).map((p) => p.issued).sort()).toEqual(
      ['2026-01-30', '2026-01-30', '2026-02-28', '2026-02-28', '2026-03-30', '2026-03-30', '2026-04-30', '2026-04-30'],
    );
    // And the checkpoint is still its origin's, not the fork's.
    expect((await copy.req('GET', '/sim/v1/checkpoints')).body).toEqual({ results: [], next: null, previous: null });
    expect((await restore(box, taken.id)).clock).toEqual({ now: '2026-01-30T10:00:00.000Z', frozen: true });
  });

  it('a fork needs the origin sandbox\'s token, a checkpoint of it, and nothing else beside', async () => {
    const box = await sandboxAt(h, '2026-01-30T10:00:00Z');
    const other = await sandboxAt(h, '2026-01-30T10:00:00Z');
    const taken = await checkpoint(box);
    const create = (token: string | null, body: Record<string, unknown>) => h.request('POST', '/sim/v1/sandboxes', { token, body });
    expect((await create(null, { from_checkpoint: taken.id })).status).toBe(401);
    expect((await create('not-a-token', { from_checkpoint: taken.id })).status).toBe(401);
    expectRejected(await create(other.token, { from_checkpoint: taken.id }), 'from_checkpoint', 'does_not_exist');
    expectRejected(await create(box.token, { from_checkpoint: taken.id, fixtures: true }), 'fixtures', 'invalid');
    expectRejected(await create(box.token, { from_checkpoint: 'yesterday' }), 'from_checkpoint', 'invalid');
  });
});
