// examples/typed-client as a user of the package meets it: types generated from the current
// openapi.yaml by the openapi-typescript CLI with its default flags, the example type-checked by
// tsc with zero errors (generated declarations included), then run with tsx against a simulator
// started here. A document whose defaulted request fields come out required, or whose answers come
// out optional, fails the type-check (DESIGN.md §7: a generated client compiles for the basic flow).

import { execFile } from 'node:child_process';
import { readFile, rename } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = `${ROOT}examples/typed-client/`;
const bin = (name: string) => `${ROOT}node_modules/.bin/${name}`;
/** tsc and tsx start slowly on a busy 2-core machine. */
const SLOW = 120_000;

/** The exit code and output of a command, whether it succeeded or not. */
async function outcome(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  try {
    const { stdout, stderr } = await run(command, args, { env, cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('examples/typed-client', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, quiet: true });
  });
  afterAll(() => sim?.stop());

  it('generates its types from openapi.yaml with default flags: no property typed unknown', async () => {
    // Written under another name, then renamed: a run beside this one never reads half a file.
    const temp = `${EXAMPLE}api.d.ts.${process.pid}.tmp`;
    const generated = await outcome(bin('openapi-typescript'), ['openapi.yaml', '--output', temp]);
    expect(generated.code, generated.stderr).toBe(0);
    await rename(temp, `${EXAMPLE}api.d.ts`);
    const types = await readFile(`${EXAMPLE}api.d.ts`, 'utf8');
    expect(types).toContain('"/api/v1/billing_templates/{id}/add_subscriber/"');
    expect(types.split('\n').filter((line) => /^\s*(readonly )?["\w]+\??: unknown;$/.test(line))).toEqual([]);
  }, SLOW);

  it('type-checks with zero errors', async () => {
    // --skipDefaultLibCheck: TypeScript's own lib.*.d.ts are not what is checked here (a fifth of tsc's time);
    // the generated declarations and @types/node still are, as the example's skipLibCheck: false asks.
    const checked = await outcome(bin('tsc'), ['--noEmit', '--skipDefaultLibCheck', '--project', EXAMPLE]);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  }, SLOW);

  it('runs the basic flow: client, template, add_subscriber, pay, a month of sandbox time, two paid purchases', async () => {
    const env = { ...process.env, BILLING_SIM_BASE_URL: sim.apiUrl, BILLING_SIM_TOKEN: sim.token };
    const flow = await outcome(bin('tsx'), [`${EXAMPLE}basic-flow.ts`], env);
    expect(flow.code, flow.stderr).toBe(0);
    expect(flow.stdout).toMatch(/^template +\S+ Pro plan, monthly: 29\.00 EUR every 1 months$/m);
    expect(flow.stdout).toMatch(/^subscriber +\S+ pending, first purchase /m);
    expect(flow.stdout).toMatch(/^paid +\S+ paid, 29\.00 EUR, card saved: true$/m);
    expect(flow.stdout).toMatch(/^advanced +to \S+: \d+ billings/m);
    expect(flow.stdout).toMatch(/^purchases +2: paid, paid$/m);
  }, SLOW);

  it('stops with exit status 2 and one line when no token is set', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, BILLING_SIM_BASE_URL: sim.apiUrl };
    delete env.BILLING_SIM_TOKEN;
    const flow = await outcome(bin('tsx'), [`${EXAMPLE}basic-flow.ts`], env);
    expect(flow.code).toBe(2);
    expect(flow.stderr.trim()).toBe('Set BILLING_SIM_TOKEN to a sandbox token: `billing-sim serve` prints one.');
  }, SLOW);
});
