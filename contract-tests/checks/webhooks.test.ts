// Webhooks and the signing key. The spec: "Events and webhooks: not shown", so every check here is
// informative: it reports billing-sim's interface (docs/behaviour.md#webhooks) as a warning when a
// target lacks it.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';

const cites = 'docs/behaviour.md#webhooks: "registers a receiver", "The key is one per sandbox"; docs/behaviour.md#put-and-patch: "webhooks only PUT"; openapi.yaml#createWebhook; openapi.yaml#getPublicKey';

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

  check({ id: 'WH-PUBLIC-KEY', title: 'GET /public_key/ gives the PEM key that signs deliveries', cites, level: 'informative' }, async ({ api }) => {
    const res = await api.get('/public_key/');
    expect(res.status).toBe(200);
    expect(res.body.public_key).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });
});
