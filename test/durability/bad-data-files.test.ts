// DESIGN.md §6 "Durable store": a data file that is not a billing-sim database, or whose contents
// fail validation, stops the start with the file name and the reason, and is never overwritten;
// a missing parent folder is a clear start-up error. The CLI is run for real: exit 2, one line on
// stderr, and the file the same byte for byte (sha-256) afterwards.

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.ts';
import { killSpawned, runCli, send, sha256, spawnSim } from '../support/spawn-sim.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-bad-'));
afterAll(async () => {
  await killSpawned();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `serve --data file` and asserts exit 2 with exactly one stderr line, naming the file, that matches `reason`. */
async function refused(file: string, reason: RegExp) {
  const run = await runCli(['serve', '--port', '0', '--quiet', '--data', file]);
  expect(run.stdout, 'the simulator started').toBe('');
  expect({ code: run.code, signal: run.signal }).toEqual({ code: 2, signal: null });
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]!.startsWith(`billing-sim: ${file}: `), lines[0]).toBe(true);
  expect(lines[0]).toMatch(reason);
}

/** A file that must come out of a refused start as it went in, with no -wal or -journal left beside it. */
async function refusedUnchanged(file: string, reason: RegExp) {
  const before = sha256(file);
  await refused(file, reason);
  expect(sha256(file), `${file} was changed`).toBe(before);
  for (const suffix of ['-wal', '-journal', '-shm']) expect(existsSync(file + suffix), `${file}${suffix} left behind`).toBe(false);
}

describe('bad data files at start-up', () => {
  it('a missing folder: exit 2 naming the file and the folder; nothing is created', async () => {
    const folder = join(dir, 'no-such-folder');
    await refused(join(folder, 'state.db'), /folder .*no-such-folder does not exist/);
    expect(existsSync(folder)).toBe(false);
  });

  it('a text file (the old JSON format {"sandboxes":[{}]}): exit 2, "not a billing-sim data file", the file unchanged', async () => {
    const file = join(dir, 'old-format.json');
    writeFileSync(file, '{"sandboxes":[{}]}\n');
    await refusedUnchanged(file, /not a billing-sim data file/);
  });

  it('a SQLite database of another program: exit 2, "not a billing-sim data file", the file unchanged', async () => {
    const file = join(dir, 'other-program.db');
    const db = new Database(file);
    db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me');");
    db.close();
    await refusedUnchanged(file, /not a billing-sim data file/);
  });

  it('a billing-sim file with a row that is not JSON: exit 2 saying so, the file unchanged', async () => {
    const file = join(dir, 'bad-row.db');
    const sim = await startSimulator({ port: 0, quiet: true, dataFile: file });
    expect((await send(sim.url, 'POST', '/api/v1/clients/', sim.token, { email: 'row@example.com' })).status).toBe(201);
    await sim.stop();
    const db = new Database(file);
    const changed = db.prepare("UPDATE records SET data = '{\"email\": \"row@exa' WHERE collection = 'clients' AND data LIKE '%row@example.com%'").run();
    db.close();
    expect(changed.changes).toBe(1);
    await refusedUnchanged(file, /a row holds text that is not JSON/);
  });

  // The second process waits out SQLite's busy timeout (5 s) before it gives up.
  it('a file in use by a running simulator: a second process exits 2 with "in use", and the first keeps serving', async () => {
    const file = join(dir, 'in-use.db');
    // A process of its own: SQLite's locks are POSIX locks, which this process would drop on its
    // own file the moment it read the file to hash it.
    const first = await spawnSim({ data: file });
    try {
      const before = sha256(file);
      await refused(file, /in use/);
      expect(sha256(file)).toBe(before);
      const write = await first.request('POST', '/api/v1/clients/', { body: { email: 'still@example.com' } });
      expect(write.status).toBe(201);
    } finally {
      await first.kill();
    }
  }, 40_000);

  it('a 0-byte file is accepted as a new data file', async () => {
    const file = join(dir, 'empty.db');
    writeFileSync(file, '');
    const sim = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      expect((await send(sim.url, 'POST', '/api/v1/clients/', sim.token, { email: 'first@example.com' })).status).toBe(201);
    } finally {
      await sim.stop();
    }
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare("SELECT value FROM meta WHERE key = 'format'").pluck().get()).toBe('billing-sim');
    } finally {
      db.close();
    }
  });
});
