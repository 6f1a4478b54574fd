// DESIGN.md §6 "Durable store": "a process crash (kill -9) never loses a write that was answered
// 2xx". Real CLI processes on one data file are killed with SIGKILL while writes are in flight, or
// right after an answered clock advance; the next process must open the file and hold every
// acknowledged write, once.

import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceBy, DEDUCTIONS, runSubscribers, subscribersState } from '../durability/subscribers.ts';
import { Ledger, SANDBOX_NOW, stream, verify } from '../durability/write-stream.ts';
import { killSpawned, listAll, send, spawnSim } from '../support/spawn-sim.ts';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-kill-'));
/**
 * The server never killed, whose state a killed one's file must hold: one for the file, each test in
 * sandboxes of its own (runSubscribers makes one). Each start compiled every operation's validators
 * again in the background (about a second of CPU).
 */
let reference: RunningSimulator;
beforeAll(async () => {
  reference = await startSimulator({ port: 0, quiet: true });
});
afterAll(async () => {
  await killSpawned();
  await reference?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const TRIALS = 20;
/**
 * A test's timeout stops a hang, not a slow machine: 21 starts of the CLI (each compiles the data
 * file's snapshot checks, about 1.4 s of CPU) took 118 s of the former 120 s on a loaded 2-core machine.
 */
const HANG_MS = 600_000;

describe('persistence under kill -9', () => {
  it(`kill -9 during a stream of writes, ${TRIALS} times on one growing file: every write answered 2xx is there after the restart, once, and the file opens every time`, async () => {
    const file = join(dir, 'stream.db');
    const ledger = new Ledger();
    let sim = await spawnSim({ data: file });
    const sandboxB = await sim.request('POST', '/sim/v1/sandboxes', { token: null, body: { now: SANDBOX_NOW } });
    expect(sandboxB.status).toBe(201);
    const tokenB = (sandboxB.body as { token: string }).token;
    let checks = 0;
    let checkedLast = 0;
    const started = performance.now();
    for (let trial = 0; trial < TRIALS; trial += 1) {
      await stream(sim, ledger, tokenB, trial);
      sim = await spawnSim({ data: file });
      checkedLast = await verify(sim, ledger, tokenB);
      checks += checkedLast;
    }
    expect(await sim.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
    console.log(
      `kill -9 stream: ${TRIALS} kills, ${ledger.acknowledged} writes answered 2xx, ${checkedLast} acknowledged writes checked after the last restart ` +
        `(${checks} checks over all restarts), data file ${(statSync(file).size / 1024).toFixed(0)} KiB, ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(checkedLast).toBeGreaterThanOrEqual(TRIALS * 3);
  }, HANG_MS);

  it('kill -9 right after an answered advance: the clock and every purchase the advance created are there, and the next advance bills the next dates (no repeat, no skip)', async () => {
    const file = join(dir, 'advance.db');
    // The same requests on a server that is never killed (`reference`) give the state the file must hold.
    const sim = await spawnSim({ data: file });
    let restarted: RunningSimulator | undefined;
    try {
      const run = await runSubscribers(sim.origin);
      const expected = await runSubscribers(reference.url);
      // SIGKILL as soon as the 200's headers arrive: the advance's changes were committed before them.
      const answered = await fetch(`${sim.origin}/sim/v1/clock/advance`, {
        method: 'POST',
        headers: { authorization: `Bearer ${run.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ by: 'P3M' }),
      });
      if (answered.status === 200) process.kill(sim.pid, 'SIGKILL');
      expect(answered.status).toBe(200);
      expect((await sim.exited).signal).toBe('SIGKILL');
      await advanceBy(reference.url, expected.token, 'P3M');

      restarted = await startSimulator({ port: 0, quiet: true, dataFile: file });
      const afterKill = await subscribersState(restarted.url, run.token);
      expect(afterKill.now).toBe('2026-04-30T09:00:00.000Z');
      expect(afterKill.purchases.length).toBeGreaterThan(run.purchasesBefore);
      expect(afterKill).toEqual(await subscribersState(reference.url, expected.token));

      await advanceBy(restarted.url, run.token, 'P2M');
      await advanceBy(reference.url, expected.token, 'P2M');
      const next = await subscribersState(restarted.url, run.token);
      expect(next).toEqual(await subscribersState(reference.url, expected.token));
      // Each subscriber billed once per month end, none twice, none missed.
      expect(Object.values(next.issuedBySubscriber)).toEqual(DEDUCTIONS.map(() => MONTH_ENDS));
    } finally {
      await sim.kill();
      await restarted?.stop();
    }
  }, HANG_MS);
});

describe('a long advance with --data, saved in pieces', () => {
  it('kill -9 in the middle of a long advance: the file opens, the clock has not moved, and advancing again to the same target ends exactly as an advance never interrupted', async () => {
    const file = join(dir, 'long-advance.db');
    const sim = await spawnSim({ data: file });
    let restarted: RunningSimulator | undefined;
    try {
      // A century of three monthly subscribers: 3,600 billings, many slices.
      const run = await runSubscribers(sim.origin, '2125-12-31');
      const expected = await runSubscribers(reference.url, '2125-12-31');
      const target = { to: '2126-01-01T00:00:00Z' };
      // Each commit writes the log file; its size or time changes. (Its size alone does not grow once
      // a checkpoint has made SQLite write the log from its start again.)
      const walStamp = () => (existsSync(`${file}-wal`) ? `${statSync(`${file}-wal`).size}/${statSync(`${file}-wal`).mtimeMs}` : '');
      let stamp = walStamp();
      let commits = 0;
      const advancing = fetch(`${sim.origin}/sim/v1/clock/advance`, {
        method: 'POST',
        headers: { authorization: `Bearer ${run.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(target),
      }).then((res) => res.status, () => 0);
      // Killed a little after the first piece began to reach the file (a commit writes its pages one by
      // one, so the first change seen may be a commit under way), and long before the answer.
      for (let i = 0; i < 2_000 && commits < 1; i += 1) {
        await new Promise((r) => setTimeout(r, 1));
        if (walStamp() !== stamp) [stamp, commits] = [walStamp(), commits + 1];
      }
      await new Promise((r) => setTimeout(r, 100));
      process.kill(sim.pid, 'SIGKILL');
      expect(await advancing).toBe(0);
      await ok(reference.url, 'POST', '/sim/v1/clock/advance', expected.token, target);

      restarted = await startSimulator({ port: 0, quiet: true, dataFile: file });
      const count = async (origin: string, token: string) => (await listAll(origin, token, '/api/v1/purchases/')).length;
      const finished = await count(reference.url, expected.token);
      expect((await subscribersState(restarted.url, run.token)).now).toBe('2026-01-31T09:00:00.000Z');
      const saved = await count(restarted.url, run.token);
      expect(saved).toBeGreaterThan(run.purchasesBefore);
      expect(saved).toBeLessThan(finished);

      await ok(restarted.url, 'POST', '/sim/v1/clock/advance', run.token, target);
      expect(await count(restarted.url, run.token)).toBe(finished);
      expect(await subscribersState(restarted.url, run.token)).toEqual(await subscribersState(reference.url, expected.token));
    } finally {
      await sim.kill();
      await restarted?.stop();
    }
  }, HANG_MS);
});

async function ok(origin: string, method: string, path: string, token: string, body: unknown): Promise<void> {
  const call = await send(origin, method, path, token, body);
  expect(call.status, `${method} ${path}: ${call.text.slice(0, 300)}`).toBe(200);
}

/** Launched on Jan 31: one billing per month end, through the kill after April's. */
const MONTH_ENDS = ['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30'];
