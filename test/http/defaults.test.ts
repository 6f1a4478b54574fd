// The document and the server agree on every default. openapi.yaml writes a body field's default
// as `x-default` (its header says why); here each operation's body is sent without any of its
// defaulted fields, and the answer must hold each x-default where it echoes the request. The fields
// come from the document, walked through $ref, allOf, nested objects and array items, so a default
// written tomorrow is checked at once. What this file supplies per operation is only a valid body
// (required fields, and those the rules require: a subscription template's cycle fields) and where
// the answer echoes it; an operation with a defaulted field and no entry below fails the test.

import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenAPIV3_1 } from 'openapi-types';
import { DEFAULT_KEYWORD } from '../../src/contract/schemas.ts';
import { HTTP_METHODS, loadSpec, resolveRef } from '../../src/contract/spec.ts';
import { useHarness, type Call } from '../support/harness.ts';

const h = useHarness();
const doc = loadSpec();

type Node = Record<string, unknown>;
type Schema = OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject;

/** A documented default: the field's path in the body (array items as index 0) and its value. */
interface Defaulted {
  path: string[];
  value: unknown;
}

/**
 * Every `x-default` reachable from a request schema, following $ref, allOf, properties and items
 * (`refs`: the references followed to get here, so that a schema holding itself ends the walk).
 */
function defaultsOf(schema: Schema, path: string[] = [], refs: string[] = []): Defaulted[] {
  if ('$ref' in schema && refs.includes(schema.$ref)) return [];
  const followed = '$ref' in schema ? [...refs, schema.$ref] : refs;
  const node = resolveRef<OpenAPIV3_1.SchemaObject>(doc, schema);
  const own = Object.entries(node.properties ?? {}).flatMap(([name, property]): Defaulted[] => {
    const field = [...path, name];
    // Beside a $ref (`discount: {$ref: Money, x-default: 0}`) or in the schema it names.
    const declared = [property, resolveRef<OpenAPIV3_1.SchemaObject>(doc, property)].find((node) => DEFAULT_KEYWORD in node) as Node | undefined;
    const here = declared ? [{ path: field, value: declared[DEFAULT_KEYWORD] }] : [];
    return [...here, ...defaultsOf(property, field, followed)];
  });
  const items = 'items' in node && node.items ? defaultsOf(node.items, [...path, '0'], followed) : [];
  const composed = (node.allOf ?? []).flatMap((part) => defaultsOf(part, path, followed));
  // One field can be reached twice (a property of XFields and XCreate's allOf of it): keep one.
  const unique = new Map([...own, ...items, ...composed].map((d) => [d.path.join('.'), d]));
  return [...unique.values()];
}

interface DocumentedOperation {
  operationId: string;
  method: string;
  defaults: Defaulted[];
}

const operations: DocumentedOperation[] = Object.values(doc.paths ?? {}).flatMap((item) =>
  HTTP_METHODS.flatMap((method) => {
    const operation = item?.[method];
    if (!operation?.requestBody) return [];
    const schema = resolveRef<OpenAPIV3_1.RequestBodyObject>(doc, operation.requestBody).content['application/json']?.schema;
    return schema ? [{ operationId: operation.operationId!, method, defaults: defaultsOf(schema) }] : [];
  }),
);

const at = (node: unknown, path: string[]): unknown =>
  path.reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Node)[key] : undefined), node);
const has = (node: unknown, path: string[]): boolean => {
  const parent = at(node, path.slice(0, -1));
  return !!parent && typeof parent === 'object' && path.at(-1)! in parent;
};
function without(body: Node, path: string[]): void {
  const parent = at(body, path.slice(0, -1));
  if (parent && typeof parent === 'object') delete (parent as Node)[path.at(-1)!];
}

// ---------------------------------------------------------------------------- the operations

/** Days in the sandbox's calendar (the harness's frozen clock stands at 2026-01-30T12:00:00Z, UTC). */
const DEDUCTION_DATE = '2026-02-05';
const MANDATE_EXPIRY = '2027-01-31';
const purchaseDetails = () => ({ currency: 'EUR', products: [{ name: 'Plan', price: 2990 }] });
/** "Rules on the subscription fields" 1 and the BillingTemplate table: required on a subscription template. */
const subscriptionTemplate = () => ({
  brand_id: h.brandId,
  is_subscription: true,
  purchase: purchaseDetails(),
  subscription_period: 1,
  subscription_period_units: 'months',
  subscription_charge_period_end: false,
  subscription_trial_periods: 0,
  subscription_due_period: 7,
  subscription_due_period_units: 'days',
});
/** `due` is "required if is_subscription is false": 2026-02-14T00:00:00Z. */
const oneTimeTemplate = () => ({ brand_id: h.brandId, is_subscription: false, purchase: purchaseDetails(), due: 1_771_027_200 });

async function created(path: string, body: Node): Promise<Node> {
  const res = await h.request('POST', path, { body });
  expect(res.status, `setup: POST ${path} ${res.text}`).toBe(201);
  return res.body as Node;
}
const newClient = () => created('/api/v1/clients/', { email: 'ada@example.com', full_name: 'Ada Lovelace', city: 'London' });

interface Case {
  /** Valid bodies, each with what the rules require; every defaulted field must lie in one of them. */
  bodies: Node[];
  /** Sends a body; an update first creates the object with other values, so that a kept value shows. */
  send(body: Node): Promise<Call>;
  /** The part of the answer that mirrors the body. */
  echo?(answer: Node): unknown;
  /** Fields the answer cannot show, and why. */
  unseen?: Record<string, string>;
  /** Fields the answer shows in another way: their value read from it. */
  shows?: Record<string, (answer: Node) => unknown>;
}

const CASES: Record<string, () => Promise<Case>> = {
  createClient: async () => ({
    bodies: [{ email: 'grace@example.com' }],
    send: (body) => h.request('POST', '/api/v1/clients/', { body }),
  }),
  updateClient: async () => ({
    bodies: [{ email: 'grace@example.com' }],
    send: async (body) => h.request('PUT', `/api/v1/clients/${(await newClient()).id}/`, { body }),
  }),
  createBillingTemplate: async () => ({
    bodies: [subscriptionTemplate(), oneTimeTemplate()],
    send: (body) => h.request('POST', '/api/v1/billing_templates/', { body }),
  }),
  updateBillingTemplate: async () => ({
    bodies: [subscriptionTemplate(), oneTimeTemplate()],
    send: async (body) => {
      const full = {
        ...body,
        title: 'Gym membership',
        force_recurring: true,
        purchase: { ...purchaseDetails(), timezone: 'Europe/Berlin', notes: 'Thanks', products: [{ name: 'Plan', price: 2990, quantity: 2 }] },
      };
      const template = await created('/api/v1/billing_templates/', full);
      return h.request('PUT', `/api/v1/billing_templates/${template.id}/`, { body });
    },
  }),
  sendOneTimeInvoices: async () => {
    const client = await newClient();
    const { is_subscription: _isSubscription, ...fields } = oneTimeTemplate();
    return {
      bodies: [{ ...fields, clients: [{ client_id: client.id }] }],
      send: (body) => h.request('POST', '/api/v1/billing/', { body }),
      // The first purchase made: it carries the template fields a purchase has.
      echo: (answer) => (answer as unknown as Node[])[0],
      shows: {
        // Spec: issued "When omitted, generated from the current day in purchase.timezone".
        issued: (answer) => ((answer as unknown as Node[])[0]!.issued === '2026-01-30' ? null : 'another day'),
      },
      unseen: {
        title: 'no template is stored, and a purchase has no title',
        subscription_paused: 'read-only on one-time invoices, and a purchase has no such field',
      },
    };
  },
  addSubscriber: async () => {
    const [client, template] = await Promise.all([newClient(), created('/api/v1/billing_templates/', subscriptionTemplate())]);
    return {
      bodies: [{ client_id: client.id, subscription_deduction_date: DEDUCTION_DATE, mandate_expiry_date: MANDATE_EXPIRY }],
      send: (body) => h.request('POST', `/api/v1/billing_templates/${template.id}/add_subscriber/`, { body }),
      echo: (answer) => answer.billing_template_client,
    };
  },
  createPurchase: async () => {
    const client = await newClient();
    return {
      bodies: [
        { brand_id: h.brandId, client_id: client.id, purchase: purchaseDetails() },
        { brand_id: h.brandId, client: { email: 'grace@example.com' }, purchase: purchaseDetails() },
      ],
      send: (body) => h.request('POST', '/api/v1/purchases/', { body }),
    };
  },
  createWebhook: async () => ({
    bodies: [{ callback: 'http://127.0.0.1:9/hooks', events: ['purchase.paid'] }],
    send: (body) => h.request('POST', '/api/v1/webhooks/', { body }),
  }),
  updateWebhook: async () => ({
    bodies: [{ callback: 'http://127.0.0.1:9/hooks', events: ['purchase.paid'] }],
    send: async (body) => {
      const webhook = await created('/api/v1/webhooks/', { ...body, title: 'Payments' });
      return h.request('PUT', `/api/v1/webhooks/${webhook.id}/`, { body });
    },
  }),
  createCompanyStatement: async () => ({
    bodies: [{ format: 'csv' }],
    send: (body) => h.request('POST', '/api/v1/company_statements/', { body }),
  }),
  createSandbox: async () => ({
    bodies: [{}],
    send: (body) => h.request('POST', '/sim/v1/sandboxes', { token: null, body }),
    echo: (answer) => answer.clock,
    shows: {
      // The fixtures hold clients; a sandbox without them has none.
      fixtures: async (answer) => {
        const clients = await h.request('GET', '/api/v1/clients/', { token: answer.token as string });
        return (clients.body as { results: unknown[] }).results.length > 0;
      },
      // A strict sandbox refuses an unknown body field; one that is not ignores it.
      strict: async (answer) => {
        const client = await h.request('POST', '/api/v1/clients/', { token: answer.token as string, body: { email: 'strict@example.com', nickname: 'x' } });
        return client.status === 400;
      },
    },
  }),
  payPurchase: async () => {
    const client = await newClient();
    return {
      bodies: [{}],
      send: async (body) => {
        const purchase = await created('/api/v1/purchases/', { brand_id: h.brandId, client_id: client.id, purchase: purchaseDetails() });
        return h.request('POST', `/sim/v1/purchases/${purchase.id}/pay`, { body });
      },
      echo: () => undefined,
      shows: {
        outcome: (answer) => (answer.status === 'paid' ? 'success' : 'failure'),
        save_token: (answer) => answer.is_recurring_token,
      },
      unseen: { token_outcome: 'it decides later charges with the saved token, and none is saved' },
    };
  },
  replaceWebhookChaos: async () => ({
    bodies: [{}],
    send: (body) => h.request('PUT', '/sim/v1/webhook_chaos', { body }),
  }),
  // An operation nothing here calls, so the fault answers none of the other cases.
  createFault: async () => ({
    bodies: [{ operation_id: 'getPublicKey', status: 503 }],
    send: (body) => h.request('POST', '/sim/v1/faults', { body }),
  }),
};

/** A PATCH changes only what it sends: a field it omits keeps its value, so no default applies. */
const checked = operations.filter((op) => op.defaults.length > 0 && op.method !== 'patch');

describe('openapi.yaml x-default agrees with the server', () => {
  it('finds the documented defaults, nested and in array items, and a request for every operation that has one', () => {
    const names = (id: string) => checked.find((op) => op.operationId === id)?.defaults.map((d) => d.path.join('.'));
    expect(names('createBillingTemplate')).toEqual(expect.arrayContaining(['title', 'purchase.timezone', 'purchase.products.0.quantity']));
    expect(names('createPurchase')).toEqual(expect.arrayContaining(['send_receipt', 'client.phone', 'purchase.products.0.discount']));
    expect(checked.map((op) => op.operationId).filter((id) => !(id in CASES))).toEqual([]);
  });

  describe.each(checked.map((op) => [op.operationId, op] as const))('%s', (operationId, operation) => {
    let subject: Case;
    beforeAll(async () => {
      subject = await CASES[operationId]!();
    });

    it('accepts each body without its defaulted fields, and answers each x-default', async () => {
      const reached = new Set<string>();
      for (const base of subject.bodies) {
        const body = structuredClone(base);
        // A body may not hide a default by sending the field: whatever the document defaults is left out.
        for (const { path } of operation.defaults) without(body, path);
        const res = await subject.send(body);
        expect(res.status, `${operationId} ${JSON.stringify(body)} → ${res.text}`).toBeLessThan(300);
        const answer = res.body as Node;
        const echo = subject.echo ? subject.echo(answer) : answer;
        for (const { path, value } of operation.defaults) {
          const parent = path.slice(0, -1);
          if (parent.length > 0 && typeof at(body, parent) !== 'object') continue;
          const name = path.join('.');
          reached.add(name);
          if (subject.unseen?.[name]) continue;
          const reader = subject.shows?.[name];
          if (reader) {
            expect(await reader(answer), `${operationId}: ${name} shown in ${res.text}`).toEqual(value);
          } else {
            expect(has(echo, path), `${operationId}: the answer echoes ${name}: ${res.text}`).toBe(true);
            expect(at(echo, path), `${operationId}: ${name}, left out`).toEqual(value);
          }
        }
      }
      // Every default is met by one of the bodies (client.* of a purchase only where `client` is sent).
      expect(operation.defaults.map((d) => d.path.join('.')).filter((name) => !reached.has(name))).toEqual([]);
    });
  });
});
