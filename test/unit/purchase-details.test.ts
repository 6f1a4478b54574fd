import { describe, expect, it } from 'vitest';
import { buildPurchaseDetails, lineTotal, MAX_MONEY, purchaseTotal } from '../../src/domain/purchase-details.ts';
import { ErrorCollector } from '../../src/domain/errors.ts';

const product = (overrides: Record<string, number> = {}) => ({ name: 'x', price: 999, quantity: 1, discount: 0, tax_percent: 0, category: '', ...overrides });

describe('purchase total: price × quantity − discount, plus tax_percent', () => {
  it('rounds price × quantity to the cent, subtracts the discount, adds tax per line', () => {
    expect(lineTotal(product({ quantity: 3, discount: 97, tax_percent: 7.5 }))).toBe(2900 + 218);
    expect(lineTotal(product({ price: 333, quantity: 0.5 }))).toBe(167);
    expect(purchaseTotal([product(), product({ price: 1, tax_percent: 100 })])).toBe(999 + 2);
  });

  it('fills the defaults of the nested purchase object and computes total', () => {
    const errs = new ErrorCollector();
    const details = buildPurchaseDetails(errs, 'purchase', { currency: 'EUR', products: [{ name: 'A', price: 1000 }] });
    expect(errs.has()).toBe(false);
    expect(details).toEqual({
      currency: 'EUR',
      products: [{ name: 'A', price: 1000, quantity: 1, discount: 0, tax_percent: 0, category: '' }],
      total: 1000,
      timezone: 'UTC',
      language: 'en',
      notes: '',
      due_strict: false,
      email_message: '',
    });
  });

  it('names a discount larger than its line and an unknown time zone', () => {
    const errs = new ErrorCollector();
    buildPurchaseDetails(errs, 'purchase', { currency: 'EUR', timezone: 'Mars/Olympus', products: [{ name: 'A', price: 100, discount: 101 }] });
    expect(() => errs.throwIfAny()).toThrow();
    expect(errs.has('purchase.products.0.discount')).toBe(true);
    expect(errs.has('purchase.timezone')).toBe(true);
  });

  it('accepts time zones east and west of UTC', () => {
    for (const timezone of ['Pacific/Auckland', 'America/Los_Angeles', 'Asia/Kuala_Lumpur', 'UTC']) {
      const errs = new ErrorCollector();
      buildPurchaseDetails(errs, 'purchase', { currency: 'EUR', timezone, products: [{ name: 'A', price: 1 }] });
      expect(errs.has()).toBe(false);
    }
  });

  it('a total above 10^12 minor units is refused (max_value on purchase.total): prices within the bound can still add up past it', () => {
    const within = new ErrorCollector();
    buildPurchaseDetails(within, 'purchase', { currency: 'EUR', products: [{ name: 'A', price: MAX_MONEY / 2 }, { name: 'B', price: MAX_MONEY / 2 }] });
    expect(within.has()).toBe(false);
    const past = new ErrorCollector();
    buildPurchaseDetails(past, 'purchase', { currency: 'EUR', products: [{ name: 'A', price: MAX_MONEY, quantity: 1000 }] });
    expect(past.has('purchase.total')).toBe(true);
    expect(() => past.throwIfAny()).toThrow(/less than or equal to 1000000000000/);
  });
});
