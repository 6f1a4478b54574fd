// Proof that the contract suite catches faults: the suite runs against a proxy in front of the
// simulator that injects one fault at a time, and must fail each time; with no fault it passes.
// It runs on both kinds of accounts a CI user has: sandboxes with fixtures, whose brand the suite
// takes from their templates, and two empty sandboxes (a new account of a real service) with
// --brand-id. Either way the accounts hold afterwards what they held before, but for the purchases
// the suite made, which the API cannot delete: each is left cancelled, or paid where it cannot be.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { everyObject, startProxy, type Fault } from './fault-proxy.ts';
import { accountState, newSandbox, runSuite, totals, type AccountState, type Sandbox, type SuiteRun } from './suite-run.ts';

let sim: RunningSimulator;
let one: Sandbox;
let two: Sandbox;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
  one = await newSandbox(sim.url, { fixtures: true });
  two = await newSandbox(sim.url, { fixtures: true });
});
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

const path = (url: string) => url.split('?')[0]!;

/** An API path naming one object (`/api/v1/clients/{id}/…`), as opposed to a collection. */
const objectPath = /^\/api\/v1\/[a-z_]+\/[0-9a-f-]{36}\//;

const FAULTS: { fault: Fault; filter: string }[] = [
  {
    filter: 'checks/billing-templates',
    fault: {
      name: 'a required field dropped (brand_id of every billing template)',
      response: (_req, res) => everyObject(res.body, (o) => void (o.type === 'billing_template' && delete o.brand_id)),
    },
  },
  {
    filter: 'checks/clients',
    fault: {
      name: 'a wrong status code (200 instead of 201 for a created client)',
      response: (req, res) => {
        if (req.method === 'POST' && /\/api\/v1\/clients\/?$/.test(path(req.path)) && res.status === 201) res.status = 200;
      },
    },
  },
  {
    filter: 'checks/limits',
    fault: {
      name: 'a bad input accepted (subscription_period over 256 passed on as 256)',
      request: (req) => {
        const body = req.body as Record<string, unknown> | undefined;
        if (req.method !== 'POST' || !body || typeof body.subscription_period !== 'number') return;
        if (body.subscription_period > 256) body.subscription_period = 256;
      },
    },
  },
  {
    filter: 'checks/isolation',
    fault: {
      // A lookup by id that ignores the account: the lists stay the account's own.
      name: "a foreign object leaked (the second account's requests for an object by id answered as the first's)",
      request: (req) => {
        if (req.headers.authorization === `Bearer ${two.token}` && objectPath.test(path(req.path))) req.headers.authorization = `Bearer ${one.token}`;
      },
    },
  },
  {
    filter: 'checks/subscribers',
    fault: {
      name: 'a wrong subscriber status (pending reported as active)',
      response: (_req, res) => everyObject(res.body, (o) => void (o.type === 'billing_template_client' && o.status === 'pending' && (o.status = 'active'))),
    },
  },
  {
    filter: 'checks/time',
    fault: {
      name: 'a billing on the wrong date (generated purchases issued a day late)',
      response: (_req, res) =>
        everyObject(res.body, (o) => {
          if (o.type !== 'purchase' || !o.billing_template_id || typeof o.issued !== 'string') return;
          const day = new Date(`${o.issued}T00:00:00Z`);
          day.setUTCDate(day.getUTCDate() + 1);
          o.issued = day.toISOString().slice(0, 10);
        }),
    },
  },
];

/** Statuses a purchase can be left in by the cleanup: cancelled, or one that cannot be cancelled (refunded and released by the purchase action checks). */
const LEFT_STATUSES = ['cancelled', 'paid', 'pending_execute', 'refunded', 'released'];

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
  it('passes with zero failures through a proxy that injects nothing, and leaves the accounts as it found them', async () => {
    const before = [await accountState(sim.apiUrl, one.token), await accountState(sim.apiUrl, two.token)];
    const run = await suiteThrough(undefined, FAULTS.map((f) => f.filter));
    expect(run.output).toMatch(/\n\d+ passed, 0 failed, \d+ skipped/);
    expect(run.code, run.output.slice(-3000)).toBe(0);
    const made = expectAsBefore(before[0]!, await accountState(sim.apiUrl, one.token), run) + expectAsBefore(before[1]!, await accountState(sim.apiUrl, two.token), run);
    expect(purchasesLeft(run.output)).toBe(made);
  }, 180_000);

  for (const { fault, filter } of FAULTS) {
    it(`fails on ${fault.name}`, async () => {
      const { code, output } = await suiteThrough(fault, [filter]);
      expect(code, output.slice(-3000)).toBe(1);
      expect(output).toMatch(/\] normative — /);
      expect(output).toMatch(/\n\d+ passed, [1-9]\d* failed/);
    }, 180_000);
  }
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

  it('the whole suite passes with zero failures and leaves the accounts as it found them', async () => {
    const { a, b, purchasesMade } = await emptyAccounts();
    const run = await suiteThrough(undefined, [], { a, b }, ['--brand-id', a.brandId]);
    expect(run.code, run.output.slice(-3000)).toBe(0);
    const counted = totals(run.output)!;
    expect(counted.failed).toBe(0);
    expect(counted.passed).toBeGreaterThan(900);
    // The second account's brand was not given, and it has nothing to take one from.
    expect(run.output).toMatch(/note: the second account has no billing template or purchase/);
    expect(run.output).toMatch(/^Cleanup: deleted \d+ clients, \d+ billing templates/m);
    const made = await purchasesMade(run);
    expect(made).toBeGreaterThan(0);
    expect(purchasesLeft(run.output)).toBe(made);
  }, 180_000);

  it('fails on a wrong status code (200 for a created client), yet deletes the clients it created', async () => {
    const { a, b, purchasesMade } = await emptyAccounts();
    const fault = FAULTS.find((f) => f.filter === 'checks/clients')!.fault;
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
  }, 180_000);
});
