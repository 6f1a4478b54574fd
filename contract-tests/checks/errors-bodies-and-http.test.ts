// Errors and request handling: bodies that are not JSON or not an object, the error body, and the HTTP
// conveniences of docs/behaviour.md (#paths, #cors, #status-codes: trailing slash, CORS, 405, 413). The
// spec leaves "Error status codes, error body shape and error codes" unshown; the platform's own
// evidence fixes them (docs/behaviour.md#error-body, #status-codes): it is a Django REST framework
// service whose SDKs read every error answer as a map from a field, or `__all__`, to a list of
// {message, code}. Those rules are normative, and so is the code where Django REST framework has one
// (parse_error, method_not_allowed). What only billing-sim decides is informative: its codes and
// statuses where Django REST framework answers otherwise (400 unsupported_media_type, where it answers
// 415), the body limit (413), the dotted path of a nested field, a path without its trailing slash,
// and CORS, which the platform does not enable.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import type { Reply } from '../lib/client.ts';
import {
  brandId,
  clientBody,
  expectError,
  expectErrorAt,
  expectNotListed,
  monthlyTemplate,
  snapshot,
  unique,
  UNKNOWN_ID,
} from '../lib/primitives.ts';
import { REFUSAL_BODY } from '../lib/refusal.ts';
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
      title: 'A body that is not valid JSON (create and PATCH of a template, create of a client) → 400, __all__: parse_error, and changes nothing',
      cites: `${JSON_BODY}; ${REFUSAL_BODY}; docs/behaviour.md#requests: "a body that is not JSON → 400 parse_error"`,
    },
    async ({ api }) => {
      const marker = unique();
      expectError(await api.request('POST', '/billing_templates/', { raw: TRUNCATED(marker), headers: JSON_TYPE }), '__all__', 'parse_error');
      await expectNotListed(api, '/billing_templates/', 'title', marker);
      const template = await makeTemplate(api);
      const unchanged = await snapshot(api, `/billing_templates/${template.id}/`);
      expectError(await api.request('PATCH', `/billing_templates/${template.id}/`, { raw: `{"title": "${marker}",}`, headers: JSON_TYPE }), '__all__', 'parse_error');
      await unchanged();
      expectError(await api.request('POST', '/clients/', { raw: '{"email": "a@example.com"', headers: JSON_TYPE }), '__all__', 'parse_error');
    },
  );

  // A JSON body that is not an object: Django REST framework refuses it as `invalid` ("Invalid data.
  // Expected a dictionary"), and `null` as no data at all (`null`).
  const NOT_OBJECTS: Array<[raw: string, codes: string[]]> = [
    ['[]', ['invalid']],
    ['null', ['invalid', 'null']],
    ['true', ['invalid']],
    ['42', ['invalid']],
  ];

  check(
    {
      id: 'ERR-NOT-AN-OBJECT',
      title: 'A JSON body that is not an object (array, null, boolean, number) → 400, __all__: invalid (it is JSON, so not parse_error)',
      cites: `${JSON_BODY}; openapi.yaml#/components/schemas/BillingTemplateCreate/type: "object"; ${REFUSAL_BODY}; docs/behaviour.md#requests: "a JSON value of the wrong kind (42 where an object belongs) → 400 invalid"`,
    },
    async ({ api }) => {
      for (const [raw, codes] of NOT_OBJECTS) {
        expectErrorAt(
          await api.request('POST', '/billing_templates/', { raw, headers: JSON_TYPE }),
          codes.map((code) => ['__all__', code] as const),
        );
      }
    },
  );

  check(
    {
      id: 'ERR-UNSUPPORTED-MEDIA-TYPE',
      title: 'A body sent as text/plain → 400, __all__: unsupported_media_type, and nothing is created',
      // Django REST framework answers 415 here; the 400 is billing-sim's.
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
      // The platform's limit on a body is not published (docs/behaviour.md#status-codes).
      cites: 'docs/behaviour.md#requests: "a body over 1 MiB → 413 too_large"; docs/behaviour.md#limits: "request body | 1 MiB | 413 too_large"; docs/behaviour.md#status-codes: "its limit on a body\'s size, are not published"',
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
      title: 'Every error body (400, 401, 404, 405) is JSON mapping a field or __all__ to a list of {message, code}; a 400 names every bad field',
      cites: `docs/behaviour.md#error-body: "Every 4xx and 5xx answer has the same JSON body: a map from a field path to the list of that field's errors"; ${REFUSAL_BODY}; docs/behaviour.md#requests: "One response names every bad field it found, not only the first"`,
    },
    async ({ api }) => {
      const brand = await brandId(api);
      const replies: Array<[string, Reply]> = [
        ['400 out of range', await api.post('/billing_templates/', monthlyTemplate(brand, { subscription_period: 0, subscription_trial_periods: 257 }))],
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
      expect(out.subscription_trial_periods?.map((e: Node) => e.code), 'errors of several fields are all reported').toContain('max_value');
    },
  );

  check(
    {
      id: 'ERR-BODY-NESTED-PATH',
      title: 'An error of a nested field is named by its dotted path, array positions as numbers (purchase.products.0.price: required)',
      cites: 'docs/behaviour.md#error-body: "A field path is dotted, with array positions as numbers", "The dotted path is billing-sim\'s"',
      level: 'informative',
    },
    async ({ api }) => {
      const res = await api.post('/billing_templates/', monthlyTemplate(await brandId(api), { purchase: { currency: 'EUR', products: [{ name: 'x' }] } }));
      expectError(res, 'purchase.products.0.price', 'required');
    },
  );

  check(
    {
      id: 'ERR-METHOD-NOT-ALLOWED',
      title: 'A method the path does not support → 405, __all__: method_not_allowed',
      cites: `docs/behaviour.md#paths: "a known path with a method it does not support answers 405 with an Allow header"; docs/behaviour.md#status-codes: "405 for a method a path lacks"; ${REFUSAL_BODY}`,
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
