// DESIGN.md §6 "Webhook delivery": requests and advances never wait for a receiver. Each attempt
// has a 5 s timeout and reads at most 64 KiB of the answer; order per object and the retry schedule
// in sandbox time stay as in §4.14.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { HANG_GUARD_MS } from '../support/receiver.ts';
import { logWhen } from '../builders/deliveries.ts';
import { advance, createPurchase, makeClient, makeTemplate, payPurchase, sandboxAt, subscribe, subscriberBody, type Box } from '../builders/engine.ts';

/** A loopback receiver whose answer the test decides. */
async function receiver(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server; posts: string[] }> {
  const posts: string[] = [];
  const server = createServer((req, res) => {
    posts.push(req.url!);
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, posts };
}

const h = useHarness({ now: '2026-01-30T12:00:00Z' });
const hanging: ServerResponse[] = [];
let silent: Awaited<ReturnType<typeof receiver>>;
let endless: Awaited<ReturnType<typeof receiver>> & { sent: number; closed: number };

beforeAll(async () => {
  // Takes the request and never answers.
  silent = await receiver((_req, res) => hanging.push(res));
  // Answers 200 and then a body that never ends, counting what it managed to write and the answers cut off.
  const state = { sent: 0, closed: 0 };
  endless = Object.assign(
    await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) state.sent += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => {
        state.closed += 1;
        res.removeAllListeners('drain');
      });
      pump();
    }),
    state,
  );
  Object.defineProperty(endless, 'sent', { get: () => state.sent });
  Object.defineProperty(endless, 'closed', { get: () => state.closed });
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  for (const { server } of [silent, endless]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function register(box: Box, url: string) {
  // Platform events only: a simulator-only name such as purchase.overdue is refused (and never delivered).
  const res = await box.req('POST', '/api/v1/webhooks/', { callback: url, events: ['purchase.created', 'purchase.paid', 'purchase.payment_failure', 'purchase.subscription_charge_failure'] });
  expect(res.status).toBe(201);
}

describe('a receiver that never answers', () => {
  it('holds neither the requests of its sandbox nor an advance: P1M of 5 subscribers answers while every POST is still out', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const template = await makeTemplate(box);
    for (let i = 0; i < 5; i += 1) {
      const client = await makeClient(box, { email: `silent${i}@example.com` });
      const { purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
      await payPurchase(box, purchase!.id, { method: 'visa', save_token: true });
    }
    await register(box, silent.url);
    const client = await makeClient(box, { email: 'one-off@example.com' });
    await createPurchase(box, client.id);
    // The first POST is out and unanswered; a read of the sandbox is answered all the same.
    await expect.poll(() => silent.posts.length, { timeout: HANG_GUARD_MS }).toBe(1);
    expect((await box.req('GET', '/api/v1/purchases/')).status).toBe(200);

    const advanced = await advance(box, { by: 'P1M' });
    // Every attempt of the month started on the sandbox clock (the one-off's 7 tries among them),
    // and none was waited for: the POSTs are still out.
    expect(advanced.processed.billings).toBe(5);
    expect(advanced.processed.webhook_deliveries).toBeGreaterThanOrEqual(7);
    expect(hanging.filter((res) => !res.destroyed).length).toBeGreaterThan(0);
  });
});

describe('a receiver that answers an endless body', () => {
  it('is read for at most 64 KiB: the answer counts (200, acknowledged, no retry) and the rest is never fetched', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    await register(box, endless.url);
    const client = await makeClient(box);
    await createPurchase(box, client.id);
    // The answer counts once 64 KiB are read: the attempt is logged with its 200, and the simulator
    // closes the connection. Only then is what the receiver wrote final; an unbounded read never closes.
    const [delivery] = await logWhen(box, ([d]) => d?.status === 'delivered');
    expect(delivery!.attempts).toEqual([expect.objectContaining({ status: 200, error: null })]);
    await expect.poll(() => endless.closed, { timeout: HANG_GUARD_MS }).toBe(1);
    // Socket buffers take a few hundred KiB more than was read.
    expect(endless.sent).toBeLessThan(4 * 2 ** 20);
    const retried = await advance(box, { by: 'PT2M' });
    expect(retried.processed.webhook_deliveries).toBe(0);
    expect(endless.posts).toHaveLength(1);
  });
});
