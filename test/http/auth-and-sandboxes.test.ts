// DESIGN.md §3 "Authentication and sandboxes": bearer JWTs per sandbox, 401s, isolation, the
// default sandbox and its stable token.

import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { loadSpec } from '../../src/contract/spec.ts';
import { createIds } from '../../src/engine/ids.ts';
import { createApp } from '../../src/http/app.ts';
import { DEFAULT_SECRET } from '../../src/http/auth.ts';
import { MemoryStore } from '../../src/store/store.ts';
import { startSimulator } from '../../src/index.ts';
import { useHarness } from '../support/harness.ts';
import { clientBody, subscriptionBody } from '../builders/templates.ts';

const h = useHarness();

const sign = (claims: { sub?: string; exp?: number }, secret = DEFAULT_SECRET) => {
  const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('billing-sim');
  if (claims.sub) jwt.setSubject(claims.sub);
  if (claims.exp) jwt.setExpirationTime(claims.exp);
  return jwt.sign(new TextEncoder().encode(secret));
};

const codeOf = (body: unknown) => (body as Record<string, { code: string }[]>).__all__?.[0]?.code;

describe('authentication', () => {
  it('a missing token is a 401 not_authenticated', async () => {
    const res = await h.request('GET', '/api/v1/billing_templates/', { token: null });
    expect(res.status).toBe(401);
    expect(codeOf(res.body)).toBe('not_authenticated');
  });

  it('a malformed, badly signed, expired or foreign token is a 401 authentication_failed', async () => {
    const tokens = {
      malformed: 'not.a.jwt',
      badlySigned: await sign({ sub: h.sandboxId }, 'another secret'),
      expired: await sign({ sub: h.sandboxId, exp: Math.floor(h.wall.ms / 1000) - 60 }),
      unknownSandbox: await sign({ sub: '6b042125-686a-43e0-8a68-23cf5bee102e' }),
      noSubject: await sign({}),
    };
    for (const [name, token] of Object.entries(tokens)) {
      const res = await h.request('GET', '/api/v1/clients/', { token });
      expect(res.status, name).toBe(401);
      expect(codeOf(res.body), name).toBe('authentication_failed');
    }
    const basic = await h.request('GET', '/api/v1/clients/', { token: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(basic.status).toBe(401);
  });

  it('a token that expires later is accepted, and refused once it has expired', async () => {
    const token = await sign({ sub: h.sandboxId, exp: Math.floor(h.wall.ms / 1000) + 3600 });
    expect((await h.request('GET', '/api/v1/clients/', { token })).status).toBe(200);
    const saved = h.wall.ms;
    h.wall.ms += 3601_000;
    try {
      const expired = await h.request('GET', '/api/v1/clients/', { token });
      expect(expired.status).toBe(401);
      expect(codeOf(expired.body)).toBe('authentication_failed');
    } finally {
      h.wall.ms = saved;
    }
  });

  it('authentication comes before validation: a bad body without a token is a 401', async () => {
    const res = await h.request('POST', '/api/v1/billing_templates/', { token: null, body: { nonsense: true } });
    expect(res.status).toBe(401);
  });
});

describe('sandboxes', () => {
  it('POST /sim/v1/sandboxes creates a frozen, empty sandbox at the given instant', async () => {
    const res = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { now: '2024-02-29T23:30:00-08:00' } });
    expect(res.status).toBe(201);
    const body = res.body as { id: string; token: string; brand_id: string; clock: { now: string; frozen: boolean } };
    expect(body.clock).toEqual({ now: '2024-03-01T07:30:00.000Z', frozen: true });
    const clients = await h.request('GET', '/api/v1/clients/', { token: body.token });
    expect((clients.body as { results: unknown[] }).results).toEqual([]);
    const clock = await h.request('GET', '/sim/v1/clock', { token: body.token });
    expect(clock.body).toEqual({ now: '2024-03-01T07:30:00.000Z', frozen: true });
  });

  it('a sandbox created with fixtures has clients and a subscription and a one-time template', async () => {
    const { token } = await h.newSandbox({ fixtures: true, seed: 5 });
    const clients = (await h.request('GET', '/api/v1/clients/', { token })).body as { results: { email: string }[] };
    expect(clients.results.length).toBeGreaterThanOrEqual(3);
    const templates = (await h.request('GET', '/api/v1/billing_templates/', { token })).body as { results: { is_subscription: boolean }[] };
    expect(templates.results.map((t) => t.is_subscription).sort()).toEqual([false, true]);
  });

  it('objects of one sandbox are invisible to another: reading or changing them is a 404', async () => {
    const client = await h.request('POST', '/api/v1/clients/', { body: clientBody() });
    const template = await h.request('POST', '/api/v1/billing_templates/', { body: subscriptionBody(h.brandId) });
    const other = await h.newSandbox();
    const clientId = (client.body as { id: string }).id;
    const templateId = (template.body as { id: string }).id;
    expect((await h.request('GET', `/api/v1/clients/${clientId}/`, { token: other.token })).status).toBe(404);
    expect((await h.request('PATCH', `/api/v1/clients/${clientId}/`, { token: other.token, body: { full_name: 'Mallory' } })).status).toBe(404);
    expect((await h.request('DELETE', `/api/v1/clients/${clientId}/`, { token: other.token })).status).toBe(404);
    expect((await h.request('GET', `/api/v1/billing_templates/${templateId}/`, { token: other.token })).status).toBe(404);
    expect((await h.request('PUT', `/api/v1/billing_templates/${templateId}/`, { token: other.token, body: subscriptionBody(other.brandId) })).status).toBe(404);
    const list = await h.request('GET', '/api/v1/billing_templates/', { token: other.token });
    expect((list.body as { results: unknown[] }).results).toEqual([]);
    // Nor can a template of the other sandbox use this sandbox's brand.
    const foreignBrand = await h.request('POST', '/api/v1/billing_templates/', { token: other.token, body: subscriptionBody(h.brandId) });
    expect(foreignBrand.status).toBe(400);
    expect(Object.keys(foreignBrand.body as object)).toEqual(['brand_id']);
    // And nothing was changed by the foreign attempts.
    expect(((await h.request('GET', `/api/v1/clients/${clientId}/`)).body as { full_name: string }).full_name).toBe('Ada Lovelace');
  });

  it('GET /sim/v1/capabilities claims only what the simulator simulates', async () => {
    const res = await h.request('GET', '/sim/v1/capabilities');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ clock: true, payments: true, events: true });
  });

  it('PATCH /sim/v1/clock freezes and unfreezes without a jump', async () => {
    const { token } = await h.newSandbox({ now: '2026-12-31T23:59:00Z', frozen: true });
    const running = await h.request('PATCH', '/sim/v1/clock', { token, body: { frozen: false } });
    expect(running.body).toEqual({ now: '2026-12-31T23:59:00.000Z', frozen: false });
    h.wall.ms += 120_000;
    const later = await h.request('GET', '/sim/v1/clock', { token });
    expect(later.body).toEqual({ now: '2027-01-01T00:01:00.000Z', frozen: false });
    const frozen = await h.request('PATCH', '/sim/v1/clock', { token, body: { frozen: true } });
    h.wall.ms += 120_000;
    expect(frozen.body).toEqual({ now: '2027-01-01T00:01:00.000Z', frozen: true });
    expect((await h.request('GET', '/sim/v1/clock', { token })).body).toEqual({ now: '2027-01-01T00:01:00.000Z', frozen: true });
  });

  it('POST /sim/v1/reset empties the sandbox and seeds its fixtures again', async () => {
    const { token, id } = await h.newSandbox({ fixtures: true, seed: 9 });
    const before = (await h.request('GET', '/api/v1/clients/', { token })).body as { results: { email: string }[] };
    await h.request('POST', '/api/v1/clients/', { token, body: clientBody({ email: 'extra@example.com' }) });
    const reset = await h.request('POST', '/sim/v1/reset', { token });
    expect(reset.status).toBe(200);
    expect((reset.body as { id: string }).id).toBe(id);
    const after = (await h.request('GET', '/api/v1/clients/', { token })).body as { results: { email: string }[] };
    expect(after.results.map((c) => c.email)).toEqual(before.results.map((c) => c.email));
  });

  it('an operation the document describes but no handler simulates answers 501 not_implemented, never a fake success', async () => {
    // The document can grow before the simulator does: add an operation to a copy of it.
    const spec = loadSpec();
    spec.paths = { ...spec.paths, '/api/v1/future/': { get: { operationId: 'futureOperation', responses: { '200': { description: 'later' } } } } };
    const { express } = createApp({ store: new MemoryStore(), clock: h.wall, ids: createIds(1), spec });
    const server = express.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const sandbox = await fetch(`http://127.0.0.1:${port}/sim/v1/sandboxes`, { method: 'POST' });
      const { token } = (await sandbox.json()) as { token: string };
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/future/`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(501);
      expect(codeOf(await res.json())).toBe('not_implemented');
    } finally {
      server.close();
    }
  });
});

describe('the default sandbox', () => {
  it('its token, id and brand are stable across restarts with the same seed and secret', async () => {
    const first = await startSimulator({ port: 0, quiet: true });
    await first.stop();
    const second = await startSimulator({ port: 0, quiet: true });
    try {
      expect(second.token).toBe(first.token);
      expect(second.brandId).toBe(first.brandId);
      const res = await fetch(`${second.apiUrl}/clients/`, { headers: { authorization: `Bearer ${first.token}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
    } finally {
      await second.stop();
    }
  });

  it('a different secret gives a different token, and the old one is refused', async () => {
    const sim = await startSimulator({ port: 0, quiet: true, secret: 'rotated' });
    try {
      const other = await startSimulator({ port: 0, quiet: true });
      await other.stop();
      expect(sim.token).not.toBe(other.token);
      const res = await fetch(`${sim.apiUrl}/clients/`, { headers: { authorization: `Bearer ${other.token}` } });
      expect(res.status).toBe(401);
    } finally {
      await sim.stop();
    }
  });
});
