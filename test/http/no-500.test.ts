// "No client input may produce a 500" (DESIGN.md §3 Errors, §6 Bad input), swept over every
// operation of openapi.yaml: path ids with bad percent-encodings and odd names; query parameters
// non-finite, absurd or named like Object properties; bodies of every shape, with every
// Object.prototype name as a key at the top and nested, and every field (of a valid body, so the
// request reaches the domain, and of a bare one) set to non-finite and absurd numbers, leap seconds
// and instants past year 275760, huge arrays and deep nesting; snapshots carrying all of those.
// Every answer must be below 500, and every 4xx the error body of §3, bounded as §6 says. Then
// everything the accepted requests stored is read back (lists, checkout pages, a month of billing).
// Requests go out over node:http (send, below), 16 in flight at a time over the whole file, about 20,000 in all.

import { Agent, request } from 'node:http';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAPIV3_1 } from 'openapi-types';
import { loadSpec, resolveRef } from '../../src/contract/spec.ts';
import { useHarness } from '../support/harness.ts';
import { clientBody, oneTimeBody, subscriptionBody } from '../builders/templates.ts';

const h = useHarness();
const doc = loadSpec();
/**
 * A test's timeout here stops a hang, not a slow machine: a sweep, and a read-back above all, is as
 * long as what the sweep stored and the machine allow (a read-back passed 60 s on a machine 2.4×
 * slower, under the suite's other workers), and each waits for every answer it checks.
 */
const HANG_MS = 600_000;

const PROTOTYPE_NAMES = [...Object.getOwnPropertyNames(Object.prototype), 'prototype', 'then', 'toJSON', 'length'];
const UNKNOWN_ID = '6b042125-686a-43e0-8a68-23cf5bee102e';
const BAD_IDS = ['%ZZ', '%', '%E0%A4%A', '%C0%AF', '%uD800', '%00', '%2F', '..', 'constructor', '__proto__', 'x'.repeat(3000), UNKNOWN_ID.toUpperCase(), UNKNOWN_ID];
const QUERY_VALUES = ['Infinity', '-Infinity', '1e400', '-1e400', 'NaN', '-0', '1e21', '9007199254740993', '0x10', '1e-7', '1.5', '', '%ZZ', '%', 'true', '2026-12-31T23:59:60Z', 'x'.repeat(3000)];
const hugeArray = (count: number) => `[${Array.from({ length: count }, () => '1').join(',')}]`;
/**
 * Bodies of every shape, sent to every write operation: built once (the two long ones, a megabyte
 * and 40,000 brackets, took 3 s of CPU and their garbage more, built again for each operation).
 */
const SHAPES = ['[]', '"text"', '42', 'null', 'true', '{}', '{"unknown_field": 1}', `{"x": ${'['.repeat(20_000)}${']'.repeat(20_000)}}`, `{"x": ${hugeArray(500_000)}}`];
/** JSON texts: 1e400 and -0 cannot be written from a JS value, so values are spliced in as text. */
const VALUES = [
  'null', 'true', '0', '-1', '1.5', '-0', '1e-300', '1e308', '1e400', '-1e400', '1e21', '9007199254740993', '1000000000001',
  '""', '"x"', JSON.stringify('é'.repeat(5000)), '"%ZZ"', '"P99999999Y"',
  '"2026-12-31T23:59:60Z"', '"+275760-09-13T00:00:00Z"', '"275760-09-13T00:00:00Z"', '"-271821-04-19T00:00:00Z"',
  '"9999-12-31T23:59:59Z"', '"0000-01-01T00:00:00Z"', '"9999-12-31"', '"0000-01-01"', '"2026-02-30"',
  '[]', '[null]', '{}', '{"__proto__": {"polluted": 1}}', '{"constructor": {"prototype": {"polluted": 1}}}',
  hugeArray(20_000), `${'['.repeat(5000)}1${']'.repeat(5000)}`,
];

interface Probe {
  method: string;
  path: string;
  body?: string;
  /** A urlencoded form instead of JSON (the checkout page's). */
  form?: string;
}

interface Operation {
  operationId: string;
  method: string;
  path: string;
  params: string[];
  query: string[];
  hasBody: boolean;
  fields: string[];
}

/** Top-level property names of a request schema, following allOf and $ref into components. */
function fieldsOf(schema: OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject | undefined, seen = new Set<string>()): string[] {
  if (!schema) return [];
  if ('$ref' in schema) {
    const name = schema.$ref.split('/').at(-1)!;
    if (seen.has(name)) return [];
    seen.add(name);
    return fieldsOf(doc.components?.schemas?.[name], seen);
  }
  const own = Object.keys(schema.properties ?? {});
  const inherited = (schema.allOf ?? []).flatMap((part) => fieldsOf(part, seen));
  return [...new Set([...own, ...inherited])];
}

const ALL_OPERATIONS: Operation[] = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
  (['get', 'post', 'put', 'patch', 'delete'] as const).flatMap((method) => {
    const operation = item?.[method];
    if (!operation) return [];
    const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => resolveRef<OpenAPIV3_1.ParameterObject>(doc, p));
    const schema = operation.requestBody && resolveRef<OpenAPIV3_1.RequestBodyObject>(doc, operation.requestBody).content['application/json']?.schema;
    return [{
      operationId: operation.operationId!,
      method: method.toUpperCase(),
      path,
      params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
      query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
      hasBody: schema !== undefined,
      fields: fieldsOf(schema),
    }];
  }),
);
/** Deletes and resets last, so the other requests find the objects made in beforeAll. */
const destroys = (op: Operation) => op.method === 'DELETE' || /reset|delete/i.test(op.operationId);
const OPERATIONS = [...ALL_OPERATIONS.filter((op) => !destroys(op)), ...ALL_OPERATIONS.filter(destroys)];

/** What is wrong with an answer: a 5xx, or a 4xx without DESIGN.md §3's bounded error body. */
function problemWith(status: number, text: string): string | undefined {
  if (status >= 500) return `status ${status}: ${text.slice(0, 300)}`;
  if (status < 400) return undefined;
  if (Buffer.byteLength(text) >= 64 * 1024) return `error body of ${Buffer.byteLength(text)} bytes`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `error body is not JSON: ${text.slice(0, 100)}`;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length === 0) return `error body ${text.slice(0, 100)}`;
  const details = Object.values(body);
  const isDetail = (d: unknown) => !!d && typeof d === 'object' && Object.keys(d).sort().join() === 'code,message' && typeof (d as { code: unknown }).code === 'string' && typeof (d as { message: unknown }).message === 'string';
  if (!details.every((list) => Array.isArray(list) && list.length > 0 && list.every(isDetail))) return `error body ${text.slice(0, 200)}`;
  if (details.flat().filter((d) => (d as { code: string }).code !== 'too_many_errors').length > 100) return 'more than 100 errors listed';
  return undefined;
}

let sent = 0;
/** Tokens of the sandboxes the sweep created (imported snapshots among them), read back later. */
const createdTokens: string[] = [];

/**
 * Requests in flight, over every sweep at once: a new one goes out as soon as one is answered. (In
 * batches of 16, each batch waited for its slowest request, e.g. a create that makes an RSA key;
 * read-backs of many sandboxes ran one after another for the same reason.)
 */
const inFlight = pLimit(16);

/** Connections kept open for the sweeps' requests, as many as are in flight. */
const agent = new Agent({ keepAlive: true, maxSockets: 16 });
afterAll(() => agent.destroy());

/**
 * One request over `agent`, answered with its status and text. Node's http client, not fetch: the
 * sweeps send some 20,000 requests, and fetch's streams cost more CPU than the server answering them.
 * The URL is parsed as fetch parses it (dot segments resolved, percent-encodings kept), and the body is
 * sent with its length, as fetch sends it.
 */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = request(new URL(url), { method, headers: { ...headers, ...length }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sends the probes (through `inFlight`); fails with every bad answer (the first 20), after all were
 * sent. Answers the texts of the successful ones, whose objects the read-back then visits. A probe
 * identical to another of the same sweep (method, path, body) is sent once: its requests go out in no
 * set order, so the second could only show what the first did. (An operation with one path
 * parameter got each bad id twice: once as "every parameter", once as "that parameter".)
 */
async function sweep(probes: Probe[], token: string | null = h.token): Promise<string[]> {
  const failures: string[] = [];
  const succeeded: string[] = [];
  const unique = [...new Map(probes.map((probe) => [JSON.stringify([probe.method, probe.path, probe.body, probe.form]), probe])).values()];
  await Promise.all(
    unique.map(({ method, path, body, form }) =>
      inFlight(async () => {
        const headers: Record<string, string> = { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' };
        if (token) headers.authorization = `Bearer ${token}`;
        const res = await send(h.origin + path, method, headers, body ?? form);
        const text = res.text;
        // The checkout page answers HTML, its own errors included; only its status is the API's business.
        const problem = path.startsWith('/checkout/') ? (res.status >= 500 ? `status ${res.status}` : undefined) : problemWith(res.status, text);
        if (problem) failures.push(`${method} ${path.slice(0, 120)} ${(body ?? form ?? '').slice(0, 120)} → ${problem}`);
        if (res.status < 300) succeeded.push(text);
        if (res.status === 201 && path === '/sim/v1/sandboxes') createdTokens.push((JSON.parse(text) as { token: string }).token);
      }),
    ),
  );
  sent += unique.length;
  expect(failures.slice(0, 20), `${failures.length} of ${unique.length} answers were bad`).toEqual([]);
  return succeeded;
}

/**
 * Reads back what a sandbox holds after the sweep, so a value stored by an accepted request that
 * breaks a later read is found too (a `due` of 1e300 once made the checkout page a 500): every
 * list, each purchase's checkout page, the snapshot, events and e-mails, then a month of billing
 * run on the clock, and the lists again.
 */
async function readBack(token: string): Promise<void> {
  const lists = OPERATIONS.filter((op) => op.method === 'GET' && op.params.length === 0 && !op.query.some((q) => q === 'brand_id'));
  const reads = () => sweep(lists.map((op) => ({ method: 'GET', path: `${op.path}${op.query.includes('page_size') ? '?page_size=1000' : ''}` })), token);
  const answers = (await reads()).map((text) => JSON.parse(text) as { results?: { checkout_url?: string; type?: string; id: string }[] });
  const objects = answers.flatMap((answer) => answer.results ?? []);
  await sweep([
    ...objects.filter((o) => o.checkout_url).map((o) => ({ method: 'GET', path: new URL(o.checkout_url!).pathname })),
    ...objects.filter((o) => o.type === 'billing_template').map((o) => ({ method: 'GET', path: `/api/v1/billing_templates/${o.id}/clients/` })),
    ...objects.filter((o) => o.type === 'client').map((o) => ({ method: 'GET', path: `/api/v1/clients/${o.id}/recurring_tokens/` })),
    { method: 'POST', path: '/sim/v1/clock/advance', body: '{"by": "P1M"}' },
  ], token);
  await reads();
}

/** Ids of real objects of the sandbox, so requests reach the handlers and the domain behind them. */
const ids: Record<string, string> = {};
/** The sandbox with those objects (and their events), exported before any request changes it. */
let snapshot: { sandbox: Record<string, unknown> };
const BASES: Record<string, () => unknown> = {
  createClient: () => clientBody(),
  updateClient: () => clientBody(),
  patchClient: () => ({ full_name: 'Ada', cc: ['b@example.com'] }),
  createBillingTemplate: () => subscriptionBody(h.brandId),
  updateBillingTemplate: () => subscriptionBody(h.brandId),
  patchBillingTemplate: () => oneTimeBody(h.brandId, { is_subscription: undefined }),
  sendInvoice: () => ({ client_id: ids.client, payment_method_whitelist: ['visa'] }),
  sendOneTimeInvoices: () => ({ ...oneTimeBody(h.brandId), invoice_send_receipt: true, clients: [{ client_id: ids.client, payment_method_whitelist: ['visa'] }] }),
  addSubscriber: () => ({ client_id: ids.client, subscription_deduction_date: '2026-02-10', mandate_expiry_date: '2029-12-31', subscription_first_deduction_date: '2026-02-05', subscription_first_deduction_amount: 100 }),
  patchSubscriber: () => ({ status: 'subscription_paused', payment_method_whitelist: ['visa'] }),
  createPurchase: () => ({ brand_id: h.brandId, client_id: ids.client, due: 1_800_000_000, purchase: { currency: 'EUR', products: [{ name: 'Hour', price: 1200, quantity: 2, discount: 100, tax_percent: 7.5 }] } }),
  chargePurchase: () => ({ recurring_token: ids.purchase }),
  createWebhook: () => ({ title: 'Hook', callback: 'http://127.0.0.1:9/hook', events: ['purchase.paid'] }),
  updateWebhook: () => ({ title: 'Hook', callback: 'http://127.0.0.1:9/hook', events: ['purchase.paid'] }),
  createSandbox: () => ({ now: '2026-01-30T12:00:00Z', frozen: true, fixtures: false, seed: 1 }),
  patchClock: () => ({ frozen: true }),
  advanceClock: () => ({ to: '2026-01-30T12:00:00Z' }),
  payPurchase: () => ({ method: 'visa', outcome: 'failure', save_token: false }),
  replaceWebhookChaos: () => ({ duplicate: 0.5, reorder: 0.5, delay: 'PT1H', seed: 1 }),
};

/** The id an operation's path parameter takes: the object of that resource made in beforeAll. */
function idFor(operation: Operation, param: string): string {
  if (param === 'btc_id') return ids.subscriber!;
  if (param !== 'id') return UNKNOWN_ID;
  if (operation.operationId === 'sendInvoice') return ids.oneTime!;
  const resource = /\/(clients|billing_templates|purchases|webhooks)\//.exec(operation.path)?.[1];
  return { clients: ids.client, billing_templates: ids.template, purchases: ids.purchase, webhooks: ids.webhook }[resource ?? ''] ?? UNKNOWN_ID;
}

const pathOf = (operation: Operation, id: (param: string) => string = (param) => idFor(operation, param)) =>
  operation.path.replace(/\{([^}]+)\}/g, (_, param: string) => id(param));

/** Every leaf of a body as [path of keys, value] (arrays by index). */
function leaves(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => leaves(item, [...at, index]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => leaves(item, [...at, key]));
  return at.length ? [at] : [];
}

/** Every object of a body, as paths: the root and each nested object. */
const objectsIn = (value: unknown, at: (string | number)[] = []): (string | number)[][] =>
  value && typeof value === 'object'
    ? [...(Array.isArray(value) ? [] : [at]), ...Object.entries(value).flatMap(([key, item]) => objectsIn(item, [...at, Array.isArray(value) ? Number(key) : key]))]
    : [];

const SLOT = '\u0000slot\u0000';
/** The body's JSON text with the value at `path` replaced by the JSON text `raw` (or a key added). */
function splice(base: unknown, path: (string | number)[], raw: string, addKey?: string): string {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, addKey === undefined ? -1 : path.length)) node = node[key] as Record<string | number, unknown>;
  if (addKey === undefined) node[path.at(-1)!] = SLOT;
  else Object.defineProperty(node, addKey, { value: SLOT, enumerable: true });
  return JSON.stringify(copy).replace(JSON.stringify(SLOT), raw);
}

beforeAll(async () => {
  const post = async (path: string, body: unknown) => {
    const res = await h.request('POST', path, { body });
    if (res.status !== 201) throw new Error(`setup ${path}: ${res.text}`);
    return res.body as { id: string; billing_template_client?: { id: string } };
  };
  ids.client = (await post('/api/v1/clients/', clientBody())).id;
  ids.template = (await post('/api/v1/billing_templates/', subscriptionBody(h.brandId))).id;
  ids.oneTime = (await post('/api/v1/billing_templates/', oneTimeBody(h.brandId))).id;
  ids.subscriber = (await post(`/api/v1/billing_templates/${ids.template}/add_subscriber/`, BASES.addSubscriber!())).billing_template_client!.id;
  ids.purchase = (await post('/api/v1/purchases/', BASES.createPurchase!())).id;
  ids.webhook = (await post('/api/v1/webhooks/', BASES.createWebhook!())).id;
  // The account's own key, made now, so that the snapshot carries it as an exported sandbox that has signed
  // anything does: each import below brings its key along, and the read-back's GET /public_key/ reads the
  // imported key instead of making one (40 RSA keys, some 8 s of CPU).
  expect((await h.request('GET', '/api/v1/public_key/')).status).toBe(200);
  snapshot = (await h.request('GET', '/sim/v1/snapshot')).body as typeof snapshot;
  expect(snapshot.sandbox.signingKey).toBeTruthy();
  // h.request checks each answer against openapi.yaml, whose checker the first call compiles (6-13 s on a
  // loaded 2-core machine, past vitest's 10 s for a hook: it failed there so). A hang guard.
}, 120_000);

describe('no client input produces a 500', () => {
  it('path ids: bad percent-encodings, Object property names, huge and unknown ids, in every parameter', async () => {
    const probes = OPERATIONS.filter((op) => op.params.length).flatMap((op) =>
      BAD_IDS.flatMap((bad) => [pathOf(op, () => bad), ...op.params.map((p) => pathOf(op, (q) => (q === p ? bad : idFor(op, q))))]).map((path) => ({
        method: op.method,
        path,
        body: op.method === 'GET' || op.method === 'DELETE' ? undefined : '{}',
      })),
    );
    const checkout = BAD_IDS.flatMap((bad) => [{ method: 'GET', path: `/checkout/${bad}/` }, { method: 'POST', path: `/checkout/${bad}/`, form: 'outcome=success' }]);
    const forms = PROTOTYPE_NAMES.map((name) => ({ method: 'POST', path: `/checkout/${ids.purchase}/`, form: `${name}=1&${name}[x]=2&outcome=failure` }));
    await sweep([...probes, ...checkout, ...forms]);
   }, HANG_MS);

  it('query strings: non-finite and absurd numbers, repeated and bracketed names, Object property names', async () => {
    const probes = OPERATIONS.filter((op) => op.method === 'GET').flatMap((op) => {
      const path = pathOf(op);
      const names = [...op.query, ...PROTOTYPE_NAMES];
      return [
        ...op.query.flatMap((name) => QUERY_VALUES.map((value) => `${name}=${value}`)),
        ...names.flatMap((name) => [`${name}=1&${name}=2`, `${name}[a]=1`, `${name}=1e400`, `${name}[__proto__]=1`]),
      ].map((query) => ({ method: 'GET', path: `${path}?${query}` }));
    });
    await sweep(probes);
   }, HANG_MS);

  const bodyTests = (op: Operation) => {
    it(`${op.operationId}: every Object.prototype name as a key, at the top and nested; bodies of every shape`, async () => {
      const base = BASES[op.operationId] ?? {};
      const keyed = objectsIn(base).flatMap((at) =>
        PROTOTYPE_NAMES.flatMap((name) => ['1', '{}', '{"__proto__": {"polluted": 1}}'].map((raw) => splice(base, at, raw, name))),
      );
      const nested = op.fields.flatMap((field) => PROTOTYPE_NAMES.flatMap((name) => [`{"${field}": {"${name}": 1}}`, `{"${field}": [{"${name}": 1}]}`]));
      await sweep([...SHAPES, ...keyed, ...nested].map((body) => ({ method: op.method, path: pathOf(op), body })));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }, HANG_MS);

    if (!op.hasBody) return;
    it(`${op.operationId}: every field, of a valid body and alone, non-finite, absurd, out of range, huge or deep`, async () => {
      const base = BASES[op.operationId];
      const inBase = base ? leaves(base()).flatMap((at) => VALUES.map((raw) => splice(base(), at, raw))) : [];
      const alone = op.fields.flatMap((field) => VALUES.map((raw) => `{"${field}": ${raw}}`));
      await sweep([...inBase, ...alone].map((body) => ({ method: op.method, path: pathOf(op), body })), op.operationId === 'createSandbox' ? null : h.token);
    }, HANG_MS);
  };
  const writes = OPERATIONS.filter((op) => op.method !== 'GET');
  writes.filter((op) => !destroys(op)).forEach(bodyTests);

  it('reads back everything the accepted requests stored, and a month of billing on it', () => readBack(h.token), HANG_MS);

  writes.filter(destroys).forEach(bodyTests);

  it('snapshots carrying Object property names, non-finite numbers and deep nesting import or answer 400', async () => {
    expect((snapshot.sandbox.events as unknown[]).length).toBeGreaterThan(0);
    const body = { snapshot };
    const spots = [['snapshot'], ['snapshot', 'sandbox'], ['snapshot', 'sandbox', 'events', 0, 'payload'], ['snapshot', 'sandbox', 'clients', 0, 1], ['snapshot', 'sandbox', 'clock']];
    const keyed = spots.flatMap((at) => PROTOTYPE_NAMES.flatMap((name) => ['1', '{"__proto__": {"polluted": 1}}', `${'['.repeat(5000)}${']'.repeat(5000)}`].map((raw) => splice(body, at, raw, name))));
    const valued = leaves(snapshot.sandbox.clock).concat([['jobSeq'], ['origin', 'seed']]).flatMap((at) => VALUES.map((raw) => splice(body, ['snapshot', 'sandbox', ...at], raw)));
    await sweep([...keyed, ...valued].map((text) => ({ method: 'POST', path: '/sim/v1/sandboxes', body: text })), null);
  }, HANG_MS);

  it('reads back the sandboxes the sweep created, imported snapshots among them', async () => {
    expect(createdTokens.length).toBeGreaterThan(20);
    // All at once: their requests share `inFlight`, and a sandbox's first GET /public_key/ makes its
    // RSA key on the thread pool, a wait of its sandbox alone (one after another, the file mostly idled).
    await Promise.all(createdTokens.slice(-40).map((token) => readBack(token)));
  }, HANG_MS);

  it('sent at least 10,000 requests', () => {
    expect(sent).toBeGreaterThanOrEqual(10_000);
  });
});
