// A Payment (what a refund makes) as the platform sends it (DESIGN.md §14): the platform's published
// `payment.refunded` delivery carries, beside what the store keeps, its account fields (null or
// empty for a test account), the purchase's reference in `related_to`, and the card that
// paid the purchase, with the amount, in `transaction_data.extra`. Deliveries and events show the
// same form as the refund/ answer. And the one place that picks the form of any recorded object.

import { paidCard } from '../domain/cards.ts';
import type { Payment, Purchase, Resource } from '../domain/types.ts';
import { attemptView, clientView, extraView, FLOW, paymentDetailsView } from './parts.ts';
import { generatedNumber, purchaseReference, purchaseView, type PresentScope } from './purchases.ts';

const NONE = Object.freeze([]);
const EMPTY = Object.freeze({});

export function paymentView(payment: Payment, scope: PresentScope) {
  const reference = purchaseReference(payment.related_to.id);
  const purchase = scope.purchases.get(payment.related_to.id);
  const card = purchase && paidCard(purchase.transaction_data);
  const details = paymentDetailsView(payment.payment);
  const data = payment.transaction_data;
  return {
    ...payment,
    user_id: null,
    reference: '',
    reference_generated: generatedNumber(payment.id),
    fee_amount: details.fee_amount,
    // The purchase's own reference when the merchant sent one (OpenCart's refund handler takes it as its
    // order id), else its generated one, as on the platform's sample of a purchase sent without one.
    related_to: { ...payment.related_to, reference: purchase?.reference || reference },
    refund_availability: 'none',
    account_extra: EMPTY,
    account_fx_rate: null,
    account_fx_currency: null,
    account_fx_buy_amount: null,
    audit_log_entries: NONE,
    currency_conversion: null,
    // The platform names the refund after the purchase's reference: "Refund: CH8512".
    payment: { ...details, description: details.description || `Refund: ${reference}` },
    client: { ...clientView(payment.client), client_id: null, first_name: '', last_name: '' },
    transaction_data: {
      ...data,
      payment_method: data.payment_method ?? '',
      flow: FLOW,
      country: data.country ?? card?.card_issuer_country ?? '',
      extra: card ? { ...extraView(card), amount: payment.payment.amount } : EMPTY,
      attempts: data.attempts.map(attemptView),
    },
  };
}

/** Any recorded object as the platform sends it: a purchase or a payment in its platform form, anything else as kept. */
export function objectView(object: Resource, scope: PresentScope, origin: string): object {
  if (object.type === 'purchase') return purchaseView(object as Purchase, scope, origin);
  if (object.type === 'payment') return paymentView(object as Payment, scope);
  return object;
}
