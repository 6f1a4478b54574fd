// DESIGN.md §14 "What the platform accepts" and §3 "Errors": the platform is a Django REST framework
// service, so an /api/v1 body field the operation does not define, or one that is always the
// server's (`readOnly: true`), is ignored — it changes nothing — and named in the
// `Billing-Sim-Ignored` header and the request log; a number for a text field is read as its text,
// an integral string as an integer, DRF's spellings as a boolean. `serve --strict` and
// `POST /sim/v1/sandboxes {"strict": true}` keep the refusals. The bodies are written from the fields
// the integrations send (FluentCart's product `qty` and integer `personal_code`, the Java SDK's
// `status`, `send_receipt`, `skip_capture` on create, the example apps' `order_id`).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.ts';
import { expectRejected, makeClient, makeOneTimeTemplate, makeTemplate, sandboxAt, subscriberBody, tokenBox, type Box, type Client, type Errors, type List, type Purchase } from '../builders/engine.ts';
import { useHarness, type Call } from '../support/harness.ts';
import { send } from '../support/spawn-sim.ts';

const h = useHarness();
const NOW = '2026-01-30T12:00:00Z';
const IGNORED = 'billing-sim-ignored';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-lenient-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const strictBox = async (): Promise<Box> => {
  const { token, brandId } = await h.newSandbox({ now: NOW, frozen: true, strict: true });
  return tokenBox(h, token, brandId);
};

const ignoredOf = (call: Call): string[] | undefined => call.headers[IGNORED]?.split(', ');

/** FluentCart's purchase: a product line with its `qty` beside `quantity`, `personal_code` an integer. */
const fluentCartBody = (brandId: string) => ({
  brand_id: brandId,
  client: { email: 'buyer@example.com', full_name: 'Nur Aisyah', personal_code: 900101145678 },
  purchase: { currency: 'MYR', products: [{ name: 'T-shirt', price: 4900, quantity: 2, qty: 2 }] },
  success_redirect: 'https://shop.example.com/thanks',
});

/** The Java SDK's purchase create: `status` always sent, with the two writable flags. */
const javaSdkBody = (brandId: string) => ({
  brand_id: brandId,
  client: { email: 'java@example.com' },
  purchase: { currency: 'EUR', products: [{ name: 'Plan', price: 1500 }] },
  status: 'created',
  send_receipt: true,
  skip_capture: true,
});

const orderIdBody = (brandId: string) => ({
  brand_id: brandId,
  client: { email: 'laravel@example.com' },
  purchase: { currency: 'EUR', products: [{ name: 'Order 1001', price: 2500 }] },
  order_id: 1001,
});

/**
 * An integer `order_id` in a strict sandbox: refused at `order_id`. openapi.yaml names the field (read-only,
 * text or null, as the platform answers it), so the refusal is its type; before, it was `unknown_field`.
 */
function expectOrderIdRefused(call: Call): void {
  expect(call.status, call.text).toBe(400);
  expect(Object.keys(call.body as Errors)).toEqual(['order_id']);
  expect(['unknown_field', 'read_only', 'invalid']).toContain((call.body as Errors).order_id![0]!.code);
}

async function createdAndReadBack(box: Box, body: unknown): Promise<{ call: Call; stored: Purchase }> {
  const call = await box.req('POST', '/api/v1/purchases/', body);
  expect(call.status, call.text.slice(0, 500)).toBe(201);
  const stored = (await box.req('GET', `/api/v1/purchases/${(call.body as Purchase).id}/`)).body as Purchase;
  expect(stored).toEqual(call.body);
  return { call, stored };
}

describe('the integrations\' purchases are created as the platform creates them', () => {
  it('FluentCart: products[].qty is ignored and named, an integer personal_code is stored as its text', async () => {
    const box = await sandboxAt(h, NOW);
    const { call, stored } = await createdAndReadBack(box, fluentCartBody(box.brandId));
    expect(ignoredOf(call)).toEqual(['purchase.products.0.qty']);
    expect((stored.client as Client).personal_code).toBe('900101145678');
    expect(stored.purchase.products).toEqual([expect.objectContaining({ name: 'T-shirt', price: 4900, quantity: '2.0000' })]);
    expect(stored.purchase.products[0]).not.toHaveProperty('qty');
    expect(stored.purchase.total).toBe(9800);
  });

  it('the Java SDK: status is ignored and named (the purchase is created as always), send_receipt and skip_capture are kept', async () => {
    const box = await sandboxAt(h, NOW);
    const { call, stored } = await createdAndReadBack(box, javaSdkBody(box.brandId));
    expect(ignoredOf(call)).toEqual(['status']);
    expect(stored.status).toBe('created');
    expect(stored.send_receipt).toBe(true);
    expect(stored.skip_capture).toBe(true);
  });

  it('an example app\'s order_id is ignored and named; the purchase is stored without it', async () => {
    const box = await sandboxAt(h, NOW);
    const plain = await createdAndReadBack(box, { ...orderIdBody(box.brandId), order_id: undefined });
    const { call, stored } = await createdAndReadBack(box, orderIdBody(box.brandId));
    expect(ignoredOf(call)).toEqual(['order_id']);
    expect(plain.call.headers[IGNORED]).toBeUndefined();
    const unchanged = (purchase: Purchase) => ({ ...purchase, id: '', client_id: '', checkout_url: '', direct_post_url: '', reference_generated: '' });
    expect(unchanged(stored)).toEqual(unchanged(plain.stored));
  });

  it('in a strict sandbox the same requests answer 400 naming the field, and create nothing', async () => {
    const box = await strictBox();
    const fluent = await box.req('POST', '/api/v1/purchases/', fluentCartBody(box.brandId));
    expect(fluent.status).toBe(400);
    expect(fluent.body).toEqual({
      'purchase.products.0.qty': [expect.objectContaining({ code: 'unknown_field' })],
      'client.personal_code': [{ message: 'Expected string.', code: 'invalid' }],
    });
    expect(fluent.headers[IGNORED]).toBeUndefined();
    expectRejected(await box.req('POST', '/api/v1/purchases/', { ...javaSdkBody(box.brandId), status: 'paid' }), 'status', 'read_only');
    expectOrderIdRefused(await box.req('POST', '/api/v1/purchases/', orderIdBody(box.brandId)));
    expect(((await box.req('GET', '/api/v1/purchases/')).body as List<Purchase>).results).toEqual([]);
  });

  it('under a server started with strict every sandbox refuses them, the default one and new ones', async () => {
    const sim = await startSimulator({ port: 0, quiet: true, strict: true });
    try {
      expectOrderIdRefused(await send(sim.url, 'POST', '/api/v1/purchases/', sim.token, orderIdBody(sim.brandId)));
      const created = (await send(sim.url, 'POST', '/sim/v1/sandboxes', null, { now: NOW })).body as { token: string; brand_id: string };
      const fluent = await send(sim.url, 'POST', '/api/v1/purchases/', created.token, fluentCartBody(created.brand_id));
      expect(Object.keys(fluent.body as Errors).sort()).toEqual(['client.personal_code', 'purchase.products.0.qty']);
      expectRejected(await send(sim.url, 'POST', '/api/v1/clients/', created.token, { email: 'a@example.com', id: '3f8a5c2e-1b4d-4e6f-8a7b-9c0d1e2f3a4b' }), 'id', 'read_only');
    } finally {
      await sim.stop();
    }
  });
});

describe('what is ignored, at any depth', () => {
  it('unknown fields in nested objects and array items are named by their dotted paths, in the order found', async () => {
    const box = await sandboxAt(h, NOW);
    const body = {
      ...orderIdBody(box.brandId),
      client: { email: 'nested@example.com', foo: 1 },
      purchase: { currency: 'EUR', products: [{ name: 'A', price: 100 }, { name: 'B', price: 200, sku: 'b-1', meta: { x: 1 } }], notes_extra: 'x' },
    };
    const call = await box.req('POST', '/api/v1/purchases/', body);
    expect(call.status, call.text).toBe(201);
    expect(ignoredOf(call)!.sort()).toEqual(['client.foo', 'order_id', 'purchase.notes_extra', 'purchase.products.1.meta', 'purchase.products.1.sku']);
    expect((call.body as Purchase).purchase.products.map((line) => Object.keys(line).sort())).toEqual([
      ['category', 'discount', 'name', 'price', 'quantity', 'tax_percent'],
      ['category', 'discount', 'name', 'price', 'quantity', 'tax_percent'],
    ]);
  });

  it('read-only fields (id, type, created_on, purchase.total, is_test) are ignored whatever their value', async () => {
    const box = await sandboxAt(h, NOW);
    const otherId = '3f8a5c2e-1b4d-4e6f-8a7b-9c0d1e2f3a4b';
    const body = { ...orderIdBody(box.brandId), order_id: undefined, id: otherId, type: 'invoice', created_on: 1, is_test: false };
    body.purchase = { ...body.purchase, total: 1 } as typeof body.purchase;
    const call = await box.req('POST', '/api/v1/purchases/', body);
    expect(call.status, call.text).toBe(201);
    expect(ignoredOf(call)!.sort()).toEqual(['created_on', 'id', 'is_test', 'purchase.total', 'type']);
    const purchase = call.body as Purchase;
    expect(purchase.id).not.toBe(otherId);
    expect(purchase.type).toBe('purchase');
    expect(purchase.created_on).toBe(Date.parse(NOW) / 1000);
    expect(purchase.purchase.total).toBe(2500);
    expect((await box.req('GET', `/api/v1/purchases/${otherId}/`)).status).toBe(404);
  });

  it('a webhook\'s public_key sent on create or PUT is ignored: the webhook keeps the key the server made', async () => {
    const box = await sandboxAt(h, NOW);
    const body = { callback: 'https://shop.example.com/hook', events: ['purchase.paid'] };
    const first = (await box.req('POST', '/api/v1/webhooks/', body)).body as { id: string; public_key: string };
    const second = await box.req('POST', '/api/v1/webhooks/', { ...body, public_key: first.public_key });
    expect(second.status).toBe(201);
    expect(ignoredOf(second)).toEqual(['public_key']);
    expect((second.body as { public_key: string }).public_key).not.toBe(first.public_key);
    const put = await box.req('PUT', `/api/v1/webhooks/${first.id}/`, { ...body, public_key: (second.body as { public_key: string }).public_key });
    expect(ignoredOf(put)).toEqual(['public_key']);
    expect((put.body as { public_key: string }).public_key).toBe(first.public_key);
  });

  it('__proto__, constructor and toString keys are ignored and named, and pollute no prototype', async () => {
    const box = await sandboxAt(h, NOW);
    // Sent as JSON text: JSON.parse (body-parser) makes `__proto__` an own key, which is what arrives.
    const raw = '{"email": "proto@example.com", "__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "toString": "x", "cc": []}';
    const call = await h.request('POST', '/api/v1/clients/', { token: box.token, raw, headers: { 'content-type': 'application/json' } });
    expect(call.status, call.text).toBe(201);
    expect(ignoredOf(call)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    const stored = (await box.req('GET', `/api/v1/clients/${(call.body as Client).id}/`)).body as Client;
    expect(Object.keys(stored)).not.toContain('constructor');
    expect(stored.email).toBe('proto@example.com');
    // Nested too: a purchase's client.
    const nested = `{"brand_id": "${box.brandId}", "client": {"email": "p@example.com", "__proto__": {"admin": true}}, "purchase": {"currency": "EUR", "products": [{"name": "A", "price": 1, "constructor": 1}]}}`;
    const purchase = await h.request('POST', '/api/v1/purchases/', { token: box.token, raw: nested, headers: { 'content-type': 'application/json' } });
    expect(purchase.status, purchase.text).toBe(201);
    expect(ignoredOf(purchase)!.sort()).toEqual(['client.__proto__', 'purchase.products.0.constructor']);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('a path a header cannot carry is percent-encoded; the list is cut at 100 paths, ending "..."', async () => {
    const box = await sandboxAt(h, NOW);
    const odd = await box.req('POST', '/api/v1/clients/', { email: 'odd@example.com', 'line\nbreak': 1, 'café, 100%': 2 });
    expect(odd.status).toBe(201);
    expect(odd.headers[IGNORED]).toBe('line%0Abreak, caf%C3%A9%2C%20100%25');
    const many = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`extra_${i}`, i]));
    const call = await box.req('POST', '/api/v1/clients/', { email: 'many@example.com', ...many });
    expect(call.status).toBe(201);
    const named = ignoredOf(call)!;
    expect(named).toHaveLength(101);
    expect(named.slice(0, 2)).toEqual(['extra_0', 'extra_1']);
    expect(named.at(-1)).toBe('...');
  });

  it('a body sent to an operation that takes none has its fields ignored and named (cancel with a reason)', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = (await box.req('POST', '/api/v1/purchases/', orderIdBody(box.brandId))).body as Purchase;
    const cancelled = await box.req('POST', `/api/v1/purchases/${purchase.id}/cancel/`, { reason: 'customer asked' });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(ignoredOf(cancelled)).toEqual(['reason']);
    expect((cancelled.body as Purchase).status).toBe('cancelled');
    const strict = await strictBox();
    const other = (await strict.req('POST', '/api/v1/purchases/', { ...orderIdBody(strict.brandId), order_id: undefined })).body as Purchase;
    expectRejected(await strict.req('POST', `/api/v1/purchases/${other.id}/cancel/`, { reason: 'x' }), 'reason', 'unknown_field');
  });

  it('a PUT and a PATCH with ignored fields change nothing but what they set', async () => {
    const box = await sandboxAt(h, NOW);
    const client = await makeClient(box, { phone: '+49301234567' });
    const patched = await box.req('PATCH', `/api/v1/clients/${client.id}/`, { id: '3f8a5c2e-1b4d-4e6f-8a7b-9c0d1e2f3a4b', created_on: 5, nickname: 'x', city: 'Berlin' });
    expect(patched.status, patched.text).toBe(200);
    expect(ignoredOf(patched)!.sort()).toEqual(['created_on', 'id', 'nickname']);
    expect(patched.body).toEqual({ ...client, city: 'Berlin' });
    const put = await box.req('PUT', `/api/v1/clients/${client.id}/`, { ...client, type: 'other', updated_on: 1, city: 'Hamburg', extra: true });
    expect(ignoredOf(put)!.sort()).toEqual(['created_on', 'extra', 'id', 'type', 'updated_on']);
    expect(put.body).toEqual({ ...client, city: 'Hamburg' });
    expect((await box.req('GET', `/api/v1/clients/${client.id}/`)).body).toEqual({ ...client, city: 'Hamburg' });
  });

  it('the request log line names the ignored paths', async () => {
    const box = await sandboxAt(h, NOW);
    const call = await box.req('POST', '/api/v1/purchases/', { ...fluentCartBody(box.brandId), order_id: 7 });
    expect(call.status).toBe(201);
    const line = [...h.logs].reverse().find((logged) => logged.includes('POST /api/v1/purchases/ 201'));
    const named = / 201 [\d.]+ms ignored: (.+)$/.exec(line ?? '')?.[1];
    expect(named?.split(', ').sort()).toEqual(['order_id', 'purchase.products.0.qty']);
    expect(named).toBe(call.headers[IGNORED]);
  });

  it('a page of a localhost origin may read the header (Access-Control-Expose-Headers)', async () => {
    const box = await sandboxAt(h, NOW);
    const call = await h.request('POST', '/api/v1/clients/', { token: box.token, body: { email: 'cors@example.com', extra: 1 }, headers: { origin: 'http://localhost:5173' } });
    expect(call.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(call.headers['access-control-expose-headers']).toBe('Billing-Sim-Ignored, Billing-Sim-Clock');
    expect(call.headers[IGNORED]).toBe('extra');
  });
});

describe('values read as the platform\'s fields read them', () => {
  it('an integral string for a nullable integer field (purchase.total_override "4990", as DRF\'s IntegerField(allow_null=True) reads it)', async () => {
    const box = await sandboxAt(h, NOW);
    const call = await box.req('POST', '/api/v1/purchases/', {
      brand_id: box.brandId,
      client: { email: 'override@example.com' },
      purchase: { currency: 'EUR', products: [{ name: 'A', price: 1000 }], total_override: '4990' },
    });
    expect(call.status, call.text).toBe(201);
    expect((call.body as Purchase).purchase.total).toBe(4990);
  });

  it('a DELETE\'s body is ignored and named, as any ignored field is', async () => {
    const box = await sandboxAt(h, NOW);
    const client = (await box.req('POST', '/api/v1/clients/', { email: 'gone@example.com' })).body as { id: string };
    const call = await box.req('DELETE', `/api/v1/clients/${client.id}/`, { reason: 'duplicate' });
    expect(call.status).toBe(204);
    expect(ignoredOf(call)).toEqual(['reason']);
  });

  it('an integral string for an integer field, DRF\'s spellings for a boolean, a number for text', async () => {
    const box = await sandboxAt(h, NOW);
    const call = await box.req('POST', '/api/v1/purchases/', {
      brand_id: box.brandId,
      client: { email: 'coerce@example.com', phone: 60123456789, zip_code: 50450 },
      purchase: { currency: 'EUR', products: [{ name: 'A', price: '100', discount: '10.0' }, { name: 'B', price: ' 200 ' }] },
      due: String(Date.parse('2026-02-14T00:00:00Z') / 1000),
      send_receipt: 'yes',
      skip_capture: 'off',
      force_recurring: 1,
    });
    expect(call.status, call.text).toBe(201);
    expect(call.headers[IGNORED]).toBeUndefined();
    const purchase = call.body as Purchase;
    expect(purchase.purchase.products.map((line) => [line.price, line.discount])).toEqual([[100, 10], [200, 0]]);
    expect(purchase.due).toBe(Date.parse('2026-02-14T00:00:00Z') / 1000);
    expect([purchase.send_receipt, purchase.skip_capture, purchase.force_recurring]).toEqual([true, false, true]);
    const client = purchase.client as Client;
    expect([client.phone, client.zip_code]).toEqual(['60123456789', '50450']);
    for (const [spelling, value] of [['True', true], ['t', true], ['ON', true], ['1', true], [0, false], ['No', false], ['F', false]] as const) {
      const flag = await box.req('POST', '/api/v1/purchases/', { ...orderIdBody(box.brandId), order_id: undefined, send_receipt: spelling });
      expect((flag.body as Purchase).send_receipt, String(spelling)).toBe(value);
    }
  });

  it('what DRF refuses stays a 400 naming the field: null or true for text, "1.5" for an integer, "maybe" for a boolean', async () => {
    const box = await sandboxAt(h, NOW);
    const base = orderIdBody(box.brandId);
    const withClient = (client: Record<string, unknown>) => ({ ...base, order_id: undefined, client: { email: 'r@example.com', ...client } });
    expectRejected(await box.req('POST', '/api/v1/purchases/', withClient({ full_name: null })), 'client.full_name', 'null');
    const textTrue = await box.req('POST', '/api/v1/purchases/', withClient({ full_name: true }));
    expectRejected(textTrue, 'client.full_name', 'invalid');
    expect((textTrue.body as Errors)['client.full_name']![0]!.message).toBe('Expected string.');
    const fraction = await box.req('POST', '/api/v1/purchases/', { ...base, purchase: { ...base.purchase, products: [{ name: 'A', price: '1.5' }] } });
    expectRejected(fraction, 'purchase.products.0.price', 'invalid');
    expectRejected(await box.req('POST', '/api/v1/purchases/', { ...base, order_id: undefined, send_receipt: 'maybe' }), 'send_receipt', 'invalid');
    // An ignored field beside a refusal is still named, and nothing is created.
    expect(ignoredOf(fraction)).toEqual(['order_id']);
    expect(((await box.req('GET', '/api/v1/purchases/')).body as List<Purchase>).results).toEqual([]);
  });

  it('a strict sandbox reads no value as another type: 42 for text → 400 "Expected string."', async () => {
    const box = await strictBox();
    const call = await box.req('POST', '/api/v1/clients/', { email: 'strict@example.com', phone: 42 });
    expectRejected(call, 'phone', 'invalid');
    expect((call.body as Errors).phone![0]!.message).toBe('Expected string.');
  });
});

describe('what stays a refusal', () => {
  it('the spec\'s conditional read-only rules: a template\'s fields by its kind, a pending subscriber\'s status', async () => {
    const box = await sandboxAt(h, NOW);
    const template = await makeTemplate(box);
    expectRejected(await box.req('PATCH', `/api/v1/billing_templates/${template.id}/`, { is_subscription: false }), 'is_subscription', 'read_only');
    expectRejected(await box.req('PATCH', `/api/v1/billing_templates/${template.id}/`, { due: 1_771_027_200 }), 'due', 'read_only');
    const oneTime = await makeOneTimeTemplate(box);
    expectRejected(await box.req('PATCH', `/api/v1/billing_templates/${oneTime.id}/`, { subscription_period: 3 }), 'subscription_period', 'read_only');
    const client = await makeClient(box);
    const added = await box.req('POST', `/api/v1/billing_templates/${template.id}/add_subscriber/`, subscriberBody(client.id, '2026-02-03', { status: 'active' }));
    expectRejected(added, 'status', 'read_only');
  });

  it('/sim/v1 bodies still refuse an unknown field', async () => {
    const box = await sandboxAt(h, NOW);
    expectRejected(await box.req('PATCH', '/sim/v1/clock', { frozen: true, speed: 2 }), 'speed', 'unknown_field');
    expectRejected(await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { now: NOW, strikt: true } }), 'strikt', 'unknown_field');
    const call = await box.req('POST', '/sim/v1/checkpoints', { name: 'a', order_id: 1 });
    expectRejected(call, 'order_id', 'unknown_field');
    expect(call.headers[IGNORED]).toBeUndefined();
  });
});

describe('a strict sandbox stays strict through what a sandbox survives', () => {
  const expectStrict = async (box: Box) =>
    expectRejected(await box.req('POST', '/api/v1/clients/', { email: 'x@example.com', nickname: 'x' }), 'nickname', 'unknown_field');

  it('a snapshot round trip, a checkpoint\'s fork and a reset', async () => {
    const box = await strictBox();
    const snapshot = (await box.req('GET', '/sim/v1/snapshot')).body as { sandbox: { origin: Record<string, unknown> } };
    expect(snapshot.sandbox.origin.strict).toBe(true);
    const copy = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot } });
    expect(copy.status, copy.text.slice(0, 300)).toBe(201);
    await expectStrict(tokenBox(h, (copy.body as { token: string }).token, box.brandId));
    const checkpoint = (await box.req('POST', '/sim/v1/checkpoints', {})).body as { id: string };
    const fork = await h.request('POST', '/sim/v1/sandboxes', { token: box.token, body: { from_checkpoint: checkpoint.id } });
    expect(fork.status, fork.text).toBe(201);
    await expectStrict(tokenBox(h, (fork.body as { token: string }).token, box.brandId));
    expect((await box.req('POST', '/sim/v1/reset')).status).toBe(200);
    await expectStrict(box);
    // And a lenient sandbox's snapshot has no `strict` and copies into a lenient sandbox.
    const lenient = await sandboxAt(h, NOW);
    const plain = (await lenient.req('GET', '/sim/v1/snapshot')).body as { sandbox: { origin: Record<string, unknown> } };
    expect(plain.sandbox.origin).not.toHaveProperty('strict');
  });

  it('a restart on the same --data file', async () => {
    const file = join(dir, 'strict.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const created = (await send(first.url, 'POST', '/sim/v1/sandboxes', null, { now: NOW, strict: true })).body as { token: string };
    await first.stop();
    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      expectRejected(await send(second.url, 'POST', '/api/v1/clients/', created.token, { email: 'x@example.com', nickname: 'x' }), 'nickname', 'unknown_field');
      const lenient = await send(second.url, 'POST', '/api/v1/clients/', second.token, { email: 'x@example.com', nickname: 'x' });
      expect(lenient.status).toBe(201);
      expect(lenient.headers[IGNORED]).toBe('nickname');
    } finally {
      await second.stop();
    }
  });
});

describe('GET /api/v1/clients/?q=EMAIL (the WHMCS module\'s look-up)', () => {
  it('finds the clients whose e-mail equals q, whatever the case, in the list envelope; no match → empty results', async () => {
    const box = await sandboxAt(h, NOW);
    const jane = await makeClient(box, { email: 'Jane.Doe@Example.com' });
    await makeClient(box, { email: 'jane.doe@example.com.au' });
    await makeClient(box, { email: 'john@example.com' });
    const found = await box.req('GET', `/api/v1/clients/?q=${encodeURIComponent('jane.doe@EXAMPLE.com')}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ results: [jane], next: null, previous: null });
    const none = await box.req('GET', '/api/v1/clients/?q=nobody%40example.com');
    expect(none.body).toEqual({ results: [], next: null, previous: null });
    expect(((await box.req('GET', '/api/v1/clients/?q=jane')).body as List<Client>).results).toEqual([]);
  });

  it('pages keep q, and another sandbox\'s client is never found', async () => {
    const box = await sandboxAt(h, NOW);
    const older = await makeClient(box, { email: 'twice@example.com' });
    const newer = await makeClient(box, { email: 'TWICE@example.com' });
    const other = await sandboxAt(h, NOW);
    await makeClient(other, { email: 'twice@example.com' });
    const first = (await box.req('GET', '/api/v1/clients/?q=twice@example.com&page_size=1')).body as List<Client>;
    expect(first.results).toEqual([newer]);
    expect(first.next).toContain('q=twice%40example.com');
    const second = (await box.req('GET', new URL(first.next!).pathname + new URL(first.next!).search)).body as List<Client>;
    expect(second.results).toEqual([older]);
    expect(((await other.req('GET', '/api/v1/clients/?q=TWICE%40example.com')).body as List<Client>).results).toHaveLength(1);
  });
});
