// The server's behaviour around the operations: errors for bad requests of every kind, CORS,
// trailing slashes, the request log. DESIGN.md §3 "Server" and "Errors".

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { clientBody } from '../builders/templates.ts';

const h = useHarness();

const errorBody = (body: unknown) => body as Record<string, { message: string; code: string }[]>;

describe('server', () => {
  it('GET /favicon.ico answers 204 without a body: no console error and no 404 line for every page a browser opens', async () => {
    const res = await fetch(`${h.origin}/favicon.ico`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('GET /healthz answers 200 without a token', async () => {
    const res = await h.request('GET', '/healthz', { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('an unknown path is a 404 with the error body', async () => {
    const res = await h.request('GET', '/api/v1/nothing_here/');
    expect(res.status).toBe(404);
    expect(errorBody(res.body).__all__?.[0]?.code).toBe('not_found');
  });

  it('a wrong method is a 405 naming the allowed ones', async () => {
    const res = await h.request('DELETE', '/api/v1/clients/');
    expect(res.status).toBe(405);
    expect(res.headers.allow?.split(', ').sort()).toEqual(['GET', 'POST']);
    expect(errorBody(res.body).__all__?.[0]?.code).toBe('method_not_allowed');
  });

  it('malformed JSON is a 400 parse_error and creates nothing', async () => {
    const res = await h.request('POST', '/api/v1/clients/', { raw: '{"email": "a@example.com",', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(errorBody(res.body).__all__?.[0]?.code).toBe('parse_error');
    const list = await h.request('GET', '/api/v1/clients/');
    expect((list.body as { results: unknown[] }).results).toEqual([]);
  });

  it('a body that is not JSON is a 400 unsupported_media_type', async () => {
    const res = await h.request('POST', '/api/v1/clients/', { raw: 'email=a@example.com', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(400);
    expect(errorBody(res.body).__all__?.[0]?.code).toBe('unsupported_media_type');
  });

  it('a body over 1 MiB is a 413 with the error body', async () => {
    const raw = JSON.stringify({ email: 'a@example.com', full_name: 'x'.repeat(1024 * 1024) });
    const res = await h.request('POST', '/api/v1/clients/', { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(errorBody(res.body).__all__?.[0]?.code).toBe('too_large');
  });

  it('a body field the operation does not define is a 400 unknown_field in a strict sandbox, and ignored and named otherwise', async () => {
    const { token } = await h.newSandbox({ strict: true });
    const res = await h.request('POST', '/api/v1/clients/', { token, body: clientBody({ emial: 'typo@example.com' }) });
    expect(res.status).toBe(400);
    expect(errorBody(res.body)).toEqual({ emial: [{ message: expect.any(String), code: 'unknown_field' }] });
    const lenient = await h.request('POST', '/api/v1/clients/', { body: clientBody({ emial: 'typo@example.com' }) });
    expect(lenient.status).toBe(201);
    expect(lenient.headers['billing-sim-ignored']).toBe('emial');
  });

  it('a JSON array or scalar where an object belongs is a 400, never a 500', async () => {
    for (const raw of ['[]', '[1,2]', '"text"', 'null', '42']) {
      const res = await h.request('POST', '/api/v1/billing_templates/', { raw, headers: { 'content-type': 'application/json' } });
      expect(res.status, raw).toBe(400);
    }
  });

  it('the same path without the trailing slash is accepted', async () => {
    const res = await h.request('GET', '/api/v1/clients');
    expect(res.status).toBe(200);
  });

  it('a `//` in a path is read as `/` (DESIGN.md §11): `/api/v1/clients//` is the list; a path that names nothing still 404s', async () => {
    const doubled = await fetch(`${h.origin}/api/v1/clients//`, { headers: { authorization: `Bearer ${h.token}` } });
    expect(doubled.status).toBe(200);
    expect(await doubled.json()).toEqual((await h.request('GET', '/api/v1/clients/')).body);
    expect((await h.request('GET', '/api/v1//clients//nothing/')).status).toBe(404);
  });

  it('an answer says application/json; charset=utf-8 with its length in bytes, and HEAD sends the same headers without the body', async () => {
    await h.request('POST', '/api/v1/clients/', { body: clientBody({ full_name: 'Zoë Ünal' }) });
    const get = await h.request('GET', '/api/v1/clients/');
    expect(get.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(get.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(get.body)));
    const head = await fetch(`${h.origin}/api/v1/clients/`, { method: 'HEAD', headers: { authorization: `Bearer ${h.token}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(head.headers.get('content-length')).toBe(get.headers['content-length']);
    expect(await head.text()).toBe('');
  });

  it('an id that is not a UUID is "not found", like an unknown one', async () => {
    expect((await h.request('GET', '/api/v1/clients/not-a-uuid/')).status).toBe(404);
    expect((await h.request('GET', '/api/v1/clients/6b042125-686a-43e0-8a68-23cf5bee102e/')).status).toBe(404);
  });

  it('answers CORS preflights from a localhost origin with the methods and headers', async () => {
    const res = await h.request('OPTIONS', '/api/v1/billing_templates/', {
      token: null,
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.headers['access-control-allow-methods']).toContain('PATCH');
    expect(res.headers['access-control-allow-headers']).toBe('Authorization,Content-Type');
  });

  it('every response carries Access-Control-Allow-Origin, errors included', async () => {
    const res = await h.request('GET', '/api/v1/clients/', { token: null, headers: { origin: 'http://localhost:3000' } });
    expect(res.status).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });

  it('logs one readable line per request: ISO time, sandbox id, method, path, status, ms, first error of a 4xx', async () => {
    h.logs.length = 0;
    const before = Date.now();
    await h.request('POST', '/api/v1/clients/', { body: {} });
    await h.request('GET', '/api/v1/clients/', { token: null });
    expect(h.logs).toHaveLength(2);
    const [time, ...rest] = h.logs[0]!.split(' ');
    expect(new Date(time!).toISOString()).toBe(time);
    expect(Date.parse(time!)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(time!)).toBeLessThanOrEqual(Date.now());
    expect(rest.join(' ')).toMatch(new RegExp(`^${h.sandboxId} POST /api/v1/clients/ 400 \\d+\\.\\dms email: required$`));
    // Without a valid token no sandbox is known.
    expect(h.logs[1]).toMatch(/^\S+Z - GET \/api\/v1\/clients\/ 401 /);
  });

  it('query parameters out of bounds are a 400 naming the parameter', async () => {
    const res = await h.request('GET', '/api/v1/clients/?page_size=1001');
    expect(res.status).toBe(400);
    expect(Object.keys(errorBody(res.body))).toEqual(['page_size']);
    expect((await h.request('GET', '/api/v1/clients/?page=0')).status).toBe(400);
    expect((await h.request('GET', '/api/v1/clients/?page=abc')).status).toBe(400);
  });
});
