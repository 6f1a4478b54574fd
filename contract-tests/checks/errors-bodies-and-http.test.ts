// Errors and request handling: bodies that are not JSON or not an object, the error body, and the HTTP
// conveniences of docs/behaviour.md (#paths, #cors, #status-codes: trailing slash, CORS, 405, 413). The
// spec leaves "Error status codes, error body shape and error codes" unshown, so statuses, codes and
// bodies are billing-sim's decisions (#error-body, #error-codes): informative. Normative is only what
// follows from the spec itself: a request body is "the … body shape above, JSON".

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { ERROR_BODY } from '../lib/citations.ts';
import type { Reply } from '../lib/client.ts';
import {
  brandId,
  clientBody,
  expectError,
  expectNotListed,
  expectRejected,
  monthlyTemplate,
  snapshot,
  unique,
  UNKNOWN_ID,
} from '../lib/primitives.ts';
import { makeTemplate } from '../lib/scenario.ts';

type Node = Record<string, any>;

// The spec: "Request: the BillingTemplate body shape above, JSON."
const JSON_BODY = 'docs/behaviour.md#requests: "Bodies are JSON"; openapi.yaml#createBillingTemplate';

/** Every 4xx body: a non-empty map from a field path to a non-empty list of {message, code}. */
function expectErrorBody(res: Reply, what: string): void {
  expect(res.headers['content-type'] ?? '', `${what}: content type`).toMatch(/^application\/json/);
  const body = res.body as Node;
  expect(body !== null && typeof body === 'object' && !Array.isArray(body), `${what}: the body is an object`).toBe(true);
  expect(Object.keys(body).length, `${what}: the body names at least one field or __all__`).toBeGreaterThan(0);
  for (const [field, errors] of Object.entries(body)) {
    expect(Array.isArray(errors) && errors.length > 0, `${what}: "${field}" maps to a non-empty list`).toBe(true);
    for (const error of errors as Node[]) {
      expect(Object.keys(error).sort(), `${what}: each error of "${field}" is {message, code}`).toEqual(['code', 'message']);
      expect(typeof error.message === 'string' && error.message.length > 0, `${what}: message`).toBe(true);
      expect(typeof error.code === 'string' && error.code.length > 0, `${what}: code`).toBe(true);
    }
  }
}

describe('errors', () => {
  // ------------------------------------------------------------------ bodies that are not JSON

  const TRUNCATED = (marker: string) => `{"brand_id": "${UNKNOWN_ID}", "title": "${marker}", "is_subscription": true, "purchase": {"currency": "EUR"`;
  const JSON_TYPE = { 'content-type': 'application/json' };

  check(
    {
      id: 'ERR-MALFORMED-JSON',
      title: 'A body that is not valid JSON is rejected (create and PATCH of a template) and changes nothing',
      cites: JSON_BODY,
    },
    async ({ api }) => {
      const marker = unique();
      expectRejected(await api.request('POST', '/billing_templates/', { raw: TRUNCATED(marker), headers: JSON_TYPE }), 'POST with truncated JSON');
      await expectNotListed(api, '/billing_templates/', 'title', marker);
      const template = await makeTemplate(api);
      const unchanged = await snapshot(api, `/billing_templates/${template.id}/`);
      expectRejected(await api.request('PATCH', `/billing_templates/${template.id}/`, { raw: `{"title": "${marker}",}`, headers: JSON_TYPE }), 'PATCH with a trailing comma');
      await unchanged();
    },
  );

  check(
    { id: 'ERR-MALFORMED-JSON-CODE', title: 'A body that is not valid JSON → 400, __all__: parse_error', cites: `${ERROR_BODY}; docs/behaviour.md#requests: "a body that is not JSON → 400 parse_error"`, level: 'informative' },
    async ({ api }) => {
      expectError(await api.request('POST', '/billing_templates/', { raw: TRUNCATED(unique()), headers: JSON_TYPE }), '__all__', 'parse_error');
      expectError(await api.request('POST', '/clients/', { raw: '{"email": "a@example.com"', headers: JSON_TYPE }), '__all__', 'parse_error');
    },
  );

  const NOT_OBJECTS = ['[]', 'null', '"template"', '42'];

  check(
    {
      id: 'ERR-NOT-AN-OBJECT',
      title: 'A JSON body that is not an object (array, null, string, number) is rejected',
      cites: `${JSON_BODY}; openapi.yaml#/components/schemas/BillingTemplateCreate/type: "object"`,
    },
    async ({ api }) => {
      for (const raw of NOT_OBJECTS) expectRejected(await api.request('POST', '/billing_templates/', { raw, headers: JSON_TYPE }), `POST ${raw}`);
    },
  );

  check(
    {
      id: 'ERR-NOT-AN-OBJECT-CODE',
      title: 'A JSON body that is not an object → 400, __all__: invalid (it is JSON, so not parse_error)',
      cites: `${ERROR_BODY}; docs/behaviour.md#requests: "a JSON value of the wrong kind (42 where an object belongs) → 400 invalid"`,
      level: 'informative',
    },
    async ({ api }) => {
      for (const raw of NOT_OBJECTS) expectError(await api.request('POST', '/billing_templates/', { raw, headers: JSON_TYPE }), '__all__', 'invalid');
    },
  );

  check(
    {
      id: 'ERR-UNSUPPORTED-MEDIA-TYPE',
      title: 'A body sent as text/plain → 400, __all__: unsupported_media_type, and nothing is created',
      cites: 'docs/behaviour.md#requests: "A body with another content type → 400 unsupported_media_type"',
      level: 'informative',
    },
    async ({ api }) => {
      const marker = unique();
      const res = await api.request('POST', '/clients/', { raw: JSON.stringify(clientBody({ email: `${marker}@example.com` })), headers: { 'content-type': 'text/plain' } });
      expectError(res, '__all__', 'unsupported_media_type');
      await expectNotListed(api, '/clients/', 'email', marker);
    },
  );

  check(
    {
      id: 'ERR-BODY-TOO-LARGE',
      title: 'A body larger than 1 MiB → 413, __all__: too_large, and nothing is created',
      cites: 'docs/behaviour.md#requests: "a body over 1 MiB → 413 too_large"; docs/behaviour.md#limits: "request body | 1 MiB | 413 too_large"',
      level: 'informative',
    },
    async ({ api }) => {
      const marker = unique();
      const res = await api.post('/clients/', { email: `${marker}@example.com`, full_name: 'x'.repeat(1_100_000) });
      expectError(res, '__all__', 'too_large', { status: 413 });
      await expectNotListed(api, '/clients/', 'email', marker);
    },
  );

  // ------------------------------------------------------------------------------ error body

  check(
    {
      id: 'ERR-BODY-SHAPE',
      title: 'Every error body (400, 401, 404, 405) is JSON mapping a field path or __all__ to a list of {message, code}',
      cites: 'docs/behaviour.md#error-body: "Every 4xx and 5xx answer has the same JSON body: a map from a field path to the list of that field\'s errors"',
      level: 'informative',
    },
    async ({ api }) => {
      const brand = await brandId(api);
      const replies: Array<[string, Reply]> = [
        ['400 out of range', await api.post('/billing_templates/', monthlyTemplate(brand, { subscription_period: 0, purchase: { currency: 'EUR', products: [{ name: 'x' }] } }))],
        ['400 parse error', await api.request('POST', '/clients/', { raw: '{', headers: JSON_TYPE })],
        ['401', await api.get('/clients/', { token: null })],
        ['404', await api.get(`/clients/${UNKNOWN_ID}/`)],
        ['405', await api.request('DELETE', '/payment_methods/')],
      ];
      for (const [what, res] of replies) {
        expect(res.status, what).toBe(Number(what.slice(0, 3)));
        expectErrorBody(res, what);
      }
      const out = replies[0]![1].body as Node;
      expect(out.subscription_period?.map((e: Node) => e.code), 'errors of several fields are all reported').toContain('min_value');
      expect(out['purchase.products.0.price']?.map((e: Node) => e.code)).toContain('required');
    },
  );

  check(
    {
      id: 'ERR-METHOD-NOT-ALLOWED',
      title: 'A method the path does not support → 405, __all__: method_not_allowed',
      cites: 'docs/behaviour.md#paths: "a known path with a method it does not support answers 405 with an Allow header"',
      level: 'informative',
    },
    async ({ api }) => {
      expectError(await api.request('DELETE', '/payment_methods/'), '__all__', 'method_not_allowed', { status: 405 });
      expectError(await api.request('PATCH', '/clients/', { body: {} }), '__all__', 'method_not_allowed', { status: 405 });
    },
  );

  // ----------------------------------------------------------------- HTTP conveniences

  check(
    {
      id: 'ERR-TRAILING-SLASH-OPTIONAL',
      title: 'Paths work without their trailing slash too (list, create, get, PATCH, DELETE)',
      cites: 'docs/behaviour.md#paths: "the same path without the trailing slash is accepted too"',
      level: 'informative',
    },
    async ({ api }) => {
      const list = await api.get('/clients');
      expect(list.status).toBe(200);
      expect(Array.isArray(list.body.results)).toBe(true);
      const created = await api.post('/clients', clientBody());
      expect(created.status).toBe(201);
      const got = await api.get(`/clients/${created.body.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(created.body);
      const template = await makeTemplate(api);
      const patched = await api.patch(`/billing_templates/${template.id}`, { title: 'No slash' });
      expect(patched.status).toBe(200);
      expect(patched.body.title).toBe('No slash');
      expect((await api.delete(`/clients/${created.body.id}`)).status).toBe(204);
    },
  );

  // A frontend's dev server: the simulator allows loopback origins by default (docs/behaviour.md#cors).
  const ORIGIN = 'http://localhost:5173';
  const allows = (value: string | undefined) => value === '*' || value === ORIGIN;

  check(
    {
      id: 'ERR-CORS-HEADER',
      title: 'Every response carries Access-Control-Allow-Origin for a browser origin (200, 401, 404)',
      cites: 'docs/behaviour.md#cors: "Pages on localhost origins … may call the API directly: their answers carry Access-Control-Allow-Origin"',
      level: 'informative',
    },
    async ({ api }) => {
      const headers = { origin: ORIGIN };
      for (const [what, res] of [
        ['200', await api.get('/clients/?page_size=1', { headers })],
        ['401', await api.get('/clients/', { headers, token: null })],
        ['404', await api.get(`/clients/${UNKNOWN_ID}/`, { headers })],
      ] as Array<[string, Reply]>) {
        expect(allows(res.headers['access-control-allow-origin']), `${what}: Access-Control-Allow-Origin is "*" or the origin; got ${res.headers['access-control-allow-origin']}`).toBe(true);
      }
    },
  );

  check(
    {
      id: 'ERR-CORS-PREFLIGHT',
      title: 'An OPTIONS preflight is answered 204 with the allowed methods and the Authorization and Content-Type headers',
      cites: 'docs/behaviour.md#cors: "a preflight OPTIONS is answered 204 with the allowed methods and the headers Authorization and Content-Type"',
      level: 'informative',
    },
    async ({ api }) => {
      const res = await api.request('OPTIONS', '/billing_templates/', {
        token: null,
        headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
      });
      expect(res.status).toBe(204);
      expect(allows(res.headers['access-control-allow-origin'])).toBe(true);
      const methods = (res.headers['access-control-allow-methods'] ?? '').toUpperCase();
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) expect(methods, 'Access-Control-Allow-Methods').toContain(method);
      const allowed = (res.headers['access-control-allow-headers'] ?? '').toLowerCase();
      expect(allowed, 'Access-Control-Allow-Headers').toContain('authorization');
      expect(allowed, 'Access-Control-Allow-Headers').toContain('content-type');
    },
  );
});
