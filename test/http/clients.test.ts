// /api/v1/clients/: CRUD and pagination, newest first, absolute next/previous links.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { clientBody } from '../builders/templates.ts';

const h = useHarness();

interface Client {
  id: string;
  type: string;
  email: string;
  full_name: string;
  phone: string;
  cc: string[];
  created_on: number;
  updated_on: number;
}
interface List<T> {
  results: T[];
  next: string | null;
  previous: string | null;
}

describe('clients', () => {
  it('creates a client with defaults and reads it back', async () => {
    const created = await h.request('POST', '/api/v1/clients/', { body: clientBody() });
    expect(created.status).toBe(201);
    const client = created.body as Client;
    expect(client).toMatchObject({ type: 'client', email: 'ada@example.com', full_name: 'Ada Lovelace', phone: '', cc: [] });
    expect(client.created_on).toBe(Math.floor(Date.parse('2026-01-30T12:00:00Z') / 1000));
    const read = await h.request('GET', `/api/v1/clients/${client.id}/`);
    expect(read.body).toEqual(client);
  });

  it('PUT replaces, PATCH changes only what it sends, DELETE removes', async () => {
    const { token } = await h.newSandbox({ frozen: false });
    const { id } = (await h.request('POST', '/api/v1/clients/', { token, body: clientBody({ phone: '+44 20 7946 0000' }) })).body as Client;
    h.wall.ms += 60_000;
    const put = await h.request('PUT', `/api/v1/clients/${id}/`, { token, body: { email: 'grace@example.com' } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id, email: 'grace@example.com', full_name: '', phone: '' });
    expect((put.body as Client).updated_on).toBeGreaterThan((put.body as Client).created_on);
    const patch = await h.request('PATCH', `/api/v1/clients/${id}/`, { token, body: { full_name: 'Grace Hopper' } });
    expect(patch.body).toMatchObject({ email: 'grace@example.com', full_name: 'Grace Hopper' });
    const missing = await h.request('PUT', `/api/v1/clients/${id}/`, { token, body: { full_name: 'No e-mail' } });
    expect(missing.status).toBe(400);
    // Platform: "Either an email or (bank_account and bank_code)".
    expect(missing.body).toEqual({ email: [{ message: 'An e-mail, or a bank_account with its bank_code, is required.', code: 'required' }] });
    expect((await h.request('GET', `/api/v1/clients/${id}/`, { token })).body).toMatchObject({ full_name: 'Grace Hopper' });
    expect((await h.request('DELETE', `/api/v1/clients/${id}/`, { token })).status).toBe(204);
    expect((await h.request('GET', `/api/v1/clients/${id}/`, { token })).status).toBe(404);
    expect((await h.request('DELETE', `/api/v1/clients/${id}/`, { token })).status).toBe(404);
  });

  it('rejects a bad e-mail and, in a strict sandbox, a changed read-only id, and changes nothing', async () => {
    const { token } = await h.newSandbox({ strict: true });
    const { id } = (await h.request('POST', '/api/v1/clients/', { token, body: clientBody({ email: 'keep@example.com' }) })).body as Client;
    const bad = await h.request('PATCH', `/api/v1/clients/${id}/`, { token, body: { email: 'not an e-mail' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body as object)).toEqual(['email']);
    const readOnly = await h.request('PATCH', `/api/v1/clients/${id}/`, { token, body: { id: '6b042125-686a-43e0-8a68-23cf5bee102e', full_name: 'Changed?' } });
    expect(readOnly.status).toBe(400);
    expect((readOnly.body as Record<string, { code: string }[]>).id?.[0]?.code).toBe('read_only');
    expect(((await h.request('GET', `/api/v1/clients/${id}/`, { token })).body as Client)).toMatchObject({ email: 'keep@example.com', full_name: 'Ada Lovelace' });
  });

  it('a changed read-only id is ignored (named in Billing-Sim-Ignored): the client keeps its id, the rest of the PATCH applies', async () => {
    const { id } = (await h.request('POST', '/api/v1/clients/', { body: clientBody({ email: 'kept-id@example.com' }) })).body as Client;
    const patched = await h.request('PATCH', `/api/v1/clients/${id}/`, { body: { id: '6b042125-686a-43e0-8a68-23cf5bee102e', full_name: 'Changed' } });
    expect(patched.status).toBe(200);
    expect(patched.headers['billing-sim-ignored']).toBe('id');
    expect(((await h.request('GET', `/api/v1/clients/${id}/`)).body as Client)).toMatchObject({ id, email: 'kept-id@example.com', full_name: 'Changed' });
  });

  it('lists newest first in pages with absolute next and previous links', async () => {
    const { token } = await h.newSandbox();
    for (let i = 0; i < 5; i += 1) {
      await h.request('POST', '/api/v1/clients/', { token, body: clientBody({ email: `c${i}@example.com` }) });
    }
    const first = (await h.request('GET', '/api/v1/clients/?page_size=2', { token })).body as List<Client>;
    expect(first.results.map((c) => c.email)).toEqual(['c4@example.com', 'c3@example.com']);
    expect(first.previous).toBeNull();
    expect(first.next).toBe(`${h.origin}/api/v1/clients/?page=2&page_size=2`);
    const second = (await h.request('GET', first.next!.slice(h.origin.length), { token })).body as List<Client>;
    expect(second.results.map((c) => c.email)).toEqual(['c2@example.com', 'c1@example.com']);
    expect(second.previous).toBe(`${h.origin}/api/v1/clients/?page=1&page_size=2`);
    const last = (await h.request('GET', '/api/v1/clients/?page=3&page_size=2', { token })).body as List<Client>;
    expect(last.results.map((c) => c.email)).toEqual(['c0@example.com']);
    expect(last.next).toBeNull();
    const beyond = (await h.request('GET', '/api/v1/clients/?page=9&page_size=2', { token })).body as List<Client>;
    expect(beyond.results).toEqual([]);
  });
});
