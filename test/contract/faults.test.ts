// Proof that the contract suite catches faults: the suite runs against a proxy in front of the
// simulator that injects one fault at a time, and must fail each time; with no fault it passes.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { everyObject, startProxy, type Fault } from './fault-proxy.ts';

const run = promisify(execFile);
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const SUITE = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

let sim: RunningSimulator;
let token1 = '';
let token2 = '';

async function sandboxToken(): Promise<string> {
  const res = await fetch(`${sim.url}/sim/v1/sandboxes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"fixtures":true}' });
  return ((await res.json()) as { token: string }).token;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
  token1 = await sandboxToken();
  token2 = await sandboxToken();
});
afterAll(() => sim.stop());

/** Runs the suite (only the `filters` files) through a proxy with `fault`; exit code and output. */
async function suiteThrough(fault: Fault | undefined, filters: string[]): Promise<{ code: number; output: string }> {
  const proxy = await startProxy(sim.url, fault);
  try {
    const args = [SUITE, 'contract', '--base-url', `${proxy.url}/api/v1`, '--token', token1, '--token2', token2, ...filters];
    const { stdout, stderr } = await run(TSX, args, { maxBuffer: 64 * 2 ** 20, env: { ...process.env, CI: 'true' } });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: (failed.stdout ?? '') + (failed.stderr ?? '') };
  } finally {
    await proxy.close();
  }
}

const path = (url: string) => url.split('?')[0]!;

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
      name: "a foreign object leaked (the second account's requests answered as the first's)",
      request: (req) => {
        if (req.headers.authorization === `Bearer ${token2}`) req.headers.authorization = `Bearer ${token1}`;
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

describe('the contract suite catches faults', () => {
  it('passes with zero failures through a proxy that injects nothing', async () => {
    const { code, output } = await suiteThrough(undefined, FAULTS.map((f) => f.filter));
    expect(output).toMatch(/\n\d+ passed, 0 failed, \d+ skipped/);
    expect(code, output.slice(-3000)).toBe(0);
  }, 180_000);

  for (const { fault, filter } of FAULTS) {
    it(`fails on ${fault.name}`, async () => {
      const { code, output } = await suiteThrough(fault, [filter]);
      expect(code, output.slice(-3000)).not.toBe(0);
      expect(output).toMatch(/\] normative — cites /);
      expect(output).toMatch(/\n\d+ passed, [1-9]\d* failed/);
    }, 180_000);
  }
});
