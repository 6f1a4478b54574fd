// DESIGN.md §5: "persisted state survives a kill -9 during writes". A simulator process with
// --data takes a stream of writes and is killed with SIGKILL in the middle; a new one must load
// the file (never a half-written one) and serve what it holds.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BIN = fileURLToPath(new URL('../../bin/billing-sim.js', import.meta.url));

describe('persistence under kill -9', () => {
  it('a process killed during a stream of writes leaves a file the next start loads', async () => {
    const file = join(dir, 'state.db');
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', file, '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let printed = '';
    const apiUrl = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const found = /API base URL\s+(\S+?)\/?\n/.exec(printed);
        if (found) resolve(found[1]!);
      });
      child.once('exit', () => reject(new Error(`the simulator exited before it listened:\n${printed}`)));
    });
    const token = /bearer token\s+(\S+)/.exec(printed)![1]!;
    const write = (i: number) =>
      fetch(`${apiUrl}/clients/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: `kill${i}@example.com`, full_name: 'x'.repeat(100) }),
      }).then((res) => res.status, () => 0);
    // Writes in flight, then SIGKILL without warning while they keep coming.
    const acknowledged: number[] = [];
    for (let round = 0; round < 20; round += 1) {
      acknowledged.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => write(round * 10 + i)))));
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const inFlight = Promise.all(Array.from({ length: 20 }, (_, i) => write(1000 + i)));
    child.kill('SIGKILL');
    await Promise.all([inFlight, exited]);
    expect(acknowledged.filter((status) => status === 201)).toHaveLength(200);

    const restarted = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      const res = await fetch(`${restarted.apiUrl}/clients/?page_size=1000`, { headers: { authorization: `Bearer ${restarted.token}` } });
      const emails = ((await res.json()) as { results: { email: string }[] }).results.map((c) => c.email);
      // Whatever the last complete snapshot held: most of the acknowledged writes, and nothing half-written.
      expect(emails.filter((email) => email.startsWith('kill')).length).toBeGreaterThan(100);
      expect(new Set(emails).size).toBe(emails.length);
    } finally {
      await restarted.stop();
    }
  }, 60_000);
});
