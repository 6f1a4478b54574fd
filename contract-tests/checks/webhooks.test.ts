// Webhooks and the signing keys. The spec: "Events and webhooks: not shown", so every check here is
// informative: it reports billing-sim's interface, which follows the real platform's
// (docs/behaviour.md#webhooks, docs/fidelity.md#webhooks-and-signatures), as a warning when a target
// lacks it. Deliveries are received by a server the check starts on 127.0.0.1 (lib/receiver.ts): a
// target elsewhere cannot reach it, and those checks are skipped there.

import { createVerify } from 'node:crypto';
import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import type { ApiClient } from '../lib/client.ts';
import { resolve } from '../lib/limits-schema.ts';
import { schema } from '../lib/operations.ts';
import { expectError, expectStatus } from '../lib/primitives.ts';
import { awaitDelivery, isLocal, startReceiver, type Delivery } from '../lib/receiver.ts';
import { createPurchase, mainClient } from '../lib/scenario.ts';

const cites = 'docs/behaviour.md#webhooks: "registers a receiver"; docs/behaviour.md#put-and-patch: "webhooks only PUT"; openapi.yaml#createWebhook';
const FIDELITY = 'docs/fidelity.md#webhooks-and-signatures';
const PUBLIC_KEY = 'openapi.yaml#getPublicKey: "answered as a bare JSON string, as the platform does"; docs/fidelity.md#public-key';
const PEM = /^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/;

/** The event names a webhook may subscribe to: the platform's (openapi.yaml, WebhookFields.events, PlatformEvent). */
const platformEvents = (): string[] => resolve(schema('WebhookFields').properties.events.items).enum ?? [];

type Make = (body: Record<string, unknown>) => Promise<Record<string, any>>;

/**
 * Runs `work` with a maker of webhooks that must be created (their answers), and deletes them after:
 * a webhook left in the account would receive the whole run's events (all_events) at a dead callback.
 */
async function withWebhooks(api: ApiClient, work: (make: Make) => Promise<void>): Promise<void> {
  const made: string[] = [];
  try {
    await work(async (body) => {
      const created = expectStatus(await api.post('/webhooks/', { title: 'contract', ...body }), 201, 'create webhook');
      made.push(created.id);
      return created;
    });
  } finally {
    for (const id of made) await api.delete(`/webhooks/${id}/`);
  }
}

const verifies = (delivery: Delivery, publicKey: string) =>
  delivery.signature !== undefined && createVerify('sha256').update(delivery.raw).verify(publicKey, delivery.signature, 'base64');

describe('webhooks', () => {
  check({ id: 'WH-CRUD', title: 'a webhook can be created, read, listed, replaced and deleted', cites, level: 'informative' }, async ({ api }) => {
    const created = await api.post('/webhooks/', { title: 'contract', callback: 'http://127.0.0.1:9/hook', events: ['purchase.paid'] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await api.get(`/webhooks/${id}/`)).body).toMatchObject({ id, callback: 'http://127.0.0.1:9/hook', events: ['purchase.paid'] });
    expect(((await api.get('/webhooks/')).body.results as { id: string }[]).map((w) => w.id)).toContain(id);
    const replaced = await api.put(`/webhooks/${id}/`, { callback: 'http://127.0.0.1:9/other', events: ['purchase.created', 'purchase.paid'] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.events).toEqual(['purchase.created', 'purchase.paid']);
    expect((await api.delete(`/webhooks/${id}/`)).status).toBe(204);
    expect((await api.get(`/webhooks/${id}/`)).status).toBe(404);
  });

  check({ id: 'WH-PUBLIC-KEY', title: 'GET /public_key/ answers the account\'s PEM public key as a bare JSON string', cites: PUBLIC_KEY, level: 'informative' }, async ({ api }) => {
    const res = await api.get('/public_key/');
    expect(res.status).toBe(200);
    expect(typeof res.body, 'the body is a JSON string, not an object').toBe('string');
    expect(res.body).toMatch(PEM);
  });

  check(
    {
      id: 'WH-TITLE-LIMIT',
      title: 'a webhook title of 100 characters is accepted, one of 101 → 400 title max_length',
      cites: `openapi.yaml#/components/schemas/WebhookFields/properties/title; ${FIDELITY}`,
      level: 'informative',
    },
    async ({ api }) =>
      withWebhooks(api, async (webhook) => {
        const body = { callback: 'http://127.0.0.1:9/hook', events: ['purchase.paid'] };
        expectError(await api.post('/webhooks/', { ...body, title: 'w'.repeat(101) }), 'title', 'max_length', { alone: true });
        expect((await webhook({ ...body, title: 'w'.repeat(100) })).title).toHaveLength(100);
      }),
  );

  check(
    {
      id: 'WH-EVENTS-PLATFORM',
      title: 'a webhook takes the platform\'s event names (payment.refunded, purchase.captured) and refuses a simulator-only one (purchase.sent)',
      cites: `openapi.yaml#/components/schemas/WebhookFields/properties/events; ${FIDELITY}`,
      level: 'informative',
    },
    async ({ api }) =>
      withWebhooks(api, async (webhook) => {
        const body = { callback: 'http://127.0.0.1:9/hook' };
        expect((await webhook({ ...body, events: ['payment.refunded', 'purchase.captured'] })).events).toEqual(['payment.refunded', 'purchase.captured']);
        expectError(await api.post('/webhooks/', { ...body, events: ['purchase.sent'] }), 'events.0', 'invalid_choice', { alone: true });
      }),
  );

  check(
    {
      id: 'WH-ALL-EVENTS',
      title: 'a webhook with all_events true needs no events; without either → 400 events required',
      cites: `openapi.yaml#/components/schemas/WebhookFields/properties/all_events; ${FIDELITY}`,
      level: 'informative',
    },
    async ({ api }) =>
      withWebhooks(api, async (webhook) => {
        const body = { callback: 'http://127.0.0.1:9/hook' };
        expect(await webhook({ ...body, all_events: true })).toMatchObject({ all_events: true });
        expect(await webhook({ ...body, events: ['purchase.paid'] })).toMatchObject({ all_events: false });
        expectError(await api.post('/webhooks/', body), 'events', 'required', { alone: true });
      }),
  );

  check(
    {
      id: 'WH-OWN-PUBLIC-KEY',
      title: 'each webhook answers a public_key of its own (PEM), neither another webhook\'s nor the account\'s',
      cites: `openapi.yaml#/components/schemas/WebhookFields/properties/public_key; ${FIDELITY}`,
      level: 'informative',
    },
    async ({ api }) =>
      withWebhooks(api, async (webhook) => {
        const body = { callback: 'http://127.0.0.1:9/hook', events: ['purchase.paid'] };
        const [one, two] = [await webhook(body), await webhook(body)];
        expect(one.public_key).toMatch(PEM);
        expect(two.public_key).toMatch(PEM);
        expect(one.public_key).not.toBe(two.public_key);
        expect(one.public_key).not.toBe((await api.get('/public_key/')).body);
        expect((await api.get(`/webhooks/${one.id}/`)).body.public_key).toBe(one.public_key);
      }),
  );

  check(
    {
      id: 'WH-SIGNED-BY-OWN-KEY',
      title: 'deliveries are signed with the webhook\'s own key; an all_events webhook receives the platform\'s events only',
      cites: `openapi.yaml#/webhooks/event/post; ${FIDELITY}`,
      level: 'informative',
    },
    async ({ api, target, skip }) => {
      const receiver = await startReceiver();
      try {
        await withWebhooks(api, async (webhook) => {
          const chosen = await webhook({ callback: receiver.url('/chosen'), events: ['purchase.created'] });
          const all = await webhook({ callback: receiver.url('/all'), all_events: true });
          const { account, client } = await mainClient(api);
          const purchase = await createPurchase(account, client.id);
          const of = (path: string) => receiver.deliveries(path).filter((d) => d.body?.id === purchase.id);
          const both = await awaitDelivery(() => (of('/chosen').length && of('/all').length ? true : undefined));
          if (!both && !isLocal(target.baseUrl)) skip(`no delivery reached the receiver the check started on 127.0.0.1 (the target at ${target.origin} cannot reach this machine)`);
          const [toChosen] = of('/chosen');
          const [toAll] = of('/all');
          expect(toChosen?.body?.event_type, 'the webhook of purchase.created receives it').toBe('purchase.created');
          expect(toAll?.body?.event_type, 'the all_events webhook receives purchase.created').toBe('purchase.created');
          expect(verifies(toChosen!, chosen.public_key), "signed with the webhook's own key").toBe(true);
          expect(verifies(toChosen!, all.public_key), "not with another webhook's").toBe(false);
          expect(verifies(toAll!, all.public_key), "signed with the all_events webhook's own key").toBe(true);
          const names = platformEvents();
          const foreign = receiver.deliveries('/all').map((d) => d.body?.event_type).filter((name) => !names.includes(name));
          expect(foreign, "event names that are not the platform's").toEqual([]);
        });
      } finally {
        await receiver.close();
      }
    },
  );
});
