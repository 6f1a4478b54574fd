// Issue 43, "Replay and drift": a recording of a team's own flows, sent again to a fresh simulator,
// shows no drift; the same flows recorded in front of an upstream that differs in one behaviour
// show exactly that difference as drift.

import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killSpawned, runCli } from '../support/spawn-sim.ts';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { replayRecording, type ReplayResult } from '../../src/replay/replay.ts';
import { HarRecorder } from '../support/har-recorder.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-replay-'));
let recordedOn: RunningSimulator;
let replayOn: RunningSimulator;
beforeAll(async () => {
  [recordedOn, replayOn] = await Promise.all([startSimulator({ port: 0, quiet: true }), startSimulator({ port: 0, quiet: true })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([recordedOn?.stop(), replayOn?.stop(), killSpawned()]);
  rmSync(dir, { recursive: true, force: true });
});

type Mutation = (method: string, path: string, body: any) => void;

/** An upstream that differs from the simulator in one behaviour: it forwards to it and alters its answers by `mutate`. */
async function alteringUpstream(target: string, mutate: Mutation): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept']) if (request.headers[name]) headers[name] = String(request.headers[name]);
    const answer = await fetch(target + request.url, { method: request.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const text = await answer.text();
    const body = text === '' ? undefined : JSON.parse(text);
    if (body !== undefined) mutate(request.method!, new URL(request.url!, target).pathname, body);
    const kept = [...answer.headers].filter(([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(name));
    response.writeHead(answer.status, Object.fromEntries(kept)).end(body === undefined ? text : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** Exchange indexes of the flow's steps, by name, for the assertions. */
type Flow = Record<string, number>;

/**
 * Clients, templates, a subscriber with a deduction date whose first purchase is paid with a saved
 * card through /sim/v1, a one-time invoice paid outside the API (only its answer shows it), an error
 * answer naming a field, a month end passed by the clock (January 31 → February 29 2028, billed
 * automatically), and a refund.
 */
async function recordFlow(recorder: HarRecorder, options: { recordSandbox?: boolean } = {}): Promise<Flow> {
  const made = await recorder.call('POST', '/sim/v1/sandboxes', { body: { now: '2028-01-31T09:00:00Z' }, record: options.recordSandbox === true });
  const { token, brand_id } = made.body as { token: string; brand_id: string };
  const as = (method: string, path: string, body?: unknown, record = true) => recorder.call(method, path, { token, body, record });
  const flow: Flow = {};
  const client = await as('POST', '/api/v1/clients/', { email: 'ada@example.com', full_name: 'Ada Lovelace' });
  flow.client = client.index;
  const purchase = { currency: 'EUR', products: [{ name: 'Monthly membership', price: 2990 }] };
  const gym = await as('POST', '/api/v1/billing_templates/', {
    brand_id, title: 'Gym membership', is_subscription: true, purchase, subscription_period: 1, subscription_period_units: 'months',
    subscription_due_period: 7, subscription_due_period_units: 'days', subscription_charge_period_end: false, subscription_trial_periods: 0,
  });
  flow.template = gym.index;
  const checkup = { brand_id, title: 'Annual check-up', is_subscription: false, purchase: { currency: 'EUR', products: [{ name: 'Check-up', price: 12000 }] } };
  flow.refused = (await as('POST', '/api/v1/billing_templates/', checkup)).index;
  // Due March 15 2028, after the clock's last move: the invoice is never overdue.
  const oneTime = await as('POST', '/api/v1/billing_templates/', { ...checkup, due: Date.UTC(2028, 2, 15) / 1000 });
  const added = await as('POST', `/api/v1/billing_templates/${gym.body.id}/add_subscriber/`, { client_id: client.body.id, subscription_deduction_date: '2028-02-04', mandate_expiry_date: '2029-12-31' });
  flow.subscriber = added.index;
  flow.pay = (await as('POST', `/sim/v1/purchases/${added.body.purchase.id}/pay`, { save_token: true })).index;
  flow.scheduled = (await as('GET', `/api/v1/billing_templates/${gym.body.id}/clients/${added.body.billing_template_client.id}/`)).index;
  const invoice = await as('POST', `/api/v1/billing_templates/${oneTime.body.id}/send_invoice/`, { client_id: client.body.id });
  flow.invoice = invoice.index;
  await as('POST', `/sim/v1/purchases/${invoice.body.id}/pay`, {}, false);
  flow.invoicePaid = (await as('GET', `/api/v1/purchases/${invoice.body.id}/`)).index;
  flow.advance = (await as('POST', '/sim/v1/clock/advance', { to: '2028-03-01T00:00:00Z' })).index;
  const list = await as('GET', `/api/v1/purchases/?client_id=${client.body.id}`);
  flow.list = list.index;
  const renewal = (list.body.results as { id: string; issued: string }[]).find((item) => item.issued === '2028-02-29')!;
  flow.refund = (await as('POST', `/api/v1/purchases/${renewal.id}/refund/`, {})).index;
  flow.refunded = (await as('GET', `/api/v1/purchases/${renewal.id}/`)).index;
  return flow;
}

describe('replay: a recording made in front of a simulator', () => {
  let flow: Flow;
  let result: ReplayResult;
  it('replays on a fresh simulator with no drift', async () => {
    const recorder = new HarRecorder(recordedOn.url);
    flow = await recordFlow(recorder);
    const log: string[] = [];
    result = await replayRecording({ har: recorder.har(), origin: replayOn.url, log: (line) => log.push(line) });
    expect(result.drift).toEqual([]);
    expect(result.unknowable).toEqual([]);
    expect(log).toEqual([]);
    expect(result).toMatchObject({ exchanges: 13, replayed: 13, skipped: [] });
  });

  it('leaves the sandbox at the end state: the invoice paid outside the API was paid through /sim/v1, the renewal refunded', async () => {
    const { token } = result.sandbox;
    const clock = await fetch(`${replayOn.url}/sim/v1/clock`, { headers: { authorization: `Bearer ${token}` } }).then((answer) => answer.json());
    expect(clock).toMatchObject({ now: '2028-03-01T00:00:00.000Z' });
    const list = await fetch(`${replayOn.url}/api/v1/purchases/`, { headers: { authorization: `Bearer ${token}` } }).then((answer) => answer.json());
    const seen = (list.results as { issued: string; status: string; billing_template_id: string | null }[]).map((item) => `${item.issued} ${item.status}`);
    expect(seen.sort()).toEqual(['2028-01-31 paid', '2028-01-31 paid', '2028-02-29 refunded']);
  });

  it('replays a recording that made its own sandbox in that sandbox, at its recorded instant', async () => {
    const recorder = new HarRecorder(recordedOn.url);
    await recordFlow(recorder, { recordSandbox: true });
    const replayed = await replayRecording({ har: recorder.har(), origin: replayOn.url });
    expect(replayed.drift).toEqual([]);
    expect(replayed.replayed).toBe(14);
    const sandbox = await fetch(`${replayOn.url}/sim/v1/sandbox`, { headers: { authorization: `Bearer ${replayed.sandbox.token}` } }).then((answer) => answer.json());
    // The sandbox the recording made and used, not one of the replay's own.
    expect(sandbox.id).toBe(replayed.sandbox.id);
    expect(sandbox.clock.now).toBe('2028-03-01T00:00:00.000Z');
  });
});

describe('replay: an upstream that differs in one behaviour reports exactly that difference as drift', () => {
  const cases: { name: string; mutate: Mutation; expected: (flow: Flow) => object }[] = [
    {
      name: "the refund's status",
      mutate: (method, path, body) => {
        if (method === 'POST' && path.endsWith('/refund/')) body.status = 'pending';
      },
      expected: (flow) => ({ operation: 'refundPurchase', kind: 'value', path: 'status', recorded: '"pending"', replayed: '"success"', exchanges: [flow.refund] }),
    },
    {
      name: 'a purchase amount',
      mutate: (method, path, body) => {
        if (method === 'GET' && /^\/api\/v1\/purchases\/[^/]+\/$/.test(path)) body.purchase.total += 100;
      },
      expected: (flow) => ({ operation: 'getPurchase', kind: 'value', path: 'purchase.total', recorded: '12100', replayed: '12000', exchanges: [flow.invoicePaid, flow.refunded] }),
    },
    {
      name: 'a missing field',
      mutate: (method, path, body) => {
        if (method === 'GET' && path.includes('/clients/') && path.startsWith('/api/v1/billing_templates/')) delete body.subscription_billing_scheduled_on;
      },
      expected: (flow) => ({ operation: 'getSubscriber', kind: 'extra', path: 'subscription_billing_scheduled_on', recorded: '(none)', replayed: 'string', exchanges: [flow.scheduled] }),
    },
    {
      name: 'an error code',
      mutate: (_method, _path, body) => {
        if (body.due?.[0]?.code === 'required') body.due[0].code = 'invalid';
      },
      expected: (flow) => ({ operation: 'createBillingTemplate', kind: 'value', path: 'due[].code', recorded: '"invalid"', replayed: '"required"', exchanges: [flow.refused] }),
    },
  ];
  for (const { name, mutate, expected } of cases) {
    it(name, async () => {
      const upstream = await alteringUpstream(recordedOn.url, mutate);
      try {
        const recorder = new HarRecorder(upstream.origin);
        const flow = await recordFlow(recorder);
        const result = await replayRecording({ har: recorder.har(), origin: replayOn.url });
        expect(result.drift).toEqual([expected(flow)]);
        expect(result.unknowable).toEqual([]);
        if (name === 'an error code') writeFileSync(join(dir, 'drifted.har'), JSON.stringify(recorder.har()));
      } finally {
        await upstream.close();
      }
    });
  }
});

describe('billing-sim replay FILE', () => {
  it('exits 1 on drift, printing it, and writes the JSON and JUnit reports', async () => {
    const report = join(dir, 'report.json');
    const junit = join(dir, 'junit.xml');
    const run = await runCli(['replay', '--report', report, '--junit', junit, join(dir, 'drifted.har')], 60_000);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain('drift (1): the simulator differs from the recording');
    expect(run.stdout).toContain(`createBillingTemplate due[].code: value, recorded "invalid", replayed "required" (exchange 2)`);
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ drift: [{ operation: 'createBillingTemplate', path: 'due[].code', exchanges: [2] }], unknowable: [] });
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="[^"]*" tests="\d+" failures="1"/);
    expect(xml).toMatch(/<testcase classname="billing-sim replay" name="createBillingTemplate">\n {6}<failure/);
  }, 90_000);

  it('exits 2 on a file that is not HAR, in one line', async () => {
    const file = join(dir, 'not-a-recording.har');
    writeFileSync(file, '{"results": []}');
    const run = await runCli(['replay', file], 60_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`billing-sim: ${file}: not a HAR file: it has no log.entries\n`);
  });

  it('exits 2 on an entry that lacks what HAR 1.2 requires, naming where, rather than crashing', async () => {
    const file = join(dir, 'hand-edited.har');
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [{ request: { method: 'GET', url: '/api/v1/clients/', headers: [] } }] } }));
    const run = await runCli(['replay', file], 60_000);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toBe(`billing-sim: ${file}: not a HAR file: log.entries.0.response is not an object\n`);
  });

  it('exits 2 on a recording with no exchange (a proxy that forwarded nothing): no drift is no pass there', async () => {
    const file = join(dir, 'empty.har');
    writeFileSync(file, `${JSON.stringify({ log: { version: '1.2', creator: { name: 'billing-sim', version: '0' }, pages: [], entries: [] } })}\n`);
    const run = await runCli(['replay', file], 60_000);
    expect(run.code, run.stdout).toBe(2);
    expect(run.stderr).toBe(`billing-sim: ${file}: no exchange recorded in it, so nothing to compare\n`);
  });
});
