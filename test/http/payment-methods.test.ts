// GET /payment_methods/ as the platform has it (DESIGN.md §9): `brand_id` and `currency` required,
// a brand of the caller's sandbox only, the answer in the platform's shape (available_payment_methods,
// by_country, country_names, names, logos, card_methods), and `?recurring=true` for the methods that
// can save a recurring token. The names are what payment_method_whitelist accepts.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { expectRejected, sandboxAt, type Box } from '../builders/engine.ts';

interface PaymentMethods {
  available_payment_methods: string[];
  by_country: Record<string, string[]>;
  country_names: Record<string, string>;
  names: Record<string, string>;
  logos: Record<string, string>;
  card_methods: string[];
}

const h = useHarness();

const list = (box: Box, query: string) => box.req('GET', `/api/v1/payment_methods/${query}`);

async function methods(box: Box, extra = ''): Promise<PaymentMethods> {
  const res = await list(box, `?brand_id=${box.brandId}&currency=EUR${extra}`);
  expect(res.status, res.text).toBe(200);
  return res.body as PaymentMethods;
}

describe('GET /payment_methods/', () => {
  it('brand_id and currency are required: a missing one → 400 required naming it', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    expectRejected(await list(box, '?currency=EUR'), 'brand_id', 'required');
    expectRejected(await list(box, `?brand_id=${box.brandId}`), 'currency', 'required');
    const neither = await list(box, '');
    expect(neither.status).toBe(400);
    expect(Object.keys(neither.body as object).sort()).toEqual(['brand_id', 'currency']);
  });

  it('a brand of another sandbox → 400 does_not_exist on brand_id; a currency that is not 3 capitals → 400 invalid', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const foreign = await sandboxAt(h, '2026-01-30T12:00:00Z');
    expectRejected(await list(box, `?brand_id=${foreign.brandId}&currency=EUR`), 'brand_id', 'does_not_exist');
    expectRejected(await list(box, `?brand_id=${box.brandId}&currency=eur`), 'currency', 'invalid');
  });

  it('answers the platform\'s shape: every method available in every country (`any`), with its name, logo and the card schemes', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const body = await methods(box);
    const all = ['visa', 'mastercard', 'maestro', 'direct_debit', 'bank_transfer'];
    expect(Object.keys(body)).toEqual(['available_payment_methods', 'by_country', 'country_names', 'names', 'logos', 'card_methods']);
    expect(body.available_payment_methods).toEqual(all);
    expect(body.by_country).toEqual({ any: all });
    expect(body.country_names).toEqual({ any: 'Other' });
    expect(body.names).toEqual({ visa: 'Visa', mastercard: 'Mastercard', maestro: 'Maestro', direct_debit: 'Direct debit', bank_transfer: 'Bank transfer' });
    expect(Object.keys(body.logos)).toEqual(all);
    for (const [name, logo] of Object.entries(body.logos)) {
      expect(logo).toMatch(/^data:image\/svg\+xml,/);
      expect(decodeURIComponent(logo)).toContain(`>${body.names[name]}</text>`);
    }
    expect(body.card_methods).toEqual(['visa', 'mastercard', 'maestro']);
    expect(body).not.toHaveProperty('supports_recurring');
  });

  it('recurring=true leaves out bank_transfer, which cannot save a recurring token, from every field', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const recurring = await methods(box, '&recurring=true');
    expect(recurring.available_payment_methods).toEqual(['visa', 'mastercard', 'maestro', 'direct_debit']);
    expect(recurring.by_country.any).toEqual(recurring.available_payment_methods);
    expect(Object.keys(recurring.names)).toEqual(recurring.available_payment_methods);
    expect(Object.keys(recurring.logos)).toEqual(recurring.available_payment_methods);
    expect((await methods(box, '&recurring=false')).available_payment_methods).toContain('bank_transfer');
  });

  it('the platform\'s other parameters (country, skip_capture, preauthorization, language, amount) are accepted and select nothing', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const plain = await methods(box);
    expect(await methods(box, '&country=MY&skip_capture=true&preauthorization=false&language=en&amount=1200')).toEqual(plain);
    expectRejected(await list(box, `?brand_id=${box.brandId}&currency=EUR&amount=-1`), 'amount', 'min_value');
  });

  it('every listed name is accepted by payment_method_whitelist and by the simulated checkout', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const { available_payment_methods: names } = await methods(box);
    const client = (await box.req('POST', '/api/v1/clients/', { email: 'methods@example.com' })).body as { id: string };
    const purchase = await box.req('POST', '/api/v1/purchases/', {
      brand_id: box.brandId,
      client_id: client.id,
      payment_method_whitelist: names,
      purchase: { currency: 'EUR', products: [{ name: 'Hour', price: 1200 }] },
    });
    expect(purchase.status, purchase.text).toBe(201);
    const paid = await box.req('POST', `/sim/v1/purchases/${(purchase.body as { id: string }).id}/pay`, { method: names.at(-1) });
    expect(paid.status, paid.text).toBe(200);
  });
});
