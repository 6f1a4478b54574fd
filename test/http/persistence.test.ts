// DESIGN.md §6 "Durable store" and "Ids": with --data FILE every sandbox survives a restart with
// its objects, clock and token; the file and its WAL are 0600; with --seed the id sequence resumes
// after a restart instead of repeating. Without --data nothing survives.

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import type { Client, List } from '../builders/engine.ts';
import { subscriptionBody } from '../builders/templates.ts';
import { killSpawned, send, spawnSim, type Sim } from '../support/spawn-sim.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-'));
afterAll(async () => {
  await killSpawned();
  rmSync(dir, { recursive: true, force: true });
});

describe('persistence to a data file', () => {
  it('a restart keeps the default sandbox, created sandboxes, their objects and clocks', async () => {
    const file = join(dir, 'state.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const client = await send(first.url, 'POST', '/api/v1/clients/', first.token, { email: 'kept@example.com' });
    const sandbox = await send(first.url, 'POST', '/sim/v1/sandboxes', null, { now: '2028-02-29T10:00:00Z' });
    const token2 = (sandbox.body as { token: string }).token;
    await send(first.url, 'POST', '/api/v1/clients/', token2, { email: 'other@example.com' });
    await first.stop();

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      expect(second.token).toBe(first.token);
      const kept = await send(second.url, 'GET', `/api/v1/clients/${(client.body as Client).id}/`, second.token);
      expect((kept.body as Client).email).toBe('kept@example.com');
      const clock = await send(second.url, 'GET', '/sim/v1/clock', token2);
      expect(clock.body).toEqual({ now: '2028-02-29T10:00:00.000Z', frozen: true });
      const others = await send(second.url, 'GET', '/api/v1/clients/', token2);
      expect((others.body as List<Client>).results.map((c) => c.email)).toEqual(['other@example.com']);
    } finally {
      await second.stop();
    }
  });

  it('a data file written by billing-sim 0.1 opens: its purchases gain the platform\'s fields, quantities become decimal strings, a due_strict overdue purchase is expired', async () => {
    const file = join(dir, 'older.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const sandbox = (await send(first.url, 'POST', '/sim/v1/sandboxes', null, { now: '2026-01-30T10:00:00Z' })).body as { token: string; brand_id: string };
    const clientId = ((await send(first.url, 'POST', '/api/v1/clients/', sandbox.token, { email: 'old@example.com' })).body as Client).id;
    const create = async (details: Record<string, unknown>, due?: number) =>
      ((await send(first.url, 'POST', '/api/v1/purchases/', sandbox.token, { brand_id: sandbox.brand_id, client_id: clientId, due, purchase: { currency: 'EUR', products: [{ name: 'A', price: 1000, quantity: 2, tax_percent: 7.5 }], ...details } })).body as { id: string });
    const paid = await create({});
    await send(first.url, 'POST', `/sim/v1/purchases/${paid.id}/pay`, sandbox.token, { method: 'visa' });
    const strict = await create({ due_strict: true }, Date.parse('2026-02-01T00:00:00Z') / 1000);
    await first.stop();

    // The rows as 0.1 wrote them: no platform fields, the old payment, numbers, and `overdue` for an expired purchase.
    const db = new Database(file);
    for (const row of db.prepare("SELECT rowid, data FROM records WHERE collection = 'purchases'").all() as { rowid: number; data: string }[]) {
      const purchase = JSON.parse(row.data);
      for (const field of ['transaction_data', 'refundable_amount', 'refund_availability', 'marked_as_paid']) delete purchase[field];
      for (const product of purchase.purchase.products) Object.assign(product, { quantity: Number(product.quantity), tax_percent: Number(product.tax_percent) });
      if (purchase.payment) purchase.payment = { amount: purchase.payment.amount, currency: 'EUR', payment_method: 'visa', paid_on: purchase.payment.paid_on };
      if (purchase.id === strict.id) Object.assign(purchase, { status: 'overdue', status_history: [...purchase.status_history, { status: 'overdue', timestamp: purchase.updated_on }] });
      db.prepare('UPDATE records SET data = ? WHERE rowid = ?').run(JSON.stringify(purchase), row.rowid);
    }
    db.close();

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      const get = async (id: string) => (await send(second.url, 'GET', `/api/v1/purchases/${id}/`, sandbox.token)).body as Record<string, any>;
      const upgraded = await get(paid.id);
      expect(upgraded).toMatchObject({ status: 'paid', refundable_amount: 2150, refund_availability: 'all', marked_as_paid: false });
      expect(upgraded.payment).toMatchObject({ is_outgoing: false, payment_type: 'purchase', amount: 2150, payment_method: 'visa' });
      expect(upgraded.purchase.products[0]).toMatchObject({ quantity: '2.0000', tax_percent: '7.50' });
      expect((await get(strict.id)).status).toBe('expired');
      // And it can be refunded, which 0.1 could not do.
      const refund = await send(second.url, 'POST', `/api/v1/purchases/${paid.id}/refund/`, sandbox.token, { amount: 150 });
      expect(refund.status).toBe(200);
    } finally {
      await second.stop();
    }
  });

  it("a purchase keeps its checkout_url empty, and each answer derives it; a row written before, which holds a path, opens, that path is not answered, and the row is written again without it", async () => {
    const file = join(dir, 'checkout-url.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const sandbox = (await send(first.url, 'POST', '/sim/v1/sandboxes', null, { now: '2026-01-31T10:00:00Z' })).body as { token: string; brand_id: string };
    const created = async () =>
      ((await send(first.url, 'POST', '/api/v1/purchases/', sandbox.token, { brand_id: sandbox.brand_id, client: { email: 'url@example.com' }, purchase: { currency: 'EUR', products: [{ name: 'A', price: 1000 }] } })).body as { id: string; checkout_url: string });
    const kept = await created();
    const older = await created();
    expect(kept.checkout_url).toBe(`${first.url}/checkout/${kept.id}/`);
    await first.stop();

    const db = new Database(file);
    const rows = db.prepare("SELECT rowid, data FROM records WHERE collection = 'purchases'").all() as { rowid: number; data: string }[];
    expect(rows.map((row) => JSON.parse(row.data).checkout_url)).toEqual(['', '']);
    // Rows written before kept the path; one that no longer matches (a copy, say) must not reach an answer.
    const row = rows.find((candidate) => JSON.parse(candidate.data).id === older.id)!;
    db.prepare('UPDATE records SET data = ? WHERE rowid = ?').run(JSON.stringify({ ...JSON.parse(row.data), checkout_url: '/checkout/stale/' }), row.rowid);
    db.close();

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      for (const { id } of [kept, older]) {
        const answered = (await send(second.url, 'GET', `/api/v1/purchases/${id}/`, sandbox.token)).body as { checkout_url: string };
        expect(answered.checkout_url).toBe(`${second.url}/checkout/${id}/`);
        expect((await fetch(answered.checkout_url)).status).toBe(200);
      }
      // The path is emptied as the row is read, not only left unanswered: a change writes the row again without it.
      expect((await send(second.url, 'POST', `/api/v1/purchases/${older.id}/cancel/`, sandbox.token)).status).toBe(200);
    } finally {
      await second.stop();
    }
    const reopened = new Database(file);
    try {
      const rewritten = reopened.prepare("SELECT data FROM records WHERE collection = 'purchases' AND key = ?").get(older.id) as { data: string };
      expect(JSON.parse(rewritten.data)).toMatchObject({ status: 'cancelled', checkout_url: '' });
    } finally {
      reopened.close();
    }
  });

  it('without --data, a restart forgets created sandboxes: their tokens get a 401', async () => {
    const first = await startSimulator({ port: 0, quiet: true });
    const sandbox = await send(first.url, 'POST', '/sim/v1/sandboxes', null, {});
    await first.stop();
    const second = await startSimulator({ port: 0, quiet: true });
    try {
      expect((await send(second.url, 'GET', '/api/v1/clients/', (sandbox.body as { token: string }).token)).status).toBe(401);
    } finally {
      await second.stop();
    }
  });

  it('a new data file is created 0600, and its -wal file is 0600 while the server runs, whatever the umask', async () => {
    const file = join(dir, 'mode.db');
    // umask 000 would leave SQLite's own default, 0644, as it is.
    const sim = await spawnSim({ data: file, umask: 0 });
    try {
      expect((await sim.request('POST', '/api/v1/clients/', { body: { email: 'mode@example.com' } })).status).toBe(201);
      expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
      expect((statSync(`${file}-wal`).mode & 0o777).toString(8)).toBe('600');
    } finally {
      await sim.kill();
    }
  });
});

describe('ids with --seed and --data', () => {
  type Requester = Pick<Sim, 'request' | 'brandId'>;

  /** An in-process simulator (startSimulator) with the request method of a spawned one. */
  const inProcess = (sim: RunningSimulator): Requester => ({
    brandId: sim.brandId,
    request: (method, path, options = {}) => send(sim.url, method, path, options.token === undefined ? sim.token : options.token, options.body),
  });

  /** Creates a client, a template and a sandbox with a client of its own; returns every id the answers carry. */
  async function createSome(sim: Requester, tag: string): Promise<string[]> {
    const ids: string[] = [];
    const created = async (call: Promise<{ status: number; body: unknown }>) => {
      const { status, body } = await call;
      expect(status, JSON.stringify(body)).toBe(201);
      return body as Record<string, unknown>;
    };
    for (let i = 0; i < 3; i += 1) ids.push((await created(sim.request('POST', '/api/v1/clients/', { body: { email: `${tag}-${i}@example.com` } }))).id as string);
    ids.push((await created(sim.request('POST', '/api/v1/billing_templates/', { body: subscriptionBody(sim.brandId) }))).id as string);
    const sandbox = await created(sim.request('POST', '/sim/v1/sandboxes', { token: null, body: {} }));
    ids.push(sandbox.id as string, sandbox.brand_id as string);
    const own = await created(sim.request('POST', '/api/v1/clients/', { token: sandbox.token as string, body: { email: `${tag}-own@example.com` } }));
    ids.push(own.id as string);
    return ids;
  }

  it('ids created after a restart (after kill -9 or a clean stop) never equal ids created before; the default sandbox keeps its id and token', async () => {
    const file = join(dir, 'seeded.db');
    // First a CLI process killed with SIGKILL; then two starts in this process, each stopped cleanly.
    const killed = await spawnSim({ data: file, seed: 42 });
    const runs = [await createSome(killed, 'run0')];
    const defaults = [`${killed.sandboxId} ${killed.token}`];
    expect((await killed.kill()).signal).toBe('SIGKILL');
    for (const run of [1, 2]) {
      const sim = await startSimulator({ port: 0, quiet: true, dataFile: file, seed: 42 });
      try {
        defaults.push(`${sim.sandboxId} ${sim.token}`);
        runs.push(await createSome(inProcess(sim), `run${run}`));
      } finally {
        await sim.stop();
      }
    }
    const all = runs.flat();
    expect(new Set(all).size, `ids repeated across restarts: ${JSON.stringify(runs)}`).toBe(all.length);
    expect(new Set(defaults).size).toBe(1);
    // The seed still decides the sequence: a fresh file with the same seed draws the first run's ids.
    const fresh = await startSimulator({ port: 0, quiet: true, dataFile: join(dir, 'seeded-again.db'), seed: 42 });
    try {
      expect(await createSome(inProcess(fresh), 'fresh')).toEqual(runs[0]);
    } finally {
      await fresh.stop();
    }
  });
});
