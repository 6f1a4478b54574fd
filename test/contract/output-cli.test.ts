// What `billing-sim contract` prints and writes, run as a CI user runs it: against a simulator behind
// a proxy that injects known faults. A client read back (GET /clients/{id}/) has a forged full_name
// (normative checks fail), the client list comes oldest first (the informative CLI-LIST-NEWEST-FIRST
// warns), and /sim/v1/capabilities answers 404 (every simulator check is skipped for lack of a clock).

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { startProxy, type Fault } from './fault-proxy.ts';
import { CLI } from '../support/cli.ts';

const run = promisify(execFile);
const SUITE_ROOT = fileURLToPath(new URL('../../contract-tests/', import.meta.url));

const CLOCK_REASON = 'the target has no simulator clock (GET /sim/v1/capabilities: clock)';

const FAULTS: Fault = {
  name: 'a forged client name, clients oldest first, no capabilities',
  response: (req, res) => {
    const path = req.path.split('?')[0]!;
    const body = res.body as Record<string, any> | undefined;
    if (req.method === 'GET' && /^\/api\/v1\/clients\/[0-9a-f-]{36}\/$/.test(path) && res.status === 200) body!.full_name = 'Forged';
    if (req.method === 'GET' && /^\/api\/v1\/clients\/?$/.test(path) && res.status === 200) body!.results.reverse();
    if (path === '/sim/v1/capabilities') {
      res.status = 404;
      res.body = { __all__: [{ message: 'Not found.', code: 'not_found' }] };
    }
  },
};

let sim: RunningSimulator;
let proxy: { url: string; close(): Promise<void> };
let token = '';
let cwd = '';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  lines: string[];
}

async function contract(...args: string[]): Promise<Run> {
  const argv = [CLI, 'contract', '--base-url', `${proxy.url}/api/v1`, '--in-accounts', '--token', token, ...args];
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
  for (const name of Object.keys(env)) if (name.startsWith('CONTRACT_') || name.startsWith('BILLING_SIM_')) delete env[name];
  const done = (code: number, stdout = '', stderr = '') => ({ code, stdout, stderr, lines: `${stdout}${stderr}`.split('\n') });
  try {
    const { stdout, stderr } = await run(process.execPath, argv, { cwd, env, maxBuffer: 64 * 2 ** 20 });
    return done(0, stdout, stderr);
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return done(failed.code ?? 1, failed.stdout, failed.stderr);
  }
}

/** The lines printed for one failed or warned check: its first line and those indented under it. */
function block(lines: string[], first: RegExp): string[] {
  const start = lines.findIndex((line) => first.test(line));
  if (start < 0) return [];
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('    '));
  return lines.slice(start, end < 0 ? undefined : end);
}

/** The totals line, `N passed, N failed, N skipped, N warnings[, N notes]` (the cleanup's report may follow it). */
const totals = (lines: string[]) => lines.find((line) => /^\d+ passed, /.test(line));

/** The group names of the summary table, between its title and the `all checks` line. */
function summaryGroups(lines: string[]): string[] {
  const start = lines.indexOf('Contract suite summary');
  const end = lines.findIndex((line, i) => i > start && line.startsWith('  all checks'));
  return lines.slice(start + 1, end).map((line) => line.trim().replace(/\s+\d+ passed.*$/, ''));
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
  const res = await fetch(`${sim.url}/sim/v1/sandboxes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"fixtures":true}' });
  token = ((await res.json()) as { token: string }).token;
  proxy = await startProxy(sim.url, FAULTS);
  cwd = mkdtempSync(join(tmpdir(), 'contract-output-'));
}, 60_000); // a hang guard: the default 10 s ran out starting a simulator on a loaded machine

afterAll(async () => {
  await proxy?.close();
  await sim?.stop();
  rmSync(cwd, { recursive: true, force: true });
});

describe('the default output, for CI', () => {
  let result: Run;
  beforeAll(async () => {
    result = await contract('--group', 'clients', '--group', 'simulator', '--junit', 'reports/contract.xml');
  }, 120_000);

  it('fails the run on a normative failure', () => {
    expect(result.code, result.stdout.slice(-3000)).toBe(1);
  });

  it('prints a normative failure in at most three lines: id, level, what was expected and what came, then the title and citation', () => {
    const lines = block(result.lines, /^✗ \[CLI-GET\] /);
    expect(lines.length, result.stdout).toBeGreaterThanOrEqual(2);
    expect(lines.length).toBeLessThanOrEqual(3);
    expect(lines[0]).toBe('✗ [CLI-GET] normative — expected full_name = "Jane Doe", got "Forged"');
    expect(lines[1]).toMatch(/^ {4}GET \/clients\/\{id\}\/ returns the client as created · cites openapi\.yaml#/);
    expect(lines[2]).toMatch(/^ {4}last exchange: GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/clients\/[0-9a-f-]{36}\/ → 200$/);
  });

  it('prints no stack frames, diffs or progress of passing checks', () => {
    expect(result.stdout).not.toMatch(/^\s+at |node_modules|❯|\+ Received|- Expected/m);
    expect(result.stdout).not.toContain('✓');
    // Every failed or warned check is at most three lines; the rest is the summary.
    const failedOrWarned = result.lines.filter((line) => /^[✗⚠] /.test(line)).length;
    expect(result.lines.length).toBeLessThanOrEqual(3 * failedOrWarned + 30);
  });

  it('shows an informative check that found a fault as a warning, never as passed, and does not fail on it alone', () => {
    const lines = block(result.lines, /^⚠ \[CLI-LIST-NEWEST-FIRST\] /);
    expect(lines[0]).toMatch(/^⚠ \[CLI-LIST-NEWEST-FIRST\] informative — expected -?\d+ to be less than -?\d+$/);
    expect(result.lines).toContain("Warnings (informative checks: billing-sim's decisions where the API spec is silent; they do not fail the run):");
    const clients = result.lines.find((line) => line.startsWith('  clients '))!;
    const [, passed, failed, , warned] = /(\d+) passed +(\d+) failed +(\d+) skipped +(\d+) warnings?/.exec(clients)!;
    expect(Number(warned)).toBeGreaterThanOrEqual(1);
    expect(Number(failed)).toBeGreaterThanOrEqual(1);
    // passed + failed + warned is every clients check: a warned one is not among the passed.
    const total = result.lines.filter((line) => /^[✗⚠] \[CLI-/.test(line)).length;
    expect(Number(failed) + Number(warned)).toBe(total);
    expect(Number(passed)).toBeGreaterThan(0);
  });

  it('gives each skip reason once, with its count', () => {
    expect(result.lines).toContain(`  8 × ${CLOCK_REASON}`);
    expect(result.stdout.split(CLOCK_REASON)).toHaveLength(2);
  });

  it('runs only the groups asked for, and ends with the totals', () => {
    expect(summaryGroups(result.lines)).toEqual(['clients', 'simulator']);
    expect(totals(result.lines)).toMatch(/^\d+ passed, [1-9]\d* failed, 8 skipped, [1-9]\d* warnings?(, \d+ notes?)?$/);
  });

  describe('the JUnit report', () => {
    let xml = '';
    let suites: any[] = [];
    const cases = (): any[] => suites.flatMap((suite) => suite.testcase);
    const byId = (id: string) => cases().find((c) => c.properties.property.some((p: any) => p['@_name'] === 'id' && p['@_value'] === id));
    const property = (c: any, name: string) => c.properties.property.find((p: any) => p['@_name'] === name)?.['@_value'];

    beforeAll(() => {
      const file = join(cwd, 'reports', 'contract.xml');
      expect(existsSync(file), `no report at ${file}`).toBe(true);
      xml = readFileSync(file, 'utf8');
      const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name) }).parse(xml);
      suites = parsed.testsuites.testsuite;
    });

    it('is written relative to the current folder, not the suite folder', () => {
      expect(existsSync(join(SUITE_ROOT, 'reports', 'contract.xml'))).toBe(false);
      expect(result.stdout).toContain(`JUnit report written to ${join(cwd, 'reports', 'contract.xml')}`);
    });

    it('is well-formed, with one testsuite per group and totals that add up', () => {
      expect(XMLValidator.validate(xml)).toBe(true);
      expect(suites.map((suite) => suite['@_name'])).toEqual(['clients', 'simulator']);
      for (const suite of suites) {
        expect(Number(suite['@_tests'])).toBe(suite.testcase.length);
        expect(Number(suite['@_failures'])).toBe(suite.testcase.filter((c: any) => c.failure).length);
        expect(Number(suite['@_skipped'])).toBe(suite.testcase.filter((c: any) => c.skipped !== undefined).length);
      }
    });

    it('carries a failure with what was expected and what came, and the exchanges', () => {
      const failed = byId('CLI-GET');
      expect(failed.failure['@_type']).toBe('normative');
      expect(failed.failure['@_message']).toBe('expected full_name = "Jane Doe", got "Forged"');
      expect(failed.failure['#text']).toMatch(/← 200\n\s+\{.*"full_name":"Forged"/);
      expect(property(failed, 'cites')).toMatch(/^openapi\.yaml#/);
    });

    it('gives every skipped test case its reason', () => {
      const skipped = cases().filter((c) => property(c, 'level') && c.skipped !== undefined && !property(c, 'warning'));
      expect(skipped).toHaveLength(8);
      for (const c of skipped) expect(c.skipped['@_message']).toBe(CLOCK_REASON);
    });

    it('reports an informative failure as a warning, not as a pass', () => {
      const warned = byId('CLI-LIST-NEWEST-FIRST');
      expect(warned.failure).toBeUndefined();
      expect(warned.skipped['@_message']).toMatch(/^warning: informative check found a difference: expected/);
      expect(property(warned, 'warning')).toMatch(/^expected -?\d+ to be less than/);
      expect(warned['system-out']).toMatch(/^WARNING \[CLI-LIST-NEWEST-FIRST\] informative — /);
      const passed = cases().filter((c) => !c.failure && c.skipped === undefined);
      expect(passed.length).toBeGreaterThan(0);
      for (const c of passed) expect(property(c, 'warning')).toBeUndefined();
    });
  });
});

describe('--verbose', () => {
  it("adds each failure's exchanges, the requests and the answers", async () => {
    const result = await contract('--group', 'clients', '--verbose');
    const lines = block(result.lines, /^✗ \[CLI-GET\] /);
    expect(lines.slice(0, 3).join('\n')).toMatch(/last exchange: GET .* → 200$/);
    const exchanges = lines.slice(3).join('\n');
    expect(exchanges).toMatch(/→ POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/clients\/\n\s+\{"email":/);
    expect(exchanges).toMatch(/→ GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/clients\/[0-9a-f-]{36}\/\n\s+← 200\n\s+\{.*"full_name":"Forged"/);
  }, 120_000);
});

describe('--level', () => {
  it('normative: runs only the normative checks; the informative ones are neither run nor counted', async () => {
    const result = await contract('--group', 'clients', '--group', 'simulator', '--level', 'normative');
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(/informative/);
    expect(result.stdout).not.toContain('CLI-LIST-NEWEST-FIRST');
    // The simulator group has only informative checks: nothing of it runs, nothing is skipped.
    expect(summaryGroups(result.lines)).toEqual(['clients']);
    // The clients group's two normative checks of instants after a day need a clock: skipped.
    expect(totals(result.lines)).toMatch(/^\d+ passed, [1-9]\d* failed, 2 skipped, 0 warnings(, \d+ notes?)?$/);
  }, 120_000);

  it('informative: runs only the informative checks, which warn and do not fail the run', async () => {
    const result = await contract('--group', 'clients', '--level', 'informative');
    expect(result.code, result.stdout.slice(-3000)).toBe(0);
    expect(result.stdout).not.toMatch(/normative/);
    expect(result.stdout).toContain('⚠ [CLI-LIST-NEWEST-FIRST] informative — ');
    expect(totals(result.lines)).toMatch(/^\d+ passed, 0 failed, 0 skipped, [1-9]\d* warnings?(, \d+ notes?)?$/);
  }, 120_000);
});

describe('--group', () => {
  it('refuses an unknown group before anything runs: exit 2 and one line that lists the groups', async () => {
    const started = Date.now();
    const result = await contract('--group', 'clients', '--group', 'invoices');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n').filter((line) => line && !line.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^billing-sim contract: unknown group "invoices"; the groups are: authentication, billing templates, clients, .*webhooks/);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);
});
