// Errors and request handling: unknown body fields, bodies that are not JSON or not an object,
// unknown ids, the error body, and the HTTP conveniences of DESIGN.md §3 (trailing slash, CORS, 405,
// 413). The spec leaves "Error status codes, error body shape and error codes" unshown, so statuses,
// codes and bodies are DESIGN.md decisions: informative. Normative are only what follows from the spec
// itself: a request body is "the … body shape above, JSON", and an id that does not exist cannot be
// read or changed.
//
// Unknown fields: the spec says nothing of them; DESIGN.md §3 rejects them ("a misspelt field in a
// billing request must not pass silently"), so both checks of each operation are informative: the
// rejection with nothing changed (ERR-UNKNOWN-FIELD-<operationId>) and the 400 unknown_field
// (…-CODE). Every API operation of openapi.yaml with a request body gets a -CODE check; those whose
// valid body the suite can build also get the rejection check.

import { describe, expect } from 'vitest';
import { check, type CheckContext } from '../lib/check.ts';
import type { ApiClient, Reply } from '../lib/client.ts';
import { document, fillPath, operations } from '../lib/operations.ts';
import {
  brandId,
  clientBody,
  expectError,
  expectNotListed,
  expectRejected,
  later,
  monthlyTemplate,
  purchaseDetails,
  subscriberBody,
  unique,
  UNKNOWN_ID,
} from '../lib/primitives.ts';
import { makeClient, makeOneTimeTemplate, makeTemplate, subscribe } from '../lib/scenario.ts';

type Node = Record<string, any>;

const ERRORS = 'DESIGN.md §3 Errors';
const UNKNOWN_FIELD = `${ERRORS}: "A request body field that the operation does not define is rejected (400, code unknown_field)"`;
const JSON_BODY = 'Spec, Create a BillingTemplate: "Request: the BillingTemplate body shape above, JSON."';

const withoutUpdatedOn = ({ updated_on, ...rest }: Node) => rest;

async function snapshot(api: ApiClient, path: string): Promise<() => Promise<void>> {
  const before = (await api.get(path)).body as Node;
  return async () => {
    const after = await api.get(path);
    expect(after.status, `GET ${path}`).toBe(200);
    expect(withoutUpdatedOn(after.body), `a rejected request must change nothing at ${path}`).toEqual(withoutUpdatedOn(before));
  };
}

/** A valid request of an operation, a misspelt field to add to it, and how to see that nothing changed. */
interface Valid {
  path: string;
  body: Node;
  misspelt: string;
  nothingChanged(): Promise<void>;
}

const VALID: Record<string, (ctx: CheckContext) => Promise<Valid>> = {
  async createClient({ api }) {
    const marker = unique();
    return {
      path: '/clients/',
      body: clientBody({ email: `${marker}@example.com` }),
      misspelt: 'fullname',
      nothingChanged: () => expectNotListed(api, '/clients/', 'email', marker),
    };
  },
  async updateClient({ api }) {
    const client = await makeClient(api);
    const path = `/clients/${client.id}/`;
    return { path, body: clientBody({ full_name: 'Changed' }), misspelt: 'zipcode', nothingChanged: await snapshot(api, path) };
  },
  async patchClient({ api }) {
    const client = await makeClient(api);
    const path = `/clients/${client.id}/`;
    return { path, body: { full_name: 'Changed' }, misspelt: 'phone_number', nothingChanged: await snapshot(api, path) };
  },
  async createBillingTemplate({ api }) {
    const marker = unique();
    return {
      path: '/billing_templates/',
      body: monthlyTemplate(await brandId(api), { title: marker }),
      misspelt: 'subscription_periods',
      nothingChanged: () => expectNotListed(api, '/billing_templates/', 'title', marker),
    };
  },
  async updateBillingTemplate({ api }) {
    const template = await makeTemplate(api);
    const path = `/billing_templates/${template.id}/`;
    return { path, body: monthlyTemplate(template.brand_id, { title: 'Changed' }), misspelt: 'subscription_period_unit', nothingChanged: await snapshot(api, path) };
  },
  async patchBillingTemplate({ api }) {
    const template = await makeTemplate(api);
    const path = `/billing_templates/${template.id}/`;
    return { path, body: { title: 'Changed' }, misspelt: 'subscription_pause', nothingChanged: await snapshot(api, path) };
  },
  async sendInvoice(ctx) {
    const template = await makeOneTimeTemplate(ctx.api);
    const client = await makeClient(ctx.api);
    return {
      path: `/billing_templates/${template.id}/send_invoice/`,
      body: { client_id: client.id },
      misspelt: 'payment_methods_whitelist',
      nothingChanged: () => expectNotListed(ctx.api, '/purchases/', 'billing_template_id', template.id),
    };
  },
  async addSubscriber(ctx) {
    const template = await makeTemplate(ctx.api, { subscription_trial_periods: 1 });
    const body = subscriberBody((await makeClient(ctx.api)).id, later());
    return {
      path: `/billing_templates/${template.id}/add_subscriber/`,
      body,
      misspelt: 'send_reciept',
      async nothingChanged() {
        expect((await ctx.api.get(`/billing_templates/${template.id}/clients/`)).body.results, 'no subscriber is stored').toEqual([]);
      },
    };
  },
  async patchSubscriber(ctx) {
    const template = await makeTemplate(ctx.api, { subscription_trial_periods: 1 });
    const added = await subscribe(ctx.api, template.id, subscriberBody((await makeClient(ctx.api)).id, later()));
    const path = `/billing_templates/${template.id}/clients/${added.subscriber.id}/`;
    return { path, body: { status: 'subscription_paused' }, misspelt: 'state', nothingChanged: await snapshot(ctx.api, path) };
  },
  async createPurchase({ api }) {
    const marker = unique();
    const client = await makeClient(api);
    return {
      path: '/purchases/',
      body: { brand_id: await brandId(api), client_id: client.id, purchase: purchaseDetails({ notes: marker }) },
      misspelt: 'sucess_redirect',
      nothingChanged: () => expectNotListed(api, '/purchases/', 'purchase.notes', marker),
    };
  },
};

/** A body for operations addressed by an unknown id, valid otherwise where that matters. */
const UNKNOWN_ID_BODY: Record<string, (ctx: CheckContext) => Promise<unknown>> = {
  updateClient: async () => clientBody(),
  patchClient: async () => ({ full_name: 'x' }),
  updateBillingTemplate: async ({ api }) => monthlyTemplate(await brandId(api)),
  patchBillingTemplate: async () => ({ title: 'x' }),
  sendInvoice: async ({ api }) => ({ client_id: (await makeClient(api)).id }),
  addSubscriber: async (ctx) => subscriberBody((await makeClient(ctx.api)).id, later()),
  patchSubscriber: async () => ({ status: 'subscription_paused' }),
  chargePurchase: async () => ({ recurring_token: UNKNOWN_ID }),
  updateWebhook: async () => ({ callback: 'https://shop.example.com/hooks', events: ['purchase.paid'] }),
};

const apiOperations = operations.filter((op) => op.area === 'api');
const hasBody = (operationId: string) => {
  const op = apiOperations.find((o) => o.operationId === operationId)!;
  return Boolean(document.paths[op.path][op.method.toLowerCase()].requestBody);
};

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
  // ------------------------------------------------------------------------ unknown fields

  for (const op of apiOperations.filter((o) => hasBody(o.operationId))) {
    const valid = VALID[op.operationId];
    if (valid) {
      check(
        {
          id: `ERR-UNKNOWN-FIELD-${op.operationId}`,
          title: `${op.method} ${op.path} with a misspelt field is rejected and changes nothing`,
          cites: `${UNKNOWN_FIELD}; openapi.yaml ${op.operationId} (unevaluatedProperties: false)`,
          level: 'informative',
        },
        async (ctx) => {
          const { path, body, misspelt, nothingChanged } = await valid(ctx);
          expectRejected(await ctx.api.request(op.method, path, { body: { ...body, [misspelt]: body[Object.keys(body)[0]!] ?? true } }), `a body with "${misspelt}"`);
          await nothingChanged();
        },
      );
    }
    check(
      {
        id: `ERR-UNKNOWN-FIELD-${op.operationId}-CODE`,
        title: `${op.method} ${op.path} with a field it does not define → 400, that field: unknown_field`,
        cites: UNKNOWN_FIELD,
        level: 'informative',
      },
      async (ctx) => {
        const request = valid
          ? await valid(ctx)
          : { path: fillPath(op.relativePath, UNKNOWN_ID), body: ((await UNKNOWN_ID_BODY[op.operationId]?.(ctx)) ?? {}) as Node, misspelt: 'bogus_field' };
        const res = await ctx.api.request(op.method, request.path, { body: { ...request.body, [request.misspelt]: 1 } });
        expectError(res, request.misspelt, 'unknown_field');
      },
    );
  }

  check(
    {
      id: 'ERR-UNKNOWN-FIELD-NESTED',
      title: 'A misspelt field inside purchase.products is rejected and nothing is created',
      cites: `${UNKNOWN_FIELD}; openapi.yaml Product (additionalProperties: false)`,
      level: 'informative',
    },
    async ({ api }) => {
      const marker = unique();
      const body = monthlyTemplate(await brandId(api), { title: marker, purchase: { currency: 'EUR', products: [{ name: 'Pro plan', price: 2900, prise: 2900 }] } });
      expectRejected(await api.post('/billing_templates/', body));
      await expectNotListed(api, '/billing_templates/', 'title', marker);
    },
  );

  check(
    {
      id: 'ERR-UNKNOWN-FIELD-NESTED-CODE',
      title: 'A misspelt field inside purchase.products → 400, "purchase.products.0.prise": unknown_field',
      cites: UNKNOWN_FIELD,
      level: 'informative',
    },
    async ({ api }) => {
      const body = monthlyTemplate(await brandId(api), { purchase: { currency: 'EUR', products: [{ name: 'Pro plan', price: 2900, prise: 2900 }] } });
      expectError(await api.post('/billing_templates/', body), 'purchase.products.0.prise', 'unknown_field');
    },
  );

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
    { id: 'ERR-MALFORMED-JSON-CODE', title: 'A body that is not valid JSON → 400, __all__: parse_error', cites: `${ERRORS}: "A body that is not JSON … gets a 400"; openapi.yaml Error code "parse_error"`, level: 'informative' },
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
      cites: `${JSON_BODY} The body shape is an object of fields.`,
    },
    async ({ api }) => {
      for (const raw of NOT_OBJECTS) expectRejected(await api.request('POST', '/billing_templates/', { raw, headers: JSON_TYPE }), `POST ${raw}`);
    },
  );

  check(
    {
      id: 'ERR-NOT-AN-OBJECT-CODE',
      title: 'A JSON body that is not an object → 400, __all__: invalid (it is JSON, so not parse_error)',
      cites: 'openapi.yaml Error codes: "invalid: wrong type or format"; "parse_error: the body is not valid JSON"',
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
      cites: `${ERRORS}: "Bodies are JSON"; openapi.yaml Error code "unsupported_media_type"`,
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
      cites: `${ERRORS}: "A body … larger than 1 MiB, gets a … 413"`,
      level: 'informative',
    },
    async ({ api }) => {
      const marker = unique();
      const res = await api.post('/clients/', { email: `${marker}@example.com`, full_name: 'x'.repeat(1_100_000) });
      expectError(res, '__all__', 'too_large', { status: 413 });
      await expectNotListed(api, '/clients/', 'email', marker);
    },
  );

  // ------------------------------------------------------------------------------ unknown ids

  for (const op of apiOperations.filter((o) => o.relativePath.includes('{'))) {
    const path = fillPath(op.relativePath, UNKNOWN_ID);
    // Webhooks exist only by DESIGN.md §4.14 (spec: "Events and webhooks: not shown"): informative.
    const webhooks = (document.paths[op.path][op.method.toLowerCase()].tags ?? []).includes('Webhooks');
    const body = async (ctx: CheckContext) => (UNKNOWN_ID_BODY[op.operationId] ? UNKNOWN_ID_BODY[op.operationId]!(ctx) : hasBody(op.operationId) ? {} : undefined);
    check(
      {
        id: `ERR-UNKNOWN-ID-${op.operationId}`,
        title: `${op.method} ${op.path} with an id that does not exist fails with a client error`,
        cites: `openapi.yaml ${op.operationId}: 404 "No such object in the caller's sandbox"${webhooks ? '; DESIGN.md §4.14 (spec: "Events and webhooks: not shown")' : ''}`,
        level: webhooks ? 'informative' : 'normative',
      },
      async (ctx) => {
        expectRejected(await ctx.api.request(op.method, path, { body: await body(ctx) }), `${op.method} ${path}`);
      },
    );
    check(
      {
        id: `ERR-UNKNOWN-ID-${op.operationId}-CODE`,
        title: `${op.method} ${op.path} with an unknown id → 404, __all__: not_found`,
        cites: `${ERRORS}: "404 unknown or foreign id"`,
        level: 'informative',
      },
      async (ctx) => {
        expectError(await ctx.api.request(op.method, path, { body: await body(ctx) }), '__all__', 'not_found', { status: 404 });
      },
    );
  }

  check(
    {
      id: 'ERR-ID-NOT-A-UUID',
      title: 'An id in the path that is not a UUID → 404, __all__: not_found',
      cites: 'openapi.yaml info: "An id in the path that is not a UUID is \\"not found\\" too (404)"',
      level: 'informative',
    },
    async ({ api }) => {
      expectError(await api.get('/clients/not-a-uuid/'), '__all__', 'not_found', { status: 404 });
      expectError(await api.get('/billing_templates/12345/'), '__all__', 'not_found', { status: 404 });
    },
  );

  // ------------------------------------------------------------------------------ error body

  check(
    {
      id: 'ERR-BODY-SHAPE',
      title: 'Every error body (400, 401, 404, 405) is JSON mapping a field path or __all__ to a list of {message, code}',
      cites: `${ERRORS}: "Every 4xx/5xx has a JSON body that maps a field path, or __all__ …, to a list of { message, code }"`,
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
      cites: `${ERRORS}: "405 wrong method"`,
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
      cites: 'DESIGN.md §3 Server: "the same path without the trailing slash is accepted too"',
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

  const ORIGIN = 'https://app.example.com';
  const allows = (value: string | undefined) => value === '*' || value === ORIGIN;

  check(
    {
      id: 'ERR-CORS-HEADER',
      title: 'Every response carries Access-Control-Allow-Origin for a browser origin (200, 401, 404)',
      cites: 'DESIGN.md §3 Server: "Every response carries Access-Control-Allow-Origin"',
      level: 'informative',
    },
    async ({ api }) => {
      const headers = { origin: ORIGIN };
      for (const [what, res] of [
        ['200', await api.get('/payment_methods/', { headers })],
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
      cites: 'DESIGN.md §3 Server: "an OPTIONS preflight is answered 204 with the allowed methods and headers (Authorization, Content-Type)"',
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
