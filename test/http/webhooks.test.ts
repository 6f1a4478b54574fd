// Webhooks (DESIGN.md §4.14, §9): registrations as the platform has them (`title` ≤ 100,
// `all_events`, `events` from the platform's names, a read-only `public_key` per webhook); every
// subscribed platform event is POSTed with X-Signature, an RSA PKCS#1 v1.5 signature over SHA-256 in
// base64 by that webhook's own key; simulator-only events are never delivered; failed deliveries are
// retried with backoff on the sandbox clock; an object's events arrive in order. GET /public_key/
// answers the account's key as a bare JSON string. A receiver on loopback verifies every signature.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/contract/spec.ts';
import { PLATFORM_EVENTS } from '../../src/domain/events.ts';
import { useHarness } from '../support/harness.ts';
import { Receiver, verifies } from '../support/receiver.ts';
import { log, logWhen } from '../builders/deliveries.ts';
import {
  advance,
  createPurchase,
  events,
  expectRejected,
  makeClient,
  makeOneTimeTemplate,
  makeTemplate,
  payPurchase,
  sandboxAt,
  subscribe,
  subscriberBody,
  tokenBox,
  type Box,
} from '../builders/engine.ts';

interface Webhook {
  id: string;
  title: string;
  callback: string;
  all_events: boolean;
  events: string[];
  public_key: string;
}

const h = useHarness();
const receiver = new Receiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

async function register(box: Box, path: string, fields: { events?: string[]; all_events?: boolean; title?: string }): Promise<Webhook> {
  const res = await box.req('POST', '/api/v1/webhooks/', { callback: receiver.url + path, ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body as Webhook;
}

async function accountKey(box: Box): Promise<string> {
  const res = await box.req('GET', '/api/v1/public_key/');
  expect(res.status).toBe(200);
  return res.body as string;
}

const SIMULATOR_ONLY = ['purchase.sent', 'purchase.overdue', 'purchase.expired', 'purchase.refunded', 'billing_template_client.activated'];

describe('webhook registrations', () => {
  it('can be created, listed, read, replaced and deleted; each answer carries all_events and the webhook\'s public_key', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const webhook = await register(box, '/crud', { events: ['purchase.paid'] });
    expect(webhook).toMatchObject({ type: 'webhook', callback: `${receiver.url}/crud`, events: ['purchase.paid'], all_events: false, title: '' });
    expect(webhook.public_key).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect((await box.req('GET', `/api/v1/webhooks/${webhook.id}/`)).body).toEqual(webhook);
    const replaced = await box.req('PUT', `/api/v1/webhooks/${webhook.id}/`, { callback: `${receiver.url}/other`, events: ['purchase.created'] });
    expect(replaced.body).toMatchObject({ callback: `${receiver.url}/other`, events: ['purchase.created'], public_key: webhook.public_key });
    expect(((await box.req('GET', '/api/v1/webhooks/')).body as { results: Webhook[] }).results).toEqual([replaced.body]);
    expect((await box.req('DELETE', `/api/v1/webhooks/${webhook.id}/`)).status).toBe(204);
    expect((await box.req('GET', `/api/v1/webhooks/${webhook.id}/`)).status).toBe(404);
    const bad = await box.req('POST', '/api/v1/webhooks/', { callback: 'not a url', events: [] });
    expect(bad.status).toBe(400);
    // The schema's error first; "either events or all_events" is the server's rule, checked once the body is well-formed.
    expect(Object.keys(bad.body as object)).toEqual(['callback']);
  });

  it("callback is checked as Django's URLValidator checks it: localhost:9000/hook (no scheme) → 400 invalid naming callback, on create and PUT, changing nothing", async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const webhook = await register(box, '/kept', { events: ['purchase.paid'] });
    const invalid = [{ code: 'invalid', message: 'Enter a valid URL. It starts with http:// or https:// and a host, and has no spaces, such as https://shop.example.com/hooks/billing.' }];
    for (const callback of ['localhost:9000/hook', 'ftp://shop.example.com/hook', 'https://shop.example.com/a hook', 'http://:9000/hook']) {
      const created = await box.req('POST', '/api/v1/webhooks/', { callback, events: ['purchase.paid'] });
      expect([created.status, created.body], callback).toEqual([400, { callback: invalid }]);
      const replaced = await box.req('PUT', `/api/v1/webhooks/${webhook.id}/`, { callback, events: ['purchase.created'] });
      expect([replaced.status, replaced.body], callback).toEqual([400, { callback: invalid }]);
    }
    expect(((await box.req('GET', '/api/v1/webhooks/')).body as { results: Webhook[] }).results).toEqual([webhook]);
  });

  it('callback takes any non-space character in path and query (https://shop.example.com/cb?a=1|2), and the hosts a local setup uses: localhost, 127.0.0.1, a container name without a dot', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const urls = ['https://shop.example.com/cb?a=1|2', 'http://localhost:9000/hook', 'http://127.0.0.1:4010/x', 'http://receiver:8080/', 'http://[::1]:9000/hook', 'HTTPS://SHOP.EXAMPLE.COM/HOOK'];
    for (const callback of urls) {
      const created = await box.req('POST', '/api/v1/webhooks/', { callback, events: ['purchase.paid'] });
      expect([created.status, (created.body as Webhook).callback], created.text).toEqual([201, callback]);
    }
  });

  it('title: at most 100 characters, as on the platform; 101 → 400 max_length', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    expect((await register(box, '/title', { events: ['purchase.paid'], title: 'x'.repeat(100) })).title).toHaveLength(100);
    const rejected = await box.req('POST', '/api/v1/webhooks/', { callback: `${receiver.url}/title`, events: ['purchase.paid'], title: 'x'.repeat(101) });
    expectRejected(rejected, 'title', 'max_length');
  });

  it('events: only the platform\'s event names; a simulator-only or unknown name → 400 invalid_choice at its index', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    for (const name of ['purchase.sent', 'purchase.overdue', 'billing_template_client.activated', 'purchase.nonsense']) {
      const rejected = await box.req('POST', '/api/v1/webhooks/', { callback: `${receiver.url}/names`, events: ['purchase.paid', name] });
      expectRejected(rejected, 'events.1', 'invalid_choice');
    }
    expect((await register(box, '/names', { events: [...PLATFORM_EVENTS] })).events).toEqual(PLATFORM_EVENTS);
  });

  it('the events enum of openapi.yaml is the list the engine delivers', () => {
    const spec = loadSpec() as unknown as { components: { schemas: { PlatformEvent: { enum: string[] } } } };
    expect(spec.components.schemas.PlatformEvent.enum).toEqual(PLATFORM_EVENTS);
  });

  it('events: "either this or all_events" — omitted or empty without all_events → 400; with all_events true it may be left out', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const callback = `${receiver.url}/either`;
    expectRejected(await box.req('POST', '/api/v1/webhooks/', { callback }), 'events', 'required');
    expectRejected(await box.req('POST', '/api/v1/webhooks/', { callback, all_events: false }), 'events', 'required');
    expectRejected(await box.req('POST', '/api/v1/webhooks/', { callback, events: [] }), 'events', 'min_items');
    const all = await register(box, '/either', { all_events: true });
    expect(all).toMatchObject({ all_events: true, events: [] });
    expectRejected(await box.req('PUT', `/api/v1/webhooks/${all.id}/`, { callback }), 'events', 'required');
    expect((await box.req('PUT', `/api/v1/webhooks/${all.id}/`, { callback, all_events: true, events: ['purchase.paid'] })).body).toMatchObject({
      all_events: true,
      events: ['purchase.paid'],
    });
  });

  it('public_key is read-only: in a strict sandbox sent back unchanged it passes, any other value (or one on create) → 400 read_only', async () => {
    const strict = await h.newSandbox({ now: '2026-01-30T12:00:00Z', strict: true });
    const box = tokenBox(h, strict.token, strict.brandId);
    const webhook = await register(box, '/readonly', { events: ['purchase.paid'] });
    const { callback, events: names, title, all_events, public_key } = webhook;
    const back = await box.req('PUT', `/api/v1/webhooks/${webhook.id}/`, { callback, events: names, title, all_events, public_key });
    expect(back.status).toBe(200);
    expect((back.body as Webhook).public_key).toBe(public_key);
    const other = await register(box, '/readonly', { events: ['purchase.paid'] });
    expectRejected(await box.req('PUT', `/api/v1/webhooks/${webhook.id}/`, { callback, events: names, public_key: other.public_key }), 'public_key', 'read_only');
    expectRejected(await box.req('POST', '/api/v1/webhooks/', { callback, events: names, public_key }), 'public_key', 'read_only');
  });
});

describe('deliveries', () => {
  it('every subscribed event is POSTed as the object plus event_type, signed by the webhook\'s own public_key', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const webhook = await register(box, '/signed', { events: ['purchase.created', 'purchase.paid'] });
    const client = await makeClient(box);
    const purchase = await createPurchase(box, client.id);
    await payPurchase(box, purchase.id);
    const received = await receiver.waitFor('/signed', 2);
    expect(received.map((r) => [r.body.event_type, r.body.id, r.body.status])).toEqual([
      ['purchase.created', purchase.id, 'created'],
      ['purchase.paid', purchase.id, 'paid'],
    ]);
    expect(received.every((r) => verifies(webhook.public_key, r))).toBe(true);
    expect(received[0]!.body.checkout_url).toBe(`${h.origin}/checkout/${purchase.id}/`);
    // A body changed in transit no longer verifies.
    expect(verifies(webhook.public_key, { ...received[0]!, raw: received[0]!.raw.replace('created', 'paid') })).toBe(false);
  });

  it('each webhook signs with its own key: another webhook\'s key and GET /public_key/ do not verify its deliveries', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const one = await register(box, '/one', { events: ['purchase.created'] });
    const two = await register(box, '/two', { events: ['purchase.created'] });
    const account = await accountKey(box);
    expect(new Set([one.public_key, two.public_key, account]).size).toBe(3);
    const client = await makeClient(box);
    await createPurchase(box, client.id);
    const [toOne] = await receiver.waitFor('/one', 1);
    const [toTwo] = await receiver.waitFor('/two', 1);
    expect(toOne!.raw).toBe(toTwo!.raw);
    expect([verifies(one.public_key, toOne!), verifies(two.public_key, toOne!), verifies(account, toOne!)]).toEqual([true, false, false]);
    expect([verifies(one.public_key, toTwo!), verifies(two.public_key, toTwo!), verifies(account, toTwo!)]).toEqual([false, true, false]);
  });

  it('all_events receives every platform event, in order per object, purchase.viewed among them, and never a simulator-only one (purchase.sent, purchase.refunded, …)', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    await register(box, '/all', { all_events: true });
    const client = await makeClient(box);
    const template = await makeTemplate(box);
    // A pending subscriber whose first purchase is paid: purchase.created, purchase.paid, billing_template_client.activated.
    const { purchase: first } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
    // An invoice e-mailed (purchase.sent), opened (purchase.viewed), paid, refunded (payment.refunded, purchase.refunded).
    const oneTime = await makeOneTimeTemplate(box);
    const invoiced = (await box.req('POST', `/api/v1/billing_templates/${oneTime.id}/send_invoice/`, { client_id: client.id })).body as { id: string; checkout_url: string };
    expect((await fetch(invoiced.checkout_url)).status).toBe(200);
    await payPurchase(box, first!.id);
    await payPurchase(box, invoiced.id);
    expect((await box.req('POST', `/api/v1/purchases/${invoiced.id}/refund/`, {})).status).toBe(200);
    // A one-off cancelled.
    const cancelled = await createPurchase(box, client.id);
    expect((await box.req('POST', `/api/v1/purchases/${cancelled.id}/cancel/`)).status).toBe(200);

    const recorded = (await events(box)).reverse();
    const types = recorded.map((e) => e.event_type);
    for (const name of ['purchase.sent', 'purchase.refunded', 'billing_template_client.activated']) expect(types).toContain(name);
    const platform = recorded.filter((e) => (PLATFORM_EVENTS as readonly string[]).includes(e.event_type));
    expect(platform.map((e) => e.event_type)).toEqual(expect.arrayContaining(['purchase.created', 'purchase.viewed', 'purchase.paid', 'purchase.pending_refund', 'payment.refunded', 'purchase.cancelled']));
    const received = await receiver.waitFor('/all', platform.length);
    // Nothing more comes: the log holds every delivery made (one per platform event), all answered.
    const done = await logWhen(box, (all) => all.length > 0 && all.every((d) => d.status === 'delivered'));
    expect(done).toHaveLength(platform.length);
    expect(receiver.at('/all')).toHaveLength(platform.length);
    // Per object, the platform events in the order they happened; across objects, deliveries may interleave.
    const byObject = (pairs: [string, string][]) => {
      const grouped = new Map<string, string[]>();
      for (const [id, type] of pairs) grouped.set(id, [...(grouped.get(id) ?? []), type]);
      return Object.fromEntries(grouped);
    };
    expect(byObject(received.map((r) => [r.body.id, r.body.event_type]))).toEqual(byObject(platform.map((e) => [e.object_id, e.event_type])));
    expect(received.filter((r) => SIMULATOR_ONLY.includes(r.body.event_type))).toEqual([]);
  });

  it('a failed delivery is retried after its backoff on the sandbox clock, and the object\'s later events wait behind it', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    await register(box, '/retry', { events: ['purchase.created', 'purchase.paid'] });
    receiver.script('/retry', [500]);
    const client = await makeClient(box);
    const purchase = await createPurchase(box, client.id);
    await receiver.waitFor('/retry', 1);
    await payPurchase(box, purchase.id);
    // The frozen clock has not reached the retry: nothing more arrives, the paid event waits. The log
    // says so once the 500 is logged: the retry is due a minute on, and the paid delivery, never tried
    // (an attempt is logged as it starts, before its POST), waits behind it.
    const [paid, created] = await logWhen(box, (all) => all.length === 2 && all[1]!.attempts[0]?.status === 500);
    expect(created).toMatchObject({ event_type: 'purchase.created', status: 'pending', next_attempt_at: '2026-01-30T12:01:00.000Z' });
    expect(created!.attempts).toHaveLength(1);
    expect(paid).toMatchObject({ event_type: 'purchase.paid', status: 'pending', attempts: [] });
    expect(receiver.at('/retry').map((r) => r.body.event_type)).toEqual(['purchase.created']);
    const advanced = await advance(box, { by: 'PT59S' });
    expect(advanced.processed.webhook_deliveries).toBe(0);
    await advance(box, { by: 'PT1S' });
    const received = await receiver.waitFor('/retry', 3);
    expect(received.map((r) => r.body.event_type)).toEqual(['purchase.created', 'purchase.created', 'purchase.paid']);
  });

  it('events of types a webhook does not list, and events after its deletion, are not delivered', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const webhook = await register(box, '/filtered', { events: ['purchase.paid'] });
    const client = await makeClient(box);
    const purchase = await createPurchase(box, client.id);
    await payPurchase(box, purchase.id);
    expect((await receiver.waitFor('/filtered', 1)).map((r) => r.body.event_type)).toEqual(['purchase.paid']);
    await box.req('DELETE', `/api/v1/webhooks/${webhook.id}/`);
    const second = await createPurchase(box, client.id);
    await payPurchase(box, second.id);
    // A delivery is made in the turn of its event: the log, once the first one is answered, holds all
    // there will ever be, and none is of the second purchase.
    const made = await logWhen(box, (all) => all.length > 0 && all.every((d) => d.status !== 'pending'));
    expect(made.map((d) => [d.object_id, d.event_type, d.status])).toEqual([[purchase.id, 'purchase.paid', 'delivered']]);
    expect(receiver.at('/filtered')).toHaveLength(1);
  });
});

describe('GET /public_key/', () => {
  it('answers a bare JSON string, the PEM of the sandbox\'s own key, as the platform does', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const res = await box.req('GET', '/api/v1/public_key/');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text.startsWith('"-----BEGIN PUBLIC KEY-----')).toBe(true);
    expect(typeof res.body).toBe('string');
    expect(res.body as string).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+-----END PUBLIC KEY-----\n$/);
    expect(await accountKey(box)).toBe(res.body);
  });

  it('the key is the sandbox\'s own and survives a reset, which keeps nothing of webhooks', async () => {
    const one = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const two = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const key = await accountKey(one);
    expect(await accountKey(two)).not.toBe(key);
    await register(one, '/reset', { events: ['purchase.created'] });
    await one.req('POST', '/sim/v1/reset');
    expect(await accountKey(one)).toBe(key);
    expect(((await one.req('GET', '/api/v1/webhooks/')).body as { results: unknown[] }).results).toEqual([]);
    const { sandbox } = (await one.req('GET', '/sim/v1/snapshot')).body as { sandbox: { webhooks: unknown[]; webhookKeys: unknown[]; deliveries: unknown[] } };
    expect([sandbox.webhooks, sandbox.webhookKeys, sandbox.deliveries]).toEqual([[], [], []]);
    await createPurchase(one, (await makeClient(one)).id);
    // A delivery is made in the turn of its event: none was, so none will ever go.
    expect(await log(one)).toEqual([]);
    expect(receiver.at('/reset')).toEqual([]);
  });
});
