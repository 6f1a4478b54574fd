// `npm start` in the repository (DESIGN §7): SIGINT and SIGTERM, which npm passes on to scripts/start.js, stop
// the server within 2 s with exit 0 and leave nothing listening. Moved here from test/package/tarball.test.ts
// (issue 44), which never used the tarball for it: .ci/node24 skips the tarball's file, and this one still runs
// under Node 24, whose npm and start.js it is about.

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { closedWithin, startServer } from '../support/npm-server.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('npm start in the repository', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to npm start stops the server: npm exits 0 and nothing listens after 2 s`, async () => {
      const { child, origin } = await startServer('npm', ['start'], ROOT);
      expect((await fetch(`${origin}/healthz`)).status).toBe(200);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      expect(await closedWithin(origin, 2_000)).toBe(true);
      expect(await exited).toBe(0);
    }, 30_000);
  }
});
