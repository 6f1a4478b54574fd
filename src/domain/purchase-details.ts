// The nested `purchase` object that a template copies 1:1 to every Purchase it generates:
// defaults, the computed total and the rules JSON Schema cannot express.
//
// A product's `quantity` and `tax_percent` are decimal strings with a fixed number of places, as
// the platform answers them ("1.0000", "15.00"); a request may send a JSON number or such a string.
// Totals are computed from those strings in integers (BigInt), so 1 and "1.0000" give one total.

import { ErrorCollector, errors } from './errors.ts';
import type { Input, Product, PurchaseDetails } from './types.ts';

/** Decimal places of the platform's fields (CS Product: `string Quantity`, `string TaxPercent`). */
export const QUANTITY_PLACES = 4;
export const TAX_PERCENT_PLACES = 2;

const PRODUCT_DEFAULTS = { quantity: 1, discount: 0, tax_percent: 0, category: '' };
/**
 * What a request may omit. `currency` is the platform's: CHIP Collect's own minimal create example
 * sends none and its brands bill in MYR. The overrides are the platform's PurchaseDetails fields.
 */
export const DEFAULT_CURRENCY = 'MYR';
export const DETAILS_DEFAULTS: Omit<PurchaseDetails, 'products' | 'total'> = {
  currency: DEFAULT_CURRENCY,
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
};

/**
 * The largest amount in minor units (openapi.yaml `Money`): every price, discount and total. A
 * double holds cents exactly only up to 2^53, and price × quantity × 100 products could pass that.
 */
export const MAX_MONEY = 1_000_000_000_000;

/** The platform's checkout fields of a purchase's details that an answer adds; never kept, so never sent. */
const ANSWERED_ONLY = ['shipping_options', 'has_upsell_products', 'payment_method_details'];

/** The bounds of each decimal field, as the schema states them for a number. */
const DECIMAL_FIELDS = {
  quantity: { places: QUANTITY_PLACES, min: 0, exclusive: true, max: 1_000_000 },
  tax_percent: { places: TAX_PERCENT_PLACES, min: 0, exclusive: false, max: 100 },
} as const;

interface Decimal {
  negative: boolean;
  whole: string;
  fraction: string;
}

/**
 * The digits of a number or decimal string, or null for anything else. A number is read as the
 * shortest text that gives it back, as Python's str() does for the platform's DecimalField: 0.1 is
 * "0.1", not 0.1000000000000000055…; 1e-7 (JavaScript's text for 0.0000001) is expanded.
 */
function parseDecimal(value: unknown): Decimal | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = plainText(value);
  } else if (typeof value === 'string') {
    text = value;
  } else {
    return null;
  }
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  return match ? { negative: match[1] === '-', whole: match[2]!, fraction: match[3] ?? '' } : null;
}

/** `String(n)` without an exponent: "1.5e-7" → "0.00000015", "1e+21" → "1000000000000000000000". */
function plainText(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, lead, rest = '', exponent] = match;
  const digits = lead! + rest;
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** The decimal as a count of 10^-places: "1.5" at 4 places → 15000n. The fraction must fit. */
function scaled(decimal: Decimal, places: number): bigint {
  const units = BigInt(decimal.whole + decimal.fraction.padEnd(places, '0'));
  return decimal.negative ? -units : units;
}

/**
 * A number or decimal string written with exactly `places` decimals: (1.5, 4) → "1.5000",
 * ("7.5", 2) → "7.50". Throws a RangeError for anything else, or for more places than that:
 * requests are checked first (buildPurchaseDetails), so this never rounds a client's value.
 */
export function toDecimalString(value: number | string, places: number): string {
  const decimal = parseDecimal(value);
  if (!decimal || decimal.fraction.length > places) throw new RangeError(`${String(value)} is not a decimal with at most ${places} places`);
  const units = scaled(decimal, places);
  const digits = (units < 0n ? -units : units).toString().padStart(places + 1, '0');
  const text = places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
  return units < 0n ? `-${text}` : text;
}

/** a / b rounded half up, as Math.round does, for b > 0: 3330 / 20 → 167 (166.5). */
function roundDiv(a: bigint, b: bigint): bigint {
  const twice = 2n * a + b;
  const quotient = twice / (2n * b);
  // BigInt division truncates toward zero; Math.round floors x + 0.5.
  return twice < 0n && twice % (2n * b) !== 0n ? quotient - 1n : quotient;
}

const units = (value: number | string, places: number): bigint => scaled(parseDecimal(value)!, places);

/** price × quantity rounded to the cent, exactly: 333 × "0.5000" → 167. */
function lineGross(product: Product): bigint {
  return roundDiv(BigInt(product.price) * units(product.quantity, QUANTITY_PLACES), 10n ** BigInt(QUANTITY_PLACES));
}

/**
 * A product's line in minor units: price × quantity, rounded to the cent, less its discount,
 * plus tax_percent of that, rounded per line. E.g. 999 × 3 − 97 = 2900, + 7.5 % → 3118.
 */
export function lineTotal(product: Product): number {
  const net = lineGross(product) - BigInt(product.discount);
  const tax = roundDiv(net * units(product.tax_percent, TAX_PERCENT_PLACES), 100n * 10n ** BigInt(TAX_PERCENT_PLACES));
  return Number(net + tax);
}

export const purchaseTotal = (products: readonly Product[]): number =>
  products.reduce((sum, product) => sum + lineTotal(product), 0);

export function isTimeZone(name: string): boolean {
  // The default zone, and that of every seeded template: known without asking ICU, whose first
  // use loads its zone data (some 30 ms, which the seed of the default sandbox paid at every start).
  if (name === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * A decimal field of a request as the stored string, or undefined after adding its error to
 * `errs`. The schema has already refused what is neither a number nor a decimal string; the places
 * and, for a string, the bounds are checked here, with the messages the schema gives a number.
 */
function decimalField(errs: ErrorCollector, path: string, value: unknown, field: keyof typeof DECIMAL_FIELDS): string | undefined {
  const { places, min, exclusive, max } = DECIMAL_FIELDS[field];
  const decimal = parseDecimal(value);
  if (!decimal) {
    errs.add(path, errors.invalid('A valid number is required.'));
    return undefined;
  }
  // The platform's DecimalField counts written places: "1.50000" has 5, like 1.00005.
  if (decimal.fraction.length > places) {
    errs.add(path, errors.maxDecimalPlaces(places));
    return undefined;
  }
  const amount = scaled(decimal, places);
  const scale = 10n ** BigInt(places);
  if (exclusive ? amount <= BigInt(min) * scale : amount < BigInt(min) * scale) {
    errs.add(path, exclusive ? errors.greaterThan(min) : errors.minValue(min));
    return undefined;
  }
  if (amount > BigInt(max) * scale) {
    errs.add(path, errors.maxValue(max));
    return undefined;
  }
  return toDecimalString(value as number | string, places);
}

/**
 * Builds the stored details from a schema-valid input, adding to `errs` under `prefix`
 * (`purchase`) what the schema cannot check: decimal places, a known time zone, a discount within
 * its line. `total` is computed; sending one that is neither that nor `storedTotal` is a
 * read-only error.
 */
export function buildPurchaseDetails(
  errs: ErrorCollector,
  prefix: string,
  input: Input,
  storedTotal?: number,
): PurchaseDetails {
  let decimalsValid = true;
  const products = (input.products as Input[]).map((raw, index): Product => {
    const path = `${prefix}.products.${index}`;
    const merged = { ...PRODUCT_DEFAULTS, ...raw };
    const quantity = decimalField(errs, `${path}.quantity`, merged.quantity, 'quantity');
    const taxPercent = decimalField(errs, `${path}.tax_percent`, merged.tax_percent, 'tax_percent');
    if (quantity === undefined || taxPercent === undefined) {
      decimalsValid = false;
      return merged as unknown as Product;
    }
    const product = { ...merged, quantity, tax_percent: taxPercent } as Product;
    const gross = Number(lineGross(product));
    if (product.discount > gross) errs.add(`${path}.discount`, errors.maxValue(gross));
    return product;
  });
  const details = { ...DETAILS_DEFAULTS, ...input, products } as PurchaseDetails;
  if (!isTimeZone(details.timezone)) {
    errs.add(`${prefix}.timezone`, errors.invalid(`"${details.timezone}" is not a known IANA time zone.`));
  }
  // Without every quantity and tax there is no total to compute, and the request is refused anyway.
  // The platform's `total_override` is the amount to pay, whatever the products make.
  details.total = details.total_override ?? (decimalsValid ? purchaseTotal(products) : 0);
  if (details.total > MAX_MONEY) errs.add(`${prefix}.total`, errors.maxValue(MAX_MONEY));
  // A client may send back the total it read (stored) or the one its products make (computed, or overridden).
  if (decimalsValid && 'total' in input && input.total !== details.total && input.total !== storedTotal) {
    errs.add(`${prefix}.total`, errors.readOnly('computed from the products'));
  }
  // The platform's checkout fields a purchase's answer adds (src/present/parts.ts), never kept.
  for (const field of ANSWERED_ONLY) if (field in input) errs.add(`${prefix}.${field}`, errors.readOnly('set by the server'));
  return details;
}
