// `billing-sim proxy` as a user runs it: the real CLI in a child process (from the sources), with
// `--port 0` printing the address it took, violations logged as they happen, and SIGTERM writing the
// report files and exiting 0.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import type { ProxyReport } from '../../src/proxy/tally.ts';
import { clientBody } from '../builders/templates.ts';
import { send } from './support.ts';
import { CLI } from '../support/cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** A start from the sources through tsx on a loaded 2-core machine takes a few seconds. */
const START_TIMEOUT_MS = 30_000;

let sim: RunningSimulator;
let child: ChildProcess | undefined;
const dir = mkdtempSync(join(tmpdir(), 'billing-sim-proxy-cli-'));

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
});
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('proxy --port 0 prints its URL, logs violations, and on SIGTERM writes the report and JUnit and exits 0', async () => {
  // The test's own BILLING_SIM_* would configure the child.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BILLING_SIM_')));
  child = spawn(process.execPath, [CLI, 'proxy', '--upstream', sim.url, '--port', '0', '--report', 'report.json', '--junit', 'out/junit.xml'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within ${START_TIMEOUT_MS} ms:\n${stdout}${stderr}`)), START_TIMEOUT_MS);
    const look = () => {
      const found = /^billing-sim proxy listening on (http:\/\/127\.0\.0\.1:\d+)\/, forwarding to /.exec(stdout);
      if (!found) return;
      clearTimeout(timer);
      resolve(found[1]!);
    };
    child!.stdout!.on('data', look);
    void exited.then(() => reject(new Error(`the proxy exited before it listened:\n${stdout}${stderr}`)));
  });
  expect(stdout).toContain(`report         ${url}/__proxy/report`);

  expect((await send(url, 'POST', '/api/v1/clients/', sim.token, { body: clientBody() })).status).toBe(201);
  // The simulator ignores the misspelt field, as the platform does (DESIGN.md §14); the proxy reports it all the same.
  expect((await send(url, 'POST', '/api/v1/clients/', sim.token, { body: { ...clientBody(), emial: 'x' } })).status).toBe(201);
  const live = (await send(url, 'GET', '/__proxy/report', undefined)).body as ProxyReport;
  expect(live.operations.createClient).toMatchObject({ exchanges: 2, violations: 1 });

  const stopping = performance.now();
  child.kill('SIGTERM');
  expect(await exited, stderr).toBe(0);
  expect(performance.now() - stopping).toBeLessThan(2_000);
  expect(stdout).toMatch(/ violation createClient request body emial: This field is not defined for this operation\. \(unknown_field\) \(POST \/api\/v1\/clients\/ → 201\)\n/);
  const written = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as ProxyReport;
  expect(written).toEqual(live);
  const xml = readFileSync(join(dir, 'out', 'junit.xml'), 'utf8');
  expect(xml).toMatch(/<testcase classname="openapi.yaml" name="createClient \(POST \/api\/v1\/clients\/\)">\s*<failure /);
  expect(stdout).toMatch(/billing-sim proxy: 2 exchange\(s\), 1 violation\(s\) in 1 operation\(s\); wrote report .*report\.json, JUnit .*junit\.xml\n$/);
  expect(stderr).toBe('');
}, 2 * START_TIMEOUT_MS);

/** Runs the CLI to its exit; exit status and output. */
async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BILLING_SIM_')));
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { cwd: ROOT, env, timeout: START_TIMEOUT_MS });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

it('a port already taken: exit 2 with one line', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = taken.address() as { port: number };
    const result = await run(['proxy', '--upstream', sim.url, '--port', String(port)]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^billing-sim: .*EADDRINUSE/)]);
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
}, 2 * START_TIMEOUT_MS);
