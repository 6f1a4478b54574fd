// DESIGN.md §11 "Wire": "Deliveries and callbacks send the header as `X-Signature`." The platform
// documents the name so, and its PHP SDK's examples read getallheaders()['X-Signature'], which
// finds nothing under `x-signature` (PHP's built-in server keeps a header's case as it came). Node
// lowercases what its http parser hands a server (req.headers), so this receiver reads the request's
// bytes from the socket itself.

import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { verifies } from '../support/receiver.ts';
import { createPurchase, makeClient, payPurchase, sandboxAt } from '../builders/engine.ts';

/** One request as it came on the wire: its head's lines (names as sent) and its body. */
interface RawRequest {
  path: string;
  head: string[];
  body: string;
}

/** A receiver on a bare TCP socket: it reads each request's bytes, answers 200 and closes. */
class RawReceiver {
  readonly requests: RawRequest[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((socket: Socket) => {
      let bytes = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        bytes = Buffer.concat([bytes, chunk]);
        const end = bytes.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = bytes.subarray(0, end).toString('latin1').split('\r\n');
        const length = Number(/^content-length:\s*(\d+)$/im.exec(head.join('\n'))?.[1] ?? 0);
        if (bytes.length < end + 4 + length) return;
        this.requests.push({ path: head[0]!.split(' ')[1]!, head, body: bytes.subarray(end + 4, end + 4 + length).toString('utf8') });
        socket.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async waitFor(path: string): Promise<RawRequest> {
    for (let i = 0; i < 300 && !this.requests.some((r) => r.path === path); i += 1) await new Promise((r) => setTimeout(r, 10));
    const found = this.requests.find((r) => r.path === path);
    expect(found, `a POST to ${path}`).toBeDefined();
    return found!;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The value of the header line named exactly `name` (case included), if one was sent. */
const line = (request: RawRequest, name: string): string | undefined =>
  request.head.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);

const h = useHarness();
const raw = new RawReceiver();
beforeAll(() => raw.start());
afterAll(() => raw.stop());

describe('the wire', () => {
  it('deliveries carry the header as X-Signature, and Content-Type: application/json', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const hook = await box.req('POST', '/api/v1/webhooks/', { callback: `${raw.url}/hook`, events: ['purchase.created'] });
    expect(hook.status).toBe(201);
    await createPurchase(box, (await makeClient(box)).id);
    const delivery = await raw.waitFor('/hook');
    expect(delivery.head[0]).toBe('POST /hook HTTP/1.1');
    expect(delivery.head.some((l) => l.toLowerCase().startsWith('x-signature:') && !l.startsWith('X-Signature: '))).toBe(false);
    expect(line(delivery, 'Content-Type')).toBe('application/json');
    const signature = line(delivery, 'X-Signature');
    expect(signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(verifies((hook.body as { public_key: string }).public_key, { raw: delivery.body, signature: signature! })).toBe(true);
  });

  it('success_callback calls carry the header as X-Signature too, verified by GET /public_key/', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const purchase = await createPurchase(box, (await makeClient(box)).id, { success_callback: `${raw.url}/callback` });
    await payPurchase(box, purchase.id);
    const call = await raw.waitFor('/callback');
    expect(line(call, 'Content-Type')).toBe('application/json');
    const signature = line(call, 'X-Signature');
    expect(signature).toBeDefined();
    const key = (await box.req('GET', '/api/v1/public_key/')).body as string;
    expect(verifies(key, { raw: call.body, signature: signature! })).toBe(true);
    expect(JSON.parse(call.body)).toMatchObject({ id: purchase.id, status: 'paid', event_type: 'purchase.paid' });
  });
});
