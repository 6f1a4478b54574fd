// The payment methods as the platform names and offers them (DESIGN.md §9, §11), per currency:
// MYR is CHIP's list (its WooCommerce plugin's gateway: fpx, fpx_b2b1, duitnow_qr, the card schemes,
// mpgs_* wallets, razer_* e-wallets; its other integrations add dnqr, shopee_pay, crypto_coin and the
// umbrella razer), ZAR Revio's (cards, `eft` debit order, `capitec_pay`), every other currency the
// card schemes alone. GET /payment_methods/ answers them in the platform's shape
// (`brand_id` and `currency` required) and `?recurring=true` keeps those whose payment saves a
// token. A whitelist takes any name of any currency (a misspelt one is refused); what the checkout
// offers is the purchase's currency's methods that its whitelist allows, an umbrella name (`razer`)
// standing for the methods it admits.

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
  /**
   * An umbrella name: listed and whitelisted like a method, never paid with. A whitelist naming it
   * allows these methods, unless it names some of them itself (then those alone, as it names them).
   */
  admits?: readonly string[];
  /**
   * The method this one is another name of, for the payer: the checkout lists the two as one entry
   * (checkoutChoices). Both names stay listed, whitelisted and paid with as sent.
   */
  sameAs?: string;
}

const card = (name: string, displayName: string): PaymentMethod => ({ name, displayName, recurring: true, card: true });
const other = (name: string, displayName: string): PaymentMethod => ({ name, displayName, recurring: false, card: false });

const VISA = card('visa', 'Visa');
const MASTERCARD = card('mastercard', 'Mastercard');
const MAESTRO = card('maestro', 'Maestro');

/** What a currency the platform's sources say nothing about gets: cards are taken in any currency. */
const CARDS: readonly PaymentMethod[] = [VISA, MASTERCARD, MAESTRO];

/** The Razer e-wallets (CHIP's WooCommerce gateway's names and labels). */
const RAZER_WALLETS: readonly PaymentMethod[] = [
  other('razer_atome', 'Atome'),
  other('razer_grabpay', 'GrabPay'),
  other('razer_maybankqr', 'Maybank QRPay'),
  other('razer_shopeepay', 'ShopeePay'),
  other('razer_tng', "Touch 'n Go eWallet"),
];

/**
 * `razer`, the umbrella of the Razer e-wallets. CHIPAsia/chip-for-edd (includes/edd_chip_payments.php),
 * CHIPAsia/CHIP-for-Perfex-CRM (libraries/Chip_gateway.php) and CHIPAsia/chip-for-abantecart (its
 * storefront controller responses/extension/chip.php) add it to a whitelist beside whichever razer_*
 * wallets the merchant picked; CHIPAsia/chip-for-opencart's 1.5 admin (admin/controller/payment/chip.php)
 * offers it as a choice of its own; CHIPAsia/chip-for-whmcs (modules/gateways/chip/helpers.php) skips
 * it in `available_payment_methods`, so the platform lists it. No integration gives it a label. The
 * simulator's choice: `["razer"]` offers every razer_* wallet, `["razer", "razer_tng"]` only Touch 'n Go
 * (what those plugins mean by adding it), and the checkout never offers `razer` itself: a payment is
 * made with one wallet.
 */
const RAZER: PaymentMethod = { ...other('razer', 'Razer e-wallets'), admits: RAZER_WALLETS.map((method) => method.name) };

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
    // `dnqr` and `shopee_pay` are newer names of DuitNow QR and ShopeePay: CHIPAsia/chip-for-magento
    // (Model/Chip.php), chip-for-prestashop and chip-for-prestashop-1.6 (chip/classes/ChipApi.php),
    // chip-for-arastta and chip-for-opencart-4.1 (catalog/model/payment/chip.php) send them instead of
    // `duitnow_qr` / `razer_shopeepay` when GET /payment_methods/ lists them (OpenCart 4.1 rewrites a
    // whitelisted `razer_shopeepay` to `shopee_pay`), and label them as their older twins (DuitNow QR:
    // PrestaShop 1.6's chip/chip.php; ShopeePay: Magento, Arastta). One method to the payer, so the
    // checkout lists each pair once (`sameAs`).
    { ...other('dnqr', 'DuitNow QR'), sameAs: 'duitnow_qr' },
    other('mpgs_google_pay', 'Google Pay'),
    other('mpgs_apple_pay', 'Apple Pay'),
    RAZER,
    ...RAZER_WALLETS,
    { ...other('shopee_pay', 'ShopeePay'), sameAs: 'razer_shopeepay' },
    // "Crypto Coin" in the method lists of Magento, PrestaShop 1.6, Arastta (admin/controller/payment/chip.php)
    // and chip-for-whmcs (modules/gateways/chip_crypto_coin.php), beside fpx and duitnow_qr; none ties
    // it to a currency, so it is MYR's as theirs are.
    other('crypto_coin', 'Crypto Coin'),
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

/** What a purchase's checkout offers: its currency's methods that its whitelist (null: all) allows; never an umbrella. */
export function offeredMethods(currency: string, whitelist: readonly string[] | null): readonly PaymentMethod[] {
  const allowed = whitelist === null ? null : allowedNames(whitelist);
  return methodsFor(currency).filter((method) => method.admits === undefined && (allowed === null || allowed.has(method.name)));
}

/** What a checkout lists: one entry per method the payer knows, and the one chosen on load, if any. */
export interface CheckoutChoices {
  methods: readonly PaymentMethod[];
  selected?: string;
}

/**
 * The name a checkout link's preference (`?preferred=`, `?active=`) picks among `offered`: that method;
 * else its twin (`sameAs` either way: `duitnow_qr` picks an offered `dnqr`); for `card` (a choice of
 * CHIPAsia/CHIP-for-Perfex-CRM's `preferred_payment_method`, as `razer` is) the first card offered; for
 * an umbrella the first method it admits that is offered. Undefined for a name that is not sent,
 * unknown, or offered in none of these ways.
 */
function preferredName(offered: readonly PaymentMethod[], preferred: string | undefined): string | undefined {
  if (preferred === undefined) return undefined;
  const wanted = findMethod(preferred);
  const twin = (method: PaymentMethod) => method.sameAs === preferred || (wanted?.sameAs !== undefined && method.name === wanted.sameAs);
  const member = (method: PaymentMethod) => (preferred === 'card' ? method.card : wanted?.admits?.includes(method.name) === true);
  return (offered.find((method) => method.name === preferred) ?? offered.find(twin) ?? offered.find(member))?.name;
}

/**
 * The checkout page's entries for `offered` (offeredMethods' answer) and a checkout link's preference:
 * a method with `sameAs` an entry already listed is folded into it (DuitNow QR and ShopeePay appear
 * once each), the first name kept unless `preferred` picks the later one, which then stands in its
 * place. `selected` is the preference's pick (preferredName), undefined when it picks nothing.
 */
export function checkoutChoices(offered: readonly PaymentMethod[], preferred?: string): CheckoutChoices {
  const selected = preferredName(offered, preferred);
  const entries = new Map<string, PaymentMethod>();
  for (const method of offered) {
    const key = method.sameAs ?? method.name;
    if (!entries.has(key) || method.name === selected) entries.set(key, method);
  }
  return { methods: [...entries.values()], selected };
}

/** A whitelist's names, each umbrella in it read as the methods it admits unless the whitelist names some of them. */
function allowedNames(whitelist: readonly string[]): ReadonlySet<string> {
  const names = new Set(whitelist);
  for (const name of whitelist) {
    const admits = findMethod(name)?.admits ?? [];
    if (!admits.some((member) => whitelist.includes(member))) admits.forEach((member) => names.add(member));
  }
  return names;
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
