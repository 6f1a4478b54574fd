// DESIGN.md §6 "Bounded work": one request never blocks other sandboxes. A long advance runs in
// slices and yields, so /healthz and another sandbox answer while it runs; so does a snapshot, which
// is sent in pieces. (How fast they answer is measured by `npm run bench`, not here: this checks that
// they are answered before it ends.) Each check waits on what it checks (the advance's billings, the
// reader's bytes, the server's end of a connection), never on a guess of how long that takes: the
// tests' timeouts only stop a hang, and are far above what a loaded machine needs.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { setImmediate as nextTurnOfTheLoop } from 'node:timers/promises';
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

/** Asks for /healthz and a list of sandbox `otherId`'s clients, failing unless both answer 200. */
async function probe(otherHeaders: Record<string, string>): Promise<void> {
  const [health, clients] = await Promise.all([fetch(`${origin}/healthz`), fetch(`${origin}/api/v1/clients/`, { headers: otherHeaders })]);
  expect([health.status, clients.status]).toEqual([200, 200]);
  await Promise.all([clients.arrayBuffer(), health.arrayBuffer()]);
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
    const billed = busy.purchases.size + 36_000;
    let advanced = false;
    const advancing = fetch(`${origin}/sim/v1/clock/advance`, {
      method: 'POST',
      headers: { ...(await auth(busy.id)), 'content-type': 'application/json' },
      body: JSON.stringify({ by: 'P30Y' }),
    }).then(async (res) => {
      advanced = true;
      return { status: res.status, body: (await res.json()) as { processed: { billings: number } } };
    });
    // An answer counts when the advance still had billings to make after it (the sandbox is this
    // process's own object), however long the machine takes over either.
    const otherHeaders = await auth(other.id);
    let answeredDuring = 0;
    while (!advanced) {
      await probe(otherHeaders);
      if (busy.purchases.size < billed) answeredDuring += 1;
    }
    const result = await advancing;
    expect(result.status).toBe(200);
    expect(result.body.processed.billings).toBe(36_000);
    expect(busy.purchases.size).toBe(billed);
    // Without slices the event loop is held from the first billing to the last: none would be.
    expect(answeredDuring).toBeGreaterThanOrEqual(3);
  }, 600_000);
});

/** The reader says how far it has got every PROGRESS_BYTES: more than the loopback's socket buffers hold (a few MB). */
const PROGRESS_BYTES = 32 * 1024 * 1024;

/**
 * Reads a body as fast as it comes: a line `{"at": bytes}` each time another PROGRESS_BYTES have come,
 * and at the end its status, content type, length, first 100 and last 2 characters. A response cut
 * short emits 'error' only to a listener (with none the reader ended silently, printing nothing:
 * "the reader printed ''"), so a cut body and a failed request are said on stderr.
 */
const READER = `
const [url, authorization, step] = process.argv.slice(1);
const request = require('node:http').get(url, { headers: { authorization } }, (res) => {
  let bytes = 0, next = Number(step), head = '', last = Buffer.alloc(0);
  res.on('data', (chunk) => {
    if (head.length < 100) head += chunk.subarray(0, 100).toString();
    bytes += chunk.length;
    last = chunk;
    if (bytes >= next) { console.log(JSON.stringify({ at: bytes })); next += Number(step); }
  });
  res.on('error', (error) => console.error('the body was cut after ' + bytes + ' bytes: ' + error.message));
  res.on('end', () => console.log(JSON.stringify({ status: res.statusCode, type: res.headers['content-type'], bytes, head, end: last.subarray(-2).toString() })));
});
request.on('error', (error) => console.error('the request failed: ' + error.message));`;

/** V8's longest string (2^29 - 24 characters): a document longer than this was never one JSON.stringify. */
const LONGEST_STRING = 2 ** 29 - 24;

describe('a snapshot of gigabytes is answered in pieces and does not hold other sandboxes', () => {
  it('240,000 purchases and 48,000 events (some 650 MB, past the longest string V8 makes) are answered whole, while /healthz and another sandbox are answered again and again', async () => {
    logged.length = 0;
    // Ten years of 200 subscribers, each purchase kept ten times under an id of its own: a document
    // the size of ten years of 2,000 subscribers', without the minute of billing them first.
    const busy = busySandbox(200, wall, ids);
    await advance(busy, { by: 'P10Y' }, wall, ids);
    for (const purchase of [...busy.purchases.values()]) {
      for (let copy = 1; copy < 10; copy += 1) {
        const id = ids.uuid();
        busy.purchases.set(id, { ...purchase, id });
      }
    }
    expect(busy.purchases.size).toBeGreaterThanOrEqual(240_000);
    const other = createSandbox({ nowMs: wall.now(), frozen: true, fixtures: true, seed: 3 }, wall, ids);
    for (const sandbox of [busy, other]) store.put(sandbox);
    const otherHeaders = await auth(other.id);

    // The reader is another process that takes the body as fast as the loopback goes, as curl would:
    // a socket that takes every write at once never makes the server wait, which backpressure alone
    // does not pace. It counts the body as it comes and never holds it: no string could.
    const reader = spawn(process.execPath, ['-e', READER, `${origin}/sim/v1/snapshot`, (await auth(busy.id)).authorization, String(PROGRESS_BYTES)]);
    let out = '';
    let err = '';
    // Each time the reader has PROGRESS_BYTES more, /healthz and the other sandbox are asked; an answer
    // counts when the reader has more again after it: the body was still coming then, by more than the
    // sockets between them hold, so the server did not answer only once the body was all written.
    let marks = 0;
    const answeredAt: number[] = [];
    const probes: Promise<void>[] = [];
    let partial = '';
    reader.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines.filter((text) => text.startsWith('{"at":'))) {
        marks += 1;
        probes.push(probe(otherHeaders).then(() => void answeredAt.push(marks)));
      }
    });
    // What it says if the body is cut short, or the request fails.
    reader.stderr.on('data', (chunk: Buffer) => (err += chunk));
    const result = await new Promise<{ status: number; type: string; bytes: number; head: string; end: string }>((resolve, reject) => {
      reader.on('error', reject);
      // 'close': its output is all read.
      reader.on('close', (code, signal) => {
        try {
          resolve(JSON.parse(out.trim().split('\n').at(-1)!));
        } catch {
          const how = `ended (${signal ?? `exit code ${code}`}) after ${marks} × ${PROGRESS_BYTES} bytes`;
          reject(new Error(`the reader printed ${JSON.stringify(out.slice(-300))}, said ${JSON.stringify(err.slice(-2000))} and ${how}; the server logged ${JSON.stringify(logged).slice(0, 2000)}`));
        }
      });
    });
    await Promise.all(probes);
    expect(result).toMatchObject({ status: 200, type: 'application/json; charset=utf-8', end: '}}' });
    expect(result.head.startsWith(`{"billing_sim_snapshot":2,"sandbox":{"id":"${busy.id}"`)).toBe(true);
    expect(result.bytes).toBeGreaterThan(LONGEST_STRING);
    // As one string, the body failed (500) after holding every sandbox for seconds. (That the pieces
    // are paced, and not only answered between when the reader is slow, is send.test.ts's.)
    expect(answeredAt.filter((mark) => mark < marks).length).toBeGreaterThanOrEqual(3);
    expect(logged).toEqual([]);
    store.delete(busy.id);
  }, 600_000);

  it('a client that goes away in the middle stops the pieces: nothing is logged as a failure, and the server answers on', async () => {
    logged.length = 0;
    const busy = busySandbox(100, wall, ids);
    await advance(busy, { by: 'P10Y' }, wall, ids);
    store.put(busy);
    const answering = new Promise<ServerResponse>((resolve) => {
      const seen = (req: { url?: string }, res: ServerResponse) => {
        if (req.url !== '/sim/v1/snapshot') return;
        server.off('request', seen);
        resolve(res);
      };
      server.on('request', seen);
    });
    const leaving = new AbortController();
    const res = await fetch(`${origin}/sim/v1/snapshot`, { headers: await auth(busy.id), signal: leaving.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).done).toBe(false);
    const answer = await answering;
    leaving.abort();
    await expect(reader.read()).rejects.toThrow();
    // The server's end closes once it notices, on its next write; the pieces' pipeline has its say
    // as it closes (a turn later at most): only then can the log be judged.
    if (!answer.closed) await once(answer, 'close');
    await nextTurnOfTheLoop();
    expect(answer.writableFinished).toBe(false);
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    expect(logged).toEqual([]);
    store.delete(busy.id);
  }, 600_000);
});
