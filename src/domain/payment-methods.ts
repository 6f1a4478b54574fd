// The payment methods the simulator offers, and GET /payment_methods/ in the platform's shape
// (DESIGN.md §9): `brand_id` and `currency` are required, the answer groups the names by country
// (all of the simulator's are available everywhere: `any`), and `?recurring=true` keeps only the
// methods that can save a recurring token. Names are what payment_method_whitelist accepts.

import { errors, fieldError } from './errors.ts';
import type { Input } from './types.ts';

export interface PaymentMethod {
  name: string;
  displayName: string;
  /** Whether a payment with it can save a recurring token. */
  recurring: boolean;
  /** A card scheme: listed in `card_methods`. */
  card: boolean;
}

export const PAYMENT_METHODS: readonly PaymentMethod[] = [
  { name: 'visa', displayName: 'Visa', recurring: true, card: true },
  { name: 'mastercard', displayName: 'Mastercard', recurring: true, card: true },
  { name: 'maestro', displayName: 'Maestro', recurring: true, card: true },
  { name: 'direct_debit', displayName: 'Direct debit', recurring: true, card: false },
  { name: 'bank_transfer', displayName: 'Bank transfer', recurring: false, card: false },
];

/** The `by_country` key of methods available in every country, and its name (platform: "`any` … decoded to `Other`"). */
const ANY_COUNTRY = 'any';
const ANY_COUNTRY_NAME = 'Other';

/**
 * A logo that needs no server: an SVG badge with the method's name as a `data:` URI, which an
 * `<img src>` shows as it would the platform's logo URL. Only the characters a URI cannot carry
 * are escaped (`<`, `>`, `#`, spaces), so the badge stays readable in an answer.
 */
function logo(method: PaymentMethod): string {
  const svg =
    "<svg xmlns='http://www.w3.org/2000/svg' width='120' height='40'>" +
    "<rect x='.5' y='.5' width='119' height='39' rx='6' fill='#f8fafc' stroke='#94a3b8'/>" +
    `<text x='60' y='25' font-family='sans-serif' font-size='13' text-anchor='middle'>${method.displayName}</text></svg>`;
  return `data:image/svg+xml,${svg.replace(/[<>#% ]/g, encodeURIComponent)}`;
}

/**
 * The answer to GET /payment_methods/ for a validated query (brand_id and currency present, types
 * checked). A brand of another sandbox is unknown here, like any id of another sandbox. `country`,
 * `currency`, `skip_capture`, `preauthorization`, `language` and `amount` select nothing: every
 * method of the simulator takes every currency and country and can hold a payment.
 */
export function listPaymentMethods(query: Input, brandIds: readonly string[]) {
  if (!brandIds.includes(query.brand_id as string)) throw fieldError('brand_id', errors.doesNotExist('Brand', query.brand_id));
  const methods = PAYMENT_METHODS.filter((method) => query.recurring !== true || method.recurring);
  const names = methods.map((method) => method.name);
  return {
    available_payment_methods: names,
    by_country: { [ANY_COUNTRY]: names },
    country_names: { [ANY_COUNTRY]: ANY_COUNTRY_NAME },
    names: Object.fromEntries(methods.map((method) => [method.name, method.displayName])),
    logos: Object.fromEntries(methods.map((method) => [method.name, logo(method)])),
    card_methods: methods.filter((method) => method.card).map((method) => method.name),
  };
}
