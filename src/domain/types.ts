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
  legal_name: string;
  registration_number: string;
  tax_number: string;
  cc: string[];
  bcc: string[];
}

export interface Product {
  name: string;
  price: number;
  quantity: number;
  discount: number;
  tax_percent: number;
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

export type PurchaseStatus =
  | 'created'
  | 'sent'
  | 'viewed'
  | 'pending_execute'
  | 'paid'
  | 'error'
  | 'overdue'
  | 'cancelled'
  | 'hold';

export interface Payment {
  amount: number;
  currency: string;
  payment_method: string;
  paid_on: number;
}

export type ClientDetails = Omit<Client, keyof Resource>;

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
  /** Stored as a path (`/checkout/{id}/`); the HTTP layer prefixes the origin the client called. */
  checkout_url: string;
  success_redirect: string | null;
  failure_redirect: string | null;
  purchase: PurchaseDetails;
  status: PurchaseStatus;
  status_history: { status: PurchaseStatus; timestamp: number }[];
  service_type: ServiceType | null;
  recurring_token: string | null;
  payment: Payment | null;
  is_test: boolean;
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
}

export interface Webhook extends Resource {
  type: 'webhook';
  title: string;
  callback: string;
  events: string[];
}
