// Faults for frontend error handling (DESIGN.md §10; docs/behaviour.md#faults): POST/GET/DELETE
// /sim/v1/faults make one operation of one sandbox answer an error, or late, before its handler.
// Injected answers are listed under no operation of openapi.yaml (any operation may answer
// `InjectedFault`), so they are fetched here with `raw`, outside the harness's document check.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { HANG_GUARD_MS } from '../support/receiver.ts';
import { makeClient, purchaseBody, purchases, sandboxAt, sandboxWithClient, type Box, type Errors, type List } from '../builders/engine.ts';

const h = useHarness();
const NOW = '2026-01-30T12:00:00Z';

interface FaultView {
  id: string;
  operation_id: string;
  status: number | null;
  times: number | null;
  latency_ms: number;
  probability: number;
  fired: number;
}

async function addFault(box: Box, body: Record<string, unknown>): Promise<FaultView> {
  const call = await box.req('POST', '/sim/v1/faults', body);
  expect(call.status, call.text).toBe(201);
  return call.body as FaultView;
}

const listFaults = async (box: Box) => ((await box.req('GET', '/sim/v1/faults')).body as List<FaultView>).results;

/** Waits until a request has met the fault: it counts (and, with `times`, is used up) as its delay begins. */
async function fired(box: Box, fault: FaultView, count: number): Promise<void> {
  const spent = fault.times !== null && count >= fault.times;
  await expect
    .poll(async () => (await listFaults(box)).find((f) => f.id === fault.id)?.fired ?? (spent ? count : 0), { timeout: HANG_GUARD_MS, interval: 10 })
    .toBe(count);
}

/** A request outside the harness's check against openapi.yaml: its answer may be an injected one. */
async function raw(box: Box, method: string, path: string, body?: unknown, signal?: AbortSignal) {
  const headers: Record<string, string> = { authorization: `Bearer ${box.token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(h.origin + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Errors) : undefined };
}

/** The `InjectedFault` body: one `injected_fault` under `__all__`, naming the fault. */
function expectInjected(answer: { status: number; body?: Errors }, status: number, fault: FaultView): void {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ __all__: [{ message: expect.stringContaining(`Injected fault ${fault.id}`), code: 'injected_fault' }] });
}

describe('POST /sim/v1/faults: an operation answers the injected error, before its handler', () => {
  it('a 503 on createPurchase answers the documented error body with Retry-After: 1, and leaves no purchase behind', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const fault = await addFault(box, { operation_id: 'createPurchase', status: 503 });
    expect(fault).toEqual({ id: fault.id, operation_id: 'createPurchase', status: 503, times: null, latency_ms: 0, probability: 1, fired: 0 });

    const answer = await raw(box, 'POST', '/api/v1/purchases/', purchaseBody(box, client.id));
    expectInjected(answer, 503, fault);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(answer.headers.get('access-control-expose-headers')).toBe('Retry-After');
    expect(await purchases(box)).toEqual([]);
    const events = (await box.req('GET', '/sim/v1/events')).body as List<{ event_type: string }>;
    expect(events.results.map((e) => e.event_type)).not.toContain('purchase.created');
  });

  it('the request that would have been a 400 is a 503 while the fault holds, and a 400 again once it is deleted', async () => {
    const box = await sandboxAt(h, NOW);
    const fault = await addFault(box, { operation_id: 'createPurchase', status: 503 });
    const malformed = { brand_id: 'not-a-uuid', purchase: 42, misspelt: true };
    expectInjected(await raw(box, 'POST', '/api/v1/purchases/', malformed), 503, fault);
    expect((await box.req('DELETE', `/sim/v1/faults/${fault.id}`)).status).toBe(204);
    expect((await box.req('POST', '/api/v1/purchases/', malformed)).status).toBe(400);
  });

  it('a 429 carries Retry-After too; another 4xx does not, and the fault touches no other operation', async () => {
    const box = await sandboxAt(h, NOW);
    const limited = await addFault(box, { operation_id: 'listClients', status: 429 });
    const conflict = await addFault(box, { operation_id: 'getClock', status: 409 });
    const tooMany = await raw(box, 'GET', '/api/v1/clients/');
    expectInjected(tooMany, 429, limited);
    expect(tooMany.headers.get('retry-after')).toBe('1');
    const other = await raw(box, 'GET', '/sim/v1/clock');
    expectInjected(other, 409, conflict);
    expect(other.headers.get('retry-after')).toBeNull();
    expect((await box.req('GET', '/api/v1/billing_templates/')).status).toBe(200);
  });

  it('the request log line shows the injected status and code', async () => {
    const box = await sandboxAt(h, NOW);
    await addFault(box, { operation_id: 'listWebhooks', status: 502 });
    await raw(box, 'GET', '/api/v1/webhooks/?page_size=7');
    await expect.poll(() => h.logs.find((line) => line.includes('GET /api/v1/webhooks/?page_size=7'))).toMatch(/ 502 [\d.]+ms __all__: injected_fault$/);
  });

  it('applies after the token check: without a valid token the answer is still 401', async () => {
    const box = await sandboxAt(h, NOW);
    await addFault(box, { operation_id: 'listClients', status: 503 });
    expect((await h.request('GET', '/api/v1/clients/', { token: null })).status).toBe(401);
    expect((await h.request('GET', '/api/v1/clients/', { token: `${box.token}x` })).status).toBe(401);
  });
});

describe('times and probability', () => {
  it('times: 2 answers twice, then the real handler answers; GET /sim/v1/faults counts down and the spent fault is gone', async () => {
    const box = await sandboxAt(h, NOW);
    const fault = await addFault(box, { operation_id: 'listClients', status: 500, times: 2 });
    expectInjected(await raw(box, 'GET', '/api/v1/clients/'), 500, fault);
    expect(await listFaults(box)).toEqual([{ ...fault, times: 1, fired: 1 }]);
    expectInjected(await raw(box, 'GET', '/api/v1/clients/'), 500, fault);
    expect(await listFaults(box)).toEqual([]);
    expect((await box.req('GET', '/api/v1/clients/')).status).toBe(200);
    expect((await box.req('DELETE', `/sim/v1/faults/${fault.id}`)).status).toBe(404);
  });

  it('probability 0 never fires; probability 1 always does', async () => {
    const box = await sandboxAt(h, NOW);
    const never = await addFault(box, { operation_id: 'listClients', status: 503, probability: 0 });
    const always = await addFault(box, { operation_id: 'getClock', status: 503, probability: 1 });
    for (let i = 0; i < 20; i += 1) {
      expect((await raw(box, 'GET', '/api/v1/clients/')).status).toBe(200);
      expectInjected(await raw(box, 'GET', '/sim/v1/clock'), 503, always);
    }
    expect((await listFaults(box)).map((f) => [f.id, f.fired])).toEqual([
      [always.id, 20],
      [never.id, 0],
    ]);
  });

  it('the newest fault of an operation is tried first; one request meets one fault', async () => {
    const box = await sandboxAt(h, NOW);
    const older = await addFault(box, { operation_id: 'listClients', status: 503 });
    const newer = await addFault(box, { operation_id: 'listClients', status: 429, times: 1 });
    expectInjected(await raw(box, 'GET', '/api/v1/clients/'), 429, newer);
    expectInjected(await raw(box, 'GET', '/api/v1/clients/'), 503, older);
  });
});

describe('latency', () => {
  it('a 2 s delay on one operation of one sandbox delays neither another sandbox nor another request of the same sandbox', async () => {
    const slow = await sandboxAt(h, NOW);
    const other = await sandboxAt(h, NOW);
    const fault = await addFault(slow, { operation_id: 'listClients', latency_ms: 2000 });
    const started = performance.now();
    const since = () => performance.now() - started;
    let waiting = true;
    const delayed = raw(slow, 'GET', '/api/v1/clients/').then((answer) => {
      waiting = false;
      return { answer, at: since() };
    });
    // The other requests go once the delayed one is in its delay, not after a guessed time.
    await fired(slow, fault, 1);
    const timed = async <T>(call: Promise<T>) => {
      const from = performance.now();
      return { result: await call, took: performance.now() - from, duringDelay: waiting };
    };
    const otherSandbox = await timed(other.req('GET', '/api/v1/clients/'));
    const sameSandbox = await timed(slow.req('POST', '/api/v1/clients/', { email: 'fast@example.com' }));
    const { answer, at } = await delayed;

    expect([otherSandbox.result.status, sameSandbox.result.status, answer.status]).toEqual([200, 201, 200]);
    expect(at).toBeGreaterThanOrEqual(1990);
    // Both answered while the delayed one still waited, each in under half its delay (generous for a
    // busy machine), measured from its own start, not from before the wait for the delay to begin.
    expect([otherSandbox.duringDelay, sameSandbox.duringDelay]).toEqual([true, true]);
    expect(otherSandbox.took).toBeLessThan(1000);
    expect(sameSandbox.took).toBeLessThan(1000);
    // The delay is before the handler: the delayed list ran after the create and shows its client.
    expect((answer.body as unknown as List<{ email: string }>).results.map((c) => c.email)).toEqual(['fast@example.com']);
  });

  it('a delay with a status answers the status after the delay', async () => {
    const box = await sandboxAt(h, NOW);
    const fault = await addFault(box, { operation_id: 'getClock', status: 504, latency_ms: 300 });
    const started = performance.now();
    expectInjected(await raw(box, 'GET', '/sim/v1/clock'), 504, fault);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('a client that gives up during the delay leaves nothing behind: the request is dropped, never run', async () => {
    const box = await sandboxAt(h, NOW);
    const fault = await addFault(box, { operation_id: 'createClient', latency_ms: 1500, times: 2 });
    const abort = new AbortController();
    const gone = raw(box, 'POST', '/api/v1/clients/', { email: 'left@example.com' }, abort.signal).catch((error: Error) => error.name);
    await fired(box, fault, 1);
    // A marker meets the same delay just after it and is kept: its delay ends after the one given up
    // would have, and the sandbox runs requests in turn, so once the marker is answered the other
    // would have created its client already had it been run. (A sleep of the delay proved less.)
    const marker = raw(box, 'POST', '/api/v1/clients/', { email: 'marker@example.com' });
    await fired(box, fault, 2);
    abort.abort();
    expect(await gone).toBe('AbortError');
    expect((await marker).status).toBe(201);
    const clients = ((await box.req('GET', '/api/v1/clients/')).body as List<{ email: string }>).results;
    expect(clients.map((c) => c.email)).toEqual(['marker@example.com']);
  });
});

describe('GET and DELETE /sim/v1/faults', () => {
  it('lists newest first; DELETE /sim/v1/faults/{id} removes one, DELETE /sim/v1/faults clears them all', async () => {
    const box = await sandboxAt(h, NOW);
    const first = await addFault(box, { operation_id: 'listClients', status: 503 });
    const second = await addFault(box, { operation_id: 'getClock', latency_ms: 10, probability: 0.5 });
    const third = await addFault(box, { operation_id: 'createPurchase', status: 400, times: 3 });
    expect((await listFaults(box)).map((f) => f.id)).toEqual([third.id, second.id, first.id]);
    expect(second).toMatchObject({ status: null, times: null, latency_ms: 10, probability: 0.5 });

    expect((await box.req('DELETE', `/sim/v1/faults/${second.id}`)).status).toBe(204);
    expect((await listFaults(box)).map((f) => f.id)).toEqual([third.id, first.id]);
    expect((await box.req('DELETE', '/sim/v1/faults')).status).toBe(204);
    expect(await listFaults(box)).toEqual([]);
    expect((await box.req('GET', '/api/v1/clients/')).status).toBe(200);
    expect((await box.req('DELETE', `/sim/v1/faults/${first.id}`)).status).toBe(404);
  });

  it('one sandbox\'s faults never touch another: not applied, not listed, not deletable (404 as for an unknown id)', async () => {
    const mine = await sandboxAt(h, NOW);
    const theirs = await sandboxAt(h, NOW);
    const fault = await addFault(mine, { operation_id: 'listClients', status: 503 });
    expect((await theirs.req('GET', '/api/v1/clients/')).status).toBe(200);
    expect(await listFaults(theirs)).toEqual([]);
    expect((await theirs.req('DELETE', `/sim/v1/faults/${fault.id}`)).status).toBe(404);
    expect((await theirs.req('DELETE', '/sim/v1/faults')).status).toBe(204);
    expect((await listFaults(mine)).map((f) => f.id)).toEqual([fault.id]);
    expectInjected(await raw(mine, 'GET', '/api/v1/clients/'), 503, fault);
  });

  it('faults are not in the snapshot, and POST /sim/v1/reset keeps them', async () => {
    const box = await sandboxAt(h, NOW);
    await makeClient(box);
    const fault = await addFault(box, { operation_id: 'listClients', status: 503 });
    const snapshot = await raw(box, 'GET', '/sim/v1/snapshot');
    expect(snapshot.status).toBe(200);
    expect(JSON.stringify(snapshot.body)).not.toContain(fault.id);
    expect((await box.req('POST', '/sim/v1/reset')).status).toBe(200);
    expect((await listFaults(box)).map((f) => f.id)).toEqual([fault.id]);
  });
});

describe('what POST /sim/v1/faults refuses (400, nothing created)', () => {
  const refusals: [string, Record<string, unknown>, string, string][] = [
    ['an operationId openapi.yaml lacks', { operation_id: 'createPurchases', status: 503 }, 'operation_id', 'invalid_choice'],
    ['the fault operations themselves', { operation_id: 'createFault', status: 503 }, 'operation_id', 'invalid_choice'],
    ['deleting faults', { operation_id: 'deleteFaults', status: 503 }, 'operation_id', 'invalid_choice'],
    ['an operation without a token, which no sandbox owns', { operation_id: 'createSandbox', status: 503 }, 'operation_id', 'invalid_choice'],
    ['neither status nor latency_ms', { operation_id: 'listClients', times: 1 }, 'status', 'required'],
    ['a status below 400', { operation_id: 'listClients', status: 302 }, 'status', 'min_value'],
    ['a status above 599', { operation_id: 'listClients', status: 600 }, 'status', 'max_value'],
    ['times 0', { operation_id: 'listClients', status: 503, times: 0 }, 'times', 'min_value'],
    ['a latency above a minute', { operation_id: 'listClients', latency_ms: 60_001 }, 'latency_ms', 'max_value'],
    ['a probability above 1', { operation_id: 'listClients', status: 503, probability: 1.5 }, 'probability', 'max_value'],
    ['an unknown field', { operation_id: 'listClients', status: 503, statuss: 1 }, 'statuss', 'unknown_field'],
  ];
  it.each(refusals)('%s', async (_what, body, field, code) => {
    const box = await sandboxAt(h, NOW);
    const refused = await box.req('POST', '/sim/v1/faults', body);
    expect(refused.status, refused.text).toBe(400);
    expect(Object.keys(refused.body as Errors)).toEqual([field]);
    expect((refused.body as Errors)[field]!.map((e) => e.code)).toContain(code);
    if (field === 'operation_id') expect((refused.body as Errors)[field]![0]!.message).toContain(`"${body.operation_id}"`);
    expect(await listFaults(box)).toEqual([]);
  });

  it('a sandbox holds at most 100 faults', async () => {
    const box = await sandboxAt(h, NOW);
    for (let i = 0; i < 100; i += 1) await addFault(box, { operation_id: 'listClients', status: 503, probability: 0 });
    const refused = await box.req('POST', '/sim/v1/faults', { operation_id: 'listClients', status: 503 });
    expect(refused.status).toBe(400);
    expect((refused.body as Errors).__all__![0]!.code).toBe('max_value');
  });
});
