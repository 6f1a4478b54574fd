// The card of a card payment, as the platform tells it in an attempt's `extra` and in
// `transaction_data.extra` (DESIGN.md §11, §14): brand, masked number, expiry month and two-digit year as integers,
// cardholder, issuer country and card type, the fields the platform's WooCommerce plugin stores with
// a saved card. A checkout payment takes the test card the payer typed (POST /sim/v1/purchases/{id}/pay
// `card`, or the checkout page's card fields), by default the platform's documented test card of the
// method. The card is kept once, on the attempt of the payment that used it; a token's charges are
// answered with the card of the purchase that saved the token (its id is the token's), so the
// purchases a token pays store nothing more than `recurring_token`.

import { errors, fieldError } from './errors.ts';
import { findMethod } from './payment-methods.ts';
import { NO_EXTRA } from './shared-parts.ts';
import type { Attempt, CardDetails, Purchase, TransactionData } from './types.ts';

/** What a payment may say of its card; each part has a default. */
export interface CardInput {
  number?: string;
  cardholder_name?: string;
  /** "MM/YY". */
  expiry?: string;
}

interface TestCard {
  number: string;
  type: CardDetails['card_type'];
  /** What a number of this brand starts with. */
  prefix: RegExp;
}

/**
 * The card each card method pays with when the payment names none. Visa and Mastercard are the two
 * test cards of the platform's own guide ("4444 3333 2222 1111 - non-3D Secure card", "5555 5555 5555
 * 4444 - 3D Secure card"); the guide has no Maestro card, so that one is the simulator's own.
 */
const TEST_CARDS: Readonly<Record<string, TestCard>> = {
  visa: { number: '4444333322221111', type: 'credit', prefix: /^4/ },
  mastercard: { number: '5555555555554444', type: 'credit', prefix: /^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/ },
  maestro: { number: '6759000000000005', type: 'debit', prefix: /^(50|5[6-9]|6)/ },
};

/**
 * The card method a number's prefix belongs to (`4…` → visa), or undefined for a scheme the simulator
 * takes no card of (`37…`, American Express): a Direct Post form names no method, its number does.
 * The prefixes do not overlap, so at most one matches.
 */
export function cardBrand(digits: string): string | undefined {
  return Object.keys(TEST_CARDS).find((method) => TEST_CARDS[method]!.prefix.test(digits));
}

/** Whether `digits` is a method's default card above, which a Direct Post takes without the Luhn check: Maestro's fails it. */
export const isDefaultCard = (digits: string): boolean => Object.values(TEST_CARDS).some((card) => card.number === digits);

/** A default card lasts this many years from the sandbox clock's month: "any expiry larger or equal to the current month/year". */
const DEFAULT_EXPIRY_YEARS = 3;

/** "444433******1111": first six and last four digits, as card schemes allow a number to be shown. */
const masked = (digits: string): string => `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;

/**
 * The card a checkout payment with `method` uses, or null for a method that is not a card (whose
 * attempts have `extra: {}`); card details sent with such a method are refused. `nowMs` is the
 * sandbox clock, from which a default expiry is counted.
 */
export function cardFor(method: string, input: CardInput | undefined, purchase: Purchase, nowMs: number): CardDetails | null {
  const test = TEST_CARDS[method];
  if (!test || !findMethod(method)?.card) {
    if (input !== undefined) throw fieldError('card', errors.invalid(`${method} is not a card: card details go with ${Object.keys(TEST_CARDS).join(', ')}.`));
    return null;
  }
  // The checkout page's form reaches here without the schema of `pay`, which says the same.
  const digits = input?.number === undefined ? test.number : input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) throw fieldError('card.number', errors.invalid('Enter a card number of 12 to 19 digits.'));
  if (input?.expiry !== undefined && !/^(0[1-9]|1[0-2])\/\d{2}$/.test(input.expiry)) throw fieldError('card.expiry', errors.invalid('Enter the expiry as MM/YY.'));
  if (input?.cardholder_name !== undefined && input.cardholder_name.length > 100) throw fieldError('card.cardholder_name', errors.maxLength(100));
  if (!test.prefix.test(digits)) {
    throw fieldError('card.number', errors.invalid(`${masked(digits)} is not a ${findMethod(method)?.displayName ?? method} card number.`));
  }
  const now = new Date(nowMs);
  // The platform sends both as integers, the year in two digits: `expiry_month: 10, expiry_year: 24`.
  const [month, year] = input?.expiry?.split('/').map(Number) ?? [now.getUTCMonth() + 1, (now.getUTCFullYear() + DEFAULT_EXPIRY_YEARS) % 100];
  return Object.freeze({
    card_brand: method,
    masked_pan: masked(digits),
    expiry_month: month!,
    expiry_year: year!,
    cardholder_name: input?.cardholder_name ?? (purchase.client.full_name || 'Test Cardholder'),
    card_issuer_country: purchase.client.country || 'MY',
    card_type: test.type,
  });
}

/** A saved card as a recurring token's `description` shows it: "•••• 1111". */
export const cardDescription = (card: CardDetails): string => `•••• ${card.masked_pan.slice(-4)}`;

const hasCard = (extra: Attempt['extra']): extra is CardDetails => 'masked_pan' in extra;

/** The card of the newest successful attempt that has one: the card that paid. */
export function paidCard(data: Pick<TransactionData, 'attempts'>): CardDetails | undefined {
  for (const tried of data.attempts) if (tried.successful && hasCard(tried.extra)) return tried.extra;
  return undefined;
}

/** Attempts on money a card already moved: the platform shows that card on each (SAMPLE:10, 14, 16; WooCommerce's payment-details box reads it). */
const ON_THE_PAYMENT: ReadonlySet<Attempt['type']> = new Set(['capture', 'release', 'refund', 'delete_recurring_token']);

/**
 * A purchase's transaction_data as answered: the successful token attempts (`recurring_execute`, or
 * `authorize` for a skip_capture purchase) carry the card of its `recurring_token`, which `tokenCard`
 * finds (the token's saving purchase: a deleted token's card stays known); a capture, release,
 * refund or token deletion carries the card that paid; and `extra` is the card that paid it, `{}`
 * when no card did, with the settlement of a settled purchase (the stored `extra`) beside it.
 */
export function shownTransactionData(purchase: Pick<Purchase, 'transaction_data' | 'recurring_token'>, tokenCard: (tokenId: string) => CardDetails | undefined): TransactionData {
  const data = purchase.transaction_data;
  const card = purchase.recurring_token === null ? undefined : tokenCard(purchase.recurring_token);
  let attempts = card
    ? data.attempts.map((tried) => (tried.successful && !hasCard(tried.extra) && (tried.type === 'recurring_execute' || tried.type === 'authorize') ? { ...tried, extra: card } : tried))
    : data.attempts;
  const paying = paidCard({ attempts });
  // Most purchases have no such attempt: their array is kept, not copied.
  const bare = (tried: Attempt) => ON_THE_PAYMENT.has(tried.type) && !hasCard(tried.extra);
  if (paying && attempts.some(bare)) attempts = attempts.map((tried) => (bare(tried) ? { ...tried, extra: paying } : tried));
  const settled = data.extra && 'settlement' in data.extra ? { settlement: data.extra.settlement } : undefined;
  return { ...data, attempts, extra: settled ? { ...(paying ?? NO_EXTRA), ...settled } : (paying ?? NO_EXTRA) };
}
