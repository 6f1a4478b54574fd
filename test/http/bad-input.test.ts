// DESIGN.md §6 "Bad input" over HTTP, one test per kind of input that once answered 500, passed
// silently or cost seconds: keys named like Object properties, malformed percent-encoding in a path,
// instants the JS date parser cannot hold, non-finite and absurd numbers, and huge bodies.

import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/contract/spec.ts';
import { useHarness } from '../support/harness.ts';
import { clientBody, subscriptionBody } from '../builders/templates.ts';
import { expectRejected, makeTemplate, sandboxWithClient, subscriberBody } from '../builders/engine.ts';

const h = useHarness();

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const ONE_MIB = 1024 * 1024;
const MONEY_MAX = 10 ** 12;
type Errors = Record<string, { message: string; code: string }[]>;

const raw = (method: string, path: string, text: string, token?: string | null) =>
  h.request(method, path, { raw: text, token, headers: { 'content-type': 'application/json' } });

describe('keys named like Object properties', () => {
  it('POST /sim/v1/sandboxes (no token) with each Object.prototype name as a key is a 400 unknown_field naming it', async () => {
    for (const name of PROTOTYPE_NAMES) {
      const res = await raw('POST', '/sim/v1/sandboxes', `{"${name}": {"polluted": true}}`, null);
      expectRejected(res, name, 'unknown_field');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('in a strict sandbox every operation with a body answers each Object.prototype name sent as a field with 400 unknown_field naming it', async () => {
    const { token: strict } = await h.newSandbox({ strict: true });
    const UNKNOWN_ID = '6b042125-686a-43e0-8a68-23cf5bee102e';
    const withBody = Object.entries(loadSpec().paths ?? {}).flatMap(([path, item]) =>
      (['post', 'put', 'patch'] as const).filter((method) => item?.[method]?.requestBody).map((method) => ({ method: method.toUpperCase(), path })),
    );
    expect(withBody.length).toBeGreaterThan(20);
    const passed: string[] = [];
    for (const { method, path } of withBody) {
      const url = path.replace(/\{[^}]+\}/g, UNKNOWN_ID);
      const token = path === '/sim/v1/sandboxes' ? null : strict;
      for (const name of PROTOTYPE_NAMES) {
        const res = await raw(method, url, `{"${name}": 1}`, token);
        const listed = (res.body as Errors)[name];
        if (res.status !== 400 || !listed?.some((detail) => detail.code === 'unknown_field')) passed.push(`${method} ${path} ${name} → ${res.status}`);
      }
    }
    expect(passed).toEqual([]);
  });

  it('elsewhere every /api/v1 operation with a body ignores each Object.prototype name sent as a field and names it in Billing-Sim-Ignored', async () => {
    const UNKNOWN_ID = '6b042125-686a-43e0-8a68-23cf5bee102e';
    const withBody = Object.entries(loadSpec().paths ?? {}).flatMap(([path, item]) =>
      (['post', 'put', 'patch'] as const).filter((method) => path.startsWith('/api/') && item?.[method]?.requestBody).map((method) => ({ method: method.toUpperCase(), path })),
    );
    expect(withBody.length).toBeGreaterThan(15);
    const named: string[] = [];
    for (const { method, path } of withBody) {
      for (const name of PROTOTYPE_NAMES) {
        const res = await raw(method, path.replace(/\{[^}]+\}/g, UNKNOWN_ID), `{"${name}": {"polluted": true}}`);
        // The rest of the request is what it is (an unknown id: 404; required fields missing: 400), but never about this key.
        if (res.headers['billing-sim-ignored'] !== name || Object.hasOwn((res.body ?? {}) as object, name)) named.push(`${method} ${path} ${name} → ${res.status}`);
      }
    }
    expect(named).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('an operation whose body is required answers a request without one 400 under __all__ (a PATCH is not a change of nothing), and changes nothing', async () => {
    const client = (await h.request('POST', '/api/v1/clients/', { body: clientBody({ full_name: 'Kept As Is' }) })).body as { id: string; updated_on: number };
    for (const path of [`/api/v1/clients/${client.id}/`, `/api/v1/billing_templates/6b042125-686a-43e0-8a68-23cf5bee102e/`, '/sim/v1/clock']) {
      const res = await h.request('PATCH', path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual({ __all__: [{ code: 'required', message: 'A JSON body is required.' }] });
    }
    expect((await h.request('GET', `/api/v1/clients/${client.id}/`)).body).toMatchObject({ full_name: 'Kept As Is', updated_on: client.updated_on });
    // An empty object is a body: a PATCH of no field.
    expect((await h.request('PATCH', `/api/v1/clients/${client.id}/`, { body: {} })).status).toBe(200);
  });

  it('a template body with them at the top, in purchase and in a product names each by its dotted path (refused when strict, ignored otherwise)', async () => {
    const strict = await h.newSandbox({ strict: true });
    const body = (brandId: string) =>
      JSON.stringify(subscriptionBody(brandId))
        .replace('{"brand_id"', '{"constructor": 1, "__proto__": {"x": 1}, "brand_id"')
        .replace('"currency"', '"toString": "x", "currency"')
        .replace('"price"', '"valueOf": 2, "hasOwnProperty": 3, "price"');
    const paths = ['__proto__', 'constructor', 'purchase.products.0.hasOwnProperty', 'purchase.products.0.valueOf', 'purchase.toString'].sort();
    const res = await raw('POST', '/api/v1/billing_templates/', body(strict.brandId), strict.token);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body as Errors).sort()).toEqual(paths);
    const lenient = await raw('POST', '/api/v1/billing_templates/', body(h.brandId));
    expect(lenient.status, lenient.text).toBe(201);
    expect(lenient.headers['billing-sim-ignored']!.split(', ').sort()).toEqual(paths);
  });

  it('query parameters named __proto__ or constructor are carried into page links like any unknown one', async () => {
    const { box } = await sandboxWithClient(h, '2026-01-30T12:00:00Z');
    await box.req('POST', '/api/v1/clients/', clientBody({ email: 'grace@example.com' }));
    const res = await h.request('GET', '/api/v1/clients/?__proto__=1&constructor=2&toString=3&page_size=1', { token: box.token });
    expect(res.status).toBe(200);
    const next = new URL((res.body as { next: string }).next).searchParams;
    expect([next.get('__proto__'), next.get('constructor'), next.get('toString'), next.get('page')]).toEqual(['1', '2', '3', '2']);
  });
});

describe('malformed percent-encoding in a path id', () => {
  it('/api/v1/clients/%ZZ/ is a 404 with the error body, with or without a token', async () => {
    for (const token of [undefined, null]) {
      const res = await h.request('GET', '/api/v1/clients/%ZZ/', { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ __all__: [{ message: 'Not found.', code: 'not_found' }] });
    }
    expect((await h.request('PATCH', '/api/v1/billing_templates/%E0%A4%A/clients/%/', { body: {} })).status).toBe(404);
  });
});

describe('instants the JS date parser cannot represent', () => {
  it('a leap second as the advance target is a 400 naming `to` (code invalid), and the clock still works', async () => {
    const before = await h.request('GET', '/sim/v1/clock');
    const res = await h.request('POST', '/sim/v1/clock/advance', { body: { to: '2026-12-31T23:59:60Z' } });
    expectRejected(res, 'to', 'invalid');
    const after = await h.request('GET', '/sim/v1/clock');
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
  });

  it('a leap second, or year 275760, as a new sandbox clock is a 400 naming `now`', async () => {
    for (const now of ['2026-06-30T23:59:60Z', '+275760-09-13T00:00:00Z', '275760-09-13T00:00:01Z']) {
      expectRejected(await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { now } }), 'now', 'invalid');
    }
  });
});

describe('non-finite and absurd numbers', () => {
  it('page_size=Infinity, -Infinity or 1e400 (and page alike) is a 400 naming it, not an empty page', async () => {
    for (const value of ['Infinity', '-Infinity', '1e400']) {
      expectRejected(await h.request('GET', `/api/v1/clients/?page_size=${value}`), 'page_size', 'invalid');
      expectRejected(await h.request('GET', `/sim/v1/events?page=${value}`), 'page', 'invalid');
    }
  });

  it('1e400 in a body (Infinity once parsed) is a 400 naming the field', async () => {
    const body = JSON.stringify(subscriptionBody(h.brandId)).replace('"price":2990', '"price":2990,"tax_percent":1e400');
    expectRejected(await raw('POST', '/api/v1/billing_templates/', body), 'purchase.products.0.tax_percent', 'invalid');
  });

  it('money above 10^12 minor units (1e21, 2^53 + 1) is a 400 max_value; 10^12 itself is kept exactly', async () => {
    const withPrice = (price: number | string) =>
      JSON.stringify(subscriptionBody(h.brandId)).replace('"price":2990', `"price":${price}`);
    for (const price of ['1e21', '9007199254740993', String(MONEY_MAX + 1)]) {
      expectRejected(await raw('POST', '/api/v1/billing_templates/', withPrice(price)), 'purchase.products.0.price', 'max_value');
    }
    const discounted = JSON.stringify(subscriptionBody(h.brandId)).replace('"price":2990', `"price":2990,"discount":${MONEY_MAX + 1}`);
    expectRejected(await raw('POST', '/api/v1/billing_templates/', discounted), 'purchase.products.0.discount', 'max_value');
    const created = await raw('POST', '/api/v1/billing_templates/', withPrice(MONEY_MAX));
    expect(created.status).toBe(201);
    expect(created.text).toContain(`"price":${MONEY_MAX}`);
  });

  it('a first deduction amount above 10^12 is a 400 max_value', async () => {
    const { box, client } = await sandboxWithClient(h, '2026-01-30T12:00:00Z');
    const template = await makeTemplate(box);
    const body = subscriberBody(client.id, '2026-02-10', { subscription_first_deduction_date: '2026-02-05', subscription_first_deduction_amount: MONEY_MAX + 1 });
    expectRejected(await box.req('POST', `/api/v1/billing_templates/${template.id}/add_subscriber/`, body), 'subscription_first_deduction_amount', 'max_value');
  });
});

describe('huge bodies: at most 100 errors, under 64 KiB, the validation stopped at its error budget', () => {
  const ones = (count: number) => Array.from({ length: count }, () => '1').join(',');

  it('1 MiB of {"cc": [1, 1, …]} answers one max_items, in a few KB', async () => {
    const text = `{"email": "a@example.com", "cc": [${ones((ONE_MIB - 40) / 2)}]}`;
    const res = await raw('POST', '/api/v1/clients/', text);
    // Before: 5–6 s of CPU and a 32 MB answer, one error per item. The work is bounded by the error
    // budget (test/unit/ajv-errors.test.ts), not judged by a clock here.
    expectRejected(res, 'cc', 'max_items');
    expect(Buffer.byteLength(res.text)).toBeLessThan(1024);
  });

  it('1 MiB of bad snapshot events (an array without maxItems) lists 100 errors and says the rest were cut', async () => {
    const text = `{"snapshot": {"billing_sim_snapshot": 1, "sandbox": {"events": [${ones((ONE_MIB - 100) / 2)}]}}}`;
    const res = await raw('POST', '/sim/v1/sandboxes', text, null);
    expect(res.status).toBe(400);
    const errors = res.body as Errors;
    expect(Object.values(errors).flat().filter((e) => e.code !== 'too_many_errors')).toHaveLength(100);
    expect(errors.__all__?.at(-1)?.code).toBe('too_many_errors');
    expect(Buffer.byteLength(res.text)).toBeLessThan(64 * 1024);
  });

  it('a 900 KB unknown key is named, cut to 500 characters: in an answer under 64 KiB when strict, in Billing-Sim-Ignored otherwise', async () => {
    const { token } = await h.newSandbox({ strict: true });
    const res = await raw('POST', '/api/v1/clients/', JSON.stringify({ ...clientBody(), ['k'.repeat(900_000)]: 1 }), token);
    expect(res.status).toBe(400);
    const [field] = Object.keys(res.body as Errors);
    expect(field).toBe(`${'k'.repeat(499)}…`);
    expect(Buffer.byteLength(res.text)).toBeLessThan(64 * 1024);
    const lenient = await raw('POST', '/api/v1/clients/', JSON.stringify({ ...clientBody(), ['k'.repeat(900_000)]: 1, ['é'.repeat(900)]: 2 }));
    expect(lenient.status).toBe(201);
    expect(lenient.headers['billing-sim-ignored']).toBe(`${'k'.repeat(497)}..., ${'%C3%A9'.repeat(82)}...`);
  });
});
