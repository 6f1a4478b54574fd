// `billing-sim contract` pointed at a running simulator, as the README pairs it with `npx billing-sim
// serve`: the checks run in two sandboxes the suite makes, so the account of the printed token (the
// sandbox the dashboard shows) holds afterwards exactly what it held before; the suite's sandboxes
// are deleted at the end, or kept with --keep and their dashboard links printed. --in-accounts
// checks the given accounts instead, as on a real server.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { startProxy } from './fault-proxy.ts';
import { accountState, newSandbox, runSuite, totals, type Sandbox, type SuiteRun } from './suite-run.ts';

let sim: RunningSimulator;
let account: Sandbox;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
  account = await newSandbox(sim.url, { fixtures: true });
}, 60_000); // a hang guard: the default 10 s ran out starting a simulator on a loaded machine
afterAll(() => sim.stop());

const CHECKS = 'checks/clients';
const listed = async (token: string) => (await fetch(`${sim.apiUrl}/clients/?page_size=1`, { headers: { authorization: `Bearer ${token}` } })).status;

describe('the contract suite against a simulator', () => {
  it("runs in two sandboxes of its own: the account of --token holds what it held, and the suite's sandboxes are deleted at the end", async () => {
    const before = await accountState(sim.apiUrl, account.token);
    const run = await runSuite(['--base-url', sim.apiUrl, '--token', account.token, CHECKS]);
    expect(run.code, run.output).toBe(0);
    expect(totals(run.output)!.passed).toBeGreaterThan(10);
    expect(run.output).toMatch(/^note: the target makes sandboxes \(a simulator\): the checks run in two new sandboxes of the suite's own/m);
    expect(run.output).toMatch(/^Deleted the suite's 2 sandboxes and everything in them\.$/m);
    expect(run.output).not.toMatch(/^Cleanup:/m);
    expect(await accountState(sim.apiUrl, account.token)).toEqual(before);
  }, 120_000);

  it('--keep keeps its sandboxes and prints their dashboard links, whose tokens work', async () => {
    const run = await runSuite(['--base-url', sim.apiUrl, '--keep', CHECKS]);
    expect(run.code, run.output).toBe(0);
    const tokens = [...run.output.matchAll(new RegExp(`^  ${sim.url}/#token=(\\S+)$`, 'gm'))].map((match) => match[1]!);
    expect(tokens).toHaveLength(2);
    for (const token of tokens) expect(await listed(token)).toBe(200);
    const clients = (await (await fetch(`${sim.apiUrl}/clients/?page_size=1000`, { headers: { authorization: `Bearer ${tokens[0]}` } })).json()) as { results: unknown[] };
    expect(clients.results.length, 'what the checks made in the first is there to look at').toBeGreaterThan(0);
  }, 120_000);

  describe('without a token', () => {
    // One run serves both tests, through a proxy that sees the suite's DELETE /sim/v1/sandbox requests
    // and the tokens they carry: each run of the suite starts it anew, some 4 s of CPU.
    let run: SuiteRun;
    const deleted: string[] = [];
    beforeAll(async () => {
      const proxy = await startProxy(sim.url, {
        name: 'watching the sandboxes deleted',
        request: (req) => void (req.method === 'DELETE' && req.path === '/sim/v1/sandbox' && deleted.push(String(req.headers.authorization).replace(/^Bearer /, ''))),
      });
      try {
        run = await runSuite(['--base-url', `${proxy.url}/api/v1`, CHECKS]);
      } finally {
        await proxy.close();
      }
    }, 120_000);

    it('needs no token there', () => {
      expect(run.code, run.output).toBe(0);
      expect(totals(run.output)!.failed).toBe(0);
    });

    it('the sandboxes it deletes are gone: their tokens answer 401', async () => {
      expect(run.code, run.output).toBe(0);
      expect(deleted.length).toBeGreaterThanOrEqual(2);
      for (const token of deleted) expect(await listed(token)).toBe(401);
    });
  });

  it('--in-accounts checks in the account of --token itself, and cleans up there', async () => {
    const mine = await newSandbox(sim.url, { fixtures: true });
    const before = await accountState(sim.apiUrl, mine.token);
    const run = await runSuite(['--base-url', sim.apiUrl, '--in-accounts', '--token', mine.token, CHECKS]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).not.toMatch(/the target makes sandboxes/);
    expect(run.output).toMatch(/^Cleanup: deleted \d+ clients/m);
    const after = await accountState(sim.apiUrl, mine.token);
    expect(after.clients).toEqual(before.clients);
  }, 120_000);
});
