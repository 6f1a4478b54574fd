// Webhooks (DESIGN.md §4.14): every subscribed event is POSTed with X-Signature, an RSA PKCS#1 v1.5
// signature over SHA-256 in base64; failed deliveries are retried with backoff on the sandbox clock;
// an object's events arrive in order. A receiver on loopback verifies every signature.

import { verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { advance, createPurchase, makeClient, payPurchase, sandboxAt, type Box } from '../builders/engine.ts';

interface Received {
  path: string;
  signature: string;
  raw: string;
  body: { id: string; event_type: string; status?: string; checkout_url?: string };
}

/** A loopback receiver that answers each path's next status from a script (200 once the script is used up). */
class Receiver {
  readonly received: Received[] = [];
  private readonly scripts = new Map<string, number[]>();
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        this.received.push({ path: req.url!, signature: String(req.headers['x-signature']), raw, body: JSON.parse(raw) });
        res.writeHead(this.scripts.get(req.url!)?.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next answers to POSTs on `path`, e.g. [500] to fail the first delivery once. */
  script(path: string, statuses: number[]): void {
    this.scripts.set(path, statuses);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Deliveries go out after the answer to the request that caused them: wait for `count` of them. */
  async waitFor(path: string, count: number): Promise<Received[]> {
    for (let i = 0; i < 200 && this.at(path).length < count; i += 1) await new Promise((r) => setTimeout(r, 10));
    return this.at(path);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const h = useHarness();
const receiver = new Receiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

async function register(box: Box, path: string, events: string[]) {
  const res = await box.req('POST', '/api/v1/webhooks/', { callback: receiver.url + path, events });
  expect(res.status).toBe(201);
  return res.body as { id: string; callback: string; events: string[] };
}

async function publicKey(box: Box): Promise<string> {
  const res = await box.req('GET', '/api/v1/public_key/');
  expect(res.status).toBe(200);
  return (res.body as { public_key: string }).public_key;
}

const signedBy = (key: string, r: Received) => verify('sha256', Buffer.from(r.raw), key, Buffer.from(r.signature, 'base64'));

describe('webhooks', () => {
  it('registrations can be created, listed, read, replaced and deleted', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const webhook = await register(box, '/crud', ['purchase.paid']);
    expect((await box.req('GET', `/api/v1/webhooks/${webhook.id}/`)).body).toMatchObject({ type: 'webhook', callback: `${receiver.url}/crud`, events: ['purchase.paid'], title: '' });
    const replaced = await box.req('PUT', `/api/v1/webhooks/${webhook.id}/`, { callback: `${receiver.url}/other`, events: ['purchase.created'] });
    expect(replaced.body).toMatchObject({ callback: `${receiver.url}/other`, events: ['purchase.created'] });
    expect(((await box.req('GET', '/api/v1/webhooks/')).body as { results: { id: string }[] }).results.map((w) => w.id)).toEqual([webhook.id]);
    expect((await box.req('DELETE', `/api/v1/webhooks/${webhook.id}/`)).status).toBe(204);
    expect((await box.req('GET', `/api/v1/webhooks/${webhook.id}/`)).status).toBe(404);
    const bad = await box.req('POST', '/api/v1/webhooks/', { callback: 'not a url', events: [] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body as object).sort()).toEqual(['callback', 'events']);
  });

  it('every subscribed event is POSTed, signed with the key of GET /public_key/, as the object plus event_type', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    await register(box, '/signed', ['purchase.created', 'purchase.paid']);
    const key = await publicKey(box);
    expect(key).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    const client = await makeClient(box);
    const purchase = await createPurchase(box, client.id);
    await payPurchase(box, purchase.id);
    const received = await receiver.waitFor('/signed', 2);
    expect(received.map((r) => [r.body.event_type, r.body.id, r.body.status])).toEqual([
      ['purchase.created', purchase.id, 'created'],
      ['purchase.paid', purchase.id, 'paid'],
    ]);
    expect(received.every((r) => signedBy(key, r))).toBe(true);
    expect(received[0]!.body.checkout_url).toBe(`${h.origin}/checkout/${purchase.id}/`);
    // A body changed in transit no longer verifies.
    expect(signedBy(key, { ...received[0]!, raw: received[0]!.raw.replace('created', 'paid') })).toBe(false);
  });

  it('a failed delivery is retried after its backoff on the sandbox clock, and the object\'s later events wait behind it', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    await register(box, '/retry', ['purchase.created', 'purchase.paid']);
    receiver.script('/retry', [500]);
    const client = await makeClient(box);
    const purchase = await createPurchase(box, client.id);
    await receiver.waitFor('/retry', 1);
    await payPurchase(box, purchase.id);
    // The frozen clock has not reached the retry: nothing more arrives, the paid event waits.
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.at('/retry').map((r) => r.body.event_type)).toEqual(['purchase.created']);
    const advanced = await advance(box, { by: 'PT59S' });
    expect(advanced.processed.webhook_deliveries).toBe(0);
    await advance(box, { by: 'PT1S' });
    const received = await receiver.waitFor('/retry', 3);
    expect(received.map((r) => r.body.event_type)).toEqual(['purchase.created', 'purchase.created', 'purchase.paid']);
  });

  it('events of types a webhook does not list, and events after its deletion, are not delivered', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const webhook = await register(box, '/filtered', ['purchase.paid']);
    const client = await makeClient(box);
    const purchase = await createPurchase(box, client.id);
    await payPurchase(box, purchase.id);
    expect((await receiver.waitFor('/filtered', 1)).map((r) => r.body.event_type)).toEqual(['purchase.paid']);
    await box.req('DELETE', `/api/v1/webhooks/${webhook.id}/`);
    const second = await createPurchase(box, client.id);
    await payPurchase(box, second.id);
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.at('/filtered')).toHaveLength(1);
  });

  it('the signing key is the sandbox\'s own and survives a reset', async () => {
    const one = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const two = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const key = await publicKey(one);
    expect(await publicKey(two)).not.toBe(key);
    await one.req('POST', '/sim/v1/reset');
    expect(await publicKey(one)).toBe(key);
  });
});
