// `billing-sim contract --summary FILE` and `--max-warnings N`: the Markdown a CI page shows
// ($GITHUB_STEP_SUMMARY) and the warnings that fail a run, first from results made here (the
// escaping, the figures, the reasons), then run as a CI user runs them, against a simulator behind a
// proxy that injects two faults: a client read back has a forged full_name (the normative CLI-GET
// fails) and GET /healthz answers 503 (the informative SIM-HEALTHZ, a check of billing-sim's own
// endpoint, warns). Each run takes one check file.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverageOf } from '../../contract-tests/lib/coverage.ts';
import type { CheckResult, RunResults } from '../../contract-tests/lib/results.ts';
import { knownGroups } from '../../contract-tests/lib/selection.ts';
import { escapeCell, summaryMarkdown } from '../../contract-tests/lib/summary.ts';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { CLI } from '../support/cli.ts';
import { startProxy, type Fault } from './fault-proxy.ts';

/** The GFM tables of a Markdown text, each as its rows of cells; throws on a table whose rows differ in width. */
function tables(markdown: string): string[][][] {
  const cells = (line: string) => line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim());
  const found: string[][][] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('|') || lines[i - 1]?.startsWith('|')) continue;
    const rows: string[][] = [];
    while (lines[i]?.startsWith('|')) rows.push(cells(lines[i++]!));
    const [header, delimiter, ...body] = rows;
    expect(delimiter!.every((cell) => /^-{3,}:?$/.test(cell)), `the delimiter row under ${header!.join(' | ')}`).toBe(true);
    for (const row of [delimiter!, ...body]) expect(row, `a row of the table ${header!.join(' | ')}`).toHaveLength(header!.length);
    found.push([header!, ...body]);
  }
  return found;
}

/** The table under a heading (the first after it). */
function tableUnder(markdown: string, heading: string): string[][] {
  const at = markdown.indexOf(`${heading}\n`);
  expect(at, `no heading "${heading}"`).toBeGreaterThanOrEqual(0);
  return tables(markdown.slice(at))[0]!;
}

const check = (over: Partial<CheckResult> & Pick<CheckResult, 'id' | 'outcome'>): CheckResult => ({ title: 'a check', group: 'clients', file: 'checks/clients.test.ts', level: 'normative', cites: `openapi.yaml#createClient`, durationMs: 1, ...over });

describe('the Markdown of a run', () => {
  const results: RunResults = {
    checks: [
      check({ id: 'CLI-CREATE', outcome: 'passed', exercised: ['createClient 201', 'getClient 200'] }),
      check({ id: 'CLI-GET', outcome: 'failed', cites: 'openapi.yaml#getClient', exercised: ['getClient 200', 'getClient 500'], failure: { summary: 'expected a | b, got <script>', exchanges: [], exchangesLeftOut: 0 } }),
      check({ id: 'CLI-LIST', outcome: 'warned', level: 'informative', cites: 'docs/behaviour.md#lists', failure: { summary: 'expected 2 to be less than 1', exchanges: [], exchangesLeftOut: 0 } }),
      check({ id: 'WH-CREATE', group: 'webhooks', file: 'checks/webhooks.test.ts', outcome: 'skipped', cites: 'openapi.yaml#createWebhook', skipReason: 'no second account was given (--token2)' }),
    ],
    errors: [],
    files: ['checks/clients.test.ts', 'checks/webhooks.test.ts'],
  };
  const markdown = summaryMarkdown(results, { maxWarnings: 0, baseUrl: 'https://staging.example/api/v1' });

  it('escapes what a target answered: no cell breaks its table or becomes HTML', () => {
    expect(escapeCell('a | b\n<i>x_y</i>')).toBe('a \\| b &lt;i&gt;x\\_y&lt;/i&gt;');
    expect(markdown).not.toContain('<script>');
    tables(markdown);
  });

  it('says the verdict first, with every reason the run failed', () => {
    expect(markdown.split('\n').slice(0, 3)).toEqual(['## Contract suite: failed', '', 'The run failed: 1 normative check failed; 1 warning, more than --max-warnings 0 allows.']);
  });

  it('lists the failed and the warned checks apart, each with its level, what failed and what it cites', () => {
    expect(tableUnder(markdown, '### Failed checks (normative: they fail the run)').slice(1)).toEqual([['`CLI-GET` a check', 'normative', 'expected a \\| b, got &lt;script&gt;', 'openapi.yaml#getClient']]);
    const warned = tableUnder(markdown, "### Warnings (informative checks: billing-sim's own decisions; more than 0 fail the run)");
    expect(warned.slice(1)).toEqual([['`CLI-LIST` a check', 'informative', 'expected 2 to be less than 1', 'docs/behaviour.md#lists']]);
  });

  it('marks a status the document does not name, and gives an operation a skipped check would have sent its reason', () => {
    const coverage = coverageOf(results, {});
    const get = coverage.operations.find((op) => op.operationId === 'getClient')!;
    expect(get).toMatchObject({ seen: ['200', '500'], checks: ['CLI-CREATE', 'CLI-GET'], platform: true });
    expect(markdown).toContain('| getClient `GET /clients/{id}/` | 200, 500 (not documented) |');
    expect(coverage.operations.find((op) => op.operationId === 'createWebhook')!.reason).toBe('its checks were skipped: 1 × no second account was given (--token2)');
    expect(coverage.flows.find((flow) => flow.name === 'webhooks')).toMatchObject({ state: 'not exercised', ran: 0, skipped: 1 });
  });

  it('in a run of every check file: "no check sent it", and the control API missed for want of it', () => {
    const files = [...knownGroups().values()].flat();
    const clock = check({ id: 'TIME-X', group: 'time', outcome: 'skipped', cites: 'docs/behaviour.md#time-travel', skipReason: 'the target has no simulator clock (GET /sim/v1/capabilities: clock)' });
    const whole = coverageOf({ checks: [results.checks[0]!, clock], errors: [], files }, {});
    expect(whole.partial).toBe(false);
    expect(whole.operations.find((op) => op.operationId === 'getPublicKey')!.reason).toBe('no check sent it');
    expect(whole.operations.find((op) => op.operationId === 'advanceClock')).toMatchObject({ platform: false, reason: '1 check was skipped for want of the simulator control API (see the skip reasons)' });
    // Warnings fail nothing without --max-warnings.
    expect(summaryMarkdown({ checks: [results.checks[2]!], errors: [], files }).split('\n')[0]).toBe('## Contract suite: passed');
  });

  it('counts the conformance honestly: exercised of documented, what skipped checks would have sent not exercised', () => {
    const figures = tableUnder(markdown, '### Coverage');
    const platform = coverageOf(results, {}).operations.filter((op) => op.platform);
    expect(figures[1]![1]).toBe(`2 of ${platform.length} (${Math.floor(200 / platform.length)}%)`);
    // 201 of createClient and 200 of getClient: the undocumented 500 is no conformance.
    expect(figures[2]![1]).toMatch(/^2 of \d+ \(\d+%\)$/);
  });
});

const FAULTS: Fault = {
  name: 'a forged client name; /healthz unhealthy',
  response: (req, res) => {
    const path = req.path.split('?')[0]!;
    if (req.method === 'GET' && /^\/api\/v1\/clients\/[0-9a-f-]{36}\/$/.test(path) && res.status === 200) (res.body as Record<string, unknown>).full_name = 'Forged';
    if (path === '/healthz') {
      res.status = 503;
      res.body = { status: 'down' };
    }
  },
};

let sim: RunningSimulator;
let proxy: { url: string; close(): Promise<void> };
let token = '';
let cwd = '';

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
  const res = await fetch(`${sim.url}/sim/v1/sandboxes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"fixtures":true}' });
  token = ((await res.json()) as { token: string }).token;
  proxy = await startProxy(sim.url, FAULTS);
  cwd = mkdtempSync(join(tmpdir(), 'contract-summary-'));
}, 60_000); // a hang guard: the default 10 s ran out starting a simulator on a loaded machine

afterAll(async () => {
  await proxy?.close();
  await sim?.stop();
  rmSync(cwd, { recursive: true, force: true });
});

interface SuiteRun {
  code: number;
  /** stdout, then stderr. */
  output: string;
}

/** `billing-sim contract` on the proxy, in `cwd`, with no CONTRACT_* or BILLING_SIM_* variable but `env`'s. */
async function contract(args: string[], env: Record<string, string> = {}): Promise<SuiteRun> {
  const environment: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
  for (const name of Object.keys(environment)) if (name.startsWith('CONTRACT_') || name.startsWith('BILLING_SIM_')) delete environment[name];
  const argv = [CLI, 'contract', '--base-url', `${proxy.url}/api/v1`, '--in-accounts', '--token', token, ...args];
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, argv, { cwd, env: { ...environment, ...env }, maxBuffer: 64 * 2 ** 20 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: (failed.stdout ?? '') + (failed.stderr ?? '') };
  }
}

const lastLine = (run: SuiteRun) => run.output.trimEnd().split('\n').at(-1);

describe('--summary FILE', () => {
  let run: SuiteRun;
  let markdown = '';
  beforeAll(async () => {
    run = await contract(['--summary', 'reports/summary.md', 'checks/clients']);
    const file = join(cwd, 'reports', 'summary.md');
    expect(existsSync(file), run.output.slice(-3000)).toBe(true);
    markdown = readFileSync(file, 'utf8');
  }, 120_000);

  it('is written relative to the current folder, and the run still fails on the normative failure', () => {
    expect(run.code, run.output.slice(-3000)).toBe(1);
    expect(run.output).toContain(`Markdown summary written to ${join(cwd, 'reports', 'summary.md')}`);
  });

  it('is GitHub-flavoured Markdown with a table per group of passed, failed, warned and skipped', () => {
    tables(markdown);
    const groups = tableUnder(markdown, '### Checks by group');
    expect(groups[0]).toEqual(['group', 'passed', 'failed', 'warned', 'skipped']);
    expect(groups.map((row) => row[0])).toEqual(['group', 'clients', '**all checks**']);
    expect(Number(groups[1]![2])).toBeGreaterThanOrEqual(1);
  });

  it('lists the failed check with what failed and what it cites', () => {
    const failed = tableUnder(markdown, '### Failed checks (normative: they fail the run)');
    const row = failed.find((cells) => cells[0]!.startsWith('`CLI-GET`'))!;
    expect(row.slice(1, 3)).toEqual(['normative', 'expected full\\_name = "Jane Doe", got "Forged"']);
    expect(row[3]).toMatch(/^openapi\.yaml#/);
  });

  it('names the operations exercised against the target and those not, each with its reason', () => {
    expect(markdown).toMatch(/^\| createClient `POST \/clients\/` \| 201[^|]* \| [^|]+ \| \d+ \|$/m);
    const missed = tableUnder(markdown, '#### API operations not exercised');
    expect(missed).toContainEqual(['createWebhook `POST /webhooks/`', '201, 400, 401, 403, 413, 503', 'no check of this run sent it (the run took only some checks)']);
    const flows = tableUnder(markdown, '#### Flows');
    expect(flows.find((row) => row[0] === 'clients')![1]).toBe('exercised');
    expect(flows.find((row) => row[0] === 'webhooks')!.slice(1, 2)).toEqual(['not run']);
  });
});

describe('--max-warnings N', () => {
  it('0 fails a run with a warning, and says so in its last line', async () => {
    const run = await contract(['--max-warnings', '0', 'checks/simulator']);
    expect(run.code, run.output.slice(-3000)).toBe(1);
    expect(run.output).toContain('⚠ [SIM-HEALTHZ] informative — ');
    expect(run.output).toMatch(/^Warnings \(informative checks: .*; more than --max-warnings 0 fail the run\):$/m);
    expect(lastLine(run)).toBe('1 warning, more than --max-warnings 0 allows');
  }, 120_000);

  it('1 (from BILLING_SIM_MAX_WARNINGS) passes it', async () => {
    const run = await contract(['checks/simulator'], { BILLING_SIM_MAX_WARNINGS: '1' });
    expect(run.code, run.output.slice(-3000)).toBe(0);
    expect(run.output).toMatch(/^\d+ passed, 0 failed, 0 skipped, 1 warning$/m);
    expect(run.output).not.toContain('--max-warnings 1 allows');
  }, 120_000);

  it.each([
    [['--max-warnings', 'x'], '--max-warnings must be a non-negative integer, got "x"'],
    [['--max-warnings=-1'], '--max-warnings must be a non-negative integer, got "-1"'],
    [['--max-warnings', '1.5'], '--max-warnings must be a non-negative integer, got "1.5"'],
    [['--concurrency', '0'], '--concurrency must be a positive integer, got "0"'],
    [['--concurrency', 'four'], '--concurrency must be a positive integer, got "four"'],
  ])('%j is a usage error: exit 2, one line, nothing run', async (args, message) => {
    const run = await contract([...args, 'checks/simulator']);
    expect(run.code).toBe(2);
    expect(run.output.trim()).toBe(`billing-sim: ${message} (see billing-sim contract --help)`);
  }, 30_000);
});
