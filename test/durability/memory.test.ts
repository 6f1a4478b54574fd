// DESIGN.md §6 "Bounded work" and "Durable store": memory stays bounded while a --data server takes
// thousands of writes (each commits only what it changed), and every one of them is in the file.

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from '../builders/engine.ts';
import { killSpawned, listAll, rssBytes, spawnSim } from '../support/spawn-sim.ts';
import { startSimulator } from '../../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-memory-'));
afterAll(async () => {
  await killSpawned();
  rmSync(dir, { recursive: true, force: true });
});

const WRITES = 3_000;
const WRITERS = 4;
const MAX_RSS_GROWTH = 200 * 1024 * 1024;
const MB = 1024 * 1024;

describe('memory under a stream of writes', () => {
  it(`${WRITES} back-to-back writes to a --data server: RSS grows less than 200 MB, the process stays up, and all ${WRITES} are there after a restart`, async () => {
    const file = join(dir, 'state.db');
    const sim = await spawnSim({ data: file });
    try {
      const sandbox = await sim.request('POST', '/sim/v1/sandboxes', { token: null, body: { now: '2026-01-30T12:00:00Z' } });
      const token = (sandbox.body as { token: string }).token;
      const before = rssBytes(sim.pid);
      let peak = before;
      const started = performance.now();
      // WRITERS clients write back to back, each its share of the writes: the server always has the
      // next write waiting, instead of idling through each round trip (one writer, on a loaded machine,
      // spent most of the test between an answer and the next request).
      let next = 0;
      const writer = async () => {
        for (let i = next++; i < WRITES; i = next++) {
          const call = await sim.request('POST', '/api/v1/clients/', { token, body: { email: `m${i}@example.com`, full_name: `Client ${i}`, city: 'x'.repeat(100) } });
          if (call.status !== 201) expect.fail(`write ${i}: ${call.status} ${call.text.slice(0, 300)}`);
          if (i % 250 === 0) peak = Math.max(peak, rssBytes(sim.pid));
        }
      };
      await Promise.all(Array.from({ length: WRITERS }, writer));
      const seconds = (performance.now() - started) / 1000;
      const after = rssBytes(sim.pid);
      peak = Math.max(peak, after);
      expect(peak - before).toBeLessThan(MAX_RSS_GROWTH);
      expect((await sim.request('GET', '/healthz', { token: null })).status).toBe(200);
      console.log(
        `memory: ${WRITES} writes in ${seconds.toFixed(1)} s; RSS ${(before / MB).toFixed(0)} MB → ${(after / MB).toFixed(0)} MB ` +
          `(peak growth ${((peak - before) / MB).toFixed(0)} MB); data file ${(statSync(file).size / MB).toFixed(1)} MB`,
      );

      await sim.kill();
      // The restart only reads the file: in this process, which has the modules loaded already.
      const restarted = await startSimulator({ port: 0, quiet: true, dataFile: file });
      try {
        const emails = new Set((await listAll<Client>(restarted.url, token, '/api/v1/clients/')).map((c) => c.email));
        expect(emails.size).toBe(WRITES);
        for (let i = 0; i < WRITES; i += 1) if (!emails.has(`m${i}@example.com`)) expect.fail(`m${i}@example.com is missing after the restart`);
      } finally {
        await restarted.stop();
      }
    } finally {
      await sim.kill();
    }
    // A hang guard, not a budget: 90 s ran out on a loaded 2-core machine (load 34) with the writes still coming.
  }, 600_000);
});
