// A purchase as the platform sends it (DESIGN.md §14): the record the store keeps, plus what the
// platform's own objects carry and the store need not keep, because it is constant or follows from
// what is kept. API answers, webhook and success_callback bodies, and /sim/v1/events all show this
// one form. A snapshot shows the store's form with its checkout_url (withCheckoutUrl): it is the
// sandbox as kept, loaded back as it is.
// - checkout_url and direct_post_url: the record keeps neither; each is a path of the purchase on the
//   origin the client called (for deliveries, the sandbox's last one), so it works behind any host name.
// - The merchant's URLs the record keeps as null are "" (the platform's unset URL), never null.
// - viewed_on follows from status_history (the first `viewed`); reference_generated from the id;
//   company_id and issuer_details from the sandbox and its brand; the rest is constant.
// - A settled purchase adds the acquirer's details and two fields of the platform's settled purchase (settled.ts).

import { paidCard, shownTransactionData } from '../domain/cards.ts';
import type { Brand, Purchase, PurchaseView } from '../domain/types.ts';
import { issuerDetails } from './issuer.ts';
import { clientView, detailsView, paymentDetailsView, transactionView } from './parts.ts';
import { isSettled, SETTLED_FIELDS, settledTransaction } from './settled.ts';

/** What a checkout path depends on: the sandbox's id, and whether its ids are its own (seeded). */
export interface CheckoutScope {
  id: string;
  origin: { ownIds?: boolean };
}

/** What a purchase's answer depends on beyond the purchase: its sandbox's company, brands and purchases. */
export interface PresentScope extends CheckoutScope {
  companyId: string;
  brands: readonly Brand[];
  /** A token charge shows the card of the purchase that saved the token (domain/cards.ts). */
  purchases: ReadonlyMap<string, Purchase>;
}

/**
 * The path of a purchase's checkout page, its `checkout_url` without the origin. Checkout links
 * carry no token, so a link must lead to one purchase: a random id is unique on the server (an
 * import renames ids already taken), but the ids of a sandbox created with a seed repeat in every
 * sandbox of that seed, so its links name the sandbox: `/checkout/{sandbox_id}/{purchase_id}/`.
 */
export function checkoutPath(sandbox: CheckoutScope, purchaseId: string): string {
  return sandbox.origin.ownIds ? `/checkout/${sandbox.id}/${purchaseId}/` : `/checkout/${purchaseId}/`;
}

/**
 * The path of a purchase's Direct Post target, its `direct_post_url` without the origin (DESIGN.md
 * §14): a shop's own card form POSTs the card there. Named as the checkout path is, beside it.
 */
export function directPostPath(sandbox: CheckoutScope, purchaseId: string): string {
  return sandbox.origin.ownIds ? `/direct_post/${sandbox.id}/${purchaseId}/` : `/direct_post/${purchaseId}/`;
}

/**
 * The stored purchase with its checkout_url: the store's own form as a snapshot shows it. The key
 * exists in the record, so the copy overwrites it in place (cheaper in V8 than adding one).
 */
export function withCheckoutUrl(purchase: Purchase, sandbox: CheckoutScope, origin: string): PurchaseView {
  return { ...purchase, checkout_url: origin + checkoutPath(sandbox, purchase.id) };
}

/**
 * The platform's generated reference of an object, made from its id so that nothing is stored:
 * the first 32 bits of the UUID as a number (`CH3118459375` for a purchase, as the platform's
 * `CH8502`; a refund's Payment has digits only, as the platform's `146`). Unique in practice, and the
 * same on every answer; not a sequence as on the platform.
 */
export const generatedNumber = (id: string): string => String(parseInt(id.slice(0, 8), 16));
export const purchaseReference = (id: string): string => `CH${generatedNumber(id)}`;

/** When the purchase was first viewed at checkout: its first `viewed` status. */
function viewedOn(purchase: Purchase): number | null {
  for (const entry of purchase.status_history) if (entry.status === 'viewed') return entry.timestamp;
  return null;
}

export const brandOf = (scope: Pick<PresentScope, 'brands'>, brandId: string): Brand | undefined =>
  scope.brands.find((brand) => brand.id === brandId) ?? scope.brands[0];

/** The transaction data as answered: a token charge's attempts show the card of the purchase that saved the token. */
export function shownTransaction(purchase: Purchase, purchases: ReadonlyMap<string, Purchase>) {
  return transactionView(
    shownTransactionData(purchase, (tokenId) => {
      const saving = purchases.get(tokenId);
      return saving && paidCard(saving.transaction_data);
    }),
  );
}

/** The purchase as the platform sends it, made anew (for bodies written once: deliveries, events). */
export function purchaseView(purchase: Purchase, scope: PresentScope, origin: string) {
  const settled = isSettled(purchase);
  const transaction = shownTransaction(purchase, scope.purchases);
  return {
    ...purchase,
    checkout_url: origin + checkoutPath(scope, purchase.id),
    success_redirect: purchase.success_redirect ?? '',
    failure_redirect: purchase.failure_redirect ?? '',
    cancel_redirect: purchase.cancel_redirect ?? '',
    success_callback: purchase.success_callback ?? '',
    client: clientView(purchase.client),
    purchase: detailsView(purchase.purchase),
    payment: purchase.payment && paymentDetailsView(purchase.payment),
    transaction_data: settled ? settledTransaction(transaction, purchase, scope.companyId) : transaction,
    company_id: scope.companyId,
    user_id: null,
    order_id: null,
    product: 'purchases',
    viewed_on: viewedOn(purchase),
    issuer_details: issuerDetails(brandOf(scope, purchase.brand_id)),
    created_from_ip: purchase.created_from_ip ?? '',
    reference_generated: purchaseReference(purchase.id),
    invoice_url: null,
    direct_post_url: origin + directPostPath(scope, purchase.id),
    currency_conversion: null,
    can_retrieve: false,
    can_chargeback: false,
    referral_code: null,
    referral_code_details: null,
    referral_code_generated: null,
    retain_level_details: null,
    ...(settled && SETTLED_FIELDS),
  };
}

export type PlatformPurchase = ReturnType<typeof purchaseView>;

/**
 * The newest answers, one per version of the record, sandbox and origin: a purchase is replaced on
 * every change, never changed in place (domain/purchases.ts), so its answer stays what it was. A
 * list page answered again, or a purchase polled for its status, costs no new object. Bounded: a
 * client paging through a million purchases would otherwise pin an answer beside each record (about
 * 0.5 KB each), when answers are meant to be made, not stored. A record may be shared by two
 * sandboxes (a checkpoint's fork holds its origin's records until they change), whose answers differ
 * (company, checkout link): the cached answer is the sandbox's own or none.
 */
const answers = new Map<Purchase, { origin: string; sandboxId: string; view: PlatformPurchase }>();

/** Two pages of the largest list (page_size 1000): polling and paging back and forth hit; the oldest go first. */
const MAX_ANSWERS_KEPT = 2000;

export function presentPurchase(purchase: Purchase, scope: PresentScope, origin: string): PlatformPurchase {
  const made = answers.get(purchase);
  if (made && made.origin === origin && made.sandboxId === scope.id) return made.view;
  const view = purchaseView(purchase, scope, origin);
  answers.delete(purchase);
  if (answers.size >= MAX_ANSWERS_KEPT) answers.delete(answers.keys().next().value!);
  answers.set(purchase, { origin, sandboxId: scope.id, view });
  return view;
}
