// The parts of a purchase or a payment as the platform sends them (DESIGN.md §14), made from the
// parts the store keeps. The store keeps what varies; what is constant on the platform's own objects
// (`client.client_type: null`, `client.delivery_methods`, `purchase.shipping_options: []`, the
// `owned_bank_*` nulls, an attempt's `flow` and `fee_amount`) and what follows from a stored field
// (an integer card expiry, `""` for an unset country) is added here. Stored parts are shared by many
// records and never changed (domain/shared-parts.ts), so each presented part is made once per stored
// part and shared too: a page of purchases billed alike costs one presented client, one details
// object and one attempt, not one each. docs/fidelity.md ("Objects") names each field's source.

import { NO_EXTRA } from '../domain/shared-parts.ts';
import type { Attempt, CardDetails, ClientDetails, NoExtra, PaymentDetails, PurchaseDetails, TransactionData } from '../domain/types.ts';

/** How the platform sends an invoice: by e-mail, with no options (every published object says so). */
const DELIVERY_METHODS = Object.freeze([Object.freeze({ method: 'email', options: Object.freeze({}) })]);
const NONE = Object.freeze([]);
const EMPTY = Object.freeze({});

/**
 * The platform's `flow` of a payment: how the payer reached the gateway. Every published object says
 * `payform` (its hosted payment page), for attempts of every type; the simulator's pages and actions
 * stand in for it.
 */
export const FLOW = 'payform';

/**
 * An attempt's `fee_amount`, in minor units, as the platform's published deliveries show it (docs/
 * fidelity.md): 20 for an attempt (an FPX execute, paid or declined, SAMPLE:01, 04; a card's authorize,
 * SAMPLE:06, 08; a token's deletion, SAMPLE:14; a release, SAMPLE:16), 10 for a capture (SAMPLE:10,
 * 11), whatever the amount. (SAMPLE:07, of another account, shows 100 for an FPX execute.) The
 * purchase's `payment.fee_amount` is 0 on those objects, and so here: `net_amount` is the amount.
 */
const feeOf = (tried: Attempt): number => (tried.type === 'capture' ? 10 : 20);

/** Made once per stored part: the keys are the store's shared, frozen parts. */
function memo<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    let view = made.get(key);
    if (view === undefined) made.set(key, (view = make(key)));
    return view;
  };
}

/** A purchase's client details: `client_type` and `delivery_methods`, which every published object carries. */
export const clientView = memo((client: ClientDetails) => Object.freeze({ ...client, client_type: null, delivery_methods: DELIVERY_METHODS }));

/** Purchase details with the platform's checkout fields the simulator never sets. */
export const detailsView = memo((details: PurchaseDetails) =>
  Object.freeze({ ...details, shipping_options: NONE, has_upsell_products: false, payment_method_details: EMPTY }),
);

/** Money moved, with the platform's bank-account fields of a payout (null: the simulator pays out nothing). */
export const paymentDetailsView = memo((payment: PaymentDetails) =>
  Object.freeze({ ...payment, owned_bank_account_id: null, owned_bank_account: null, owned_bank_code: null }),
);

const hasCard = (extra: object): extra is CardDetails => 'masked_pan' in extra;

/**
 * A card as the platform sends it: integer expiry (`expiry_month: 10, expiry_year: 24`) and its
 * `card_issuer`, which the simulator does not know (""). Cards saved by billing-sim 0.3 kept the
 * expiry as two-digit strings; they are answered as numbers too.
 */
const cardView = memo((card: CardDetails) =>
  Object.freeze({ ...card, card_issuer: '', expiry_month: Number(card.expiry_month), expiry_year: Number(card.expiry_year) }),
);

export const extraView = (extra: CardDetails | NoExtra) => (hasCard(extra) ? cardView(extra) : NO_EXTRA);

/** An attempt with the platform's `flow` and `fee_amount`; a card's issuing country is its `country`. */
export const attemptView = memo((tried: Attempt) => {
  const card = hasCard(tried.extra) ? tried.extra : undefined;
  return Object.freeze({
    ...tried,
    flow: FLOW,
    fee_amount: feeOf(tried),
    country: tried.country ?? card?.card_issuer_country ?? '',
    client_ip: tried.client_ip ?? '',
    extra: extraView(tried.extra),
  });
});

/**
 * Transaction data as answered (`data` already carries its `extra`: domain/cards.ts
 * shownTransactionData): `""` where nothing was tried yet, as the platform's created purchases show.
 */
export function transactionView(data: TransactionData) {
  const stored = data.extra ?? NO_EXTRA;
  const card = hasCard(stored) ? cardView(stored) : NO_EXTRA;
  // A settled payment's `extra` has its `settlement` beside the card (the platform's purchase.settled).
  const extra = 'settlement' in stored ? { ...card, settlement: stored.settlement } : card;
  return {
    payment_method: data.payment_method ?? '',
    flow: FLOW,
    country: data.country ?? ('card_issuer_country' in extra ? extra.card_issuer_country : ''),
    extra,
    attempts: data.attempts.map(attemptView),
  };
}
