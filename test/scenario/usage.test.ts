// Files that are not scenarios, and command lines that are wrong: exit 2 with one line on stderr
// (the file, the line, the dotted path of the first bad value), before anything runs.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, runCli } from '../support/spawn-sim.ts';
import { freePort } from '../support/ports.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-scenario-usage-'));
afterAll(async () => {
  await killSpawned();
  rmSync(dir, { recursive: true, force: true });
});

function expectOneLineError(result: { code: number | null; stdout: string; stderr: string }, ...what: string[]): void {
  expect(result.code, result.stdout + result.stderr).toBe(2);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^billing-sim: /);
  for (const part of what) expect(lines[0]).toContain(part);
  // Checked before anything ran: no simulator started, no scenario reported.
  expect(result.stdout).toBe('');
}

const HEAD = 'name: bad\nsandbox: {now: 2028-02-29T09:00:00Z}\nsteps:\n  - request: {method: GET, path: /api/v1/clients/}\n    save: {clients: results}\n';

describe('a file that is not a valid scenario (each kind of problem: format.test.ts)', () => {
  it.each([
    ['an advance with both by and to', `${HEAD}  - advance: {by: P1M, to: 2028-04-01}\n`, '6: step 2, advance: advance takes exactly one of by'],
    ['an unquoted reference inside {…}', `${HEAD}  - pay: {purchase: \${clients}}\n`, '6:22: not YAML: ', 'write a reference in quotes: "${name}"'],
  ])('%s: exit 2 naming the file, the line and the path', async (_, text, ...what) => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, text);
    expectOneLineError(await runCli(['scenario', 'run', file], 60_000), `billing-sim: ${file}:${what[0]}`, ...what.slice(1));
  });

  it('one bad file among good ones: nothing runs', async () => {
    const file = join(dir, 'second.yaml');
    writeFileSync(file, `${HEAD}  - expect: {count: purchases}\n`);
    expectOneLineError(await runCli(['scenario', 'run', 'fixtures/scenarios/month-end-anchoring.yaml', file], 60_000), `${file}:6: step 2, expect: a count takes is`);
  });
});

describe('the command line', () => {
  it.each([
    [['scenario'], 'expected "run" and scenario files (see billing-sim scenario --help)'],
    [['scenario', 'check', 'a.yaml'], 'unknown scenario action "check" (expected run or from-recording)'],
    [['scenario', 'run'], 'expected at least 1 scenario file or folder'],
    [['scenario', 'run', '--junit'], "'--junit"],
    [['scenario', 'run', 'no-such-file.yaml'], 'no-such-file.yaml: no such file or folder'],
    [['scenario', 'run', 'docs'], 'docs: a folder without .yaml or .yml files'],
    [['scenario', 'run', '--origin', 'localhost:4010', 'fixtures/scenarios/'], '--origin must be an http(s) URL, got "localhost:4010"'],
  ])('%j: exit 2, one line', async (args, message) => {
    expectOneLineError(await runCli(args, 60_000), message);
  });

  it('an --origin where nothing listens: exit 2 before any scenario', async () => {
    const origin = `http://127.0.0.1:${await freePort()}`;
    expectOneLineError(await runCli(['scenario', 'run', '--origin', origin, 'fixtures/scenarios/'], 60_000), `no answer from ${origin} (ECONNREFUSED): is the simulator running there?`);
  });

  it.each([['-h'], ['--help'], ['run', '--help']])('scenario %s prints the usage and exits 0', async (...flags) => {
    const result = await runCli(['scenario', ...flags], 60_000);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^usage: billing-sim scenario run \[--origin URL\] \[--junit FILE\] FILE\|FOLDER\.\.\./);
    for (const part of ['--origin', '--junit', 'BILLING_SIM_ORIGIN', 'BILLING_SIM_JUNIT', 'Exit status']) expect(result.stdout).toContain(part);
    expect(result.stderr).toBe('');
  });

  it('billing-sim --help names the command', async () => {
    const result = await runCli(['--help'], 60_000);
    expect(result.stdout).toMatch(/^ {2}scenario {2}runs scenario files/m);
  });
});
