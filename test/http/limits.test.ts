// The spec's Limits table and every enum, each bound ±1 and wrong-typed: the value inside the bound
// is accepted, the one outside gets a 400 naming the field, and a rejected request changes nothing.
// The refusals are checked in a strict sandbox: elsewhere a wrong type DRF reads (`"1"` for an
// integer, `"true"` for a boolean, 256 for text) is read so and a read-only field is ignored
// (DESIGN.md §14), which the last cases of each table check.

import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { oneTimeBody, subscriptionBody } from '../builders/templates.ts';

const h = useHarness();

type Body = Record<string, unknown>;
type Errors = Record<string, { code: string }[]>;

interface Case {
  field: string;
  ok: unknown[];
  bad: [unknown, string][];
  body?: (brandId: string, value: unknown) => Body;
}

/** Sets a dotted path (`purchase.products.0.price`) in a copy of the body. */
function withValue(body: Body, path: string, value: unknown): Body {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let node = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys.at(-1)!] = value;
  return copy;
}

const subscription = (field: string) => (brandId: string, value: unknown) => withValue(subscriptionBody(brandId), field, value);
const oneTime = (field: string) => (brandId: string, value: unknown) => withValue(oneTimeBody(brandId), field, value);

const integerBounds = (field: string, min: number, max: number): Case => ({
  field,
  ok: [min, max],
  bad: [
    [min - 1, 'min_value'],
    [max + 1, 'max_value'],
    [String(min), 'invalid'],
    [min + 0.5, 'invalid'],
    [null, 'null'],
    [true, 'invalid'],
  ],
});

const CASES: Case[] = [
  // Spec, Limits: "free text string on BillingTemplate: length at most 256".
  { field: 'title', ok: ['', 'x'.repeat(256)], bad: [['x'.repeat(257), 'max_length'], [256, 'invalid'], [null, 'null']] },
  // Spec, Limits: subscription_period 1 to 256; subscription_due_period 1 to 256; subscription_trial_periods 0 to 256.
  integerBounds('subscription_period', 1, 256),
  integerBounds('subscription_due_period', 1, 256),
  integerBounds('subscription_trial_periods', 0, 256),
  // Spec, rules on the subscription fields 4: "values are limited to an allowed set".
  ...['subscription_period_units', 'subscription_due_period_units'].map(
    (field): Case => ({ field, ok: ['days', 'weeks', 'months'], bad: [['years', 'invalid_choice'], ['Months', 'invalid_choice'], [1, 'invalid'], [null, 'null']] }),
  ),
  ...['subscription_charge_period_end', 'subscription_paused', 'force_recurring'].map(
    (field): Case => ({ field, ok: [true, false], bad: [['true', 'invalid'], [1, 'invalid'], [null, 'null']] }),
  ),
  { field: 'is_subscription', ok: [true], bad: [['true', 'invalid'], [null, 'null']] },
  { field: 'brand_id', ok: [], bad: [['brand-1', 'invalid'], [42, 'invalid'], ['6b042125-686a-43e0-8a68-23cf5bee102e', 'does_not_exist']] },
  { field: 'purchase', ok: [], bad: [['EUR 10', 'invalid'], [null, 'null']] },
  { field: 'purchase.products', ok: [], bad: [[[], 'min_items'], [Array.from({ length: 101 }, () => ({ name: 'p', price: 1 })), 'max_items']] },
  { field: 'purchase.products.0.price', ok: [0], bad: [[-1, 'min_value'], [1.5, 'invalid'], ['10', 'invalid']] },
  { field: 'purchase.products.0.name', ok: ['x'.repeat(256)], bad: [['', 'min_length'], ['x'.repeat(257), 'max_length']] },
  // A decimal string is a quantity too (the platform's form, "1.0000"); other strings and types are not.
  {
    field: 'purchase.products.0.quantity',
    ok: [0.5, 1_000_000, '2', '0.0001', '1000000.0000'],
    bad: [[0, 'min_value'], [1_000_001, 'max_value'], ['0', 'min_value'], ['1000000.0001', 'max_value'], ['two', 'invalid'], [0.00001, 'max_decimal_places'], [true, 'invalid']],
  },
  { field: 'purchase.products.0.discount', ok: [0, 2990], bad: [[-1, 'min_value'], [2991, 'max_value']] },
  {
    field: 'purchase.products.0.tax_percent',
    ok: [0, 100, '7.5', '100.00'],
    bad: [[-1, 'min_value'], [100.5, 'max_value'], ['100.01', 'max_value'], ['-0.01', 'min_value'], ['7.555', 'max_decimal_places'], ['7,5', 'invalid']],
  },
  { field: 'purchase.currency', ok: ['MYR'], bad: [['eur', 'invalid'], ['EURO', 'invalid']] },
  { field: 'purchase.timezone', ok: ['Pacific/Auckland', 'America/Los_Angeles'], bad: [['Mars/Olympus', 'invalid'], [3, 'invalid']] },
  { field: 'purchase.total', ok: [2990], bad: [[1, 'read_only']] },
  // One-time templates: "due: integer or null, required if is_subscription is false"; issued is a date.
  { field: 'due', ok: [0], bad: [['2026-02-14', 'invalid'], [1.5, 'invalid'], [null, 'null']], body: oneTime('due') },
  { field: 'issued', ok: ['2024-02-29', null], bad: [['2026-02-29', 'invalid'], ['31/01/2026', 'invalid'], [20260131, 'invalid']], body: oneTime('issued') },
  ...['skip_capture', 'send_receipt'].map((field): Case => ({ field, ok: [true, false], bad: [['yes', 'invalid']], body: oneTime(field) })),
];

async function templateCount(token: string): Promise<number> {
  const res = await h.request('GET', '/api/v1/billing_templates/?page_size=1000', { token });
  return (res.body as { results: unknown[] }).results.length;
}

/** A strict sandbox (POST /sim/v1/sandboxes {"strict": true}): it refuses every wrong type and read-only field. */
const strict = { token: '', brandId: '' };
beforeAll(async () => {
  Object.assign(strict, await h.newSandbox({ strict: true }));
});

/** What a lenient sandbox makes of values a strict one refuses: [field, sent, stored (undefined: ignored)]. */
const LENIENT_READS: [string, unknown, unknown][] = [
  ['title', 256, '256'],
  ['subscription_period', '1', 1],
  ['subscription_trial_periods', '0', 0],
  ['subscription_charge_period_end', 'true', true],
  ['force_recurring', 1, true],
  ['purchase.products.0.price', '10', 10],
  ['purchase.total', 1, undefined],
];

/** The value at a dotted path of an answer. */
const valueAt = (body: Body, path: string): unknown => path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], body);

describe('Limits on BillingTemplate, each bound ±1 and wrong types', () => {
  for (const { field, ok, bad, body = subscription(field) } of CASES) {
    for (const value of ok) {
      it(`${field} = ${JSON.stringify(value)?.slice(0, 40)} is accepted`, async () => {
        const res = await h.request('POST', '/api/v1/billing_templates/', { body: body(h.brandId, value) });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      });
    }
    for (const [value, code] of bad) {
      it(`${field} = ${JSON.stringify(value)?.slice(0, 40)} is a 400 ${code} naming ${field} (strict)`, async () => {
        const before = await templateCount(strict.token);
        const res = await h.request('POST', '/api/v1/billing_templates/', { token: strict.token, body: body(strict.brandId, value) });
        expect(res.status).toBe(400);
        const errors = res.body as Errors;
        expect(Object.keys(errors)).toEqual([field]);
        expect(errors[field]!.map((e) => e.code)).toContain(code);
        expect(await templateCount(strict.token)).toBe(before);
      });
    }
  }

  for (const [field, sent, stored] of LENIENT_READS) {
    it(`${field} = ${JSON.stringify(sent)} is ${stored === undefined ? 'ignored' : `read as ${JSON.stringify(stored)}`} outside a strict sandbox`, async () => {
      const res = await h.request('POST', '/api/v1/billing_templates/', { body: subscription(field)(h.brandId, sent) });
      expect(res.status, res.text).toBe(201);
      if (stored === undefined) expect(res.headers['billing-sim-ignored']).toBe(field);
      else expect(valueAt(res.body as Body, field)).toEqual(stored);
    });
  }

  it('PATCH with a bound broken by one changes nothing stored', async () => {
    const created = (await h.request('POST', '/api/v1/billing_templates/', { body: subscriptionBody(h.brandId) })).body as Body;
    const res = await h.request('PATCH', `/api/v1/billing_templates/${created.id}/`, {
      body: { title: 'Renamed', subscription_period: 257 },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body as object)).toEqual(['subscription_period']);
    expect((await h.request('GET', `/api/v1/billing_templates/${created.id}/`)).body).toEqual(created);
  });
});

describe('Limits on BillingTemplateClient, checked by the add_subscriber schema', () => {
  const subscriber = (overrides: Body) => ({
    client_id: '6b042125-686a-43e0-8a68-23cf5bee102e',
    subscription_deduction_date: '2026-02-10',
    mandate_expiry_date: '2027-02-10',
    ...overrides,
  });
  const bad: [Body, string, string][] = [
    [{ subscription_first_deduction_amount: 0, subscription_first_deduction_date: '2026-02-05' }, 'subscription_first_deduction_amount', 'min_value'],
    [{ payment_method_whitelist: [] }, 'payment_method_whitelist', 'min_items'],
    [{ payment_method_whitelist: 'visa' }, 'payment_method_whitelist', 'invalid'],
    [{ default_service_type: 'THREEDAY' }, 'default_service_type', 'invalid_choice'],
    [{ subscription_deduction_date: '2026-02-30' }, 'subscription_deduction_date', 'invalid'],
    [{ mandate_expiry_date: null }, 'mandate_expiry_date', 'null'],
    [{ send_receipt: 'yes' }, 'send_receipt', 'invalid'],
  ];
  for (const [overrides, field, code] of bad) {
    it(`${field} = ${JSON.stringify(Object.values(overrides)[0])} is a 400 ${code} (strict)`, async () => {
      const { token } = strict;
      const template = (await h.request('POST', '/api/v1/billing_templates/', { token, body: subscriptionBody(strict.brandId) })).body as Body;
      const res = await h.request('POST', `/api/v1/billing_templates/${template.id}/add_subscriber/`, { token, body: subscriber(overrides) });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body as object)).toEqual([field]);
      expect((res.body as Errors)[field]!.map((e) => e.code)).toContain(code);
    });
  }
});
