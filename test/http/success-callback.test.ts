// A purchase's success_callback (DESIGN.md §11; the platform's Callbacks page): "The system will
// generate a callback when a Purchase with skip_capture=false is successfully paid, a Purchase with
// skip_capture=true is successfully captured, a Purchase is successfully paid using a recurring
// token"; "These callbacks pass a JSON-encoded Purchase as their payload … include an event_type
// field"; "The payload is signed using a company-wide key pair. You can obtain the public key with
// GET /public_key/." In the simulator a callback is a delivery like a webhook's: listed in
// GET /sim/v1/webhook_deliveries, resendable, retried in sandbox time, and never waited for.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.ts';
import { useHarness } from '../support/harness.ts';
import { log, logWhen, type Delivery } from '../builders/deliveries.ts';
import { HANG_GUARD_MS, useReceivers, verifies } from '../support/receiver.ts';
import { send } from '../support/spawn-sim.ts';
import { advance, createPurchase, getPurchase, makeClient, payPurchase, purchaseBody, sandboxAt, saveToken, typed, type Box } from '../builders/engine.ts';

const NOW = '2026-01-30T12:00:00Z';
const h = useHarness({ now: NOW });
const { receiver, hanging, silent, closed, dir } = useReceivers('billing-sim-callbacks-');

async function accountKey(box: Box): Promise<string> {
  const res = await box.req('GET', '/api/v1/public_key/');
  expect(res.status).toBe(200);
  return res.body as string;
}

/** A purchase of a new client whose success_callback is `path` on the receiver (or the URL given). */
async function purchaseCalling(box: Box, to: string, overrides: Record<string, unknown> = {}) {
  const client = await makeClient(box);
  const url = to.startsWith('http') ? to : receiver.url + to;
  const purchase = await createPurchase(box, client.id, { success_callback: url, ...overrides });
  expect(purchase.success_callback).toBe(url);
  return { client, purchase, url };
}

/**
 * `path` has had `count` calls and none more will come: a delivery is made in the turn of its
 * event, so the log holds every one there will be, and each is done (its POST answered). A sleep
 * here showed only that nothing came within the sleep.
 */
async function nothingMoreAt(box: Box, path: string, count: number): Promise<void> {
  const deliveries = count === 0 ? await log(box) : await logWhen(box, (all) => all.every((d) => d.status !== 'pending'));
  expect(deliveries.filter((d) => d.url === receiver.url + path).map((d) => d.status)).toEqual(Array(count).fill('delivered'));
  expect(receiver.at(path)).toHaveLength(count);
}

describe('success_callback', () => {
  it('success_callback receives the paid purchase, signed with the key GET /public_key/ answers', async () => {
    const box = await sandboxAt(h, NOW);
    const { purchase, url } = await purchaseCalling(box, '/paid');
    // Nothing is called before the purchase is paid.
    await nothingMoreAt(box, '/paid', 0);
    await payPurchase(box, purchase.id, { method: 'visa' });
    const [call] = await receiver.waitFor('/paid', 1);

    // The body is the purchase as GET /purchases/{id}/ answers it (absolute checkout_url), plus event_type.
    const answered = await getPurchase(box, purchase.id);
    expect(answered.status).toBe('paid');
    expect(JSON.parse(call!.raw)).toEqual({ ...answered, event_type: 'purchase.paid' });
    expect(call!.body.checkout_url).toBe(`${h.origin}/checkout/${purchase.id}/`);
    expect(verifies(await accountKey(box), call!)).toBe(true);
    // A body changed in transit no longer verifies.
    expect(verifies(await accountKey(box), { ...call!, raw: call!.raw.replace('"paid"', '"sent"') })).toBe(false);

    const [delivery] = await logWhen(box, ([d]) => d?.status === 'delivered', '&kind=success_callback');
    expect(delivery).toMatchObject({ kind: 'success_callback', webhook_id: null, event_type: 'purchase.paid', object_id: purchase.id, url, next_attempt_at: null });
    expect(delivery!.attempts).toEqual([{ at: NOW.replace('Z', '.000Z'), status: 200, error: null, duration_ms: expect.any(Number) }]);
  });

  it('is signed with the company-wide key, not a webhook\'s: a webhook\'s public_key does not verify it, nor GET /public_key/ the webhook\'s delivery', async () => {
    const box = await sandboxAt(h, NOW);
    const hook = await box.req('POST', '/api/v1/webhooks/', { callback: `${receiver.url}/hook-beside`, events: ['purchase.paid'] });
    const webhookKey = (hook.body as { public_key: string }).public_key;
    const { purchase } = await purchaseCalling(box, '/beside');
    await payPurchase(box, purchase.id);
    const [call] = await receiver.waitFor('/beside', 1);
    const [delivery] = await receiver.waitFor('/hook-beside', 1);
    // The same body, each signed by its own key.
    expect(call!.raw).toBe(delivery!.raw);
    const account = await accountKey(box);
    expect([verifies(account, call!), verifies(webhookKey, call!)]).toEqual([true, false]);
    expect([verifies(account, delivery!), verifies(webhookKey, delivery!)]).toEqual([false, true]);
    const kinds = (await logWhen(box, (all) => all.length === 2 && all.every((d) => d.status === 'delivered'))).map((d) => [d.kind, d.webhook_id]);
    expect(kinds).toEqual(expect.arrayContaining([['success_callback', null], ['webhook', (hook.body as { id: string }).id]]));
    expect((await log(box, '&kind=webhook')).map((d) => d.kind)).toEqual(['webhook']);
  });

  it('is called when a purchase is "successfully paid using a recurring token" (charge/)', async () => {
    const box = await sandboxAt(h, NOW);
    const { client, purchase } = await purchaseCalling(box, '/charged');
    const token = await saveToken(box, client.id);
    const charged = await box.req('POST', `/api/v1/purchases/${purchase.id}/charge/`, { recurring_token: token });
    expect(charged.status, charged.text).toBe(200);
    const [call] = await receiver.waitFor('/charged', 1);
    expect(call!.body).toMatchObject({ id: purchase.id, status: 'paid', event_type: 'purchase.paid', recurring_token: token });
    expect(verifies(await accountKey(box), call!)).toBe(true);
  });

  it('with skip_capture=true it is called when the purchase "is successfully captured", not when the money is held', async () => {
    const box = await sandboxAt(h, NOW);
    const { purchase } = await purchaseCalling(box, '/captured', { skip_capture: true });
    expect((await payPurchase(box, purchase.id)).status).toBe('hold');
    await nothingMoreAt(box, '/captured', 0);
    const captured = await box.req('POST', `/api/v1/purchases/${purchase.id}/capture/`, {});
    expect(captured.status, captured.text).toBe(200);
    const [call] = await receiver.waitFor('/captured', 1);
    expect(call!.body).toMatchObject({ id: purchase.id, status: 'paid', event_type: 'purchase.paid' });
    await nothingMoreAt(box, '/captured', 1);
  });

  it('a ONEDAY collection calls it when the bank has executed it, in the advance that passes the day, not at pending_execute', async () => {
    const box = await sandboxAt(h, NOW);
    const due = Date.parse('2026-02-28T00:00:00Z') / 1000;
    const { client, purchase } = await purchaseCalling(box, '/executed', typed('ONEDAY', due));
    const token = await saveToken(box, client.id, { serviceType: 'ONEDAY' });
    const charged = await box.req('POST', `/api/v1/purchases/${purchase.id}/charge/`, { recurring_token: token });
    expect((charged.body as { status: string }).status).toBe('pending_execute');
    await nothingMoreAt(box, '/executed', 0);
    // The token's own purchase (ONEDAY, no success_callback) is executed in the same day.
    expect((await advance(box, { by: 'P1D' })).processed.executions).toBe(2);
    const [call] = await receiver.waitFor('/executed', 1);
    expect(call!.body).toMatchObject({ id: purchase.id, status: 'paid', event_type: 'purchase.paid' });
    const [delivery] = await log(box, '&kind=success_callback');
    expect(delivery!.created_on).toBe(Date.parse(NOW) / 1000 + 86_400);
  });

  it('is not called for mark_as_paid/ (no payment went through the gateway), a declined payment, or a purchase without one', async () => {
    const box = await sandboxAt(h, NOW);
    const { purchase: marked } = await purchaseCalling(box, '/marked');
    expect((await box.req('POST', `/api/v1/purchases/${marked.id}/mark_as_paid/`, {})).status).toBe(200);
    const { purchase: declined } = await purchaseCalling(box, '/declined');
    expect((await box.req('POST', `/sim/v1/purchases/${declined.id}/pay`, { outcome: 'failure' })).status).toBe(200);
    const client = await makeClient(box);
    for (const overrides of [{}, { success_callback: null }]) await payPurchase(box, (await createPurchase(box, client.id, overrides)).id);
    expect(await log(box)).toEqual([]);
    await nothingMoreAt(box, '/marked', 0);
    await nothingMoreAt(box, '/declined', 0);
  });
});

describe("a purchase's URLs as the platform takes them (Django's URLValidator)", () => {
  const URL_FIELDS = ['success_callback', 'success_redirect', 'failure_redirect', 'cancel_redirect'];

  it('each of success_callback, success_redirect, failure_redirect and cancel_redirect refuses localhost:9000/hook (no scheme): 400 invalid naming it, no purchase made', async () => {
    const box = await sandboxAt(h, NOW);
    const client = await makeClient(box);
    for (const field of URL_FIELDS) {
      const res = await box.req('POST', '/api/v1/purchases/', purchaseBody(box, client.id, { [field]: 'localhost:9000/hook' }));
      expect([res.status, res.body], field).toEqual([400, { [field]: [{ code: 'invalid', message: expect.stringMatching(/^Enter a valid URL\. /) }] }]);
    }
    expect(((await box.req('GET', '/api/v1/purchases/')).body as { results: unknown[] }).results).toEqual([]);
  });

  it('each takes https://shop.example.com/cb?a=1|2 (any non-space character in the query), as a webhook callback does, and a container host without a dot', async () => {
    const box = await sandboxAt(h, NOW);
    const client = await makeClient(box);
    for (const url of ['https://shop.example.com/cb?a=1|2', 'http://receiver:8080/']) {
      const urls = Object.fromEntries(URL_FIELDS.map((field) => [field, url]));
      expect(await createPurchase(box, client.id, urls), url).toMatchObject(urls);
    }
  });
});

describe('success_callback deliveries', () => {
  it('a success_callback that never answers is retried in sandbox time and holds no sandbox\'s turn', async () => {
    const box = await sandboxAt(h, NOW);
    const { purchase } = await purchaseCalling(box, silent.url);
    const before = hanging.length;
    await payPurchase(box, purchase.id);
    await expect.poll(() => hanging.length, { timeout: HANG_GUARD_MS }).toBe(before + 1);
    // The POST is out and unanswered; the sandbox answers reads and an advance past every retry all the same.
    const [out] = await log(box);
    expect(out).toMatchObject({ kind: 'success_callback', status: 'pending', next_attempt_at: '2026-01-30T12:01:00.000Z' });
    expect(out!.attempts).toEqual([{ at: '2026-01-30T12:00:00.000Z', status: null, error: null, duration_ms: null }]);
    expect((await box.req('GET', `/api/v1/purchases/${purchase.id}/`)).status).toBe(200);
    const advanced = await advance(box, { by: 'P2D' });
    expect(advanced.processed.webhook_deliveries).toBe(6);
    // Each retry found the first POST still out, so the advance ran while it was: had the sandbox's
    // turn waited for the receiver, the POST would have ended (at its 5 s timeout) first and the
    // retries gone out. (This replaces a 2 s limit on the wall clock, which proved less.)
    const [given] = await logWhen(box, ([d]) => d!.attempts.slice(1).every((a) => a.error !== null));
    expect(given!.attempts.slice(1).map((a) => a.error)).toEqual(Array(6).fill('not sent: the previous attempt was still waiting for its answer'));
    expect(given!.status).toBe('failed');
    expect(given!.attempts.map((a) => a.at)).toEqual([
      '2026-01-30T12:00:00.000Z',
      '2026-01-30T12:01:00.000Z',
      '2026-01-30T12:06:00.000Z',
      '2026-01-30T12:36:00.000Z',
      '2026-01-30T14:36:00.000Z',
      '2026-01-30T20:36:00.000Z',
      '2026-01-31T20:36:00.000Z',
    ]);
  });

  it('a receiver that refuses the connection: each attempt logged "connection refused", 1 min, 5 min, … apart on the sandbox clock, then failed', async () => {
    const box = await sandboxAt(h, NOW);
    const { purchase } = await purchaseCalling(box, closed.url);
    await payPurchase(box, purchase.id);
    await logWhen(box, ([d]) => d?.attempts[0]?.error === 'connection refused');
    for (const [by, count] of [['PT1M', 2], ['PT5M', 3], ['PT30M', 4], ['PT2H', 5], ['PT6H', 6], ['PT24H', 7]] as const) {
      expect((await advance(box, { by })).processed.webhook_deliveries).toBe(1);
      await logWhen(box, ([d]) => d!.attempts.length === count && d!.attempts.every((a) => a.error === 'connection refused'));
    }
    const [failed] = await logWhen(box, ([d]) => d!.status === 'failed');
    expect(failed).toMatchObject({ kind: 'success_callback', url: closed.url, next_attempt_at: null });
  });

  it('waits behind no webhook delivery: a webhook receiver that fails does not hold the purchase\'s success_callback', async () => {
    const box = await sandboxAt(h, NOW);
    expect((await box.req('POST', '/api/v1/webhooks/', { callback: closed.url, events: ['purchase.created', 'purchase.paid'] })).status).toBe(201);
    const { purchase } = await purchaseCalling(box, '/not-held');
    await payPurchase(box, purchase.id);
    const [call] = await receiver.waitFor('/not-held', 1);
    expect(call!.body.id).toBe(purchase.id);
    const deliveries = await logWhen(box, (all) => all.some((d) => d.kind === 'success_callback' && d.status === 'delivered'));
    // The webhook's purchase.created is still being retried, and its purchase.paid waits behind it.
    expect(deliveries.filter((d) => d.kind === 'webhook').map((d) => [d.event_type, d.status])).toEqual([
      ['purchase.paid', 'pending'],
      ['purchase.created', 'pending'],
    ]);
  });

  it('POST /sim/v1/webhook_deliveries/{id}/resend sends the same signed body to the same URL again, at once', async () => {
    const box = await sandboxAt(h, NOW);
    const { purchase, url } = await purchaseCalling(box, '/resent');
    await payPurchase(box, purchase.id);
    const [original] = await logWhen(box, ([d]) => d?.status === 'delivered');
    const resent = await box.req('POST', `/sim/v1/webhook_deliveries/${original!.id}/resend`);
    expect(resent.status, resent.text).toBe(201);
    expect(resent.body).toMatchObject({ kind: 'success_callback', webhook_id: null, event_id: original!.event_id, url, status: 'pending', attempts: [], next_attempt_at: '2026-01-30T12:00:00.000Z' });
    const received = await receiver.waitFor('/resent', 2);
    expect(received[1]!.raw).toBe(received[0]!.raw);
    expect(received.every((r) => r.signature === received[0]!.signature)).toBe(true);
    expect(verifies(await accountKey(box), received[1]!)).toBe(true);
  });

  it('a data file keeps a success_callback delivery across a restart, and its key: a resend after it verifies with GET /public_key/', async () => {
    const file = join(dir, 'callbacks.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const created = (await send(first.url, 'POST', '/sim/v1/sandboxes', null, { now: NOW, frozen: true })).body as { token: string; brand_id: string };
    const box: Box = { h, token: created.token, brandId: created.brand_id, req: (method, path, body) => send(first.url, method, path, created.token, body) };
    const { purchase } = await purchaseCalling(box, '/file');
    await payPurchase(box, purchase.id);
    const before = await logWhen(box, ([d]) => d?.status === 'delivered');
    const key = await accountKey(box);
    await first.stop();

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      const again: Box = { ...box, req: (method, path, body) => send(second.url, method, path, created.token, body) };
      expect(await log(again)).toEqual(before);
      expect(await accountKey(again)).toBe(key);
      expect((await again.req('POST', `/sim/v1/webhook_deliveries/${before[0]!.id}/resend`)).status).toBe(201);
      const received = await receiver.waitFor('/file', 2);
      expect(verifies(key, received[1]!)).toBe(true);
    } finally {
      await second.stop();
    }
  });

  it('a snapshot holds a pending success_callback, and a sandbox made of it sends it, signed with the key that sandbox\'s GET /public_key/ answers', async () => {
    const box = await sandboxAt(h, NOW);
    const { purchase } = await purchaseCalling(box, closed.url);
    await payPurchase(box, purchase.id);
    await logWhen(box, ([d]) => d?.attempts[0]?.error === 'connection refused');
    const exported = await box.req('GET', '/sim/v1/snapshot');
    expect(exported.status).toBe(200);
    const document = exported.body as { sandbox: { deliveries: [string, { kind?: string; url: string; webhookId: string | null }][] } };
    const [[, stored]] = document.sandbox.deliveries as [[string, { kind?: string; url: string; webhookId: string | null }]];
    expect(stored).toMatchObject({ kind: 'success_callback', webhookId: null, url: closed.url });
    // Pointed at a receiver that answers, the copy delivers it at its next attempt.
    stored.url = `${receiver.url}/imported`;
    const imported = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: document } });
    expect(imported.status, imported.text).toBe(201);
    const copy: Box = { ...box, token: (imported.body as { token: string }).token };
    copy.req = (method, path, body) => h.request(method, path, { token: copy.token, body });
    await advance(copy, { by: 'PT1M' });
    const [call] = await receiver.waitFor('/imported', 1);
    expect(verifies(await accountKey(copy), call!)).toBe(true);
  });
});
