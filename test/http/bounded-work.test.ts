// DESIGN.md §6 "Bounded work": one request never blocks other sandboxes. A long advance runs in
// slices and yields, so /healthz and another sandbox answer while it runs. (How fast they answer is
// measured by `npm run bench`, not here: this checks that they are answered before it ends.)

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createIds } from '../../src/engine/ids.ts';
import { createSandbox } from '../../src/engine/sandboxes.ts';
import { createApp } from '../../src/http/app.ts';
import { MemoryStore } from '../../src/store/store.ts';
import { busySandbox } from '../builders/busy-sandbox.ts';

const wall = { now: () => Date.parse('2026-01-30T09:00:00Z') };
const ids = createIds(12);
const store = new MemoryStore();
const app = createApp({ store, clock: wall, ids });
const server = createServer(app.express);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the range of a sandbox clock: instants the API can write', () => {
  const post = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(origin + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, { code: string }[]> };
  };

  it('a sandbox cannot start before 1970 (created_on would be negative): 400 min_value naming `now`', async () => {
    const refused = await post('/sim/v1/sandboxes', { now: '1969-12-31T23:59:59Z' });
    expect([refused.status, refused.body.now?.[0]?.code]).toEqual([400, 'min_value']);
    expect((await post('/sim/v1/sandboxes', { now: '1970-01-01T00:00:00Z' })).status).toBe(201);
  });

  it('an advance cannot pass the end of year 9999 (dates have four digits): 400 max_value naming `by`, the clock unmoved', async () => {
    const sandbox = await post('/sim/v1/sandboxes', { now: '9990-02-28T00:00:00Z' });
    const token = (sandbox.body as unknown as { token: string }).token;
    const refused = await post('/sim/v1/clock/advance', { by: 'P10Y' }, token);
    expect([refused.status, refused.body.by?.[0]?.code]).toEqual([400, 'max_value']);
    const clock = await (await fetch(`${origin}/sim/v1/clock`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(clock).toEqual({ now: '9990-02-28T00:00:00.000Z', frozen: true });
    expect((await post('/sim/v1/clock/advance', { to: '9999-12-31T23:59:59Z' }, token)).status).toBe(200);
  });
});

describe('a long advance does not hold other sandboxes', () => {
  it('while 100 subscribers are advanced 30 years (36,000 billings), /healthz and another sandbox are answered again and again', async () => {
    const busy = busySandbox(100, wall, ids);
    const other = createSandbox({ nowMs: wall.now(), frozen: true, fixtures: true, seed: 2 }, wall, ids);
    for (const sandbox of [busy, other]) store.put(sandbox);
    const auth = async (id: string) => ({ authorization: `Bearer ${await app.services.tokens.sign(id)}` });

    let advanced = false;
    const advancing = fetch(`${origin}/sim/v1/clock/advance`, {
      method: 'POST',
      headers: { ...(await auth(busy.id)), 'content-type': 'application/json' },
      body: JSON.stringify({ by: 'P30Y' }),
    }).then(async (res) => {
      advanced = true;
      return { status: res.status, body: (await res.json()) as { processed: { billings: number } } };
    });
    const otherHeaders = await auth(other.id);
    let answeredDuring = 0;
    while (!advanced) {
      const [health, clients] = await Promise.all([fetch(`${origin}/healthz`), fetch(`${origin}/api/v1/clients/`, { headers: otherHeaders })]);
      expect([health.status, clients.status]).toEqual([200, 200]);
      await clients.arrayBuffer();
      await health.arrayBuffer();
      if (!advanced) answeredDuring += 1;
    }
    const result = await advancing;
    expect(result.status).toBe(200);
    expect(result.body.processed.billings).toBe(36_000);
    // Without slices the event loop is held from the first billing to the last: none would be.
    expect(answeredDuring).toBeGreaterThanOrEqual(3);
  }, 60_000);
});
