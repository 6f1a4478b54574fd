// Builders for the billing-engine scenarios: a sandbox frozen at a chosen instant, clients,
// templates, subscribers, simulated payments, saved tokens and clock advances. Each builder asserts
// the status it needs, so a scenario fails at the step that broke, not three steps later.
// Dates are "YYYY-MM-DD" days in the template's time zone; instants are Unix seconds (`at()`).

import { expect } from 'vitest';
import type { Call, Harness } from '../support/harness.ts';
import { send } from '../support/spawn-sim.ts';
import { clientBody, oneTimeBody, subscriptionBody } from './templates.ts';

export type { Advanced, Client, Email, Errors, List, Purchase, PurchaseDetails, SimEvent, Subscriber, Template, Token } from '../../contract-tests/lib/records.ts';
import type { Advanced, Client, Email, Errors, List, Purchase, Subscriber, Template, Token, SimEvent } from '../../contract-tests/lib/records.ts';

/** A sandbox of its own (own clock, own objects) on the shared harness. */
export interface Box {
  h: Harness;
  token: string;
  brandId: string;
  req(method: string, path: string, body?: unknown): Promise<Call>;
}

/** Unix seconds of an ISO instant: `at('2026-02-06T00:00:00Z')`. */
export const at = (iso: string): number => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad instant ${iso}`);
  return ms / 1000;
};

export const DAY = 86_400;

/** A fresh sandbox whose clock is frozen at `now`. */
export async function sandboxAt(h: Harness, now: string): Promise<Box> {
  const { token, brandId } = await h.newSandbox({ now, frozen: true });
  return tokenBox(h, token, brandId);
}

/** The sandbox of `token` on the harness: one made by a request, such as a snapshot's import. */
export const tokenBox = (h: Harness, token: string, brandId: string): Box => ({ h, token, brandId, req: (method, path, body) => h.request(method, path, { token, body }) });

/** The default sandbox of a simulator of its own (startSimulator, a data file's): its requests go there, not to the harness. */
export const serverBox = (h: Harness, server: { url: string; token: string; brandId: string }): Box => ({
  h,
  token: server.token,
  brandId: server.brandId,
  req: (method, path, body) => send(server.url, method, path, server.token, body),
});

/** A fresh sandbox frozen at `now` with one client. */
export async function sandboxWithClient(h: Harness, now: string) {
  const box = await sandboxAt(h, now);
  const client = await makeClient(box);
  return { box, client };
}

/** A fresh sandbox frozen at `now` with one client and a template built from `overrides`. */
export async function sandboxWithTemplate(h: Harness, now: string, overrides: Record<string, unknown> = {}) {
  const { box, client } = await sandboxWithClient(h, now);
  const template = await makeTemplate(box, overrides);
  return { box, client, template };
}

/**
 * A subscriber launched on the day of `now` the way the spec's pending row does it: added (charge
 * at period start, no trials), then its first purchase paid at once.
 */
export async function launchSubscriber(h: Harness, now: string, templateOverrides: Record<string, unknown> = {}, subscriberOverrides: Record<string, unknown> = {}) {
  const { box, client, template } = await sandboxWithTemplate(h, now, templateOverrides);
  const deduction = new Date(Date.parse(now) + 10 * 86_400_000).toISOString().slice(0, 10);
  const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, deduction, subscriberOverrides));
  expect(subscriber.status).toBe('pending');
  await payPurchase(box, purchase!.id);
  return { box, client, template, subscriber, first: purchase! };
}

const expectStatus = (call: Call, status: number, what: string) => {
  expect(call.status, `${what}: ${call.text.slice(0, 500)}`).toBe(status);
  return call.body;
};

/** A 400 that names exactly `field` (whatever the code: the decisions name none for it). */
export function expectField(call: Call, field: string) {
  expect(call.status, call.text).toBe(400);
  expect(Object.keys(call.body as Errors), call.text).toEqual([field]);
}

/** Asserts a 400 whose body names `field`, and only it, with `code` among its errors. */
export function expectRejected(call: Call, field: string, code: string): void {
  expect(call.status, call.text.slice(0, 500)).toBe(400);
  const errors = call.body as Errors;
  expect(Object.keys(errors), call.text).toEqual([field]);
  expect(errors[field]!.map((e) => e.code), call.text).toContain(code);
}

export async function makeClient(box: Box, overrides: Record<string, unknown> = {}): Promise<Client> {
  return expectStatus(await box.req('POST', '/api/v1/clients/', clientBody(overrides)), 201, 'create client') as Client;
}

/** A monthly subscription template (EUR 29.90, UTC, due 7 days, start of period, no trials). */
export async function makeTemplate(box: Box, overrides: Record<string, unknown> = {}): Promise<Template> {
  const call = await box.req('POST', '/api/v1/billing_templates/', subscriptionBody(box.brandId, overrides));
  return expectStatus(call, 201, 'create template') as Template;
}

export async function makeOneTimeTemplate(box: Box, overrides: Record<string, unknown> = {}): Promise<Template> {
  const call = await box.req('POST', '/api/v1/billing_templates/', oneTimeBody(box.brandId, overrides));
  return expectStatus(call, 201, 'create one-time template') as Template;
}

/** Charged at period end: add_subscriber makes the subscriber active at once. */
export const ACTIVE_AT_ONCE = { subscription_charge_period_end: true };

/** A template whose purchase details use `timezone`. */
export const inZone = (timezone: string, overrides: Record<string, unknown> = {}) => ({
  purchase: { currency: 'EUR', timezone, products: [{ name: 'Monthly membership', price: 2990 }] },
  ...overrides,
});

/** An add_subscriber body; the mandate runs until the end of 2029 unless overridden. */
export const subscriberBody = (clientId: string, deductionDate: string, overrides: Record<string, unknown> = {}) => ({
  client_id: clientId,
  subscription_deduction_date: deductionDate,
  mandate_expiry_date: '2029-12-31',
  ...overrides,
});

export const addSubscriber = (box: Box, templateId: string, body: Record<string, unknown>) =>
  box.req('POST', `/api/v1/billing_templates/${templateId}/add_subscriber/`, body);

/** add_subscriber that must succeed (201). */
export async function subscribe(box: Box, templateId: string, body: Record<string, unknown>) {
  const created = expectStatus(await addSubscriber(box, templateId, body), 201, 'add_subscriber') as {
    billing_template_client: Subscriber;
    purchase: Purchase | null;
  };
  return { subscriber: created.billing_template_client, purchase: created.purchase };
}

export async function getSubscriber(box: Box, templateId: string, id: string): Promise<Subscriber> {
  return expectStatus(await box.req('GET', `/api/v1/billing_templates/${templateId}/clients/${id}/`), 200, 'get subscriber') as Subscriber;
}

export async function listSubscribers(box: Box, templateId: string): Promise<Subscriber[]> {
  const call = await box.req('GET', `/api/v1/billing_templates/${templateId}/clients/?page_size=1000`);
  return (expectStatus(call, 200, 'list subscribers') as List<Subscriber>).results;
}

export async function getTemplate(box: Box, id: string): Promise<Template> {
  return expectStatus(await box.req('GET', `/api/v1/billing_templates/${id}/`), 200, 'get template') as Template;
}

export const patchSubscriber = (box: Box, templateId: string, id: string, body: Record<string, unknown>) =>
  box.req('PATCH', `/api/v1/billing_templates/${templateId}/clients/${id}/`, body);

/** POST /sim/v1/purchases/{id}/pay that must answer 200. */
export async function payPurchase(box: Box, id: string, body: Record<string, unknown> = {}): Promise<Purchase> {
  return expectStatus(await box.req('POST', `/sim/v1/purchases/${id}/pay`, body), 200, 'pay') as Purchase;
}

/** POST /sim/v1/clock/advance that must answer 200. */
export async function advance(box: Box, target: { by: string } | { to: string }): Promise<Advanced> {
  return expectStatus(await box.req('POST', '/sim/v1/clock/advance', target), 200, `advance ${JSON.stringify(target)}`) as Advanced;
}

export async function getPurchase(box: Box, id: string): Promise<Purchase> {
  return expectStatus(await box.req('GET', `/api/v1/purchases/${id}/`), 200, 'get purchase') as Purchase;
}

/** Every purchase of the sandbox, newest first. */
export async function purchases(box: Box): Promise<Purchase[]> {
  return (expectStatus(await box.req('GET', '/api/v1/purchases/?page_size=1000'), 200, 'list purchases') as List<Purchase>).results;
}

/** Purchases generated by a template for one client, oldest first. */
export async function generated(box: Box, templateId: string, clientId?: string): Promise<Purchase[]> {
  return (await purchases(box))
    .filter((p) => p.billing_template_id === templateId && (clientId === undefined || p.client_id === clientId))
    .reverse();
}

/** The platform's PaymentDetails of money received by `method` at `paidOn` (Unix seconds), as the simulator answers it. */
export const receivedPayment = (amount: number, currency: string, method: string | null, paidOn: number) => ({
  is_outgoing: false,
  payment_type: 'purchase',
  amount,
  currency,
  net_amount: amount,
  fee_amount: 0,
  pending_amount: 0,
  pending_unfreeze_on: null,
  description: '',
  paid_on: paidOn,
  remote_paid_on: paidOn,
  payment_method: method,
  owned_bank_account_id: null,
  owned_bank_account: null,
  owned_bank_code: null,
});

/**
 * A template's purchase details as a purchase it made answers them: copied 1:1, plus the platform's
 * checkout fields every purchase carries (DESIGN.md §14; the platform's published purchases).
 */
export const asPurchaseDetails = <T extends object>(details: T) => ({ ...details, shipping_options: [], has_upsell_products: false, payment_method_details: {} });

/** What a clock advance reports as processed when it ran nothing. */
export const NOTHING_PROCESSED = { billings: 0, first_deductions: 0, charges: 0, executions: 0, overdue: 0, expired: 0 };

export async function events(box: Box): Promise<SimEvent[]> {
  return (expectStatus(await box.req('GET', '/sim/v1/events?page_size=1000'), 200, 'events') as List<SimEvent>).results;
}

/** The types of the events recorded for one object, newest first. */
export async function eventTypesOf(box: Box, objectId: string) {
  return (await events(box)).filter((e) => e.object_id === objectId).map((e) => e.event_type);
}

export async function outbox(box: Box): Promise<Email[]> {
  return (expectStatus(await box.req('GET', '/sim/v1/outbox?page_size=1000'), 200, 'outbox') as List<Email>).results;
}

export async function tokensOf(box: Box, clientId: string): Promise<Token[]> {
  const call = await box.req('GET', `/api/v1/clients/${clientId}/recurring_tokens/?page_size=1000`);
  return (expectStatus(call, 200, 'list tokens') as List<Token>).results;
}

/** A one-off purchase body for POST /api/v1/purchases/ (EUR 12.00, no due date). */
export const purchaseBody = (box: Box, clientId: string, overrides: Record<string, unknown> = {}) => ({
  brand_id: box.brandId,
  client_id: clientId,
  purchase: { currency: 'EUR', products: [{ name: 'Consulting hour', price: 1200 }] },
  ...overrides,
});

/** The fields of a force_recurring purchase of `serviceType` due at the instant `due` (Unix seconds). */
export const typed = (serviceType: 'ONEDAY' | 'TWODAY', due: number) => ({ force_recurring: true, service_type: serviceType, due });

export async function createPurchase(box: Box, clientId: string, overrides: Record<string, unknown> = {}): Promise<Purchase> {
  const call = await box.req('POST', '/api/v1/purchases/', purchaseBody(box, clientId, overrides));
  return expectStatus(call, 201, 'create purchase') as Purchase;
}

/**
 * Saves a recurring token for `clientId` the way a client does: a purchase paid at checkout with
 * the card saved. With a service type the purchase has force_recurring and is due far ahead, and
 * the token takes that service type. Returns the token id (= the saving purchase's id).
 */
export async function saveToken(
  box: Box,
  clientId: string,
  options: { serviceType?: 'ONEDAY' | 'TWODAY'; tokenOutcome?: string; tokenOutcomes?: string[]; method?: string; currency?: string } = {},
): Promise<string> {
  const typed = options.serviceType ? { force_recurring: true, service_type: options.serviceType, due: 4_102_444_800 } : {};
  // A method is offered in some currencies only: Revio's `eft` debit order in ZAR, CHIP's in MYR.
  const details = options.currency ? { purchase: { currency: options.currency, products: [{ name: 'Consulting hour', price: 1200 }] } } : {};
  const saving = await createPurchase(box, clientId, { ...typed, ...details });
  const paid = await payPurchase(box, saving.id, {
    method: options.method ?? 'visa',
    save_token: true,
    ...(options.tokenOutcomes ? { token_outcomes: options.tokenOutcomes } : { token_outcome: options.tokenOutcome ?? 'success' }),
  });
  expect(paid.is_recurring_token).toBe(true);
  return saving.id;
}

/** The same object list twice: a rejected request changed nothing. */
export async function snapshot(box: Box, templateId?: string) {
  return {
    purchases: await purchases(box),
    subscribers: templateId ? await listSubscribers(box, templateId) : [],
    outbox: await outbox(box),
  };
}
