// Product.quantity and Product.tax_percent as decimal strings (DESIGN.md §9, real-platform.md §2 and
// §5c): answered with 4 and 2 places ("1.0000", "15.00") in templates and purchases, accepted as a
// JSON number or a decimal string, refused with the platform's `max_decimal_places` past those places.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  advance,
  createPurchase,
  expectRejected,
  generated,
  getTemplate,
  launchSubscriber,
  makeTemplate,
  purchaseBody,
  sandboxAt,
  sandboxWithClient,
  snapshot,
  subscribe,
  subscriberBody,
  type Box,
} from '../builders/engine.ts';
import { subscriptionBody } from '../builders/templates.ts';

const h = useHarness();

const NOW = '2026-01-30T12:00:00Z';

/** The template's products as sent, with one line of `fields`. */
const withProduct = (fields: Record<string, unknown>) => ({
  purchase: { currency: 'EUR', products: [{ name: 'Consulting hour', price: 1200, ...fields }] },
});

const createTemplate = (box: Box, fields: Record<string, unknown>) =>
  box.req('POST', '/api/v1/billing_templates/', subscriptionBody(box.brandId, withProduct(fields)));

describe('quantity and tax_percent: decimal strings in every answer', () => {
  it('a number in → a string out: quantity with 4 places ("1.0000"), tax_percent with 2 ("15.00")', async () => {
    const box = await sandboxAt(h, NOW);
    const template = await makeTemplate(box, withProduct({ quantity: 2, tax_percent: 15 }));
    expect(template.purchase.products[0]).toMatchObject({ quantity: '2.0000', tax_percent: '15.00' });
    expect((await getTemplate(box, template.id)).purchase.products[0]).toMatchObject({ quantity: '2.0000', tax_percent: '15.00' });
  });

  it('defaults are answered as strings too: quantity "1.0000", tax_percent "0.00"', async () => {
    const box = await sandboxAt(h, NOW);
    const template = await makeTemplate(box, withProduct({}));
    expect(template.purchase.products[0]).toMatchObject({ quantity: '1.0000', tax_percent: '0.00' });
  });

  it('a string in → a string out, padded to the places: "1.5" → "1.5000", tax "7.5" → "7.50"', async () => {
    const box = await sandboxAt(h, NOW);
    const template = await makeTemplate(box, withProduct({ quantity: '1.5', tax_percent: '7.5' }));
    expect(template.purchase.products[0]).toMatchObject({ quantity: '1.5000', tax_percent: '7.50' });
    const exact = await makeTemplate(box, withProduct({ quantity: '0.0001', tax_percent: '100' }));
    expect(exact.purchase.products[0]).toMatchObject({ quantity: '0.0001', tax_percent: '100.00' });
  });

  it('totals are identical whether numbers or strings are sent', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const lines = [
      { price: 999, quantity: 3, discount: 97, tax_percent: 7.5 },
      { price: 333, quantity: 0.5, tax_percent: 19 },
      { price: 1, quantity: 1.0001, tax_percent: 99.99 },
    ];
    const asStrings = lines.map((line) => ({ ...line, quantity: String(line.quantity), tax_percent: String(line.tax_percent) }));
    const body = (products: Record<string, unknown>[]) => ({
      purchase: { currency: 'EUR', products: products.map((product, index) => ({ name: `Line ${index}`, ...product })) },
    });
    const numbers = await createPurchase(box, client.id, body(lines));
    const strings = await createPurchase(box, client.id, body(asStrings));
    // 999 × 3 − 97 = 2900 + 7.5 % (217.5 → 218); 333 × 0.5 = 166.5 → 167, + 19 % (31.73 → 32); 1 × 1.0001 → 1, + 99.99 % → 2.
    expect(numbers.purchase.total).toBe(3118 + 199 + 2);
    expect(strings.purchase.total).toBe(numbers.purchase.total);
    expect(strings.purchase.products).toEqual(numbers.purchase.products);
    expect(numbers.purchase.products.map((p) => [p.quantity, p.tax_percent])).toEqual([
      ['3.0000', '7.50'],
      ['0.5000', '19.00'],
      ['1.0001', '99.99'],
    ]);
  });

  it('a template read by GET is accepted back unchanged by PUT (strings and total included)', async () => {
    const box = await sandboxAt(h, NOW);
    const template = await makeTemplate(box, withProduct({ quantity: 1.25, tax_percent: 6 }));
    const read = await getTemplate(box, template.id);
    // The fields PUT takes: everything but what the server sets.
    const { id, type, created_on, updated_on, company_id, is_test, subscription_has_active_clients, ...writable } = read;
    void [id, type, created_on, updated_on, company_id, is_test, subscription_has_active_clients];
    const put = await box.req('PUT', `/api/v1/billing_templates/${template.id}/`, writable);
    expect(put.status, put.text).toBe(200);
    expect((put.body as typeof read).purchase).toEqual(read.purchase);
  });

  it('a generated subscription purchase carries the strings of its template', async () => {
    const product = { name: 'Plan', price: 2000, quantity: '1.5', tax_percent: 7.5 };
    const { box, template, first } = await launchSubscriber(h, NOW, { purchase: { currency: 'EUR', products: [product] } });
    expect(first.purchase.products[0]).toMatchObject({ quantity: '1.5000', tax_percent: '7.50' });
    await advance(box, { by: 'P1M' });
    const billed = await generated(box, template.id);
    expect(billed.length).toBeGreaterThan(1);
    for (const purchase of billed) {
      expect(purchase.purchase.products).toEqual([{ ...product, quantity: '1.5000', tax_percent: '7.50', discount: 0, category: '' }]);
      expect(purchase.purchase.total).toBe(3000 + 225);
    }
  });

  it('a first-deduction purchase answers its one line as strings ("1.0000", "0.00")', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const template = await makeTemplate(box, { subscription_charge_period_end: true });
    const body = subscriberBody(client.id, '2026-02-10', { subscription_first_deduction_date: '2026-02-04', subscription_first_deduction_amount: 1500 });
    await subscribe(box, template.id, body);
    await advance(box, { to: '2026-02-04T00:00:00Z' });
    const [deduction] = await generated(box, template.id);
    expect(deduction!.purchase.products[0]).toMatchObject({ price: 1500, quantity: '1.0000', tax_percent: '0.00' });
    expect(deduction!.purchase.total).toBe(1500);
  });
});

describe('quantity and tax_percent: what is refused', () => {
  it('more decimal places than allowed → 400 max_decimal_places naming the field, with the platform\'s message', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const before = await snapshot(box);
    for (const quantity of ['1.00001', 1.00001, '1.50000']) {
      const products = [{ name: 'A', price: 100, quantity }];
      const call = await box.req('POST', '/api/v1/purchases/', purchaseBody(box, client.id, { purchase: { currency: 'EUR', products } }));
      expectRejected(call, 'purchase.products.0.quantity', 'max_decimal_places');
      expect(call.body).toEqual({
        'purchase.products.0.quantity': [{ message: 'Ensure that there are no more than 4 decimal places.', code: 'max_decimal_places' }],
      });
    }
    for (const tax_percent of ['7.555', 7.555]) {
      const call = await createTemplate(box, { tax_percent });
      expectRejected(call, 'purchase.products.0.tax_percent', 'max_decimal_places');
      expect((call.body as Record<string, { message: string }[]>)['purchase.products.0.tax_percent']![0]!.message).toBe(
        'Ensure that there are no more than 2 decimal places.',
      );
    }
    expect(await snapshot(box)).toEqual(before);
  });

  it('a string that is not a decimal → 400 invalid', async () => {
    const box = await sandboxAt(h, NOW);
    for (const quantity of ['abc', '1e3', '1.', '.5', ' 1', '1,5', '']) {
      expectRejected(await createTemplate(box, { quantity }), 'purchase.products.0.quantity', 'invalid');
    }
    expectRejected(await createTemplate(box, { tax_percent: 'ten' }), 'purchase.products.0.tax_percent', 'invalid');
  });

  it('a negative or zero quantity → 400 min_value, as a string or a number', async () => {
    const box = await sandboxAt(h, NOW);
    for (const quantity of ['0', '0.0000', '-1', '-0.5', 0, -1]) {
      const call = await createTemplate(box, { quantity });
      expectRejected(call, 'purchase.products.0.quantity', 'min_value');
      expect(call.text).toContain('Ensure this value is greater than 0.');
    }
  });

  it('quantity above 1000000 and tax_percent outside 0..100 → 400, as a string or a number', async () => {
    const box = await sandboxAt(h, NOW);
    expectRejected(await createTemplate(box, { quantity: '1000000.0001' }), 'purchase.products.0.quantity', 'max_value');
    expectRejected(await createTemplate(box, { quantity: 1000001 }), 'purchase.products.0.quantity', 'max_value');
    for (const tax_percent of ['100.01', 100.01]) {
      const call = await createTemplate(box, { tax_percent });
      expectRejected(call, 'purchase.products.0.tax_percent', 'max_value');
      expect(call.text).toContain('Ensure this value is less than or equal to 100.');
    }
    expectRejected(await createTemplate(box, { tax_percent: '-0.01' }), 'purchase.products.0.tax_percent', 'min_value');
    expect((await createTemplate(box, { quantity: '1000000', tax_percent: '100.00' })).status).toBe(201);
  });

  it('a quantity of another JSON type is refused, never coerced: true, null, [1], {"value": 1}', async () => {
    const box = await sandboxAt(h, NOW);
    for (const quantity of [true, [1], { value: 1 }]) {
      expectRejected(await createTemplate(box, { quantity }), 'purchase.products.0.quantity', 'invalid');
    }
    expectRejected(await createTemplate(box, { quantity: null }), 'purchase.products.0.quantity', 'null');
  });
});
