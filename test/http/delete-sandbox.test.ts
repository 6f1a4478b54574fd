// DESIGN.md §10: "`DELETE /sim/v1/sandbox` deletes the caller's sandbox (its token stops working)."
// Everything in it goes, from the data file too; other sandboxes are untouched; its background work
// stops; the default sandbox may go too, and a restart makes it again.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.ts';
import { useHarness } from '../support/harness.ts';
import { Receiver } from '../support/receiver.ts';
import { send } from '../support/spawn-sim.ts';
import { createPurchase, makeClient, makeTemplate, payPurchase, sandboxAt, subscribe, subscriberBody, type Box, type Client, type List, type Purchase } from '../builders/engine.ts';

const h = useHarness({ now: '2026-02-28T23:59:00Z' });
const receiver = new Receiver();
const dir = mkdtempSync(join(tmpdir(), 'billing-sim-delete-'));
beforeAll(() => receiver.start());
afterAll(async () => {
  await receiver.stop();
  rmSync(dir, { recursive: true, force: true });
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('GET /sim/v1/sandbox', () => {
  it("answers the caller's sandbox: its id, its brand (the one an empty sandbox's templates take) and its clock", async () => {
    const box = await sandboxAt(h, '2026-02-28T23:59:00Z');
    const got = await box.req('GET', '/sim/v1/sandbox');
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ id: expect.any(String), brand_id: box.brandId, clock: { now: '2026-02-28T23:59:00.000Z', frozen: true } });
    const other = await sandboxAt(h, '2026-02-28T23:59:00Z');
    const idOf = (call: { body: unknown }) => (call.body as { id: string }).id;
    expect(idOf(await other.req('GET', '/sim/v1/sandbox'))).not.toBe(idOf(got));
  });
});

describe('DELETE /sim/v1/sandbox', () => {
  it('answers 204; the token then gets 401 everywhere (a second delete too), its checkout links 404, and another sandbox keeps everything', async () => {
    const doomed = await sandboxAt(h, '2026-02-28T23:59:00Z');
    const kept = await sandboxAt(h, '2026-02-28T23:59:00Z');
    const purchase = await createPurchase(doomed, (await makeClient(doomed)).id);
    const keptClient = await makeClient(kept, { email: 'kept@example.com' });

    const deleted = await doomed.req('DELETE', '/sim/v1/sandbox');
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    for (const [method, path] of [['GET', '/api/v1/clients/'], ['GET', '/sim/v1/clock'], ['GET', `/api/v1/purchases/${purchase.id}/`], ['DELETE', '/sim/v1/sandbox']]) {
      const res = await doomed.req(method!, path!);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect((res.body as Record<string, { code: string }[]>).__all__![0]!.code).toBe('authentication_failed');
    }
    expect((await fetch(purchase.checkout_url)).status).toBe(404);
    expect(((await kept.req('GET', '/api/v1/clients/')).body as List<Client>).results).toEqual([keptClient]);
  });

  it('its work stops: a webhook retry due on its running clock never goes, while another sandbox\'s does', async () => {
    const start = async (path: string): Promise<Box> => {
      const { token, brandId } = await h.newSandbox({ now: '2026-02-28T23:59:00Z', frozen: false });
      const box: Box = { h, token, brandId, req: (method, p, body) => h.request(method, p, { token, body }) };
      expect((await box.req('POST', '/api/v1/webhooks/', { callback: `${receiver.url}${path}`, events: ['purchase.created'] })).status).toBe(201);
      receiver.script(path, [500]);
      await createPurchase(box, (await makeClient(box)).id);
      await receiver.waitFor(path, 1);
      return box;
    };
    const doomed = await start('/doomed');
    const kept = await start('/kept');
    expect((await doomed.req('DELETE', '/sim/v1/sandbox')).status).toBe(204);
    // A minute passes on the wall clock both sandboxes run with: the first retry is due in each.
    h.wall.ms += 61_000;
    await kept.req('GET', '/sim/v1/clock');
    await receiver.waitFor('/kept', 2);
    await wait(200);
    expect(receiver.at('/kept')).toHaveLength(2);
    expect(receiver.at('/doomed')).toHaveLength(1);
  });
});

describe('DELETE /sim/v1/sandbox with a data file', () => {
  const rowsOf = (file: string, sandboxId: string) => {
    const db = new Database(file, { readonly: true });
    try {
      const count = (table: string, column: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`).get(sandboxId) as { n: number }).n;
      return { sandboxes: count('sandboxes', 'id'), records: count('records', 'sandbox_id'), log: count('log', 'sandbox_id'), jobs: count('jobs', 'sandbox_id') };
    } finally {
      db.close();
    }
  };

  it('removes every row of the sandbox and none of another\'s; after a restart its token still gets 401', async () => {
    const file = join(dir, 'delete.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const make = async () => {
      const created = (await send(first.url, 'POST', '/sim/v1/sandboxes', null, { now: '2026-01-31T10:00:00Z' })).body as { id: string; token: string; brand_id: string };
      const box: Box = { h, token: created.token, brandId: created.brand_id, req: (method, path, body) => send(first.url, method, path, created.token, body) };
      // A subscriber launched by a card payment: records, events, an e-mail and a queued billing.
      const template = await makeTemplate(box);
      const client = await makeClient(box);
      const { purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10', { send_receipt: true }));
      await payPurchase(box, purchase!.id, { save_token: true });
      return { ...created, box };
    };
    const doomed = await make();
    const kept = await make();
    expect((await doomed.box.req('DELETE', '/sim/v1/sandbox')).status).toBe(204);
    // The server holds the file exclusively: its rows are read once it has stopped.
    await first.stop();
    expect(rowsOf(file, doomed.id)).toEqual({ sandboxes: 0, records: 0, log: 0, jobs: 0 });
    // The other keeps all it had: its header; template, client, subscriber, schedule, purchase and token (which
    // accepts every charge, so it has no outcomes to keep); 3 events and the receipt; the purchase's overdue
    // marking and the next billing.
    expect(rowsOf(file, kept.id)).toEqual({ sandboxes: 1, records: 6, log: 4, jobs: 2 });

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      expect((await send(second.url, 'GET', '/sim/v1/clock', doomed.token)).status).toBe(401);
      const purchases = (await send(second.url, 'GET', '/api/v1/purchases/', kept.token)).body as List<Purchase>;
      expect(purchases.results.map((p) => p.status)).toEqual(['paid']);
    } finally {
      await second.stop();
    }
  });

  it('the default sandbox may be deleted too: the next start makes it again, with its token and fresh fixtures', async () => {
    const file = join(dir, 'default.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const fixtures = ((await send(first.url, 'GET', '/api/v1/clients/', first.token)).body as List<Client>).results;
    await send(first.url, 'POST', '/api/v1/clients/', first.token, { email: 'gone@example.com' });
    expect((await send(first.url, 'DELETE', '/sim/v1/sandbox', first.token)).status).toBe(204);
    expect((await send(first.url, 'GET', '/api/v1/clients/', first.token)).status).toBe(401);
    await first.stop();

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      expect(second.token).toBe(first.token);
      const clients = ((await send(second.url, 'GET', '/api/v1/clients/', second.token)).body as List<Client>).results;
      expect(clients.map((c) => c.id)).toEqual(fixtures.map((c) => c.id));
    } finally {
      await second.stop();
    }
  });
});
