// Records as stored and as returned by the API: field names are the wire names of openapi.yaml,
// so serializing a record is `JSON.stringify` and nothing else.

export interface Resource {
  id: string;
  type: string;
  created_on: number;
  updated_on: number;
}

export interface Client extends Resource {
  type: 'client';
  email: string;
  full_name: string;
  phone: string;
  street_address: string;
  city: string;
  zip_code: string;
  state: string;
  country: string;
  personal_code: string;
  shipping_street_address: string;
  shipping_city: string;
  shipping_zip_code: string;
  shipping_state: string;
  shipping_country: string;
  legal_name: string;
  brand_name: string;
  registration_number: string;
  tax_number: string;
  bank_account: string;
  bank_code: string;
  /** Sent by the platform's Go SDK with every client; kept and answered as sent. */
  description: string;
  cc: string[];
  bcc: string[];
}

export interface Product {
  name: string;
  price: number;
  /** A decimal string with 4 places, as the platform answers it: "1.0000". */
  quantity: string;
  discount: number;
  /** A decimal string with 2 places: "15.00". */
  tax_percent: string;
  category: string;
}

export interface PurchaseDetails {
  products: Product[];
  currency: string;
  total: number;
  timezone: string;
  language: string;
  notes: string;
  due_strict: boolean;
  email_message: string;
  /** The platform's overrides: `total_override` sets `total`; the others are kept and answered. */
  debt: number;
  subtotal_override: number | null;
  total_tax_override: number | null;
  total_discount_override: number | null;
  total_override: number | null;
  request_client_details: string[];
  description: string;
}

export type PeriodUnit = 'days' | 'weeks' | 'months';

export interface BillingTemplate extends Resource {
  type: 'billing_template';
  brand_id: string;
  company_id: string;
  is_test: boolean;
  title: string;
  purchase: PurchaseDetails;
  is_subscription: boolean;
  issued: string | null;
  due: number | null;
  skip_capture: boolean;
  send_receipt: boolean;
  force_recurring: boolean;
  subscription_period: number;
  subscription_period_units: PeriodUnit;
  subscription_due_period: number;
  subscription_due_period_units: PeriodUnit;
  subscription_charge_period_end: boolean;
  subscription_trial_periods: number;
  subscription_paused: boolean;
  subscription_has_active_clients: boolean;
}

export interface Brand {
  id: string;
  name: string;
  /**
   * The brand's legal details, as a purchase's `issuer_details` shows them. Given by
   * POST /sim/v1/sandboxes {"brand"}; absent, a purchase shows the defaults of present/issuer.ts.
   */
  issuer_details?: IssuerDetails;
}

/** The platform's `issuer_details` of a purchase: the legal details and bank accounts of the brand that issued it. */
export interface IssuerDetails {
  brand_name: string;
  legal_name: string;
  registration_number: string;
  tax_number: string;
  website: string;
  legal_street_address: string;
  legal_country: string;
  legal_city: string;
  legal_zip_code: string;
  bank_accounts: { bank_account: string; bank_code: string }[];
}

/** A request body after schema validation: any subset of the operation's fields. */
export type Input = Record<string, unknown>;

export type SubscriberStatus = 'inactive' | 'pending' | 'active' | 'subscription_paused';
export type ServiceType = 'ONEDAY' | 'TWODAY';

export interface BillingTemplateClient extends Resource {
  type: 'billing_template_client';
  billing_template_id: string;
  client_id: string;
  send_receipt: boolean;
  send_invoice_on_charge_failure: boolean;
  /** E-mails the first purchase that add_subscriber creates for a pending subscriber (status `sent`). */
  send_invoice_on_add_subscriber: boolean;
  subscription_deduction_date: string;
  mandate_expiry_date: string;
  subscription_first_deduction_date: string | null;
  subscription_first_deduction_amount: number | null;
  status: SubscriberStatus;
  payment_method_whitelist: string[] | null;
  default_service_type: ServiceType;
  subscription_billing_scheduled_on: string | null;
  number_of_billing_cycles_passed: number;
}

/**
 * Every status of the platform's Purchase (openapi.yaml lists them all, so a client's switch meets no
 * unknown value). The simulator produces created, sent, viewed, pending_execute, paid, error, overdue,
 * expired, cancelled, hold, released and refunded.
 */
export type PurchaseStatus =
  | 'created'
  | 'sent'
  | 'viewed'
  | 'error'
  | 'cancelled'
  | 'overdue'
  | 'expired'
  | 'blocked'
  | 'hold'
  | 'released'
  | 'pending_release'
  | 'pending_capture'
  | 'preauthorized'
  | 'paid'
  | 'pending_execute'
  | 'pending_charge'
  | 'cleared'
  | 'settled'
  | 'chargeback'
  | 'pending_refund'
  | 'refunded';

/** A purchase's `payment` (the platform's PaymentDetails): money in, or out for a refund. */
export interface PaymentDetails {
  is_outgoing: boolean;
  payment_type: 'purchase' | 'refund';
  amount: number;
  currency: string;
  net_amount: number;
  fee_amount: number;
  pending_amount: number;
  pending_unfreeze_on: number | null;
  description: string;
  paid_on: number;
  remote_paid_on: number;
  /** Simulator-only: the method that paid; null when the purchase was marked as paid. */
  payment_method: string | null;
}

export type AttemptType = 'execute' | 'authorize' | 'release' | 'capture' | 'recurring_execute' | 'delete_recurring_token' | 'refund';

/** One try to move money, as the platform records it in `transaction_data.attempts` (newest first). */
export interface Attempt {
  type: AttemptType;
  successful: boolean;
  payment_method: string | null;
  country: string | null;
  client_ip: string | null;
  processing_time: number;
  /**
   * The card of a card payment (domain/cards.ts), `{}` for other methods and actions. Kept on the
   * attempt of a checkout payment and of a declined token charge; a successful token charge keeps
   * `{}` and is answered with its token's card (cards.ts shownTransactionData), so that 1.2 million
   * billed purchases do not each store a copy.
   */
  extra: CardDetails | NoExtra;
  error: { code: string; message: string; description: string } | null;
}

export type NoExtra = Record<string, never>;

/** What the platform tells of the card that paid, in `extra` (the fields its WooCommerce plugin stores). */
export interface CardDetails {
  card_brand: string;
  /** First six and last four digits: "444433******1111". */
  masked_pan: string;
  /** 1 to 12, an integer as the platform sends it. */
  expiry_month: number;
  /** Two digits as an integer (24 for 2024), as the platform sends it: the plugin prepends "20". */
  expiry_year: number;
  cardholder_name: string;
  /** ISO 3166-1 alpha-2. */
  card_issuer_country: string;
  card_type: 'credit' | 'debit';
}

export interface TransactionData {
  payment_method: string | null;
  country: string | null;
  attempts: Attempt[];
  /**
   * Stored only once the purchase is settled: `{settlement}`. Answered with the card of the successful card
   * attempt too, `{}` with neither (cards.ts shownTransactionData).
   */
  extra?: CardDetails | NoExtra | SettledExtra | (CardDetails & SettledExtra);
}

/** A settled payment (DESIGN.md §14), kept in the stored transaction_data's `extra`, where the platform shows it. */
export interface SettledExtra {
  settlement: { settled_on: number };
}

export type ClientDetails = Omit<Client, keyof Resource>;

/** A purchase as the sandbox keeps it; the API answers it as a PurchaseView. */
export interface Purchase extends Resource {
  type: 'purchase';
  brand_id: string;
  client_id: string;
  client: ClientDetails;
  billing_template_id: string | null;
  issued: string | null;
  due: number | null;
  skip_capture: boolean;
  send_receipt: boolean;
  force_recurring: boolean;
  is_recurring_token: boolean;
  payment_method_whitelist: string[] | null;
  /**
   * Not kept: always empty. What the API answers is the purchase's id under the sandbox's checkout
   * path (engine/sandboxes.ts checkoutPath) on the origin the client called (PurchaseView). Ten years
   * of 10,000 subscribers keep 1.2 million purchases, and the path kept with each was two more heap
   * objects, 64 bytes of some 460. The field stays, empty, so that an answer overwrites it in place:
   * V8 copies a record and gives it a key it lacks in about 2 µs, and overwrites one in 0.15 µs.
   * Data-file rows written before hold the path; it is emptied as the file is opened (store/upgrade.ts).
   */
  checkout_url: '';
  success_redirect: string | null;
  failure_redirect: string | null;
  cancel_redirect: string | null;
  /** Receives the paid purchase by POST, signed with the sandbox key GET /public_key/ answers. */
  success_callback: string | null;
  /** The merchant's own reference (an order number), answered as a string. */
  reference: string;
  creator_agent: string;
  platform: string;
  upsell_campaigns: string[];
  referral_campaign_id: string | null;
  purchase: PurchaseDetails;
  status: PurchaseStatus;
  status_history: { status: PurchaseStatus; timestamp: number }[];
  service_type: ServiceType | null;
  recurring_token: string | null;
  payment: PaymentDetails | null;
  transaction_data: TransactionData;
  /** What a refund may still return: the amount paid less what was refunded; 0 while unpaid. */
  refundable_amount: number;
  refund_availability: 'all' | 'none';
  marked_as_paid: boolean;
  is_test: boolean;
  /**
   * The address of the request that created it (POST /purchases/, send_invoice, …); absent on a purchase
   * the billing made, and on those of earlier versions: answered "" (present/purchases.ts).
   */
  created_from_ip?: string;
}

/** A purchase as the API answers it: its `checkout_url` is an absolute URL on the origin the client called. */
export type PurchaseView = Omit<Purchase, 'checkout_url'> & { checkout_url: string };

/** The platform's Payment object: what POST /purchases/{id}/refund/ answers and `payment.refunded` carries. */
export interface Payment extends Resource {
  type: 'payment';
  brand_id: string;
  company_id: string;
  is_test: boolean;
  client: ClientDetails;
  payment: PaymentDetails;
  transaction_data: TransactionData;
  related_to: { type: 'purchase'; id: string };
  /** The platform's outcome of the money movement; the WooCommerce plugin reads `success` after a refund. */
  status: 'success';
}

export interface RecurringToken extends Resource {
  type: 'recurring_token';
  client_id: string;
  payment_method: string;
  description: string;
  service_type: ServiceType | null;
}

export interface SimEvent {
  id: string;
  event_type: string;
  created_on: number;
  object_type: string;
  object_id: string;
  /** The object as it was when the event happened (records are replaced, never mutated). */
  payload: Resource;
}

export interface OutboxEmail {
  id: string;
  kind: 'invoice' | 'receipt';
  to: string;
  purchase_id: string;
  sent_on: number;
  /** domain/emails.ts emailSubject, when it was sent. */
  subject: string;
}

/**
 * A statement request (`/company_statements/`), field for field as the platform answers it: the
 * Gravity Forms and Formidable plugins read its `company_uid` to know which account's key is which.
 */
export interface CompanyStatement extends Resource {
  type: 'statement_request';
  format: 'csv' | 'xlsx';
  timezone: string;
  is_test: boolean;
  /** The account's company: the `company_id` its purchases carry. */
  company_uid: string;
  query_string: string;
  status: 'pending';
  download_url: string | null;
  began_on: number | null;
  finished_on: number | null;
}

export interface Webhook extends Resource {
  type: 'webhook';
  title: string;
  callback: string;
  all_events: boolean;
  events: string[];
  /** Public half of the key pair that signs its deliveries (the sandbox's `webhookKeys`). */
  public_key: string;
}
