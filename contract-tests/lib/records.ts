// The API's records as a client reads them over HTTP: only the fields checks and tests look at,
// typed, and the rest open. Shared by the contract suite and the simulator's own HTTP tests, which
// both talk to the API from outside.

export interface List<T> {
  results: T[];
  next: string | null;
  previous: string | null;
}

export interface Client {
  id: string;
  email: string;
  created_on: number;
  updated_on: number;
  [field: string]: unknown;
}

export interface PurchaseDetails {
  products: Record<string, unknown>[];
  currency: string;
  total: number;
  timezone: string;
  [field: string]: unknown;
}

export interface Template {
  id: string;
  brand_id: string;
  is_subscription: boolean;
  subscription_period: number;
  subscription_period_units: string;
  subscription_charge_period_end: boolean;
  subscription_trial_periods: number;
  purchase: PurchaseDetails;
  due: number | null;
  skip_capture: boolean;
  send_receipt: boolean;
  subscription_paused: boolean;
  subscription_has_active_clients: boolean;
  [field: string]: unknown;
}

export interface Subscriber {
  id: string;
  type: string;
  billing_template_id: string;
  client_id: string;
  status: string;
  send_receipt: boolean;
  send_invoice_on_charge_failure: boolean;
  subscription_deduction_date: string;
  mandate_expiry_date: string;
  subscription_first_deduction_date: string | null;
  subscription_first_deduction_amount: number | null;
  payment_method_whitelist: string[] | null;
  default_service_type: string;
  subscription_billing_scheduled_on: string | null;
  number_of_billing_cycles_passed: number;
  [field: string]: unknown;
}

export interface Purchase {
  id: string;
  client_id: string;
  billing_template_id: string | null;
  issued: string | null;
  due: number | null;
  status: string;
  status_history: { status: string; timestamp: number }[];
  skip_capture: boolean;
  send_receipt: boolean;
  force_recurring: boolean;
  is_recurring_token: boolean;
  payment_method_whitelist: string[] | null;
  checkout_url: string;
  service_type: string | null;
  recurring_token: string | null;
  payment: { amount: number; currency: string; payment_method: string; paid_on: number; [field: string]: unknown } | null;
  purchase: PurchaseDetails;
  /** `extra`: the card that paid (`card_brand`, `masked_pan`, …), `{}` when none did; the platform's plugin reads it. */
  transaction_data: { payment_method: string | null; country: string | null; attempts: Attempt[]; extra?: Record<string, unknown> };
  refundable_amount: number;
  refund_availability: string;
  marked_as_paid: boolean;
  [field: string]: unknown;
}

/** One try to move a purchase's money (`transaction_data.attempts`, newest first). */
export interface Attempt {
  type: string;
  successful: boolean;
  payment_method: string | null;
  error: { code: string; message: string; description: string } | null;
  [field: string]: unknown;
}

export interface Token {
  id: string;
  client_id: string;
  payment_method: string;
  description: string;
  service_type: string | null;
  [field: string]: unknown;
}

export interface Email {
  id: string;
  kind: 'invoice' | 'receipt';
  to: string;
  purchase_id: string;
  sent_on: number;
  subject: string;
}

export type Errors = Record<string, { message: string; code: string }[]>;

export interface SimEvent {
  id: string;
  event_type: string;
  created_on: number;
  object_type: string;
  object_id: string;
  payload: Record<string, unknown>;
}

export interface Advanced {
  now: string;
  frozen: boolean;
  processed: Record<string, number>;
}
