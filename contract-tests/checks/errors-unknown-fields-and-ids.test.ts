// Errors: request body fields an operation does not define, and ids that do not exist.
//
// Unknown fields: the spec says nothing of them; the platform, a Django REST framework service,
// ignores them (production code relies on it: docs/fidelity.md#request-fields). billing-sim ignores
// them by default and refuses them in a strict sandbox (400 unknown_field on the field). Either passes
// (lib/ignored-fields.ts); a target that takes the field — stores it, answers it back — fails. One
// check per API operation of openapi.yaml with a request body, ERR-UNKNOWN-FIELD-<operationId>: on a
// valid request where the suite can build one (the field refused with nothing changed, or ignored and
// taken nowhere), else on an unknown id (the field named, if at all, with unknown_field). Normative:
// the rule is the platform's whatever the operation (one only the simulator has is skipped on
// another target, lib/client.ts).
//
// Unknown ids: 404 with `__all__` not_found, as the platform answers an id that names nothing
// (docs/behaviour.md#status-codes, #error-body), on every operation. An id that is not a UUID is one
// that names nothing to billing-sim; the platform's answer to it is not published (informative).

import { describe, expect } from 'vitest';
import { check, type CheckContext } from '../lib/check.ts';
import { IGNORED_OR_REFUSED, NOT_FOUND } from '../lib/citations.ts';
import type { Reply } from '../lib/client.ts';
import { carries, expectNotTaken, expectRefusedOrIgnored } from '../lib/ignored-fields.ts';
import { document, fillPath, operations } from '../lib/operations.ts';
import {
  brandId,
  clientBody,
  expectError,
  expectNotListed,
  futureDue,
  later,
  monthlyTemplate,
  oneTimeTemplate,
  purchaseDetails,
  snapshot,
  subscriberBody,
  unique,
  UNKNOWN_ID,
} from '../lib/primitives.ts';
import { REFUSAL_BODY } from '../lib/refusal.ts';
import { makeClient, makeOneTimeTemplate, makeTemplate, subscribe } from '../lib/scenario.ts';

type Node = Record<string, any>;

/** Ignored, as the platform ignores it, or refused in a strict server: never taken. */
const UNKNOWN_FIELD = `${IGNORED_OR_REFUSED}; docs/fidelity.md#request-fields: "whose serializers drop unknown and read-only fields"`;

/** An id that names nothing: 404, `__all__` not_found, as the platform answers it. */
const UNKNOWN_ID_CITES = `${NOT_FOUND}; docs/behaviour.md#status-codes: "404 for an id that names nothing"; ${REFUSAL_BODY}; docs/behaviour.md#error-codes: "not_found | 404"`;

/** A valid request of an operation, a misspelt field to add to it, and how to see that nothing changed. */
interface Valid {
  path: string;
  body: Node;
  misspelt: string;
  nothingChanged(): Promise<void>;
}

/** Where the object an accepted request made or changed reads back, by its `type`; subscribers need their template. */
const COLLECTIONS: Record<string, string> = { client: '/clients/', billing_template: '/billing_templates/', purchase: '/purchases/' };

/**
 * An accepted request with a misspelt field: the field is taken nowhere — not in the answer, nor in
 * the object read back (the request's own path for a PUT or PATCH of one object, else the object the
 * answer names).
 */
async function expectIgnored(ctx: CheckContext, path: string, reply: Reply, misspelt: string, sent: unknown): Promise<void> {
  expect(!carries(reply.body, misspelt, sent), `the answer carries the field "${misspelt}" it was sent, which it does not define: ${reply.text.slice(0, 800)}`).toBe(true);
  const own = /\/[0-9a-f-]{36}\/$/.test(path) ? path : undefined;
  const body = reply.body as Node | undefined;
  const made = body && typeof body.id === 'string' && COLLECTIONS[body.type] ? `${COLLECTIONS[body.type]}${body.id}/` : undefined;
  const readBack = own ?? made;
  if (!readBack) return;
  const stored = await ctx.api.get(readBack);
  expect(stored.status, `GET ${readBack}`).toBe(200);
  expect(!carries(stored.body, misspelt, sent), `${readBack} stored the field "${misspelt}" it was sent: ${stored.text.slice(0, 800)}`).toBe(true);
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
  async sendOneTimeInvoices(ctx) {
    const marker = unique();
    const client = await makeClient(ctx.api);
    const template = oneTimeTemplate(await brandId(ctx.api), await futureDue(ctx), { purchase: purchaseDetails({ notes: marker }) });
    return {
      path: '/billing/',
      body: { ...template, clients: [{ client_id: client.id }] },
      misspelt: 'client_ids',
      nothingChanged: () => expectNotListed(ctx.api, '/purchases/', 'purchase.notes', marker),
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

describe('errors', () => {
  // ------------------------------------------------------------------------ unknown fields

  for (const op of apiOperations.filter((o) => hasBody(o.operationId))) {
    const valid = VALID[op.operationId];
    check(
      {
        id: `ERR-UNKNOWN-FIELD-${op.operationId}`,
        title: valid
          ? `${op.method} ${op.path} with a misspelt field: 400, that field: unknown_field, with nothing changed; or accepted with the field taken nowhere`
          : `${op.method} ${op.path} (an unknown id) with a field it does not define: the field ignored, or named with unknown_field`,
        cites: `${UNKNOWN_FIELD}; openapi.yaml#${op.operationId}`,
      },
      async (ctx) => {
        if (valid) {
          const { path, body, misspelt, nothingChanged } = await valid(ctx);
          const sent = body[Object.keys(body)[0]!] ?? true;
          const reply = await ctx.api.request(op.method, path, { body: { ...body, [misspelt]: sent } });
          if (expectRefusedOrIgnored(reply, { [misspelt]: sent }, ['unknown_field']) === 'ignored') return expectIgnored(ctx, path, reply, misspelt, sent);
          return nothingChanged();
        }
        // Without a valid request (a body the suite cannot build), the operation is addressed by an
        // unknown id: a server that ignores the field answers for the rest (404 for the id, 400 for
        // the fields the body lacks) without naming it.
        const path = fillPath(op.relativePath, UNKNOWN_ID);
        const res = await ctx.api.request(op.method, path, { body: { ...(((await UNKNOWN_ID_BODY[op.operationId]?.(ctx)) ?? {}) as Node), bogus_field: 1 } });
        if (res.status >= 400 && res.status <= 499 && !Object.hasOwn((res.body ?? {}) as Node, 'bogus_field')) return;
        if (expectRefusedOrIgnored(res, { bogus_field: 1 }, ['unknown_field']) === 'ignored') await expectIgnored(ctx, path, res, 'bogus_field', 1);
      },
    );
  }

  check(
    {
      id: 'ERR-UNKNOWN-FIELD-NESTED',
      title: 'A misspelt field inside purchase.products: 400, "purchase.products.0.prise": unknown_field, with nothing created; or accepted with the field taken nowhere',
      cites: `${UNKNOWN_FIELD}; openapi.yaml#/components/schemas/Product`,
    },
    async (ctx) => {
      const { api } = ctx;
      const marker = unique();
      const body = monthlyTemplate(await brandId(api), { title: marker, purchase: { currency: 'EUR', products: [{ name: 'Pro plan', price: 2900, prise: 2901 }] } });
      const reply = await api.post('/billing_templates/', body);
      if (expectRefusedOrIgnored(reply, { 'purchase.products.0.prise': 2901 }, ['unknown_field']) === 'refused') return expectNotListed(api, '/billing_templates/', 'title', marker);
      expectNotTaken(reply.body, { 'purchase.products.0.prise': 2901 }, 'the template created');
      await expectIgnored(ctx, '/billing_templates/', reply, 'prise', 2901);
    },
  );

  // ------------------------------------------------------------------------------ unknown ids

  for (const op of apiOperations.filter((o) => o.relativePath.includes('{'))) {
    const path = fillPath(op.relativePath, UNKNOWN_ID);
    const body = async (ctx: CheckContext) => (UNKNOWN_ID_BODY[op.operationId] ? UNKNOWN_ID_BODY[op.operationId]!(ctx) : hasBody(op.operationId) ? {} : undefined);
    check(
      {
        id: `ERR-UNKNOWN-ID-${op.operationId}`,
        title: `${op.method} ${op.path} with an id that does not exist → 404, __all__: not_found`,
        cites: `openapi.yaml#${op.operationId}; openapi.yaml#/components/responses/NotFound: "No such object in the caller's sandbox"; ${UNKNOWN_ID_CITES}`,
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
      cites: `docs/behaviour.md#requests: "Path ids are UUIDs; anything else is an id that names nothing → 404"; openapi.yaml#/components/parameters/Id: "An id that is not a UUID, unknown, or of another sandbox → 404"; ${UNKNOWN_ID_CITES}`,
      level: 'informative',
    },
    async ({ api }) => {
      expectError(await api.get('/clients/not-a-uuid/'), '__all__', 'not_found', { status: 404 });
      expectError(await api.get('/billing_templates/12345/'), '__all__', 'not_found', { status: 404 });
    },
  );
});
