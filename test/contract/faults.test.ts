// Proof that the contract suite catches faults, as a mutation score is proven: a proxy in front of
// the simulator injects faults, each a narrow bug a real implementation could have (faults/), and
// every one must make a normative check it names fail, as behaviour and not merely as an answer the
// document does not allow. With no fault, the whole suite passes on the same accounts without a
// failure, a skip or a warning: every check a fault names passes there. Faults on disjoint checks
// share one run, each injected only into its own checks' requests (fault-rounds.ts), so they cannot
// mask each other and the file stays fast. It runs on both kinds of accounts a CI user has: sandboxes
// with fixtures, whose brand the suite takes from their templates (the whole suite, and the faults),
// and two empty sandboxes (a new account of a real service) with --brand-id (the client and isolation
// checks, and --keep). Either way the accounts hold afterwards what they held before, but for the
// purchases the suite made, which the API cannot delete: each is left cancelled, or paid where it
// cannot be. The whole suite on two empty accounts is `npm test`'s own run (`billing-sim contract
// --max-warnings 0`, in sandboxes of its own, which are empty).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUITE_ARGS } from '../../scripts/test.js';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { startProxy, type Fault } from './fault-proxy.ts';
import { rounds, runRound, type Verdict } from './fault-rounds.ts';
import { foreignObjectLeaked, FAULTS as BASIC } from './faults/basic.ts';
import { FAULTS } from './faults/index.ts';
import { accountState, newSandbox, runSuite, totals, type AccountState, type Sandbox, type SuiteRun } from './suite-run.ts';

let sim: RunningSimulator;
let one: Sandbox;
let two: Sandbox;
/** Every fault injected: the files' and the one that needs the accounts' tokens. */
let faults: Fault[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
  one = await newSandbox(sim.url, { fixtures: true });
  two = await newSandbox(sim.url, { fixtures: true });
  faults = [...FAULTS, foreignObjectLeaked(one.token, two.token)];
}, 60_000); // a hang guard: the default 10 s ran out starting a simulator on a loaded machine
afterAll(() => sim.stop());

/** Runs the suite (only the `filters` files) through a proxy with `fault` against the accounts `a` and `b`. */
async function suiteThrough(fault: Fault | undefined, filters: string[], accounts = { a: one, b: two }, args: string[] = [], env: Record<string, string> = {}): Promise<SuiteRun> {
  const proxy = await startProxy(sim.url, fault);
  try {
    return await runSuite(['--base-url', `${proxy.url}/api/v1`, '--in-accounts', '--token', accounts.a.token, '--token2', accounts.b.token, ...args, ...filters], env);
  } finally {
    await proxy.close();
  }
}

/** Statuses a purchase can be left in by the cleanup: cancelled, or one that cannot be cancelled (refunded and released by the purchase action checks). */
const LEFT_STATUSES = ['cancelled', 'paid', 'pending_execute', 'refunded', 'released', 'preauthorized', 'hold', 'overdue', 'expired', 'error'];

/**
 * The account holds what it held `before`, but for purchases the run made: each is cancelled or
 * cannot be, and the run's last lines count them. Purchases that were there keep their status.
 */
function expectAsBefore(before: AccountState, after: AccountState, run: SuiteRun): number {
  const { purchases: purchasesBefore, ...kept } = before;
  const { purchases: purchasesAfter, ...left } = after;
  expect(left, run.output.slice(-2000)).toEqual(kept);
  for (const [id, status] of Object.entries(purchasesBefore)) expect(purchasesAfter[id], `purchase ${id} of the account`).toBe(status);
  const made = Object.keys(purchasesAfter).filter((id) => !(id in purchasesBefore));
  expect(made.filter((id) => !LEFT_STATUSES.includes(purchasesAfter[id]!)).map((id) => `${id} ${purchasesAfter[id]}`)).toEqual([]);
  return made.length;
}

/** The number of purchases the cleanup's last lines say it left, over the accounts. */
const purchasesLeft = (output: string) => Number(/^Left: (\d+) purchases?/m.exec(output)?.[1] ?? 0);

describe('the contract suite catches faults', () => {
  it(`names at least 30 behavioural faults, each on checks of its own kind`, () => {
    const behavioural = FAULTS.filter((fault) => !fault.bySchema);
    expect(behavioural.length).toBeGreaterThanOrEqual(30);
    for (const fault of faults) expect(fault.catches?.length, fault.name).toBeGreaterThan(0);
    expect(new Set(faults.map((fault) => fault.name)).size, 'each fault has a name of its own').toBe(faults.length);
  });

  // The control of the rounds below: each check a fault names passes here, on the same accounts, with no fault.
  it('the whole suite passes with zero failures, skips and warnings through a proxy that injects nothing, and leaves the accounts as it found them', async () => {
    const before = [await accountState(sim.apiUrl, one.token), await accountState(sim.apiUrl, two.token)];
    const run = await suiteThrough(undefined, []);
    expect(run.code, run.output.slice(-3000)).toBe(0);
    const counted = totals(run.output)!;
    expect(counted, run.output.slice(-3000)).toMatchObject({ failed: 0, skipped: 0, warnings: 0 });
    expect(counted.passed).toBeGreaterThan(900);
    expect(run.output).toMatch(/^Cleanup: deleted \d+ clients, \d+ billing templates/m);
    const made = expectAsBefore(before[0]!, await accountState(sim.apiUrl, one.token), run) + expectAsBefore(before[1]!, await accountState(sim.apiUrl, two.token), run);
    expect(made).toBeGreaterThan(0);
    expect(purchasesLeft(run.output)).toBe(made);
  }, 600_000); // a hang guard: a whole run of the suite took 266 s at load 27 on 2 cores

  describe('each fault fails the run on the checks it names', () => {
    const verdicts = new Map<string, Verdict>();
    const strays: string[] = [];
    beforeAll(async () => {
      for (const round of rounds(faults)) {
        const { run, verdicts: found, stray } = await runRound(sim.url, { a: one, b: two }, round);
        expect(run.code, run.output.slice(-3000)).toBe(1);
        for (const verdict of found) verdicts.set(verdict.fault.name, verdict);
        strays.push(...stray.map((check) => `${check.id}: ${check.summary}`));
      }
    }, 600_000);

    // Registered from the files' faults at collection; the one that needs tokens is among them by name.
    for (const name of [...FAULTS, foreignObjectLeaked('', '')].map((fault) => fault.name)) {
      it(`fails on ${name}`, () => {
        const verdict = verdicts.get(name);
        expect(verdict, 'the fault ran').toBeDefined();
        expect(verdict!.missed).toEqual([]);
      });
    }

    it('fails no check that no fault names', () => {
      expect(strays).toEqual([]);
    });
  });
});

describe('on two empty accounts with --brand-id', () => {
  /** Two new empty sandboxes, and what they hold before the run. */
  async function emptyAccounts() {
    const a = await newSandbox(sim.url);
    const b = await newSandbox(sim.url);
    const before = [await accountState(sim.apiUrl, a.token), await accountState(sim.apiUrl, b.token)] as const;
    /** The purchases the run left, after checking that the accounts hold what they held but for them. */
    const purchasesMade = async (run: SuiteRun) =>
      expectAsBefore(before[0], await accountState(sim.apiUrl, a.token), run) + expectAsBefore(before[1], await accountState(sim.apiUrl, b.token), run);
    return { a, b, purchasesMade };
  }

  // The whole suite on two empty accounts, warnings counted, is npm test's own run: a new account's run is not repeated here.
  it('the whole suite runs on two empty accounts in npm test, where a warning fails the run', () => {
    expect(SUITE_ARGS).toEqual(['contract', '--max-warnings', '0']);
  });

  it('fails on a wrong status code (200 for a created client), yet deletes the clients it created', async () => {
    const { a, b, purchasesMade } = await emptyAccounts();
    // On every request of the run this time, not only those of the check it was proven on.
    const fault = { ...BASIC.find((f) => f.name.startsWith('a wrong status code'))!, catches: undefined };
    // With the second account's brand, no isolation check is skipped.
    const run = await suiteThrough(fault, ['checks/clients', 'checks/isolation'], { a, b }, ['--brand-id', a.brandId], { CONTRACT_BRAND_ID2: b.brandId });
    expect(run.code, run.output.slice(-3000)).toBe(1);
    expect(totals(run.output)!.failed).toBeGreaterThan(0);
    expect(totals(run.output)!.skipped).toBe(0);
    expect(purchasesLeft(run.output)).toBe(await purchasesMade(run));
  }, 180_000);

  it('keeps what it created with --keep, and says so', async () => {
    const { a, b } = await emptyAccounts();
    const run = await suiteThrough(undefined, ['checks/clients'], { a, b }, ['--brand-id', a.brandId, '--keep']);
    expect(run.code, run.output.slice(-3000)).toBe(0);
    const clients = (await accountState(sim.apiUrl, a.token)).clients.length;
    expect(clients).toBeGreaterThan(0);
    // The count is of what was created; the client checks delete a few themselves.
    const created = Number(/^Kept \(--keep\): nothing was deleted at the end; the suite created (\d+) clients/m.exec(run.output)?.[1]);
    expect(created).toBeGreaterThanOrEqual(clients);
    expect(created - clients).toBeLessThan(5);
    expect(run.output).not.toMatch(/^Cleanup: /m);
    // The second account's brand was not given, and it has nothing to take one from.
    expect(run.output).toMatch(/note: the second account has no billing template or purchase/);
  }, 180_000);
});
