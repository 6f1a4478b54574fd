// The e-mails a sandbox "sends" (GET /sim/v1/outbox): an invoice asks for a purchase's money, a
// receipt confirms it. Nothing is sent; the subject is what a QA engineer reads to tell them apart:
// "Invoice for Gym membership — €29.90", "Receipt for Consulting hour — ¥500".

import type { Purchase } from './types.ts';

export type EmailKind = 'invoice' | 'receipt';

/**
 * Intl formatters per currency: building one costs tens of microseconds, and a ten-year advance
 * sends an e-mail per billing. Currencies are three capital letters (the schema's pattern), so the
 * cache stays small.
 */
const formatters = new Map<string, { format: Intl.NumberFormat; digits: number } | null>();

/** Money from integer minor units as the currency writes it, in English: 2990 EUR → "€29.90", 500 JPY → "¥500". */
export function formatMoney(minor: number, currency: string): string {
  let formatter = formatters.get(currency);
  if (formatter === undefined) {
    try {
      const format = new Intl.NumberFormat('en', { style: 'currency', currency });
      formatter = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    } catch {
      // A code Intl refuses: two decimals and the code.
      formatter = null;
    }
    formatters.set(currency, formatter);
  }
  return formatter ? formatter.format.format(minor / 10 ** formatter.digits) : `${(minor / 100).toFixed(2)} ${currency}`;
}

/**
 * Subjects already made, to hand out one string per distinct subject: every billing of a template
 * has the same one, and half a million e-mails each holding its own copy (two-byte strings, for the
 * dash and the currency sign) would cost some 45 MB. Cleared when full; a miss only costs a copy.
 */
const made = new Map<string, string>();
const MADE_MAX = 1024;

function shared(subject: string): string {
  const found = made.get(subject);
  if (found !== undefined) return found;
  if (made.size >= MADE_MAX) made.clear();
  made.set(subject, subject);
  return subject;
}

/** The subject made last and what it was made of: consecutive e-mails of a billing day mostly repeat it. */
let last = { kind: '', what: '', amount: NaN, currency: '', subject: '' };

/**
 * "Invoice for <what> — <amount>" / "Receipt for <what> — <amount>". <what> is the title of the
 * template that generated the purchase, else its first product's name; <amount> is the total, or
 * for a receipt the amount received (less after a partial capture).
 */
export function emailSubject(kind: EmailKind, purchase: Purchase, templateTitle?: string): string {
  const what = templateTitle || purchase.purchase.products[0]?.name || `purchase ${purchase.id}`;
  const amount = kind === 'receipt' && purchase.payment ? purchase.payment.amount : purchase.purchase.total;
  const currency = purchase.purchase.currency;
  if (kind !== last.kind || what !== last.what || amount !== last.amount || currency !== last.currency) {
    const subject = shared(`${kind === 'invoice' ? 'Invoice' : 'Receipt'} for ${what} — ${formatMoney(amount, currency)}`);
    last = { kind, what, amount, currency, subject };
  }
  return last.subject;
}

/**
 * The text of an e-mail, made when it is read (nothing of it is stored): its subject, what it asks
 * for with the link to do it (an invoice: the checkout page), and for a purchase of a subscription
 * the link by which the subscriber cancels it, as the platform's subscription e-mails carry one.
 */
export function emailBody(kind: EmailKind, subject: string, links: { checkout: string; cancel: string | null }): string {
  const ask = kind === 'invoice' ? `Pay it here: ${links.checkout}` : 'Thank you for your payment.';
  const cancel = links.cancel === null ? '' : `\n\nTo cancel your subscription: ${links.cancel}`;
  return `${subject}\n\n${ask}${cancel}\n`;
}
