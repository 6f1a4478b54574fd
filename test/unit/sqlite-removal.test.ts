// DESIGN.md §6 "Bounded work" in the data file: a reset or a delete of a sandbox with a long history
// is made in one small transaction, and the rows it leaves behind (tens of thousands for two years of
// 300 subscribers) are removed afterwards in slices that let the event loop turn, as a checkpoint's
// copy is. Once the promise settles none of them is left; a restart reads only what is named.

import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createIds } from '../../src/engine/ids.ts';
import { createSandbox } from '../../src/engine/sandboxes.ts';
import { advance } from '../../src/engine/time.ts';
import { restoredSandbox, takeCheckpoint } from '../../src/store/checkpoints.ts';
import { SqliteStore } from '../../src/store/sqlite.ts';
import { RowSlices } from '../../src/store/sqlite-slices.ts';
import { fromSnapshot, toSnapshot, type Sandbox, type SandboxSnapshot } from '../../src/store/store.ts';
import { busySandbox } from '../builders/busy-sandbox.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-removal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const wall = { now: () => Date.parse('2026-01-31T09:00:00Z') };
let files = 0;
const newFile = () => join(dir, `store-${(files += 1)}.db`);

/** Two years of 300 monthly subscribers: 7,500 purchases, some 30,000 rows. Built once, copied per test. */
let history: SandboxSnapshot;
/**
 * A data file holding that history alone, written once: each test opens a copy of it. Writing its
 * 30,000 rows again in each test cost more CPU than the test's own work.
 */
let historyFile: string;
beforeAll(async () => {
  const busy = busySandbox(300, wall, createIds(21));
  await advance(busy, { by: 'P2Y' }, wall, createIds(22));
  history = toSnapshot(busy);
  historyFile = newFile();
  const store = await SqliteStore.open(historyFile);
  store.put(fromSnapshot(structuredClone(history)));
  await store.close();
}, 60_000);

/** A new data file holding the two years' history, as the sandbox `history.id`. */
function fileOfHistory(): string {
  const file = newFile();
  copyFileSync(historyFile, file);
  return file;
}

/** Turns of the event loop while `work` runs: none if it holds the loop from start to end. */
async function turnsWhile(work: () => void | Promise<void>): Promise<number> {
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  done = true;
  return turns;
}

/** Rows per owner in the file, and the owners that the sandboxes and checkpoints tables name (the store holds the file alone while open). */
function rowsOf(file: string): { owners: Record<string, number>; named: string[] } {
  const db = new Database(file, { readonly: true });
  try {
    const owners: Record<string, number> = {};
    for (const table of ['records', 'log', 'jobs']) {
      for (const { owner, n } of db.prepare(`SELECT sandbox_id AS owner, count(*) AS n FROM ${table} GROUP BY sandbox_id`).all() as { owner: string; n: number }[]) {
        owners[owner] = (owners[owner] ?? 0) + n;
      }
    }
    const named = (db.prepare('SELECT coalesce(rows, id) AS owner FROM sandboxes UNION SELECT id FROM checkpoints').all() as { owner: string }[]).map((row) => row.owner);
    return { owners, named };
  } finally {
    db.close();
  }
}

/** A data file of two years' history and a small sandbox (and what `more` adds), its rows as written, and a store open on it. */
async function fileWithHistory(seed: number, more?: (store: SqliteStore, big: Sandbox) => Promise<void>) {
  const file = fileOfHistory();
  const other = createSandbox({ nowMs: wall.now(), frozen: true, fixtures: true, seed }, wall, createIds(seed));
  const first = await SqliteStore.open(file);
  const big = first.get(history.id)!;
  expect(big.purchases.size).toBe(Object.keys(history.purchases).length);
  first.put(other);
  await more?.(first, big);
  await first.close();
  return { file, big, other, before: rowsOf(file), store: await SqliteStore.open(file) };
}

describe('a reset or a delete of a big sandbox in the data file', () => {
  it('a reset (put over a sandbox with two years of history) removes the old rows in slices: the event loop turns while they go, and when it settles the file holds the fresh sandbox and no row of the old one', async () => {
    const { file, big, other, before, store } = await fileWithHistory(5);
    expect(before.owners[big.id]).toBeGreaterThan(20_000);

    const fresh = { ...createSandbox({ nowMs: wall.now(), frozen: true, fixtures: true, seed: 6 }, wall, createIds(6)), id: big.id };
    // Written whole in one transaction, the old rows' removal held every sandbox for its length: no turn at all.
    expect(await turnsWhile(() => store.put(fresh))).toBeGreaterThanOrEqual(3);
    await store.close();

    const after = rowsOf(file);
    expect(Object.keys(after.owners).sort()).toEqual([...after.named].sort());
    expect(after.owners[big.id]).toBeUndefined();
    expect(after.owners[other.id]).toBe(before.owners[other.id]);

    const reopened = await SqliteStore.open(file);
    expect([...reopened.get(big.id)!.clients.keys()]).toEqual([...fresh.clients.keys()]);
    expect(reopened.get(big.id)!.purchases.size).toBe(0);
    expect(reopened.get(other.id)!.clients.size).toBe(other.clients.size);
    await reopened.close();
  }, 60_000);

  it('a delete removes the sandbox and its checkpoints at once, their rows in slices: none is left when it settles, and the other sandbox is untouched', async () => {
    let checkpointId = '';
    const { file, big, other, before, store } = await fileWithHistory(7, async (first, big) => {
      const checkpoint = takeCheckpoint(big, 'before', wall, createIds(8));
      big.checkpoints.push(checkpoint);
      await first.saveCheckpoint(big, checkpoint);
      checkpointId = checkpoint.id;
    });
    expect(before.owners[checkpointId]).toBe(before.owners[big.id]);

    expect(await turnsWhile(() => store.delete(big.id))).toBeGreaterThanOrEqual(3);

    expect(store.get(big.id)).toBeUndefined();
    await store.close();
    const after = rowsOf(file);
    expect(after.owners).toEqual({ [other.id]: before.owners[other.id] });
    expect(after.named).toEqual([other.id]);
  }, 60_000);

  it('close() lets a removal under way finish: the file is left with no rows of a deleted sandbox', async () => {
    const file = fileOfHistory();
    const store = await SqliteStore.open(file);
    const removing = store.delete(history.id);
    await store.close();
    await removing;
    expect(rowsOf(file)).toEqual({ owners: {}, named: [] });
  }, 60_000);

  it('a restore whose removal of the old rows fails keeps the restore (the failure is reported); a reset after it removes those rows too, leaving none that nothing names', async () => {
    const reported: string[] = [];
    const file = fileOfHistory();
    const store = await SqliteStore.open(file, { report: (line) => reported.push(line) });
    const big = store.get(history.id)!;
    const checkpoint = takeCheckpoint(big, null, wall, createIds(9));
    big.checkpoints.push(checkpoint);
    await store.saveCheckpoint(big, checkpoint);
    const failing = vi.spyOn(RowSlices.prototype, 'removeChunk').mockImplementation(() => {
      throw new Error('disk I/O error');
    });
    try {
      await store.restore(restoredSandbox(big, checkpoint, wall), checkpoint.id);
    } finally {
      failing.mockRestore();
    }
    expect(reported).toEqual([expect.stringMatching(/could not remove the rows of .* disk I\/O error/)]);
    expect(store.get(big.id)!.purchases.size).toBe(big.purchases.size);

    const fresh = { ...createSandbox({ nowMs: wall.now(), frozen: true, fixtures: true, seed: 10 }, wall, createIds(10)), id: big.id };
    await store.put(fresh);
    await store.close();
    const after = rowsOf(file);
    // The sandbox's rows and its checkpoint's: the rows the restore left under the sandbox's id are gone.
    expect(Object.keys(after.owners).sort()).toEqual([...after.named].sort());
    expect(after.named).toHaveLength(2);
  }, 60_000);
});
