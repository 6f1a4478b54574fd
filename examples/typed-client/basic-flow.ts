// The basic flow of the Billing Templates and Subscribers API with a client generated from
// openapi.yaml: types by openapi-typescript (default flags, see README.md), calls by openapi-fetch.
// A client, a monthly subscription template, a subscriber whose first purchase is paid (saving the
// card), a month of sandbox time in which the card pays the second one, and the client's purchases.
//
// Environment (the first two are also what `billing-sim contract` reads for --base-url and --token):
//   BILLING_SIM_BASE_URL  the API base, default http://127.0.0.1:4010/api/v1
//   BILLING_SIM_TOKEN     a sandbox's bearer token (`billing-sim serve` prints the default one)
//   BILLING_SIM_BRAND_ID  the sandbox's brand (printed beside the token); else taken from a template or purchase
// Paying and moving the clock use the simulator's control API, /sim/v1 on the same origin.

import createClient from 'openapi-fetch';
import type { components, paths } from './api.d.ts';

type Purchase = components['schemas']['Purchase'];

const base = process.env.BILLING_SIM_BASE_URL ?? 'http://127.0.0.1:4010/api/v1';
const token = process.env.BILLING_SIM_TOKEN;
if (!token) {
  console.error('Set BILLING_SIM_TOKEN to a sandbox token: `billing-sim serve` prints one.');
  process.exit(2);
}

// The document writes its paths in full (/api/v1/…, /sim/v1/…), so the client's base is the origin.
const api = createClient<paths>({ baseUrl: new URL(base).origin, headers: { authorization: `Bearer ${token}` } });

/** The data of a successful answer; any other answer ends the flow with its error body. */
function ok<T>(step: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`${step}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

const money = (amount: number, currency: string) => `${(amount / 100).toFixed(2)} ${currency}`;
const daysAfter = (day: string, days: number) => new Date(Date.parse(day) + days * 86_400_000).toISOString().slice(0, 10);
const line = (label: string, text: string) => console.log(`${label.padEnd(11)} ${text}`);

async function brandId(): Promise<string> {
  if (process.env.BILLING_SIM_BRAND_ID) return process.env.BILLING_SIM_BRAND_ID;
  const templates = ok('list templates', await api.GET('/api/v1/billing_templates/', { params: { query: { page_size: 1 } } }));
  if (templates.results[0]) return templates.results[0].brand_id;
  const purchases = ok('list purchases', await api.GET('/api/v1/purchases/', { params: { query: { page_size: 1 } } }));
  if (purchases.results[0]) return purchases.results[0].brand_id;
  throw new Error('The sandbox has no template or purchase to take a brand from: set BILLING_SIM_BRAND_ID.');
}

// "Today" is the sandbox clock's day; the template's purchases are in UTC (the default time zone).
const clock = ok('read the clock', await api.GET('/sim/v1/clock'));
const today = clock.now.slice(0, 10);

const client = ok(
  'create a client',
  await api.POST('/api/v1/clients/', { body: { email: `typed-client-${Date.now()}@example.com`, full_name: 'Typed Client' } }),
);
line('client', `${client.id} ${client.email}`);

// Spec: a subscription template needs its four cycle fields and its due period; the rest has defaults.
const template = ok(
  'create a template',
  await api.POST('/api/v1/billing_templates/', {
    body: {
      brand_id: await brandId(),
      title: 'Pro plan, monthly',
      is_subscription: true,
      purchase: { currency: 'EUR', products: [{ name: 'Pro plan', price: 2900 }] },
      subscription_period: 1,
      subscription_period_units: 'months',
      subscription_charge_period_end: false,
      subscription_trial_periods: 0,
      subscription_due_period: 7,
      subscription_due_period_units: 'days',
    },
  }),
);
line('template', `${template.id} ${template.title}: ${money(template.purchase.total, template.purchase.currency)} every ${template.subscription_period} ${template.subscription_period_units}`);

// Charged at the period's start and without trials, the subscriber waits for its first purchase.
const added = ok(
  'add the subscriber',
  await api.POST('/api/v1/billing_templates/{id}/add_subscriber/', {
    params: { path: { id: template.id } },
    body: { client_id: client.id, subscription_deduction_date: daysAfter(today, 5), mandate_expiry_date: daysAfter(today, 400) },
  }),
);
const first: Purchase | null = added.purchase;
if (!first) throw new Error('add_subscriber: a pending subscriber comes with its first purchase');
line('subscriber', `${added.billing_template_client.id} ${added.billing_template_client.status}, first purchase ${first.id} (${first.checkout_url})`);

// What the checkout page does when the client pays; the card is kept for the later charges.
const paid = ok('pay', await api.POST('/sim/v1/purchases/{id}/pay', { params: { path: { id: first.id } }, body: { save_token: true } }));
line('paid', `${paid.id} ${paid.status}, ${money(paid.payment?.amount ?? 0, paid.purchase.currency)}, card saved: ${paid.is_recurring_token}`);

const advanced = ok('advance the clock', await api.POST('/sim/v1/clock/advance', { body: { by: 'P1M' } }));
const ran = Object.entries(advanced.processed).flatMap(([kind, count]) => (count > 0 ? [`${count} ${kind}`] : []));
line('advanced', `to ${advanced.now}: ${ran.join(', ') || 'nothing ran'}`);

const purchases = ok('list purchases', await api.GET('/api/v1/purchases/', { params: { query: { client_id: client.id } } }));
for (const purchase of purchases.results) {
  line('purchase', `${purchase.id} issued ${purchase.issued}, ${money(purchase.purchase.total, purchase.purchase.currency)}, ${purchase.status}`);
}
line('purchases', `${purchases.results.length}: ${purchases.results.map((purchase) => purchase.status).join(', ')}`);
