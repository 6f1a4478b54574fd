// DESIGN.md §6 "Bounded work": one request never blocks other sandboxes. A long advance runs in
// slices and yields, so /healthz and another sandbox answer while it runs; so does a snapshot, which
// is sent in pieces. (How fast they answer is measured by `npm run bench`, not here: this checks that
// they are answered before it ends.)

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createIds } from '../../src/engine/ids.ts';
import { createSandbox } from '../../src/engine/sandboxes.ts';
import { advance } from '../../src/engine/time.ts';
import { createApp } from '../../src/http/app.ts';
import { MemoryStore } from '../../src/store/store.ts';
import { busySandbox } from '../builders/busy-sandbox.ts';

const wall = { now: () => Date.parse('2026-01-30T09:00:00Z') };
const ids = createIds(12);
const store = new MemoryStore();
const logged: string[] = [];
const app = createApp({ store, clock: wall, ids, logError: (line) => logged.push(line) });
const server = createServer(app.express);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => new Promise((resolve) => server.close(resolve)));
const auth = async (id: string) => ({ authorization: `Bearer ${await app.services.tokens.sign(id)}` });

/** How many times /healthz and a list of sandbox `otherId` were both answered (200) before `done()`. */
async function answeredUntil(done: () => boolean, otherId: string): Promise<number> {
  const otherHeaders = await auth(otherId);
  let answered = 0;
  while (!done()) {
    const [health, clients] = await Promise.all([fetch(`${origin}/healthz`), fetch(`${origin}/api/v1/clients/`, { headers: otherHeaders })]);
    expect([health.status, clients.status]).toEqual([200, 200]);
    await clients.arrayBuffer();
    await health.arrayBuffer();
    if (!done()) answered += 1;
  }
  return answered;
}

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
    let advanced = false;
    const advancing = fetch(`${origin}/sim/v1/clock/advance`, {
      method: 'POST',
      headers: { ...(await auth(busy.id)), 'content-type': 'application/json' },
      body: JSON.stringify({ by: 'P30Y' }),
    }).then(async (res) => {
      advanced = true;
      return { status: res.status, body: (await res.json()) as { processed: { billings: number } } };
    });
    const answeredDuring = await answeredUntil(() => advanced, other.id);
    const result = await advancing;
    expect(result.status).toBe(200);
    expect(result.body.processed.billings).toBe(36_000);
    // Without slices the event loop is held from the first billing to the last: none would be.
    expect(answeredDuring).toBeGreaterThanOrEqual(3);
  }, 60_000);
});

/** Reads a body as fast as it comes and prints its status, content type, length, first 100 and last 2 characters. */
const READER = `
const [url, authorization] = process.argv.slice(1);
require('node:http').get(url, { headers: { authorization } }, (res) => {
  let bytes = 0, head = '', last = Buffer.alloc(0);
  res.on('data', (chunk) => { if (head.length < 100) head += chunk.subarray(0, 100).toString(); bytes += chunk.length; last = chunk; });
  res.on('end', () => console.log(JSON.stringify({ status: res.statusCode, type: res.headers['content-type'], bytes, head, end: last.subarray(-2).toString() })));
});`;

/** V8's longest string (2^29 - 24 characters): a document longer than this was never one JSON.stringify. */
const LONGEST_STRING = 2 ** 29 - 24;

describe('a snapshot of gigabytes is answered in pieces and does not hold other sandboxes', () => {
  it('ten years of 2,000 subscribers (some 650 MB, past the longest string V8 makes) are answered whole, while /healthz and another sandbox are answered again and again', async () => {
    logged.length = 0;
    const busy = busySandbox(2000, wall, ids);
    await advance(busy, { by: 'P10Y' }, wall, ids);
    const other = createSandbox({ nowMs: wall.now(), frozen: true, fixtures: true, seed: 3 }, wall, ids);
    for (const sandbox of [busy, other]) store.put(sandbox);

    // The reader is another process that takes the body as fast as the loopback goes, as curl would:
    // a socket that takes every write at once never makes the server wait, which backpressure alone
    // does not pace. It counts the body as it comes and never holds it: no string could.
    let received = false;
    const reader = spawn(process.execPath, ['-e', READER, `${origin}/sim/v1/snapshot`, (await auth(busy.id)).authorization]);
    let out = '';
    let err = '';
    reader.stdout.on('data', (chunk: Buffer) => (out += chunk));
    // What it says if the body is cut short (a reset connection is an 'error' it does not handle).
    reader.stderr.on('data', (chunk: Buffer) => (err += chunk));
    const exporting = new Promise<{ status: number; type: string; bytes: number; head: string; end: string }>((resolve, reject) => {
      reader.on('error', reject);
      // 'close': its output is all read.
      reader.on('close', () => {
        received = true;
        try {
          resolve(JSON.parse(out));
        } catch {
          reject(new Error(`the reader printed ${JSON.stringify(out)} and said ${JSON.stringify(err.slice(-2000))}`));
        }
      });
    });
    const answeredDuring = await answeredUntil(() => received, other.id);
    const result = await exporting;
    expect(result).toMatchObject({ status: 200, type: 'application/json; charset=utf-8', end: '}}' });
    expect(result.head.startsWith(`{"billing_sim_snapshot":2,"sandbox":{"id":"${busy.id}"`)).toBe(true);
    expect(result.bytes).toBeGreaterThan(LONGEST_STRING);
    // As one string, the body failed (500) after holding every sandbox for seconds. (That the pieces
    // are paced, and not only answered between when the reader is slow, is send.test.ts's.)
    expect(answeredDuring).toBeGreaterThanOrEqual(3);
    expect(logged).toEqual([]);
    store.delete(busy.id);
  }, 120_000);

  it('a client that goes away in the middle stops the pieces: nothing is logged as a failure, and the server answers on', async () => {
    logged.length = 0;
    const busy = busySandbox(100, wall, ids);
    await advance(busy, { by: 'P10Y' }, wall, ids);
    store.put(busy);
    const leaving = new AbortController();
    const res = await fetch(`${origin}/sim/v1/snapshot`, { headers: await auth(busy.id), signal: leaving.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).done).toBe(false);
    leaving.abort();
    await expect(reader.read()).rejects.toThrow();
    // The server notices the closed connection on its next write.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    expect(logged).toEqual([]);
    store.delete(busy.id);
  });
});
