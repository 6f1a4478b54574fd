import { describe, expect, it } from 'vitest';
import { buildPurchaseDetails, lineTotal, MAX_MONEY, purchaseTotal, toDecimalString } from '../../src/domain/purchase-details.ts';
import { ErrorCollector } from '../../src/domain/errors.ts';
import type { Product } from '../../src/domain/types.ts';

const product = (overrides: Partial<Product> = {}): Product => ({
  name: 'x',
  price: 999,
  quantity: '1.0000',
  discount: 0,
  tax_percent: '0.00',
  category: '',
  ...overrides,
});

describe('purchase total: price × quantity − discount, plus tax_percent', () => {
  it('rounds price × quantity to the cent, subtracts the discount, adds tax per line', () => {
    expect(lineTotal(product({ quantity: '3.0000', discount: 97, tax_percent: '7.50' }))).toBe(2900 + 218);
    expect(lineTotal(product({ price: 333, quantity: '0.5000' }))).toBe(167);
    expect(purchaseTotal([product(), product({ price: 1, tax_percent: '100.00' })])).toBe(999 + 2);
  });

  it('computes in exact decimals: halves round up where doubles would drift below them', () => {
    // 7000 × 1.1115 is 7780.499999999999 in doubles, which Math.round made 7780; exactly it is 7780.5.
    expect(lineTotal(product({ price: 7000, quantity: '1.1115' }))).toBe(7781);
    // 2.3 % of 1500 is 34.49999999999999 in doubles; exactly 34.5.
    expect(lineTotal(product({ price: 1500, tax_percent: '2.30' }))).toBe(1500 + 35);
    // 0.0001 of a cent rounds to nothing; 5000 × 0.0001 = 0.5 rounds up to 1.
    expect(lineTotal(product({ price: 1, quantity: '0.0001' }))).toBe(0);
    expect(lineTotal(product({ price: 5000, quantity: '0.0001' }))).toBe(1);
    // 10 % of 5 = 0.5 → 1; 0.01 % of 4999 = 0.4999 → 0.
    expect(lineTotal(product({ price: 5, tax_percent: '10.00' }))).toBe(6);
    expect(lineTotal(product({ price: 4999, tax_percent: '0.01' }))).toBe(4999);
  });
});

describe('toDecimalString: a number or decimal string with a fixed number of places', () => {
  it('pads to the places, from a number or a string', () => {
    expect(toDecimalString(1, 4)).toBe('1.0000');
    expect(toDecimalString('1.5', 4)).toBe('1.5000');
    expect(toDecimalString(7.5, 2)).toBe('7.50');
    expect(toDecimalString('100', 2)).toBe('100.00');
    expect(toDecimalString(0.1, 4)).toBe('0.1000');
    expect(toDecimalString('0001.20', 2)).toBe('1.20');
    expect(toDecimalString(-2.25, 2)).toBe('-2.25');
    expect(toDecimalString(12, 0)).toBe('12');
  });

  it('reads a number by its shortest text, exponent forms included', () => {
    expect(toDecimalString(1e-4, 4)).toBe('0.0001');
    expect(toDecimalString(1e21, 0)).toBe('1000000000000000000000');
    expect(toDecimalString(1.5e-7, 8)).toBe('0.00000015');
    expect(() => toDecimalString(1.5e-7, 7)).toThrow(RangeError);
  });

  it('never rounds: more places, or no decimal at all, is a RangeError', () => {
    expect(() => toDecimalString('1.00001', 4)).toThrow(RangeError);
    expect(() => toDecimalString(0.1 + 0.2, 4)).toThrow(RangeError);
    expect(() => toDecimalString('1e3', 4)).toThrow(RangeError);
    expect(() => toDecimalString(Number.NaN, 4)).toThrow(RangeError);
  });
});

describe('buildPurchaseDetails: decimal fields', () => {
  const build = (fields: Record<string, unknown>) => {
    const errs = new ErrorCollector();
    const details = buildPurchaseDetails(errs, 'purchase', { currency: 'EUR', products: [{ name: 'A', price: 1000, ...fields }] });
    return { errs, details };
  };

  it('stores quantity and tax_percent as strings, from numbers or strings alike', () => {
    expect(build({ quantity: 1.5, tax_percent: 7.5 }).details.products[0]).toMatchObject({ quantity: '1.5000', tax_percent: '7.50' });
    expect(build({ quantity: '1.5', tax_percent: '7.5' }).details.products[0]).toMatchObject({ quantity: '1.5000', tax_percent: '7.50' });
    expect(build({ quantity: 1.5, tax_percent: 7.5 }).details.total).toBe(build({ quantity: '1.5000', tax_percent: '7.50' }).details.total);
  });

  it('names each field past its places, out of bounds, or not a decimal', () => {
    expect(() => build({ quantity: '1.00001' }).errs.throwIfAny()).toThrow('Ensure that there are no more than 4 decimal places.');
    expect(build({ tax_percent: 1.001 }).errs.has('purchase.products.0.tax_percent')).toBe(true);
    expect(() => build({ quantity: '0' }).errs.throwIfAny()).toThrow('Ensure this value is greater than 0.');
    expect(() => build({ tax_percent: '100.01' }).errs.throwIfAny()).toThrow('Ensure this value is less than or equal to 100.');
    expect(build({ quantity: 'many' }).errs.has('purchase.products.0.quantity')).toBe(true);
  });

  it('fills the defaults of the nested purchase object and computes total', () => {
    const errs = new ErrorCollector();
    const details = buildPurchaseDetails(errs, 'purchase', { currency: 'EUR', products: [{ name: 'A', price: 1000 }] });
    expect(errs.has()).toBe(false);
    expect(details).toEqual({
      currency: 'EUR',
      products: [{ name: 'A', price: 1000, quantity: '1.0000', discount: 0, tax_percent: '0.00', category: '' }],
      total: 1000,
      timezone: 'UTC',
      language: 'en',
      notes: '',
      due_strict: false,
      email_message: '',
      debt: 0,
      subtotal_override: null,
      total_tax_override: null,
      total_discount_override: null,
      total_override: null,
      request_client_details: [],
      description: '',
    });
  });

  it('the platform\'s total_override is the total, whatever the products make; without a currency it is MYR', () => {
    const errs = new ErrorCollector();
    const details = buildPurchaseDetails(errs, 'purchase', { products: [{ name: 'Order #7', price: 1000, quantity: 3 }], total_override: 2550 });
    expect(errs.has()).toBe(false);
    expect(details).toMatchObject({ currency: 'MYR', total: 2550, total_override: 2550 });
    // A client that sends back the total it read keeps its override.
    const again = buildPurchaseDetails(errs, 'purchase', { products: [{ name: 'Order #7', price: 1000, quantity: 3 }], total_override: 2550, total: 2550 });
    expect(errs.has()).toBe(false);
    expect(again.total).toBe(2550);
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
