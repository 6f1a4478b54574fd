// Builders for the contract checks: an account to work in (the main account, or a simulator sandbox
// frozen at a chosen instant), clients, templates, subscribers, purchases, simulated payments,
// saved tokens and clock advances, all over HTTP, on the bodies of primitives.ts; a check usually
// starts from mainTemplate() or sandboxTemplate() (a client and a template) or their subscribed
// twins. Each builder asserts the status it needs, so a check fails at the step that broke. Dates
// are "YYYY-MM-DD" days in the template's time zone; instants are Unix seconds (`at()`).
//
// Where a builder needs the brand: an account checked has the one the preflight resolved
// (primitives.ts, `brandId`); a sandbox made here returns its brand_id when it is created. The
// builders that create clients, templates and subscribers also take the main account's ApiClient in
// place of an Account.
//
// A rule whose rejection the spec or the platform states ("rejected, nothing changed") is one check of
// `refusal()` (refusal.ts, re-exported here): the refusal names its field and code, and nothing changed.

import { beforeEach, expect } from 'vitest';
import { target } from './check.ts';
import { ApiClient, type Reply } from './client.ts';
import type { Attempt } from './refusal.ts';
import {
  addDays,
  brandId,
  clientBody,
  expectRejected,
  expectStatus,
  expectSuccess,
  is2xx,
  later,
  monthlyTemplate,
  oneTimeTemplate,
  purchaseBody,
  SECOND_BRAND_UNKNOWN,
  subscriberBody,
  withoutUpdatedOn,
} from './primitives.ts';

export { refusal, type Attempt } from './refusal.ts';
export type { Client, Email, Errors, List, Purchase, PurchaseDetails, Subscriber, Template, Token } from './records.ts';
import type { Client, Email, Errors, List, Purchase, Subscriber, Template, Token } from './records.ts';

type Node = Record<string, any>;

// --------------------------------------------------------------------------------- accounts

/** Where a check works: an API client and the brand its templates and purchases belong to. */
export interface Account {
  api: ApiClient;
  brandId: string;
}

/**
 * An account checked (`api` or `api2` of the check context) with its brand (primitives.ts,
 * `brandId`). The second account may have none known: its Account then fails only where a brand is
 * read, and the checks that read it are skipped (`needsSecondBrand`).
 */
export async function mainAccount(api: ApiClient): Promise<Account> {
  if (api.account === 2 && !api.brand) {
    return {
      api,
      get brandId(): string {
        throw new Error(SECOND_BRAND_UNKNOWN);
      },
    };
  }
  return { api, brandId: await brandId(api) };
}

/**
 * Skips the checks `ids` of the calling describe when a second
 * account is given but its brand is unknown: they create templates or purchases in it. Skipped, not
 * failed: an empty second account is a normal one. Decided before each check starts, where a skip
 * can still carry its reason.
 */
export function needsSecondBrand(ids: string[]): void {
  const config = target();
  if (config.token2 === '' || config.brandId2 !== '') return;
  beforeEach((context) => {
    const id = context.task.meta.check?.id ?? context.task.name.split(' ')[0]!;
    if (ids.includes(id)) context.skip(SECOND_BRAND_UNKNOWN);
  });
}

/** An Account, or the main account's ApiClient. */
export type Where = Account | ApiClient;

const accountOf = async (where: Where): Promise<Account> => (where instanceof ApiClient ? mainAccount(where) : where);

/** The main account and a new client of it. */
export async function mainClient(api: ApiClient) {
  const account = await mainAccount(api);
  return { account, client: await makeClient(account) };
}

/** The main account with a new client and a new subscription template built from `overrides`. */
export async function mainTemplate(api: ApiClient, overrides: Record<string, unknown> = {}) {
  const { account, client } = await mainClient(api);
  return { account, client, template: await makeTemplate(account, overrides) };
}

/**
 * A fresh simulator sandbox whose clock is frozen at `now` (like `sandboxAt` of the check context,
 * plus its brand_id). Only in checks that require 'clock'.
 */
export async function sandbox(api: ApiClient, now: string): Promise<Account> {
  const created = await api.sim.post('/sandboxes', { now, frozen: true }, { token: null });
  expectStatus(created, 201, 'POST /sim/v1/sandboxes');
  return { api: api.withToken(created.body.token as string), brandId: created.body.brand_id as string };
}

/**
 * The instant a check's sandbox is frozen at unless it needs another: today is Jan 30 in UTC, so
 * the earliest subscription_deduction_date is Feb 3, and "tomorrow" is 2026-01-31T12:00:00Z.
 */
export const SANDBOX_NOW = '2026-01-30T12:00:00Z';

/** A sandbox frozen at `now` with a new client. */
export async function sandboxClient(api: ApiClient, now = SANDBOX_NOW) {
  const account = await sandbox(api, now);
  return { account, client: await makeClient(account) };
}

/** A sandbox frozen at `now` with a new client and a new subscription template built from `overrides`. */
export async function sandboxTemplate(api: ApiClient, now: string, overrides: Record<string, unknown> = {}) {
  const { account, client } = await sandboxClient(api, now);
  return { account, client, template: await makeTemplate(account, overrides) };
}

// ------------------------------------------------------------------------------------ lists

/** Every item of a list, following `next` (absolute URLs on the API base or under /sim/v1). */
export async function listAll<T>(client: ApiClient, path: string): Promise<T[]> {
  return (await pages<T>(client, path, false))!;
}

/**
 * listAll() of a list only the simulator has (GET /purchases/, x-simulator-only in openapi.yaml):
 * undefined when the target answers that it has none, where listAll() would skip the check.
 */
export function listIfPresent<T>(client: ApiClient, path: string): Promise<T[] | undefined> {
  return pages<T>(client, path, true);
}

async function pages<T>(client: ApiClient, path: string, optional: boolean): Promise<T[] | undefined> {
  const base = new URL(target().baseUrl).pathname.replace(/\/+$/, '');
  const items: T[] = [];
  let next: string | null = `${path}${path.includes('?') ? '&' : '?'}page_size=1000`;
  for (let page = 0; next !== null; page += 1) {
    if (page > 50) throw new Error(`GET ${path}: more than 50 pages`);
    const res = await client.get(next, { optional });
    if (res.absent) return undefined;
    const list = expectStatus(res, 200, `GET ${next}`) as List<T>;
    items.push(...list.results);
    next = null;
    if (list.next) {
      const url = new URL(list.next);
      const relative = url.pathname.startsWith('/sim/v1/') ? url.pathname.slice('/sim/v1'.length) : url.pathname.slice(base.length);
      next = `${relative}${url.search}`;
    }
  }
  return items;
}

// ---------------------------------------------------------------------------------- clients

export async function makeClient(where: Where, overrides: Record<string, unknown> = {}): Promise<Client> {
  const api = where instanceof ApiClient ? where : where.api;
  return expectSuccess(await api.post('/clients/', clientBody(overrides)), 'create client') as Client;
}

export async function getClient(account: Account, id: string): Promise<Client> {
  return expectStatus(await account.api.get(`/clients/${id}/`), 200, 'get client') as Client;
}

// -------------------------------------------------------------------------------- templates

/** A monthly subscription template (primitives.ts, `monthlyTemplate`). */
export async function makeTemplate(where: Where, overrides: Record<string, unknown> = {}): Promise<Template> {
  const account = await accountOf(where);
  return expectSuccess(await account.api.post('/billing_templates/', monthlyTemplate(account.brandId, overrides)), 'create subscription template') as Template;
}

/** A one-time template; `due` is an instant (2100-01-01 unless overridden). */
export async function makeOneTimeTemplate(where: Where, overrides: Record<string, unknown> = {}): Promise<Template> {
  const account = await accountOf(where);
  return expectSuccess(await account.api.post('/billing_templates/', oneTimeTemplate(account.brandId, 4_102_444_800, overrides)), 'create one-time template') as Template;
}

export async function getTemplate(account: Account, id: string): Promise<Template> {
  return expectStatus(await account.api.get(`/billing_templates/${id}/`), 200, 'get template') as Template;
}

/** A template's path: `/billing_templates/{id}/`. */
export const templatePath = (id: string) => `/billing_templates/${id}/`;

/** GET of a template that must answer 200, as a plain record: to compare and index field by field. */
export async function readTemplate(api: ApiClient, id: string): Promise<Node> {
  const res = await api.get(templatePath(id));
  expect(res.status, `GET ${templatePath(id)}`).toBe(200);
  return res.body as Node;
}

/** A rejected request changed nothing: the template reads back exactly as `before` (updated_on aside). */
export async function expectTemplateUnchanged(api: ApiClient, before: Node): Promise<void> {
  const after = await readTemplate(api, before.id);
  expect(withoutUpdatedOn(after), 'a rejected request must change nothing').toEqual(withoutUpdatedOn(before));
}

/**
 * An edit of the template `before` that sent read-only `fields` did not change them: the request
 * was rejected and nothing changed, or it succeeded and neither its answer nor the stored template
 * carries the sent values.
 */
export async function expectNotApplied(api: ApiClient, before: Node, res: Reply, fields: string[]): Promise<void> {
  if (!is2xx(res)) {
    expectRejected(res);
    return expectTemplateUnchanged(api, before);
  }
  const after = await readTemplate(api, before.id);
  for (const field of fields) {
    expect(res.body[field], `the answer must not show a changed ${field}`).toEqual(before[field]);
    expect(after[field], `the stored ${field} must not change`).toEqual(before[field]);
  }
}

export const patchTemplate = (account: Account, id: string, body: Record<string, unknown>) =>
  account.api.patch(`/billing_templates/${id}/`, body);

/** POST /billing_templates/{id}/send_invoice/ (a one-time template's invoice to one client). */
export const sendInvoice = (account: Account, templateId: string, body: Record<string, unknown>) =>
  account.api.post(`/billing_templates/${templateId}/send_invoice/`, body);

// ------------------------------------------------------------------------------ subscribers

export const addSubscriber = (account: Account, templateId: string, body: Record<string, unknown>) =>
  account.api.post(`/billing_templates/${templateId}/add_subscriber/`, body);

/** add_subscriber that must succeed. */
export async function subscribe(where: Where, templateId: string, body: Record<string, unknown>) {
  const created = expectSuccess(await addSubscriber(await accountOf(where), templateId, body), 'add_subscriber') as {
    billing_template_client: Subscriber;
    purchase: Purchase | null;
  };
  return { subscriber: created.billing_template_client, purchase: created.purchase };
}

/** mainTemplate(), and its client subscribed with the cycle starting on `deduction`. */
export async function mainSubscriber(api: ApiClient, templateOverrides: Record<string, unknown> = {}, deduction = later()) {
  return subscribeScene(await mainTemplate(api, templateOverrides), deduction);
}

/** sandboxTemplate(), and its client subscribed with the cycle starting on `deduction` (`fields` added to the body). */
export async function sandboxSubscriber(api: ApiClient, now: string, overrides: Record<string, unknown>, deduction: string, fields: Record<string, unknown> = {}) {
  return subscribeScene(await sandboxTemplate(api, now, overrides), deduction, fields);
}

/** The scene's client subscribed to its template, the cycle starting on `deduction` (`fields` added to the body). */
async function subscribeScene<S extends { account: Account; client: Client; template: Template }>(scene: S, deduction: string, fields: Record<string, unknown> = {}) {
  const { subscriber, purchase } = await subscribe(scene.account, scene.template.id, subscriberBody(scene.client.id, deduction, fields));
  return { ...scene, subscriber, purchase };
}

export async function getSubscriber(account: Account, templateId: string, id: string): Promise<Subscriber> {
  return expectStatus(await account.api.get(`/billing_templates/${templateId}/clients/${id}/`), 200, 'get subscriber') as Subscriber;
}

export const subscribersOf = (account: Account, templateId: string) =>
  listAll<Subscriber>(account.api, `/billing_templates/${templateId}/clients/`);

export const patchSubscriber = (account: Account, templateId: string, id: string, body: Record<string, unknown>) =>
  account.api.patch(`/billing_templates/${templateId}/clients/${id}/`, body);

// -------------------------------------------------------------------------------- purchases

export async function createPurchase(account: Account, clientId: string, overrides: Record<string, unknown> = {}): Promise<Purchase> {
  return expectSuccess(await account.api.post('/purchases/', purchaseBody(account.brandId, clientId, overrides)), 'create purchase') as Purchase;
}

export async function getPurchase(account: Account, id: string): Promise<Purchase> {
  return expectStatus(await account.api.get(`/purchases/${id}/`), 200, 'get purchase') as Purchase;
}

// GET /purchases/ is the simulator's own (x-simulator-only): a check that is about a purchase list
// uses purchasesOf() and is skipped on a target without one; a check that only looks there to be
// sure nothing else happened uses purchasesIfListed() or expectPurchasesOf(), and does without.

/**
 * The list of one client's purchases: asked for by `client_id` (one page, not the whole account), and
 * narrowed here too, so that a target whose filter is wrong fails the checks of the filter
 * (lists.test.ts), not every check that reads a client's purchases.
 */
const OF_CLIENT = (clientId: string) => `/purchases/?client_id=${encodeURIComponent(clientId)}`;

/** The purchases of one client, oldest first; the check is skipped on a target without GET /purchases/. */
export async function purchasesOf(account: Account, clientId: string): Promise<Purchase[]> {
  return (await listAll<Purchase>(account.api, OF_CLIENT(clientId))).filter((p) => p.client_id === clientId).reverse();
}

/** The purchases of one client, oldest first; undefined on a target without GET /purchases/. */
export async function purchasesIfListed(account: Account, clientId: string): Promise<Purchase[] | undefined> {
  return (await listIfPresent<Purchase>(account.api, OF_CLIENT(clientId)))?.filter((p) => p.client_id === clientId).reverse();
}

/** The client's purchases are those of `ids`, oldest first, where the target lists purchases (GET /purchases/). */
export async function expectPurchasesOf(account: Account, clientId: string, ids: string[]): Promise<void> {
  const listed = await purchasesIfListed(account, clientId);
  if (listed) expect(listed.map((p) => p.id), "the client's purchases (GET /purchases/), oldest first").toEqual(ids);
}

/** Purchases generated by a template for one client, oldest first. */
export async function generated(account: Account, templateId: string, clientId: string): Promise<Purchase[]> {
  return (await purchasesOf(account, clientId)).filter((p) => p.billing_template_id === templateId);
}

export const charge = (account: Account, purchaseId: string, token: string) =>
  account.api.post(`/purchases/${purchaseId}/charge/`, { recurring_token: token });

/** The fields of a force_recurring purchase of `serviceType` due at the instant `due`. */
export const typed = (serviceType: 'ONEDAY' | 'TWODAY', due: number) => ({ force_recurring: true, service_type: serviceType, due });

// ------------------------------------------------------------------- simulated payment, clock

/** POST /sim/v1/purchases/{id}/pay (the checkout page) that must answer 200. */
export async function pay(account: Account, id: string, body: Record<string, unknown> = {}): Promise<Purchase> {
  return expectStatus(await account.api.sim.post(`/purchases/${id}/pay`, body), 200, 'pay') as Purchase;
}

/** POST /sim/v1/clock/advance to an instant, which must answer 200. */
export async function advanceTo(account: Account, iso: string): Promise<{ now: string; processed: Record<string, number> }> {
  return expectStatus(await account.api.sim.post('/clock/advance', { to: iso }), 200, `advance to ${iso}`);
}

export const outbox = (account: Account) => listAll<Email>(account.api.sim, '/outbox');

/** Advances to `iso`, then answers the `issued` days of the template's purchases for the client, oldest first. */
export async function issuedBy(account: Account, templateId: string, clientId: string, iso: string): Promise<string[]> {
  await advanceTo(account, iso);
  return (await generated(account, templateId, clientId)).map((p) => p.issued!);
}

/**
 * Pins the day of a billing, not its hour: by the last second of the day before `day` the client's
 * purchases of the template were issued on the days `earlier`, by the last second of `day` on those
 * and `day`. (That a billing runs at 00:00 in the template's time zone is billing-sim's decision,
 * docs/behaviour.md#billing-dates.)
 */
export async function expectBilledOn(account: Account, templateId: string, clientId: string, day: string, earlier: string[] = []): Promise<void> {
  expect(await issuedBy(account, templateId, clientId, `${addDays(day, -1)}T23:59:59Z`)).toEqual(earlier);
  expect(await issuedBy(account, templateId, clientId, `${day}T23:59:59Z`)).toEqual([...earlier, day]);
}

/**
 * Saves a recurring token for `clientId` as a client does: a purchase paid at checkout with the
 * card saved. With a service type the purchase has force_recurring and is due far ahead, and the
 * token takes that service type. Returns the token id (= the saving purchase's id).
 */
export async function saveToken(
  account: Account,
  clientId: string,
  options: { serviceType?: 'ONEDAY' | 'TWODAY'; tokenOutcome?: 'success' | 'failure'; method?: string } = {},
): Promise<string> {
  const saving = await createPurchase(account, clientId, options.serviceType ? typed(options.serviceType, 4_102_444_800) : {});
  const paid = await pay(account, saving.id, { method: options.method ?? 'visa', save_token: true, token_outcome: options.tokenOutcome ?? 'success' });
  expect(paid.is_recurring_token, 'the saving purchase has is_recurring_token').toBe(true);
  return saving.id;
}

/** mainClient(), a token of the client saved with `options`, and a purchase of the client with the fields `overrides`. */
export async function tokenAndPurchase(api: ApiClient, options: Parameters<typeof saveToken>[2] = {}, overrides: Record<string, unknown> = {}) {
  const { account, client } = await mainClient(api);
  const token = await saveToken(account, client.id, options);
  const purchase = await createPurchase(account, client.id, overrides);
  return { account, client, token, purchase };
}

export const tokenPath = (clientId: string, tokenId: string) => `/clients/${clientId}/recurring_tokens/${tokenId}/`;

export const tokensOf = (account: Account, clientId: string) => listAll<Token>(account.api, `/clients/${clientId}/recurring_tokens/`);

// --------------------------------------------------------------------------- refusal checks

/** A charge that must be refused, and the purchase it must leave unchanged. */
export const refusedCharge = (account: Account, purchaseId: string, token: string): Attempt => ({
  attempt: () => charge(account, purchaseId, token),
  state: () => getPurchase(account, purchaseId),
});

/** POST /sim/v1/clock/advance by one day, which must answer 200; the new now in Unix seconds. */
export async function advanceADay(account: Account): Promise<number> {
  const moved = expectStatus(await account.api.sim.post('/clock/advance', { by: 'P1D' }), 200, 'advance by P1D');
  return Math.floor(Date.parse(moved.now as string) / 1000);
}
