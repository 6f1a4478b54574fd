// The nested `purchase` object that a template copies 1:1 to every Purchase it generates:
// defaults, the computed total and the rules JSON Schema cannot express.

import { ErrorCollector, errors } from './errors.ts';
import type { Input, Product, PurchaseDetails } from './types.ts';

const PRODUCT_DEFAULTS = { quantity: 1, discount: 0, tax_percent: 0, category: '' };
const DETAILS_DEFAULTS = { timezone: 'UTC', language: 'en', notes: '', due_strict: false, email_message: '' };

/**
 * The largest amount in minor units (openapi.yaml `Money`): every price, discount and total. A
 * double holds cents exactly only up to 2^53, and price × quantity × 100 products could pass that.
 */
export const MAX_MONEY = 1_000_000_000_000;

/**
 * A product's line in minor units: price × quantity, rounded to the cent, less its discount,
 * plus tax_percent of that, rounded per line. E.g. 999 × 3 − 97 = 2900, + 7.5 % → 3118.
 */
export function lineTotal(product: Product): number {
  const net = Math.round(product.price * product.quantity) - product.discount;
  return net + Math.round((net * product.tax_percent) / 100);
}

export const purchaseTotal = (products: readonly Product[]): number =>
  products.reduce((sum, product) => sum + lineTotal(product), 0);

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds the stored details from a schema-valid input, adding to `errs` under `prefix`
 * (`purchase`) what the schema cannot check: a known time zone, a discount within its line.
 * `total` is computed; sending one that is neither that nor `storedTotal` is a read-only error.
 */
export function buildPurchaseDetails(
  errs: ErrorCollector,
  prefix: string,
  input: Input,
  storedTotal?: number,
): PurchaseDetails {
  const products = (input.products as Input[]).map((raw, index): Product => {
    const product = { ...PRODUCT_DEFAULTS, ...raw } as Product;
    if (product.discount > Math.round(product.price * product.quantity)) {
      errs.add(`${prefix}.products.${index}.discount`, errors.maxValue(Math.round(product.price * product.quantity)));
    }
    return product;
  });
  const details = { ...DETAILS_DEFAULTS, ...input, products } as PurchaseDetails;
  if (!isTimeZone(details.timezone)) {
    errs.add(`${prefix}.timezone`, errors.invalid(`"${details.timezone}" is not a known IANA time zone.`));
  }
  details.total = purchaseTotal(products);
  if (details.total > MAX_MONEY) errs.add(`${prefix}.total`, errors.maxValue(MAX_MONEY));
  // A client may send back the total it read (stored) or the one its products make (computed).
  if ('total' in input && input.total !== details.total && input.total !== storedTotal) {
    errs.add(`${prefix}.total`, errors.readOnly('computed from the products'));
  }
  return details;
}
