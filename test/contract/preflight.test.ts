// The preflight of `billing-sim contract`: a target that cannot be checked as configured stops the
// run before any check, with exit status 2 and a line that says what to pass — within seconds, and
// without vitest's own error output (DESIGN.md §8).

import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { startProxy } from './fault-proxy.ts';
import { newSandbox, runSuite, type Sandbox, type SuiteRun } from './suite-run.ts';

let sim: RunningSimulator;
let empty: Sandbox;
let other: Sandbox;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
  empty = await newSandbox(sim.url);
  other = await newSandbox(sim.url);
});
afterAll(() => sim.stop());

/** A stopped run: status 2, at most 5 lines, one of them matching `says`, fast, and no check or vitest output. */
function expectStopped(run: SuiteRun, says: RegExp): void {
  const lines = run.output.trim().split('\n');
  expect(run.code, run.output).toBe(2);
  expect(lines.length, run.output).toBeLessThanOrEqual(5);
  expect(lines.some((line) => says.test(line)), run.output).toBe(true);
  expect(lines.every((line) => line.startsWith('billing-sim contract: ')), run.output).toBe(true);
  expect(run.ms).toBeLessThan(20_000);
}

/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the preflight stops a run that cannot work', () => {
  it('on an empty account without --brand-id, saying to pass --brand-id', async () => {
    const run = await runSuite(['--base-url', sim.apiUrl, '--in-accounts', '--token', empty.token]);
    expectStopped(run, /no billing template or purchase to take a brand from: pass --brand-id ID$/);
  }, 60_000);

  it('on a --brand-id that is no brand of the account', async () => {
    const run = await runSuite(['--base-url', sim.apiUrl, '--in-accounts', '--token', empty.token, '--brand-id', other.brandId]);
    expectStopped(run, /refuses the brand .*: pass the brand_id of a brand of the account as --brand-id$/);
  }, 60_000);

  it('on a base URL where nothing answers', async () => {
    const run = await runSuite(['--base-url', `http://127.0.0.1:${await closedPort()}/api/v1`, '--token', empty.token, '--brand-id', empty.brandId]);
    expectStopped(run, /cannot reach .*: pass the API base URL of a running server as --base-url/);
  }, 60_000);

  it('on a base URL that is not the API base', async () => {
    const run = await runSuite(['--base-url', sim.url, '--token', empty.token, '--brand-id', empty.brandId]);
    expectStopped(run, /answered 404: pass the API base URL as --base-url/);
  }, 60_000);

  it('on a token the server refuses, naming the flag', async () => {
    const run = await runSuite(['--base-url', sim.apiUrl, '--token', empty.token, '--token2', 'not-a-token', '--brand-id', empty.brandId]);
    expectStopped(run, /refused --token2 .* 401/);
  }, 60_000);

  it('when --token2 acts on the same account as --token', async () => {
    // Every request of the second token is answered as the first's, as for two tokens of one account.
    const proxy = await startProxy(sim.url, {
      name: 'one account behind two tokens',
      request: (req) => {
        if (req.headers.authorization === `Bearer ${other.token}`) req.headers.authorization = `Bearer ${empty.token}`;
      },
    });
    try {
      const run = await runSuite(['--base-url', `${proxy.url}/api/v1`, '--in-accounts', '--token', empty.token, '--token2', other.token, '--brand-id', empty.brandId]);
      expectStopped(run, /--token and --token2 act on the same account .*: pass the token of a second account as --token2/);
      // The client it created to find out is gone.
      const clients = await fetch(`${sim.apiUrl}/clients/`, { headers: { authorization: `Bearer ${empty.token}` } });
      expect(((await clients.json()) as { results: unknown[] }).results).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
