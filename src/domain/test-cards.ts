// The card a shop's own form posts to a purchase's direct_post_url (DESIGN.md §14), read from the
// fields the platform's WooCommerce plugin posts (`cardholder_name`, `card_number`, `expires` as
// MM/YY, `cvc`, `remember_card` on/off), and how the simulated bank answers it.
//
// The platform's guide documents two test cards, both approved: 4444 3333 2222 1111 (Visa) and
// 5555 5555 5555 4444 (Mastercard). It publishes none that declines, so DECLINING_CARDS is the
// simulator's own choice: the Visa numbers of Stripe's published test cards, which many developers
// know (4000 0000 0000 9995 is "insufficient funds" there too), each given the nearest of the
// platform's codes (decline-codes.ts), and one Mastercard and one Maestro number of the simulator's
// own, so that a purchase whose whitelist leaves Visa out can be declined too. The bank decides in
// this order:
// 1. a number failing the Luhn check → invalid_card_number (Stripe's 4242 4242 4242 4241, say);
// 2. an expiry month before the sandbox clock's month → expired_card (a card is good to its month's end);
// 3. a number of DECLINING_CARDS → its code;
// 4. any other number of a known brand (cards.ts cardBrand) is approved.

import { cardBrand, isDefaultCard } from './cards.ts';
import type { DeclineCode } from './decline-codes.ts';
import { ErrorCollector, errors } from './errors.ts';

/** Card numbers the simulated bank declines, with the reason; every one passes the Luhn check. */
export const DECLINING_CARDS: Readonly<Record<string, DeclineCode>> = {
  '4000000000000002': 'do_not_honour', // Stripe: generic decline
  '4000000000009995': 'insufficient_funds',
  '4000000000009987': 'lost_card',
  '4000000000009979': 'stolen_card',
  '4000000000000069': 'expired_card', // whatever expiry is typed
  '4000000000000119': 'general_transaction_error', // Stripe: processing_error
  '4100000000000019': 'suspected_fraud', // Stripe: blocked as of the highest risk
  '5100000000000008': 'do_not_honour', // the simulator's own Mastercard
  '6759000000000018': 'insufficient_funds', // the simulator's own Maestro
};

/** A Direct Post form's card, read and checked for its shape (not yet for what the bank says). */
export interface PostedCard {
  /** The card method its number belongs to: visa, mastercard, maestro. */
  method: string;
  digits: string;
  cardholder_name: string;
  /** As cards.ts cardFor takes it: "MM/YY". */
  expiry: string;
  remember: boolean;
}

/** The Luhn ("mod 10") check that every card scheme's numbers pass: the last digit checks the others. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The plugin's limit of a cardholder name, as cardFor's: longer ones are refused, not cut. */
const MAX_CARDHOLDER_NAME = 100;

/** A field's text, trimmed; undefined (and the error noted) when it is missing, empty or sent twice. */
function text(form: Record<string, unknown>, name: string, found: ErrorCollector): string | undefined {
  const value = form[name];
  if (Array.isArray(value)) found.add(name, errors.invalid('Send this field once.'));
  else if (typeof value !== 'string' || value.trim() === '') found.add(name, errors.required());
  else return value.trim();
  return undefined;
}

/**
 * The posted form's card, or 400 naming every bad field: a missing one, a number that is not 12 to 19
 * digits (spaces and dashes are allowed between them) or of no brand the simulator takes, an expiry
 * that is not MM/YY (the plugin strips spaces; so does this), a CVC that is not 3 or 4 digits,
 * `remember_card` other than on/off (absent means off).
 */
export function readPostedCard(form: Record<string, unknown>): PostedCard {
  const found = new ErrorCollector();
  const name = text(form, 'cardholder_name', found);
  if (name !== undefined && name.length > MAX_CARDHOLDER_NAME) found.add('cardholder_name', errors.maxLength(MAX_CARDHOLDER_NAME));
  const number = text(form, 'card_number', found);
  const digits = number?.replace(/[\s-]/g, '');
  const method = digits === undefined ? undefined : cardBrand(digits);
  if (digits !== undefined && !/^\d{12,19}$/.test(digits)) found.add('card_number', errors.invalid('Enter a card number of 12 to 19 digits.'));
  else if (digits !== undefined && method === undefined) {
    found.add('card_number', errors.invalid(`A number starting ${digits.slice(0, 2)} is of no brand the simulator takes: Visa (4…), Mastercard (51–55, 2221–2720…) or Maestro (50, 56–69…).`));
  }
  const expires = text(form, 'expires', found)?.replace(/\s/g, '');
  if (expires !== undefined && !/^(0[1-9]|1[0-2])\/\d{2}$/.test(expires)) found.add('expires', errors.invalid('Enter the expiry as MM/YY, a month 01 to 12.'));
  const cvc = text(form, 'cvc', found);
  if (cvc !== undefined && !/^\d{3,4}$/.test(cvc)) found.add('cvc', errors.invalid('Enter the CVC: 3 or 4 digits.'));
  const remember = form.remember_card ?? 'off';
  if (remember !== 'on' && remember !== 'off') found.add('remember_card', errors.invalid('Send on or off.'));
  found.throwIfAny();
  return { method: method!, digits: digits!, cardholder_name: name!, expiry: expires!, remember: remember === 'on' };
}

/**
 * Why the simulated bank declines `card` (the order in the header), or null when it approves.
 * `nowMs` is the sandbox clock; a two-digit year is 20YY, as the platform's plugin reads it.
 */
export function postedCardDecline(card: Pick<PostedCard, 'digits' | 'expiry'>, nowMs: number): DeclineCode | null {
  if (!isDefaultCard(card.digits) && !luhnValid(card.digits)) return 'invalid_card_number';
  const [month, year] = card.expiry.split('/').map(Number) as [number, number];
  const now = new Date(nowMs);
  if ((2000 + year) * 12 + month - 1 < now.getUTCFullYear() * 12 + now.getUTCMonth()) return 'expired_card';
  return DECLINING_CARDS[card.digits] ?? null;
}
