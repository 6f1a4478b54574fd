// Purchases: building one (from a request or for a template), status changes with their history,
// and the service-type rules of the spec ("A Purchase due tomorrow cannot be created or charged
// with a TWODAY type or token"). Records are replaced, never mutated, so an event can keep the
// object as it was.

import { clientDetails } from './clients.ts';
import { DAY_MS, dayOf } from './calendar.ts';
import { ALL, ErrorCollector, errors, fieldError, type ErrorDetail } from './errors.ts';
import { rejectChanges, SERVER_FIELDS } from './fields.ts';
import { PAYMENT_METHODS } from './payment-methods.ts';
import { buildPurchaseDetails } from './purchase-details.ts';
import { unixSeconds, type Context } from './context.ts';
import { historyWith, NO_HISTORY, NO_TRANSACTION, transactionWith } from './shared-parts.ts';
import type { Attempt, Client, Input, Purchase, PurchaseDetails, PurchaseStatus, ServiceType } from './types.ts';

/** Execution time of a service type at the bank (DESIGN.md §4.8). */
export const EXECUTION_DAYS: Record<ServiceType, number> = { ONEDAY: 1, TWODAY: 2 };

/**
 * Statuses in which a purchase still waits for its money: it can be paid, charged, cancelled.
 * `overdue` stays payable; `expired` (past due with due_strict) is not (DESIGN.md §9).
 */
export const PAYABLE: ReadonlySet<PurchaseStatus> = new Set(['created', 'sent', 'viewed', 'error', 'overdue']);

const PURCHASE_READ_ONLY = [
  ...SERVER_FIELDS,
  'billing_template_id',
  'is_recurring_token',
  'checkout_url',
  'status',
  'status_history',
  'recurring_token',
  'payment',
  'transaction_data',
  'refundable_amount',
  'refund_availability',
  'marked_as_paid',
  'is_test',
  // The platform's fields an answer adds (src/present/purchases.ts): always the server's.
  'company_id',
  'user_id',
  'order_id',
  'product',
  'viewed_on',
  'issuer_details',
  'created_from_ip',
  'reference_generated',
  'invoice_url',
  'direct_post_url',
  'currency_conversion',
  'can_retrieve',
  'can_chargeback',
  'can_mark_as_refunded',
  'audit_log_entries',
  'referral_code',
  'referral_code_details',
  'referral_code_generated',
  'retain_level_details',
];

/** What an answer adds to a purchase's client details (src/present/parts.ts); a request cannot set them. */
const CLIENT_READ_ONLY = ['client_type', 'delivery_methods'];

export interface NewPurchase {
  brandId: string;
  client: Client;
  details: PurchaseDetails;
  billingTemplateId?: string | null;
  issued: string | null;
  due: number | null;
  skipCapture?: boolean;
  sendReceipt?: boolean;
  forceRecurring?: boolean;
  whitelist?: string[] | null;
  serviceType?: ServiceType | null;
  successRedirect?: string | null;
  failureRedirect?: string | null;
  /** The platform's fields a merchant sends on POST /purchases/, defaults filled in (MERCHANT_DEFAULTS for a generated purchase). */
  merchant?: MerchantFields;
}

/** Fields of a purchase that only its creator's request sets, each answered as sent. */
export type MerchantFields = Pick<
  Purchase,
  'cancel_redirect' | 'success_callback' | 'reference' | 'creator_agent' | 'platform' | 'upsell_campaigns' | 'referral_campaign_id'
>;

const NO_CAMPAIGNS: string[] = [];

/** A purchase made through the API unless the request says otherwise (the platform's Go SDK names web, api, ios, …). */
export const MERCHANT_DEFAULTS: MerchantFields = {
  cancel_redirect: null,
  success_callback: null,
  reference: '',
  creator_agent: '',
  platform: 'api',
  upsell_campaigns: NO_CAMPAIGNS,
  referral_campaign_id: null,
};

/**
 * A purchase in status `created`. Written as one literal of every field, with no spread: a literal with
 * a spread in its middle was built field by field at run time, the largest single cost of a billing
 * (1.1 s of a ten-year advance of 10,000 subscribers).
 */
export function buildPurchase(fields: NewPurchase, ctx: Context): Purchase {
  const now = unixSeconds(ctx.clock.now());
  const id = ctx.ids.uuid();
  const merchant = fields.merchant ?? MERCHANT_DEFAULTS;
  return {
    id,
    type: 'purchase',
    created_on: now,
    updated_on: now,
    brand_id: fields.brandId,
    client_id: fields.client.id,
    client: clientDetails(fields.client),
    billing_template_id: fields.billingTemplateId ?? null,
    issued: fields.issued,
    due: fields.due,
    skip_capture: fields.skipCapture ?? false,
    send_receipt: fields.sendReceipt ?? false,
    force_recurring: fields.forceRecurring ?? false,
    is_recurring_token: false,
    payment_method_whitelist: fields.whitelist ?? null,
    checkout_url: '',
    success_redirect: fields.successRedirect ?? null,
    failure_redirect: fields.failureRedirect ?? null,
    cancel_redirect: merchant.cancel_redirect,
    success_callback: merchant.success_callback,
    reference: merchant.reference,
    creator_agent: merchant.creator_agent,
    platform: merchant.platform,
    upsell_campaigns: merchant.upsell_campaigns,
    referral_campaign_id: merchant.referral_campaign_id,
    purchase: fields.details,
    status: 'created',
    status_history: historyWith(NO_HISTORY, 'created', now),
    service_type: fields.serviceType ?? null,
    recurring_token: null,
    payment: null,
    transaction_data: NO_TRANSACTION,
    refundable_amount: 0,
    refund_availability: 'none',
    marked_as_paid: false,
    is_test: true,
  };
}

/** The purchase's `transaction_data` with `tried` first (the platform lists attempts newest first). */
export function withAttempt(purchase: Purchase, tried: Attempt): Pick<Purchase, 'transaction_data'> {
  return { transaction_data: transactionWith(purchase.transaction_data, tried) };
}

/** The purchase in a new status, with the change appended to its history. */
export function withStatus(purchase: Purchase, status: PurchaseStatus, ctx: Context, changes: Partial<Purchase> = {}): Purchase {
  const now = unixSeconds(ctx.clock.now());
  return { ...purchase, ...changes, status, updated_on: now, status_history: historyWith(purchase.status_history, status, now) };
}

/**
 * Spec, rules on default_service_type 1: "A Purchase due must be valid for at least the execution
 * time of the service type used to collect it." Due at 00:00 tomorrow is less than 2 days away.
 */
export function serviceTypeFits(serviceType: ServiceType | null, due: number | null, nowMs: number): boolean {
  return serviceType === null || due === null || due * 1000 - nowMs >= EXECUTION_DAYS[serviceType] * DAY_MS;
}

export function checkWhitelist(errs: ErrorCollector, field: string, whitelist: unknown): void {
  if (!Array.isArray(whitelist)) return;
  const known = PAYMENT_METHODS.map((method) => method.name);
  whitelist.forEach((name, index) => {
    if (!known.includes(name as string)) errs.add(`${field}.${index}`, errors.invalidChoice(name, known));
  });
}

export interface PurchaseScope {
  brandIds: readonly string[];
  /** The client named by `client_id`, or the one made from the `client` object; undefined if unknown. */
  client: Client | undefined;
}

/** POST /purchases/: the rules JSON Schema cannot state, then the record (status `created`). */
export function createPurchase(input: Input, scope: PurchaseScope, ctx: Context): Purchase {
  const errs = new ErrorCollector();
  rejectChanges(errs, input, {}, PURCHASE_READ_ONLY, 'set by the server');
  if (typeof input.client === 'object' && input.client !== null) {
    for (const field of CLIENT_READ_ONLY) if (field in input.client) errs.add(`client.${field}`, errors.readOnly('set by the server'));
  }
  if (!scope.brandIds.includes(input.brand_id as string)) errs.add('brand_id', errors.doesNotExist('Brand', input.brand_id));
  // The platform's Go SDK sends its whole client struct, empty, beside a client_id: client_id wins.
  if (!('client_id' in input) && !('client' in input)) {
    errs.add(ALL, errors.invalid('Send client_id or client.'));
  } else if ('client_id' in input && !scope.client) {
    errs.add('client_id', errors.doesNotExist('Client', input.client_id));
  }
  checkWhitelist(errs, 'payment_method_whitelist', input.payment_method_whitelist);
  const details = buildPurchaseDetails(errs, 'purchase', input.purchase as Input);
  const serviceType = (input.service_type as ServiceType | null | undefined) ?? null;
  const due = (input.due as number | null | undefined) ?? null;
  if (serviceType && input.force_recurring !== true) {
    errs.add('service_type', errors.invalid('A service type is used only when force_recurring is true.'));
  } else if (!serviceTypeFits(serviceType, due, ctx.clock.now())) {
    errs.add('service_type', errors.invalid(`${serviceType} needs ${EXECUTION_DAYS[serviceType!]} day(s) before due.`));
  }
  errs.throwIfAny();
  return buildPurchase(
    {
      brandId: input.brand_id as string,
      client: scope.client!,
      details,
      issued: (input.issued as string | null | undefined) ?? dayOf(ctx.clock.now(), details.timezone),
      due,
      skipCapture: input.skip_capture as boolean | undefined,
      sendReceipt: input.send_receipt as boolean | undefined,
      forceRecurring: input.force_recurring as boolean | undefined,
      whitelist: input.payment_method_whitelist as string[] | null | undefined,
      serviceType,
      successRedirect: input.success_redirect as string | null | undefined,
      failureRedirect: input.failure_redirect as string | null | undefined,
      merchant: merchantFields(input),
    },
    ctx,
  );
}

/** The merchant's fields of a create request, defaults for those not sent; a `reference` sent as a number (WooCommerce's order id) is kept as its text. */
function merchantFields(input: Input): MerchantFields {
  const fields: MerchantFields = { ...MERCHANT_DEFAULTS };
  for (const name of Object.keys(MERCHANT_DEFAULTS) as (keyof MerchantFields)[]) {
    if (input[name] !== undefined && input[name] !== null) (fields as Record<string, unknown>)[name] = input[name];
  }
  if (typeof input.reference === 'number') fields.reference = String(input.reference);
  if (Array.isArray(input.upsell_campaigns)) fields.upsell_campaigns = [...(input.upsell_campaigns as string[])];
  return fields;
}

/**
 * Refuses a purchase that cannot be paid: 400 under __all__, `invalid_state` unless `refused` gives
 * the platform's code of the action (a charge: `purchase_charge_error`).
 */
export function assertPayable(purchase: Purchase, refused: (message: string) => ErrorDetail = errors.invalidState): void {
  if (!PAYABLE.has(purchase.status)) {
    const why = purchase.status === 'expired' ? ' (its due has passed and due_strict is true)' : '';
    throw fieldError(ALL, refused(`Purchase is ${purchase.status}${why}; only an unpaid purchase can be paid, charged or cancelled.`));
  }
}

/**
 * Refuses an action unless the purchase is in one of `allowed`: 400 under __all__, `invalid_state`
 * unless `refused` gives the platform's code of the action (capture/: `purchase_capture_error`).
 */
export function assertStatus(purchase: Purchase, allowed: readonly PurchaseStatus[], action: string, refused: (message: string) => ErrorDetail = errors.invalidState): void {
  if (!allowed.includes(purchase.status)) {
    throw fieldError(ALL, refused(`Purchase is ${purchase.status}; ${action} needs a purchase that is ${allowed.join(' or ')}.`));
  }
}
