// A field a target may refuse or ignore (DESIGN.md §14, "What the platform accepts": the contract
// suite "accepts either behaviour from a target (ignoring or refusing) and only fails a target that
// lets an ignored or read-only field change something"). The checks that send such fields
// (contract-tests/lib/ignored-fields.ts) pass against a strict sandbox, which refuses them (400
// unknown_field / read_only), and against a default one, which ignores them; a stand-in that answers
// 201 and keeps the status it was sent fails them.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../contract-tests/lib/client.ts';
import { carries, expectNotTaken, expectRefusedOrIgnored } from '../../contract-tests/lib/ignored-fields.ts';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { startProxy, type Fault } from './fault-proxy.ts';
import { newSandbox, runSuite, totals, type Sandbox } from './suite-run.ts';

const reply = (status: number, body: unknown): Reply => ({ status, headers: {}, body, text: JSON.stringify(body) });

describe('refused or ignored, never taken', () => {
  it('a 400 naming each field with unknown_field or read_only is a refusal', () => {
    const body = { status: [{ message: 'This field is read-only.', code: 'read_only' }], order_id: [{ message: 'Not defined.', code: 'unknown_field' }] };
    expect(expectRefusedOrIgnored(reply(400, body), { status: 'paid', order_id: 'X' })).toBe('refused');
  });

  it('a 2xx is an ignoring answer, for the caller to read back', () => {
    expect(expectRefusedOrIgnored(reply(201, { id: 'a' }), { status: 'paid' })).toBe('ignored');
  });

  it('a 400 that does not name the field, names it with another code, or any other status fails', () => {
    expect(() => expectRefusedOrIgnored(reply(400, { brand_id: [{ message: 'x', code: 'required' }] }), { status: 'paid' })).toThrow(/must name "status"/);
    expect(() => expectRefusedOrIgnored(reply(400, { status: [{ message: 'x', code: 'invalid_choice' }] }), { status: 'paid' })).toThrow(/must name "status"/);
    expect(() => expectRefusedOrIgnored(reply(400, { status: [{ message: 'x', code: 'read_only' }] }), { status: 'paid' }, ['unknown_field'])).toThrow(/must name "status"/);
    expect(() => expectRefusedOrIgnored(reply(500, {}), { status: 'paid' })).toThrow(/got 500/);
  });

  it('an object that took a field as sent fails, at any depth; the server\'s own value passes', () => {
    expect(() => expectNotTaken({ status: 'paid' }, { status: 'paid' })).toThrow(/"status" was sent as "paid".*taken/);
    expect(() => expectNotTaken({ purchase: { products: [{ prise: 2901 }] } }, { 'purchase.products.0.prise': 2901 })).toThrow(/taken/);
    expect(() => expectNotTaken({ status: 'created', id: 'b' }, { status: 'paid', id: 'a' })).not.toThrow();
    expect(carries({ results: [{ fullname: 'Jane' }] }, 'fullname', 'Jane')).toBe(true);
    expect(carries({ fullname: 'Other' }, 'fullname', 'Jane')).toBe(false);
  });
});

// The check files that send fields a server may ignore or refuse.
const FILES = ['checks/errors-unknown', 'checks/purchases-create', 'checks/subscribers-edit', 'checks/billing-templates-create'];
/** The ids of their checks that do: a warning of one of them would be a behaviour it does not accept. */
const IGNORED_FIELD_CHECKS = /\[(ERR-UNKNOWN-FIELD-[\w-]+|PUR-CREATE-SERVER-FIELDS|PUR-TOTAL-READ-ONLY|BT-TOTAL-READONLY|SUB-ADD-STATUS-SET-BY-SERVER|SUB-PATCH-CLIENT-READ-ONLY-CODE)\]/;

describe('the checks against either behaviour of the simulator', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, quiet: true });
  }, 60_000); // a hang guard: the default 10 s ran out starting a simulator on a loaded machine
  afterAll(() => sim?.stop());

  const suiteOn = (one: Sandbox, two: Sandbox, url: string, files: string[]) =>
    runSuite(['--base-url', `${url}/api/v1`, '--in-accounts', '--token', one.token, '--token2', two.token, ...files]);

  for (const strict of [true, false]) {
    it(`pass against ${strict ? 'strict sandboxes, which refuse such fields (400)' : 'default sandboxes, which ignore them'}`, async () => {
      const [one, two] = [await newSandbox(sim.url, { fixtures: true, ...(strict && { strict: true }) }), await newSandbox(sim.url, { fixtures: true, ...(strict && { strict: true }) })];
      // The sandboxes are what they claim: a strict one refuses a purchase's status, a default one ignores it.
      const probe = await fetch(`${sim.apiUrl}/clients/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${one.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'probe@example.com', id: '5f0c2a9e-6b1d-4f7a-9c3e-2d8b7a6e1f40' }),
      });
      expect(probe.status).toBe(strict ? 400 : 201);
      const run = await suiteOn(one, two, sim.url, FILES);
      expect(totals(run.output)?.passed, run.output.slice(-4000)).toBeGreaterThan(60);
      // Only these checks are this test's business: another check of the files failing is another test's.
      expect(run.output.split('\n').filter((line) => /^[✗⚠] /.test(line) && IGNORED_FIELD_CHECKS.test(line)), run.output.slice(-4000)).toEqual([]);
    }, 300_000);
  }

  it('fail a stand-in that answers 201 and keeps the status it was sent', async () => {
    const [one, two] = [await newSandbox(sim.url, { fixtures: true }), await newSandbox(sim.url, { fixtures: true })];
    const kept = new Map<string, string>();
    // By request: the suite's checks run at once, so another request may come between this one and its answer.
    const sent = new WeakMap<object, string>();
    const keepsStatus: Fault = {
      name: 'a purchase created with the status it was sent',
      request: (req) => {
        const body = req.body as Record<string, unknown> | undefined;
        if (req.method === 'POST' && /^\/api\/v1\/purchases\/?$/.test(req.path) && typeof body?.status === 'string') {
          sent.set(req, body.status);
          delete body.status;
        }
      },
      response: (req, res) => {
        const body = res.body as Record<string, any> | undefined;
        const status = sent.get(req);
        if (status !== undefined && res.status === 201 && body?.type === 'purchase') kept.set(body.id, status);
        if (body?.type === 'purchase' && kept.has(body.id)) body.status = kept.get(body.id);
      },
    };
    const proxy = await startProxy(sim.url, keepsStatus);
    try {
      const run = await suiteOn(one, two, proxy.url, ['checks/purchases-create']);
      expect(run.code, run.output.slice(-4000)).toBe(1);
      expect(run.output).toMatch(/^✗ \[PUR-CREATE-SERVER-FIELDS\] normative — .*"status" was sent as "paid", a field the server must ignore or refuse, and it was taken/m);
    } finally {
      await proxy.close();
    }
  }, 300_000);
});
