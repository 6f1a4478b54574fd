// /api/v1/billing_templates/ over HTTP: the spec's BillingTemplate rules as a client meets them.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { oneTimeBody, subscriptionBody } from '../builders/templates.ts';

const h = useHarness();

type Template = Record<string, unknown> & { id: string; purchase: { total: number; products: unknown[] } };
type Errors = Record<string, { code: string; message: string }[]>;

const create = async (body: Record<string, unknown>) => {
  const res = await h.request('POST', '/api/v1/billing_templates/', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Template;
};

describe('billing templates', () => {
  it('creates a subscription template and returns every field, with the computed total', async () => {
    const template = await create(
      subscriptionBody(h.brandId, {
        purchase: { currency: 'EUR', timezone: 'Pacific/Auckland', products: [{ name: 'Seat', price: 1000, quantity: 3, discount: 500, tax_percent: 20 }] },
      }),
    );
    expect(template).toMatchObject({
      type: 'billing_template',
      brand_id: h.brandId,
      is_subscription: true,
      subscription_has_active_clients: false,
      subscription_paused: false,
      issued: null,
      due: null,
    });
    expect(template.purchase.total).toBe(3000);
    expect((await h.request('GET', `/api/v1/billing_templates/${template.id}/`)).body).toEqual(template);
  });

  it('"due: required if is_subscription is false"', async () => {
    const { due: _due, ...body } = oneTimeBody(h.brandId);
    const res = await h.request('POST', '/api/v1/billing_templates/', { body });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body as Errors)).toEqual(['due']);
    expect((res.body as Errors).due![0]!.code).toBe('required');
  });

  it('the example error body: a product without price is "purchase.products.0.price" required', async () => {
    const res = await h.request('POST', '/api/v1/billing_templates/', {
      body: subscriptionBody(h.brandId, { purchase: { currency: 'EUR', products: [{ name: 'No price' }] } }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ 'purchase.products.0.price': [{ message: 'This field is required.', code: 'required' }] });
  });

  it('names every bad field of one request at once', async () => {
    const res = await h.request('POST', '/api/v1/billing_templates/', {
      body: subscriptionBody(h.brandId, { subscription_period: 0, subscription_period_units: 'years', title: 'x'.repeat(257) }),
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body as Errors).sort()).toEqual(['subscription_period', 'subscription_period_units', 'title']);
  });

  it('"is_subscription … Cannot be changed when editing": PUT and PATCH get read_only and change nothing', async () => {
    const template = await create(subscriptionBody(h.brandId));
    for (const [method, body] of [
      ['PATCH', { is_subscription: false }],
      ['PUT', oneTimeBody(h.brandId)],
    ] as const) {
      const res = await h.request(method, `/api/v1/billing_templates/${template.id}/`, { body });
      expect(res.status).toBe(400);
      expect((res.body as Errors).is_subscription![0]!.code).toBe('read_only');
    }
    expect((await h.request('GET', `/api/v1/billing_templates/${template.id}/`)).body).toEqual(template);
  });

  it('"Read-only if is_subscription is true": due on a subscription template is read_only', async () => {
    const template = await create(subscriptionBody(h.brandId));
    const res = await h.request('PATCH', `/api/v1/billing_templates/${template.id}/`, { body: { due: 1_800_000_000, send_receipt: true } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body as Errors).sort()).toEqual(['due', 'send_receipt']);
    // The same values as stored are accepted: a GET-then-PUT round trip works.
    const roundTrip = await h.request('PUT', `/api/v1/billing_templates/${template.id}/`, { body: template });
    expect(roundTrip.status).toBe(200);
  });

  it('subscription_paused is "Ignored (read-only) if is_subscription is false"', async () => {
    const template = await create(oneTimeBody(h.brandId));
    const res = await h.request('PATCH', `/api/v1/billing_templates/${template.id}/`, { body: { subscription_paused: true } });
    expect(res.status).toBe(400);
    expect((res.body as Errors).subscription_paused![0]!.code).toBe('read_only');
  });

  it('"The same four fields are required when editing such a template, as long as no subscriber has been launched"', async () => {
    const template = await create(subscriptionBody(h.brandId));
    const { subscription_period: _p, subscription_charge_period_end: _c, ...body } = subscriptionBody(h.brandId);
    const res = await h.request('PUT', `/api/v1/billing_templates/${template.id}/`, { body });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body as Errors).sort()).toEqual(['subscription_charge_period_end', 'subscription_period']);
    const patched = await h.request('PATCH', `/api/v1/billing_templates/${template.id}/`, { body: { subscription_period: 2, subscription_paused: true } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ subscription_period: 2, subscription_paused: true });
  });

  it('PATCH replaces the nested purchase object as a whole and recomputes the total', async () => {
    const template = await create(subscriptionBody(h.brandId));
    const res = await h.request('PATCH', `/api/v1/billing_templates/${template.id}/`, {
      body: { purchase: { currency: 'GBP', products: [{ name: 'A', price: 100 }, { name: 'B', price: 250, quantity: 2 }] } },
    });
    expect(res.status).toBe(200);
    expect((res.body as Template).purchase).toMatchObject({ currency: 'GBP', total: 600, timezone: 'UTC' });
  });

  it('lists newest first and deletes', async () => {
    const { token, brandId } = await h.newSandbox();
    const a = (await h.request('POST', '/api/v1/billing_templates/', { token, body: subscriptionBody(brandId, { title: 'A' }) })).body as Template;
    await h.request('POST', '/api/v1/billing_templates/', { token, body: oneTimeBody(brandId, { title: 'B' }) });
    const list = (await h.request('GET', '/api/v1/billing_templates/', { token })).body as { results: Template[] };
    expect(list.results.map((t) => t.title)).toEqual(['B', 'A']);
    expect((await h.request('DELETE', `/api/v1/billing_templates/${a.id}/`, { token })).status).toBe(204);
    expect((await h.request('GET', `/api/v1/billing_templates/${a.id}/`, { token })).status).toBe(404);
  });

  it('GET /payment_methods/ lists the names payment_method_whitelist accepts', async () => {
    // brand_id and currency are required, as on the platform (test/http/payment-methods.test.ts).
    const res = await h.request('GET', `/api/v1/payment_methods/?brand_id=${h.brandId}&currency=EUR`);
    expect(res.status).toBe(200);
    expect((res.body as { available_payment_methods: string[] }).available_payment_methods).toContain('visa');
    const recurring = await h.request('GET', `/api/v1/payment_methods/?brand_id=${h.brandId}&currency=MYR&recurring=true`);
    expect((recurring.body as { available_payment_methods: string[] }).available_payment_methods).not.toContain('fpx');
  });
});
