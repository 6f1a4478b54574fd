// The durable store on its own: what a turn writes, the order it keeps, what a reset replaces,
// and what a failed write leaves. The HTTP-level promises (kill -9, disk full, bad files) are in
// test/http/persistence*.test.ts and test/durability/.

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/domain/errors.ts';
import { CLIENT_DEFAULTS } from '../../src/domain/clients.ts';
import type { Client } from '../../src/domain/types.ts';
import { createIds } from '../../src/engine/ids.ts';
import { createSandbox } from '../../src/engine/sandboxes.ts';
import { takeCheckpoint } from '../../src/store/checkpoints.ts';
import { SqliteStore } from '../../src/store/sqlite.ts';
import { rememberingStringify } from '../../src/store/sqlite-rows.ts';
import type { Sandbox } from '../../src/store/store.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const wall = { now: () => Date.parse('2028-02-29T12:00:00Z') };
let files = 0;
const newFile = () => join(dir, `store-${(files += 1)}.db`);

function client(id: string, email: string): Client {
  return { ...CLIENT_DEFAULTS, id, type: 'client', created_on: 1, updated_on: 1, email };
}

function sandboxWithClients(count: number, seed = 3): Sandbox {
  const ids = createIds(seed);
  const sandbox = createSandbox({ nowMs: wall.now(), frozen: true, fixtures: false, seed }, wall, ids);
  for (let i = 0; i < count; i += 1) {
    const id = ids.uuid();
    sandbox.clients.set(id, client(id, `c${i}@example.com`));
  }
  return sandbox;
}

const emails = (sandbox: Sandbox) => [...sandbox.clients.values()].map((c) => c.email);

describe('SqliteStore', () => {
  it('a turn writes what it changed, not the sandbox: one changed client among 2,000 adds a few pages to the log', async () => {
    const file = newFile();
    const store = await SqliteStore.open(file);
    const sandbox = sandboxWithClients(2_000);
    store.put(sandbox);
    const wal = () => statSync(`${file}-wal`).size;
    const before = wal();
    const first = [...sandbox.clients.values()][0]!;
    sandbox.clients.set(first.id, { ...first, full_name: 'Changed' });
    store.commit(sandbox);
    // A WAL frame is one 4 KiB page; the whole sandbox is over 100 pages.
    expect(wal() - before).toBeLessThanOrEqual(4 * (4096 + 24));
    expect(wal() - before).toBeGreaterThan(0);
    const unchanged = wal();
    store.commit(sandbox);
    expect(wal()).toBe(unchanged);
    await store.close();

    const reopened = await SqliteStore.open(file);
    expect(reopened.get(sandbox.id)!.clients.get(first.id)!.full_name).toBe('Changed');
    await reopened.close();
  });

  it('keeps the order of each collection across a restart, a key deleted and set again going last', async () => {
    const file = newFile();
    const store = await SqliteStore.open(file);
    const sandbox = sandboxWithClients(4);
    store.put(sandbox);
    const [a, b] = [...sandbox.clients.values()];
    sandbox.clients.delete(a!.id);
    sandbox.clients.set(a!.id, { ...a!, email: 'again@example.com' });
    sandbox.clients.set(b!.id, { ...b!, email: 'updated@example.com' });
    store.commit(sandbox);
    const expected = emails(sandbox);
    expect(expected).toEqual(['updated@example.com', 'c2@example.com', 'c3@example.com', 'again@example.com']);
    await store.close();

    const reopened = await SqliteStore.open(file);
    expect(emails(reopened.get(sandbox.id)!)).toEqual(expected);
    await reopened.close();
  });

  it('a put replaces the sandbox whole (a reset): nothing of the old rows comes back', async () => {
    const file = newFile();
    const store = await SqliteStore.open(file);
    const sandbox = sandboxWithClients(3);
    store.put(sandbox);
    const fresh = createSandbox({ nowMs: wall.now(), frozen: true, fixtures: false, seed: 9 }, wall, createIds(9));
    store.put({ ...fresh, id: sandbox.id });
    // The old object's later changes are not written over the new one.
    sandbox.clients.set('stale', client('stale', 'stale@example.com'));
    store.commit(sandbox);
    await store.close();

    const reopened = await SqliteStore.open(file);
    expect(reopened.get(sandbox.id)!.clients.size).toBe(0);
    await reopened.close();
  });

  it('a write that fails answers 503 storage_unavailable, and the sandbox reads as last saved', async () => {
    const file = newFile();
    const reported: string[] = [];
    const store = await SqliteStore.open(file, { report: (line) => reported.push(line) });
    const sandbox = sandboxWithClients(2);
    store.put(sandbox);
    sandbox.clients.set('kept-out', client('kept-out', 'kept-out@example.com'));
    // A value JSON cannot write fails inside the transaction, like a full disk would.
    sandbox.clients.set('unwritable', { ...client('unwritable', 'x@example.com'), created_on: 1n } as unknown as Client);
    let failure: unknown;
    try {
      store.commit(sandbox);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(503);
    expect((failure as ApiError).fields.__all__![0]!.code).toBe('storage_unavailable');
    expect(reported[0]).toMatch(/could not save sandbox .* to .*store-\d+\.db/);
    const current = store.get(sandbox.id)!;
    expect(current).not.toBe(sandbox);
    expect(emails(current)).toEqual(['c0@example.com', 'c1@example.com']);

    // The reloaded sandbox takes writes again.
    current.clients.set('later', client('later', 'later@example.com'));
    store.commit(current);
    await store.close();
    const reopened = await SqliteStore.open(file);
    expect(emails(reopened.get(sandbox.id)!)).toEqual(['c0@example.com', 'c1@example.com', 'later@example.com']);
    await reopened.close();
  });

  it('events come back whole after a restart; a payload is parsed when first read, not while the file is checked', async () => {
    const file = newFile();
    const store = await SqliteStore.open(file);
    const sandbox = sandboxWithClients(1);
    const [payload] = [...sandbox.clients.values()];
    sandbox.events.push({ id: 'e1', event_type: 'client.created', created_on: 1, object_type: 'client', object_id: payload!.id, payload: payload! });
    sandbox.outbox.push({ id: 'm1', kind: 'invoice', to: 'c0@example.com', purchase_id: 'p1', sent_on: 2, subject: 'Invoice for Setup — €49.00' });
    store.put(sandbox);
    await store.close();

    const seen: unknown[] = [];
    const reopened = await SqliteStore.open(file, { validate: (snapshot) => (seen.push(...snapshot.events.map((e) => e.payload)), null) });
    const [event] = reopened.get(sandbox.id)!.events;
    expect(seen).toEqual([{}]);
    expect(typeof Object.getOwnPropertyDescriptor(event, 'payload')!.get).toBe('function');
    expect(JSON.parse(JSON.stringify(reopened.get(sandbox.id)!.events))).toEqual(JSON.parse(JSON.stringify(sandbox.events)));
    expect({ ...event! }.payload).toEqual(payload);
    expect(reopened.get(sandbox.id)!.outbox).toEqual(sandbox.outbox);
    await reopened.close();
  });

  it("a turn's event whose payload is the record written beside it: serialised once, and read back as that record", async () => {
    const file = newFile();
    const store = await SqliteStore.open(file);
    const sandbox = sandboxWithClients(1);
    store.put(sandbox);
    const [stored] = [...sandbox.clients.values()];
    const changed = { ...stored!, full_name: 'Paid Up', updated_on: 2 };
    sandbox.clients.set(changed.id, changed);
    sandbox.events.push({ id: 'e1', event_type: 'client.updated', created_on: 2, object_type: 'client', object_id: changed.id, payload: changed });
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      store.commit(sandbox);
      expect(stringify.mock.calls.filter(([value]) => value === changed)).toHaveLength(1);
    } finally {
      stringify.mockRestore();
    }
    await store.close();

    const reopened = (await SqliteStore.open(file)).get(sandbox.id)!;
    expect(reopened.clients.get(changed.id)).toEqual(changed);
    expect(reopened.events.at(-1)!.payload).toEqual(changed);
  });

  it('one write remembers the JSON of at most 4,096 objects', () => {
    const stringify = rememberingStringify();
    const objects = Array.from({ length: 4097 }, (_, i) => ({ i }));
    for (const object of objects) stringify(object);
    // Changed in place after being written: a remembered object answers its first JSON, the one past the bound its new one.
    objects[0]!.i = -1;
    objects[4096]!.i = -1;
    expect(stringify(objects[0])).toBe('{"i":0}');
    expect(stringify(objects[4096])).toBe('{"i":-1}');
    expect(stringify('text')).toBe('"text"');
  });

  it('a write that fails reads the sandbox back but keeps its checkpoints as they were: their rows are not read again', async () => {
    const store = await SqliteStore.open(newFile());
    const sandbox = sandboxWithClients(2);
    store.put(sandbox);
    const checkpoint = takeCheckpoint(sandbox, 'two clients', wall, createIds(4));
    await store.saveCheckpoint(sandbox, checkpoint);
    sandbox.checkpoints.push(checkpoint);
    sandbox.clients.set('unwritable', { ...client('unwritable', 'x@example.com'), created_on: 1n } as unknown as Client);
    expect(() => store.commit(sandbox)).toThrow(ApiError);
    const current = store.get(sandbox.id)!;
    expect(current).not.toBe(sandbox);
    expect(emails(current)).toEqual(['c0@example.com', 'c1@example.com']);
    // The very objects held before: a read of the file would have made new ones.
    expect(current.checkpoints).toHaveLength(1);
    expect(current.checkpoints[0]).toBe(checkpoint);
    await store.close();
  });

  it('when the file cannot give the sandbox back either, asking for it answers 503 until it can; the unsaved change is never served', async () => {
    const reported: string[] = [];
    const store = await SqliteStore.open(newFile(), { report: (line) => reported.push(line) });
    const sandbox = sandboxWithClients(1);
    store.put(sandbox);
    // A connection that is gone fails the write and the read back, as a removed file or an I/O error would.
    await store.close();
    sandbox.clients.set('unsaved', client('unsaved', 'unsaved@example.com'));
    const failures: unknown[] = [];
    for (const attempt of [() => store.commit(sandbox), () => store.get(sandbox.id)]) {
      try {
        attempt();
      } catch (error) {
        failures.push(error);
      }
    }
    expect(failures.map((error) => [(error as ApiError).status, (error as ApiError).fields.__all__![0]!.code])).toEqual([
      [503, 'storage_unavailable'],
      [503, 'storage_unavailable'],
    ]);
    expect([...store.all()]).toEqual([]);
    expect(reported.some((line) => line.includes(`could not read sandbox ${sandbox.id} back`))).toBe(true);
  });

  it('a signing key made in a turn (the first webhook) is saved with it, and comes back after a restart', async () => {
    const file = newFile();
    const store = await SqliteStore.open(file);
    const sandbox = sandboxWithClients(0);
    store.put(sandbox);
    sandbox.signingKey = { publicKey: 'public PEM', privateKey: 'private PEM' };
    store.commit(sandbox);
    await store.close();
    const reopened = await SqliteStore.open(file);
    expect(reopened.get(sandbox.id)!.signingKey).toEqual({ publicKey: 'public PEM', privateKey: 'private PEM' });
    await reopened.close();
  });

  it('records how many seeded ids were drawn with every write', async () => {
    const file = newFile();
    let drawn = 17;
    const store = await SqliteStore.open(file, { idsPosition: () => drawn });
    const sandbox = sandboxWithClients(1);
    store.put(sandbox);
    drawn = 42;
    sandbox.clients.set('one-more', client('one-more', 'one-more@example.com'));
    store.commit(sandbox);
    await store.close();
    const reopened = await SqliteStore.open(file);
    expect(reopened.idsDrawn).toBe(42);
    await reopened.close();
  });
});
