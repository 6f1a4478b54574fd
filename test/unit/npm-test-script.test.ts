// scripts/test.js (`npm test`): vitest and the contract suite run at once, and CI trusts the exit status it
// gives. Proven with two small node programs in their places: the status is the first's when it failed, else
// the second's; the second's output, held, follows the first's whole even when the second ends first; a
// SIGTERM reaches both and ends the run with 143.

import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/test.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'billing-sim-npm-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A node program: `node -e CODE`. */
const program = (code: string) => [process.execPath, '-e', code];
/** A driver that runs runTogether(first, second) and exits with its status. */
const driver = (first: string[], second: string[]) => [
  '--input-type=module',
  '-e',
  `import { runTogether } from ${JSON.stringify(SCRIPT)}; process.exitCode = await runTogether(${JSON.stringify(first)}, ${JSON.stringify(second)}, '-- second --');`,
];

function together(first: string[], second: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, driver(first, second), (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }));
  });
}

describe('npm test runs vitest and the contract suite at once (scripts/test.js)', () => {
  for (const [first, second, status] of [[0, 0, 0], [0, 1, 1], [1, 0, 1], [3, 1, 3]] as const) {
    it(`exits ${status} when the first exits ${first} and the second ${second}`, async () => {
      expect((await together(program(`process.exit(${first})`), program(`process.exit(${second})`))).code).toBe(status);
    });
  }

  it("prints the second's output after the first's, whole, though the second ended first", async () => {
    const done = join(work, 'second-done');
    // The first waits for the second to have ended (its file), then prints.
    const first = program(`const f = ${JSON.stringify(done)}; const wait = () => require('fs').existsSync(f) ? console.log('first') : setTimeout(wait, 20); wait();`);
    const second = program(`console.log('second'); console.error('second on stderr'); require('fs').writeFileSync(${JSON.stringify(done)}, '')`);
    const { code, stdout } = await together(first, second);
    expect(code).toBe(0);
    expect(stdout).toBe('first\n-- second --\nsecond\n');
  });

  it('passes SIGTERM on to both and exits 143, leaving neither running', async () => {
    const pids = [join(work, 'one.pid'), join(work, 'two.pid')];
    const waiting = (pid: string) => program(`require('fs').writeFileSync(${JSON.stringify(pid)}, String(process.pid)); setInterval(() => {}, 1000);`);
    const run = spawn(process.execPath, driver(waiting(pids[0]!), waiting(pids[1]!)), { stdio: 'ignore' });
    const ended = new Promise<number | null>((resolve) => run.on('close', (code) => resolve(code)));
    await expect.poll(() => pids.every((pid) => existsSync(pid) && readFileSync(pid, 'utf8') !== '')).toBe(true);
    run.kill('SIGTERM');
    expect(await ended).toBe(143);
    for (const pid of pids) expect(() => process.kill(Number(readFileSync(pid, 'utf8')), 0), pid).toThrow();
  });
});
