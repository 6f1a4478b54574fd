// DESIGN.md §13: "Checkpoints persist with `--data`." A checkpoint is written to the data file when
// it is answered, so it survives a restart (and a kill -9, like any answered write); restore and fork
// work from it after the restart; a deleted one stays deleted; a data file of format 1, written
// before checkpoints, opens and takes them.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.ts';
import type { Client, List } from '../builders/engine.ts';
import { limitToDataFiles, prlimit } from '../support/file-size-limit.ts';
import { killSpawned, send, spawnSim } from '../support/spawn-sim.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-'));
afterAll(async () => {
  await killSpawned();
  rmSync(dir, { recursive: true, force: true });
});

type Checkpoint = { id: string; name: string | null; created_on: number; clock: { now: string; frozen: boolean } };

/** Runs `sql` on the data file of a stopped server, as a crash or an older billing-sim would have left it. */
function edit(file: string, sql: string): void {
  const db = new Database(file);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/** The first row `sql` reads from the data file of a stopped server. */
function read(file: string, sql: string): unknown {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).get();
  } finally {
    db.close();
  }
}

const emails = async (origin: string, token: string) => ((await send(origin, 'GET', '/api/v1/clients/', token)).body as List<Client>).results.map((client) => client.email);

describe('checkpoints with --data', () => {
  it('after a restart with --data the checkpoints are there, and restore and fork from them', async () => {
    const file = join(dir, 'checkpoints.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const { token } = (await send(first.url, 'POST', '/sim/v1/sandboxes', null, { now: '2028-02-29T10:00:00Z' })).body as { token: string };
    await send(first.url, 'POST', '/api/v1/clients/', token, { email: 'kept@example.com' });
    const taken = (await send(first.url, 'POST', '/sim/v1/checkpoints', token, { name: 'One client' })).body as Checkpoint;
    const dropped = (await send(first.url, 'POST', '/sim/v1/checkpoints', token, {})).body as Checkpoint;
    expect((await send(first.url, 'DELETE', `/sim/v1/checkpoints/${dropped.id}`, token)).status).toBe(204);
    await send(first.url, 'POST', '/api/v1/clients/', token, { email: 'later@example.com' });
    await send(first.url, 'POST', '/sim/v1/clock/advance', token, { by: 'P1Y' });
    // Each request sets the sandbox's origin (for its URLs), and the next start listens on another port.
    const snapshotThen = (await send(first.url, 'GET', '/sim/v1/snapshot', token)).text.replaceAll(first.url, 'ORIGIN');
    await first.stop();

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      expect((await send(second.url, 'GET', '/sim/v1/checkpoints', token)).body).toEqual({ results: [taken], next: null, previous: null });
      // The sandbox itself is as it was left, not as the checkpoint holds it.
      expect((await send(second.url, 'GET', '/sim/v1/snapshot', token)).text.replaceAll(second.url, 'ORIGIN')).toBe(snapshotThen);
      const fork = (await send(second.url, 'POST', '/sim/v1/sandboxes', token, { from_checkpoint: taken.id })).body as { token: string; clock: unknown };
      expect(fork.clock).toEqual({ now: '2028-02-29T10:00:00.000Z', frozen: true });
      expect(await emails(second.url, fork.token)).toEqual(['kept@example.com']);
      const restored = await send(second.url, 'POST', `/sim/v1/checkpoints/${taken.id}/restore`, token);
      expect(restored.status).toBe(200);
      expect(await emails(second.url, token)).toEqual(['kept@example.com']);
      // Written after the restore: to the sandbox's rows as restored.
      await send(second.url, 'POST', '/api/v1/clients/', token, { email: 'after-restore@example.com' });
    } finally {
      await second.stop();
    }

    // The restore was written too: a third start finds the sandbox restored and changed since, and its checkpoint still there.
    const third = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      expect(await emails(third.url, token)).toEqual(['after-restore@example.com', 'kept@example.com']);
      expect((await send(third.url, 'GET', '/sim/v1/clock', token)).body).toEqual({ now: '2028-02-29T10:00:00.000Z', frozen: true });
      expect(((await send(third.url, 'GET', '/sim/v1/checkpoints', token)).body as List<Checkpoint>).results.map((kept) => kept.id)).toEqual([taken.id]);
    } finally {
      await third.stop();
    }
  });

  it('an answered checkpoint survives a kill -9', async () => {
    const file = join(dir, 'killed.db');
    const sim = await spawnSim({ data: file });
    const { token } = (await send(sim.origin, 'POST', '/sim/v1/sandboxes', null, { now: '2026-01-31T23:00:00Z' })).body as { token: string };
    await send(sim.origin, 'POST', '/api/v1/clients/', token, { email: 'before@example.com' });
    const taken = (await send(sim.origin, 'POST', '/sim/v1/checkpoints', token, {})).body as Checkpoint;
    await sim.kill('SIGKILL');

    const again = await spawnSim({ data: file });
    expect(((await send(again.origin, 'GET', '/sim/v1/checkpoints', token)).body as List<Checkpoint>).results).toEqual([taken]);
    await again.kill('SIGTERM');
  });

  it('deleting a sandbox deletes its checkpoints from the data file', async () => {
    const file = join(dir, 'deleted.db');
    const sim = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const { token } = (await send(sim.url, 'POST', '/sim/v1/sandboxes', null, {})).body as { token: string };
    await send(sim.url, 'POST', '/api/v1/clients/', token, { email: 'gone@example.com' });
    await send(sim.url, 'POST', '/sim/v1/checkpoints', token, {});
    expect((await send(sim.url, 'DELETE', '/sim/v1/sandbox', token)).status).toBe(204);
    await sim.stop();
    expect(read(file, 'SELECT count(*) AS n FROM checkpoints')).toEqual({ n: 0 });
    expect(read(file, "SELECT count(*) AS n FROM records WHERE data LIKE '%gone@example.com%'")).toEqual({ n: 0 });
  });

  it('rows of a copy cut short by a crash (a checkpoint or restore not yet answered) are never read, and the next start removes them', async () => {
    const file = join(dir, 'cut-short.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const { token } = (await send(first.url, 'POST', '/sim/v1/sandboxes', null, {})).body as { token: string };
    await send(first.url, 'POST', '/api/v1/clients/', token, { email: 'kept@example.com' });
    await first.stop();
    // What a checkpoint's copy leaves when the process dies between two of its slices: rows, and no checkpoint naming them.
    edit(file, "INSERT INTO records (sandbox_id, collection, key, data) SELECT 'cut-short', collection, key, data FROM records");

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      expect(await emails(second.url, token)).toEqual(['kept@example.com']);
      expect((await send(second.url, 'GET', '/sim/v1/checkpoints', token)).body).toEqual({ results: [], next: null, previous: null });
    } finally {
      await second.stop();
    }
    expect(read(file, "SELECT count(*) AS n FROM records WHERE sandbox_id = 'cut-short'")).toEqual({ n: 0 });
  });

  it('on a full disk a checkpoint and a restore answer 503 storage_unavailable and change nothing; once there is room they succeed, and a restart holds exactly those', async () => {
    const file = join(dir, 'full.db');
    const sim = await spawnSim({ data: file });
    const { token } = (await send(sim.origin, 'POST', '/sim/v1/sandboxes', null, { now: '2026-02-28T23:00:00Z' })).body as { token: string };
    const checkpoints = async (origin: string) => ((await send(origin, 'GET', '/sim/v1/checkpoints', token)).body as List<Checkpoint>).results.map((kept) => kept.id);
    let second: Checkpoint;
    try {
      for (let i = 0; i < 40; i += 1) await send(sim.origin, 'POST', '/api/v1/clients/', token, { email: `c${i}@example.com`, full_name: 'x'.repeat(200) });
      const taken = (await send(sim.origin, 'POST', '/sim/v1/checkpoints', token, {})).body as Checkpoint;
      await send(sim.origin, 'POST', '/api/v1/clients/', token, { email: 'later@example.com' });
      const snapshot = (await send(sim.origin, 'GET', '/sim/v1/snapshot', token)).text;

      limitToDataFiles(sim.pid, file);
      const refused = await send(sim.origin, 'POST', '/sim/v1/checkpoints', token, {});
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ __all__: [expect.objectContaining({ code: 'storage_unavailable' })] });
      expect(await checkpoints(sim.origin)).toEqual([taken.id]);
      expect((await send(sim.origin, 'POST', `/sim/v1/checkpoints/${taken.id}/restore`, token)).status).toBe(503);
      expect((await send(sim.origin, 'GET', '/sim/v1/snapshot', token)).text).toBe(snapshot);

      prlimit(sim.pid, 'unlimited:');
      second = (await send(sim.origin, 'POST', '/sim/v1/checkpoints', token, {})).body as Checkpoint;
      expect((await send(sim.origin, 'POST', `/sim/v1/checkpoints/${taken.id}/restore`, token)).status).toBe(200);
      expect(await emails(sim.origin, token)).not.toContain('later@example.com');
      expect(await checkpoints(sim.origin)).toEqual([second.id, taken.id]);
    } finally {
      await sim.kill();
    }
    // kill -9, so the restart shows what the file holds: the copies cut short by the full disk are no one's.
    const again = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      expect((await checkpoints(again.url))[0]).toBe(second!.id);
      expect(await checkpoints(again.url)).toHaveLength(2);
      expect(await emails(again.url, token)).not.toContain('later@example.com');
    } finally {
      await again.stop();
    }
  });

  it('a data file of format 1, written before checkpoints, opens and takes them', async () => {
    const file = join(dir, 'format-1.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    await first.stop();
    edit(file, "DROP TABLE checkpoints; ALTER TABLE sandboxes DROP COLUMN rows; UPDATE meta SET value = '1' WHERE key = 'schema'");

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      expect((await send(second.url, 'POST', '/sim/v1/checkpoints', second.token, {})).status).toBe(201);
    } finally {
      await second.stop();
    }
    expect(read(file, "SELECT value FROM meta WHERE key = 'schema'")).toEqual({ value: '2' });
    expect(read(file, 'SELECT count(*) AS n FROM checkpoints')).toEqual({ n: 1 });
  });
});
