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
