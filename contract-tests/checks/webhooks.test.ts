// Webhooks, their deliveries and the signing keys. The spec shows no events or webhooks; the
// platform's API reference and SDKs do (docs/fidelity.md#webhooks-and-signatures, #public-key): a
// webhook's fields and its create, read, list and delete; its own key pair, whose public_key verifies
// the deliveries to it and to no other; the account's key (GET /public_key/, a bare string) that
// verifies a purchase's success_callback; the event names a webhook takes and receives. Those rules
// are normative. A webhook's PUT is not confirmed on the platform (informative). Deliveries are
// received by a server the check starts on 127.0.0.1 (lib/receiver.ts): a target elsewhere cannot
// reach it, and those checks are skipped there (lib/webhook-deliveries.ts).

import { afterAll, describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { expectErrorAt, expectStatus, expectSuccess, type Placement } from '../lib/primitives.ts';
import { REFUSAL_BODY } from '../lib/refusal.ts';
import { createPurchase, mainClient, pay } from '../lib/scenario.ts';
import { awaitDelivery } from '../lib/receiver.ts';
import { accountKey, awaitEvents, closeReceiver, deliveriesOf, eventTypes, PEM, platformEvents, verifies, withDeliveries, withWebhooks } from '../lib/webhook-deliveries.ts';

const FIDELITY = 'docs/fidelity.md#webhooks-and-signatures';
const CRUD = `${FIDELITY}: "create, list, get, delete"; docs/behaviour.md#webhooks: "registers a receiver"; openapi.yaml#createWebhook`;
const PUBLIC_KEY = 'openapi.yaml#getPublicKey: "answered as a bare JSON string, as the platform does"; docs/fidelity.md#public-key: "a bare JSON string, the PEM"';
const OWN_KEY = `${FIDELITY}: "that webhook's own public_key"; docs/behaviour.md#webhook-keys: "verifies the deliveries to that webhook, and only those"`;
const EVENT_NAMES = `${FIDELITY}: "the platform's 22 names only"; docs/behaviour.md#webhooks: "plus event_type"; openapi.yaml#/components/schemas/PlatformEvent`;
const CALLBACK = `${FIDELITY}: "signed with the company-wide key of GET /public_key/"; docs/behaviour.md#success_callback: "verify it with the PEM that GET /api/v1/public_key/ answers"`;

describe('webhooks', () => {
  afterAll(closeReceiver);

  check({ id: 'WH-CRUD', title: 'a webhook can be created, read, listed and deleted; once deleted it is not found', cites: `${CRUD}; docs/behaviour.md#status-codes: "404 for an id that names nothing"` }, async (ctx) =>
    withWebhooks(ctx, async ({ callback }) => {
      const { api } = ctx;
      const created = expectSuccess(await api.post('/webhooks/', { title: 'contract', callback: callback('/crud'), events: ['purchase.paid'] }), 'create webhook');
      const id = created.id as string;
      try {
        expect(created).toMatchObject({ callback: callback('/crud'), events: ['purchase.paid'] });
        expect(expectStatus(await api.get(`/webhooks/${id}/`), 200, 'get webhook')).toMatchObject({ id, callback: callback('/crud'), events: ['purchase.paid'] });
        expect((expectStatus(await api.get('/webhooks/'), 200, 'list webhooks').results as { id: string }[]).map((w) => w.id)).toContain(id);
      } finally {
        expectSuccess(await api.delete(`/webhooks/${id}/`), 'delete webhook');
      }
      expect((await api.get(`/webhooks/${id}/`)).status, 'a deleted webhook is not found').toBe(404);
    }),
  );

  check(
    {
      id: 'WH-PUT',
      title: 'PUT replaces a webhook\'s callback and events and keeps its key',
      cites: `docs/behaviour.md#put-and-patch: "webhooks only PUT"; docs/behaviour.md#webhook-keys: "kept by PUT"; openapi.yaml#updateWebhook; ${FIDELITY}: "update not confirmed"`,
      level: 'informative',
    },
    async (ctx) =>
      withWebhooks(ctx, async ({ make, callback }) => {
        const made = await make({ events: ['purchase.paid'] });
        const replaced = expectStatus(await ctx.api.put(`/webhooks/${made.id}/`, { callback: callback('/other'), events: ['purchase.created', 'purchase.paid'] }), 200, 'PUT webhook');
        expect(replaced).toMatchObject({ callback: callback('/other'), events: ['purchase.created', 'purchase.paid'], public_key: made.public_key });
      }),
  );

  check({ id: 'WH-PUBLIC-KEY', title: 'GET /public_key/ answers the account\'s PEM public key as a bare JSON string', cites: PUBLIC_KEY }, async ({ api }) => {
    const res = await api.get('/public_key/');
    expect(res.status).toBe(200);
    expect(typeof res.body, 'the body is a JSON string, not an object').toBe('string');
    expect(res.body).toMatch(PEM);
  });

  check(
    {
      id: 'WH-TITLE-LIMIT',
      title: 'a webhook title of 100 characters is accepted, one of 101 → 400 title max_length',
      cites: `openapi.yaml#/components/schemas/WebhookFields/properties/title; ${FIDELITY}: "title at most 100 characters"; ${REFUSAL_BODY}`,
    },
    async (ctx) =>
      withWebhooks(ctx, async ({ make, callback }) => {
        const body = { callback: callback('/hook'), events: ['purchase.paid'] };
        expectErrorAt(await ctx.api.post('/webhooks/', { ...body, title: 'w'.repeat(101) }), [['title', 'max_length']]);
        expect((await make({ ...body, title: 'w'.repeat(100) })).title).toHaveLength(100);
      }),
  );

  check(
    {
      id: 'WH-EVENTS-PLATFORM',
      title: 'a webhook takes the platform\'s event names (payment.refunded, purchase.captured) and refuses a simulator-only one (purchase.sent): 400 invalid_choice',
      cites: `openapi.yaml#/components/schemas/WebhookFields/properties/events; ${FIDELITY}: "any other → 400"; ${REFUSAL_BODY}`,
    },
    async (ctx) =>
      withWebhooks(ctx, async ({ make }) => {
        expect((await make({ events: ['payment.refunded', 'purchase.captured'] })).events).toEqual(['payment.refunded', 'purchase.captured']);
        // Django REST framework nests a list item's error under the list; billing-sim names its position.
        const placements: Placement[] = [['events.0', 'invalid_choice'], ['events', 'invalid_choice']];
        expectErrorAt(await ctx.api.post('/webhooks/', { title: 'contract', callback: 'https://shop.example.com/hook', events: ['purchase.sent'] }), placements);
      }),
  );

  check(
    {
      id: 'WH-CALLBACK-URL',
      title: "a webhook's callback is checked as Django's URLValidator checks a URL: localhost:9000/hook (no scheme) → 400 invalid naming callback, on create and PUT, the webhook unchanged; https://shop.example.com/cb?a=1|2 is taken",
      // Informative: the platform publishes no rule for callback; that its URL fields are Django's is inferred.
      level: 'informative',
      cites: `docs/behaviour.md#url-fields: "Anything else → 400 invalid naming the field"; docs/fidelity.md#request-fields: "checked as Django's URLValidator checks them"; ${REFUSAL_BODY}`,
    },
    async (ctx) =>
      withWebhooks(ctx, async ({ make }) => {
        expectErrorAt(await ctx.api.post('/webhooks/', { title: 'contract', callback: 'localhost:9000/hook', events: ['purchase.paid'] }), [['callback', 'invalid']], { alone: true });
        const made = await make({ events: ['purchase.paid'] });
        expectErrorAt(await ctx.api.put(`/webhooks/${made.id}/`, { title: 'contract', callback: 'localhost:9000/hook', events: ['purchase.paid'] }), [['callback', 'invalid']], { alone: true });
        expect(expectStatus(await ctx.api.get(`/webhooks/${made.id}/`), 200, 'get webhook'), 'a refused PUT changes nothing').toEqual(made);
        const piped = await make({ callback: 'https://shop.example.com/cb?a=1|2', events: ['purchase.paid'] });
        expect(piped.callback).toBe('https://shop.example.com/cb?a=1|2');
      }),
  );

  check(
    {
      id: 'WH-ALL-EVENTS',
      title: 'a webhook with all_events true needs no events; one with events has all_events false; without either → 400',
      cites: `openapi.yaml#/components/schemas/WebhookFields/properties/all_events; ${FIDELITY}: "Either this or all_events"; ${REFUSAL_BODY}`,
    },
    async (ctx) =>
      withWebhooks(ctx, async ({ make }) => {
        expect(await make({ all_events: true })).toMatchObject({ all_events: true });
        expect(await make({ events: ['purchase.paid'] })).toMatchObject({ all_events: false });
        // Which key and code the platform names is not published: billing-sim's, or a serializer's own
        // validation under __all__.
        const placements: Placement[] = [['events', 'required'], ['__all__', 'required'], ['__all__', 'invalid']];
        expectErrorAt(await ctx.api.post('/webhooks/', { title: 'contract', callback: 'https://shop.example.com/hook' }), placements);
      }),
  );

  check(
    {
      id: 'WH-OWN-PUBLIC-KEY',
      title: 'each webhook answers a public_key of its own (PEM), neither another webhook\'s nor the account\'s',
      cites: `openapi.yaml#/components/schemas/WebhookFields/properties/public_key; ${OWN_KEY}`,
    },
    async (ctx) =>
      withWebhooks(ctx, async ({ make }) => {
        const [one, two] = [await make({ events: ['purchase.paid'] }), await make({ events: ['purchase.paid'] })];
        expect(one.public_key).toMatch(PEM);
        expect(two.public_key).toMatch(PEM);
        expect(one.public_key, "another webhook's key").not.toBe(two.public_key);
        expect(one.public_key, "the account's key").not.toBe(await accountKey(ctx.api));
        expect(expectStatus(await ctx.api.get(`/webhooks/${one.id}/`), 200, 'get webhook').public_key).toBe(one.public_key);
      }),
  );

  check(
    {
      id: 'WH-SIGNED-BY-OWN-KEY',
      title: 'a delivery\'s X-Signature verifies with its webhook\'s public_key, and not with another webhook\'s nor the account\'s',
      cites: `openapi.yaml#/webhooks/event/post; ${OWN_KEY}; ${FIDELITY}: "base64 RSA PKCS#1 v1.5 over SHA-256 of the raw body"`,
    },
    async (ctx) =>
      withDeliveries(ctx, async ({ make, receiver }) => {
        const one = await make({ callback: receiver.url('/one'), events: ['purchase.created'] });
        const two = await make({ callback: receiver.url('/two'), events: ['purchase.created'] });
        const { account, client } = await mainClient(ctx.api);
        const purchase = await createPurchase(account, client.id);
        expect(await awaitEvents(receiver, purchase.id, { '/one': ['purchase.created'], '/two': ['purchase.created'] }), 'purchase.created is delivered to both webhooks').toBe(true);
        const [toOne] = deliveriesOf(receiver, '/one', purchase.id);
        const [toTwo] = deliveriesOf(receiver, '/two', purchase.id);
        expect(verifies(toOne!, one.public_key), "the delivery verifies with its webhook's public_key").toBe(true);
        expect(verifies(toTwo!, two.public_key), "the delivery verifies with its webhook's public_key").toBe(true);
        expect(verifies(toOne!, two.public_key), "the delivery must not verify with another webhook's key").toBe(false);
        expect(verifies(toOne!, await accountKey(ctx.api)), "the delivery must not verify with the account's key (GET /public_key/)").toBe(false);
      }),
  );

  check(
    {
      id: 'WH-EVENTS-CREATED-CANCELLED',
      title: 'a purchase created and cancelled is delivered as purchase.created and purchase.cancelled, each only to the webhooks that list it',
      cites: `${EVENT_NAMES}; docs/behaviour.md#events: "purchase.cancelled | it is cancelled"; docs/behaviour.md#webhooks: "For each event whose event_type is in events, the simulator POSTs"`,
    },
    async (ctx) =>
      withDeliveries(ctx, async ({ make, receiver }) => {
        await make({ callback: receiver.url('/both'), events: ['purchase.created', 'purchase.cancelled'] });
        await make({ callback: receiver.url('/cancelled'), events: ['purchase.cancelled'] });
        const { account, client } = await mainClient(ctx.api);
        const purchase = await createPurchase(account, client.id);
        expectStatus(await ctx.api.post(`/purchases/${purchase.id}/cancel/`), 200, 'cancel/');
        const came = await awaitEvents(receiver, purchase.id, { '/both': ['purchase.created', 'purchase.cancelled'], '/cancelled': ['purchase.cancelled'] });
        // In any order: that an object's deliveries keep the order of its events is billing-sim's.
        expect({ both: eventTypes(receiver, '/both', purchase.id).sort(), cancelled: eventTypes(receiver, '/cancelled', purchase.id) }, 'the event types delivered, by webhook').toEqual({
          both: ['purchase.cancelled', 'purchase.created'],
          cancelled: ['purchase.cancelled'],
        });
        expect(came).toBe(true);
        const [cancelled] = deliveriesOf(receiver, '/cancelled', purchase.id);
        expect(cancelled!.body, 'the delivery is the purchase as cancelled, plus event_type').toMatchObject({ id: purchase.id, type: 'purchase', status: 'cancelled' });
      }),
  );

  check(
    {
      id: 'WH-EVENTS-PAID',
      title: 'a purchase paid is delivered to an all_events webhook as purchase.created and purchase.paid, and only under the platform\'s event names',
      cites: `${EVENT_NAMES}; docs/behaviour.md#events: "purchase.paid | it is paid"; ${FIDELITY}: "with all_events every platform event is delivered"`,
      requires: ['payments'],
    },
    async (ctx) =>
      withDeliveries(ctx, async ({ make, receiver }) => {
        await make({ callback: receiver.url('/all'), all_events: true });
        const { account, client } = await mainClient(ctx.api);
        const purchase = await createPurchase(account, client.id);
        await pay(account, purchase.id);
        await awaitEvents(receiver, purchase.id, { '/all': ['purchase.created', 'purchase.paid'] });
        const types = eventTypes(receiver, '/all', purchase.id);
        expect(types, 'the purchase\'s events delivered').toEqual(expect.arrayContaining(['purchase.created', 'purchase.paid']));
        const names = platformEvents();
        expect(types.filter((type) => !names.includes(type)), "event types that are not the platform's").toEqual([]);
        const paid = deliveriesOf(receiver, '/all', purchase.id).find((d) => d.body?.event_type === 'purchase.paid');
        expect(paid!.body, 'the delivery is the purchase as paid').toMatchObject({ id: purchase.id, status: 'paid' });
      }),
  );

  check(
    {
      id: 'WH-SUCCESS-CALLBACK-SIGNED',
      title: 'a paid purchase\'s success_callback receives it with event_type purchase.paid, signed with the account\'s key (GET /public_key/)',
      cites: `${CALLBACK}; openapi.yaml#getPublicKey: "It verifies a purchase's success_callback"`,
      requires: ['payments'],
    },
    async (ctx) =>
      withDeliveries(ctx, async ({ receiver }) => {
        const { account, client } = await mainClient(ctx.api);
        const purchase = await createPurchase(account, client.id, { success_callback: receiver.url('/paid') });
        await pay(account, purchase.id);
        const call = await awaitDelivery(() => deliveriesOf(receiver, '/paid', purchase.id)[0]);
        expect(call, 'the success_callback is called').toBeDefined();
        expect(call!.body).toMatchObject({ id: purchase.id, status: 'paid', event_type: 'purchase.paid' });
        expect(verifies(call!, await accountKey(ctx.api)), "the callback verifies with the account's key (GET /public_key/)").toBe(true);
      }),
  );
});
