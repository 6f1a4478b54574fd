// DESIGN.md §6 "Write failure": on a full disk a write answers 503 storage_unavailable, the process
// stays up, and the failed change is not visible afterwards; once there is room again writes
// succeed, and a restart shows exactly what was answered 2xx.
//
// The disk is filled for real, in one of two ways. A small tmpfs mounted for the test (root, and a
// kernel that allows the mount), filled with a ballast file until ENOSPC; or, where mounting is not
// allowed, the kernel's file-size limit (RLIMIT_FSIZE, set on the running server with prlimit) at
// the data files' current size, so every write that needs more room fails (EFBIG; node ignores
// SIGXFSZ). Where the mount works both run, so the fallback CI may use is tested here too.

import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from '../builders/engine.ts';
import { killSpawned, listAll, spawnSim, type Sim } from '../support/spawn-sim.ts';
import { startSimulator } from '../../src/index.ts';
import { limitToDataFiles, prlimit } from '../support/file-size-limit.ts';

const dirs: string[] = [];
const mounts: string[] = [];
afterAll(async () => {
  await killSpawned();
  for (const dir of mounts) spawnSync('umount', ['-l', dir]);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Room for a new data file and a few dozen writes; the ballast takes the rest. */
const TMPFS_SIZE = '4m';

interface Medium {
  name: string;
  dir: string;
  /** Leaves no room for the server's next write that needs more space. */
  fill(sim: Sim, file: string): void;
  free(sim: Sim): void;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'billing-sim-full-'));
  dirs.push(dir);
  return dir;
}

/** A tmpfs of TMPFS_SIZE on a new folder, or null when this machine does not allow the mount. */
function mountTmpfs(): string | null {
  const dir = tempDir();
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE},mode=0700`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    console.warn(`disk full: mounting a tmpfs is not allowed here (${(mounted.stderr || mounted.error?.message || '').trim()}); the file-size limit stands in`);
    return null;
  }
  mounts.push(dir);
  return dir;
}

function tmpfs(dir: string): Medium {
  const ballast = join(dir, 'ballast');
  return {
    name: 'a full tmpfs',
    dir,
    fill() {
      const fd = openSync(ballast, 'w');
      try {
        // Big chunks, then pages, until the file system has no byte left.
        for (const size of [256 * 1024, 4096, 1]) {
          const chunk = Buffer.alloc(size, 1);
          for (;;) {
            try {
              writeSync(fd, chunk);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
              break;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free: () => unlinkSync(ballast),
  };
}

const fileSizeLimit = (dir: string): Medium => ({
  name: 'the file-size limit (RLIMIT_FSIZE)',
  dir,
  fill: (sim, file) => limitToDataFiles(sim.pid, file),
  free: (sim) => prlimit(sim.pid, 'unlimited:'),
});

const mounted = mountTmpfs();
const media: Medium[] = [...(mounted ? [tmpfs(mounted)] : []), fileSizeLimit(tempDir())];
console.log(`disk full is tested on: ${media.map((m) => m.name).join(', ')}`);

const NOW = '2026-01-30T12:00:00Z';
const STORAGE_UNAVAILABLE = {
  __all__: [{ code: 'storage_unavailable', message: expect.stringContaining('could not be saved') }],
};

describe.each(media)('disk full: $name', (medium) => {
  it('a write answers 503 storage_unavailable and is not made; the process stays up and reads work; once freed, writes succeed and a restart holds exactly the 2xx writes', async () => {
    const file = join(medium.dir, 'state.db');
    const sim = await spawnSim({ data: file });
    try {
      const sandbox = await sim.request('POST', '/sim/v1/sandboxes', { token: null, body: { now: NOW } });
      expect(sandbox.status).toBe(201);
      const token = (sandbox.body as { token: string }).token;
      let n = 0;
      const create = () => sim.request('POST', '/api/v1/clients/', { token, body: { email: `c${(n += 1)}@example.com`, full_name: 'x'.repeat(128) } });
      const answered = new Map<string, number>();
      const record = async () => {
        const call = await create();
        answered.set(`c${n}@example.com`, call.status);
        return call;
      };
      for (let i = 0; i < 5; i += 1) expect((await record()).status).toBe(201);
      const kept = (await listAll<Client>(sim.origin, token, '/api/v1/clients/'))[0]!;

      medium.fill(sim, file);
      // A write may still fit in the last page the file system gave; one soon needs more.
      let failed: Awaited<ReturnType<typeof create>> | undefined;
      for (let i = 0; i < 20 && !failed; i += 1) {
        const call = await record();
        expect([201, 503]).toContain(call.status);
        if (call.status === 503) failed = call;
      }
      expect(failed?.status, 'no write failed on a full disk').toBe(503);
      expect(failed!.body).toEqual(STORAGE_UNAVAILABLE);
      expect(sim.stderr()).toContain(`could not save sandbox`);
      expect(sim.stderr()).toContain(file);
      // Still full: an update fails too, and leaves the object as it was.
      const patch = await sim.request('PATCH', `/api/v1/clients/${kept.id}/`, { token, body: { full_name: 'Not saved' } });
      expect(patch.status).toBe(503);
      expect(patch.body).toEqual(STORAGE_UNAVAILABLE);
      expect((await record()).status).toBe(503);

      // The process is up, reads work, and what failed is not there.
      expect((await sim.request('GET', '/healthz', { token: null })).status).toBe(200);
      expect((await sim.request('GET', `/api/v1/clients/${kept.id}/`, { token })).body).toMatchObject({ full_name: kept.full_name });
      const during = (await listAll<Client>(sim.origin, token, '/api/v1/clients/')).map((c) => c.email).sort();
      const ok = (statuses: Map<string, number>) => [...statuses].filter(([, status]) => status === 201).map(([email]) => email).sort();
      expect(during).toEqual(ok(answered));

      medium.free(sim);
      for (let i = 0; i < 3; i += 1) expect((await record()).status).toBe(201);
      const patched = await sim.request('PATCH', `/api/v1/clients/${kept.id}/`, { token, body: { full_name: 'Saved' } });
      expect(patched.status).toBe(200);

      // kill -9, so what the restart shows is what the file holds.
      await sim.kill();
      const restarted = await startSimulator({ port: 0, quiet: true, dataFile: file });
      try {
        const after = await listAll<Client>(restarted.url, token, '/api/v1/clients/');
        expect(after.map((c) => c.email).sort()).toEqual(ok(answered));
        expect(after.find((c) => c.id === kept.id)?.full_name).toBe('Saved');
      } finally {
        await restarted.stop();
      }
      const failures = [...answered.values()].filter((status) => status === 503).length;
      console.log(`disk full on ${medium.name}: ${answered.size - failures} writes answered 201 and kept, ${failures} answered 503 and absent`);
    } finally {
      await sim.kill();
    }
  }, 60_000);
});
