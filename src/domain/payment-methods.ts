// The payment methods as the platform names and offers them (DESIGN.md §9, §11), per currency:
// MYR is CHIP's list (its WooCommerce plugin's gateway: fpx, fpx_b2b1, duitnow_qr, the card schemes,
// mpgs_* wallets, razer_* e-wallets), ZAR Revio's (cards, `eft` debit order, `capitec_pay`), every
// other currency the card schemes alone. GET /payment_methods/ answers them in the platform's shape
// (`brand_id` and `currency` required) and `?recurring=true` keeps those whose payment saves a
// token. A whitelist takes any name of any currency (a misspelt one is refused); what the checkout
// offers is the purchase's currency's methods that its whitelist allows.

import { errors, fieldError } from './errors.ts';
import type { Input } from './types.ts';

export interface PaymentMethod {
  name: string;
  displayName: string;
  /**
   * Whether a payment with it saves a recurring token: the card schemes (the plugin's recurring list
   * is visa, mastercard, maestro) and Revio's `eft` debit order, whose bank details are tokenised.
   */
  recurring: boolean;
  /** A card scheme: listed in `card_methods`, paid through the checkout's card form. */
  card: boolean;
}

const card = (name: string, displayName: string): PaymentMethod => ({ name, displayName, recurring: true, card: true });
const other = (name: string, displayName: string): PaymentMethod => ({ name, displayName, recurring: false, card: false });

const VISA = card('visa', 'Visa');
const MASTERCARD = card('mastercard', 'Mastercard');
const MAESTRO = card('maestro', 'Maestro');

/** What a currency the platform's sources say nothing about gets: cards are taken in any currency. */
const CARDS: readonly PaymentMethod[] = [VISA, MASTERCARD, MAESTRO];

/**
 * The cards first, so that a payment without a method (POST /sim/v1/purchases/{id}/pay with no
 * `method`) is a card in every currency and a force_recurring purchase saves its token.
 */
const BY_CURRENCY: Readonly<Record<string, readonly PaymentMethod[]>> = {
  MYR: [
    ...CARDS,
    other('fpx', 'FPX'),
    other('fpx_b2b1', 'FPX B2B1'),
    other('duitnow_qr', 'DuitNow QR'),
    other('mpgs_google_pay', 'Google Pay'),
    other('mpgs_apple_pay', 'Apple Pay'),
    other('razer_atome', 'Atome'),
    other('razer_grabpay', 'GrabPay'),
    other('razer_maybankqr', 'Maybank QRPay'),
    other('razer_shopeepay', 'ShopeePay'),
    other('razer_tng', "Touch 'n Go eWallet"),
  ],
  // Revio's debit-order guide whitelists ["eft"] to tokenise a bank account, the method a service-typed
  // (ONEDAY/TWODAY) collection pays with; its Capitec Pay guide posts pm=capitec_pay.
  ZAR: [VISA, MASTERCARD, { name: 'eft', displayName: 'EFT debit order', recurring: true, card: false }, other('capitec_pay', 'Capitec Pay')],
};

/** The methods offered for `currency`, in the order a checkout lists them. */
export function methodsFor(currency: string): readonly PaymentMethod[] {
  return BY_CURRENCY[currency] ?? CARDS;
}

/** Every method of every currency, once each: the names a payment_method_whitelist accepts. */
export const PAYMENT_METHODS: readonly PaymentMethod[] = [
  ...new Map([CARDS, ...Object.values(BY_CURRENCY)].flat().map((method) => [method.name, method])).values(),
];

export const findMethod = (name: string): PaymentMethod | undefined => PAYMENT_METHODS.find((method) => method.name === name);

/** What a purchase's checkout offers: its currency's methods that its whitelist (null: all) allows. */
export function offeredMethods(currency: string, whitelist: readonly string[] | null): readonly PaymentMethod[] {
  return methodsFor(currency).filter((method) => whitelist === null || whitelist.includes(method.name));
}

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
 * checked). A brand of another sandbox is unknown here, like any id of another sandbox. `currency`
 * and `recurring` select; `country`, `skip_capture`, `preauthorization`, `language` and `amount`
 * select nothing: the simulator ties no method to a country, and every method can hold a payment.
 */
export function listPaymentMethods(query: Input, brandIds: readonly string[]) {
  if (!brandIds.includes(query.brand_id as string)) throw fieldError('brand_id', errors.doesNotExist('Brand', query.brand_id));
  const methods = methodsFor(query.currency as string).filter((method) => query.recurring !== true || method.recurring);
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
