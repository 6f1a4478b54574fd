// What every check file shares: constants, dates, the account's brand and payment methods, valid
// request bodies and the assertions on replies. The builders that create objects over HTTP and
// run scenarios are in scenario.ts.
//
// The brand: the API has no brand endpoint, so the brand_id every template and purchase needs is
// the one given (--brand-id, and CONTRACT_BRAND_ID2 for the second account) or taken from an
// existing billing template (or, failing that, purchase) of the account, as the preflight resolved
// it before any check (lib/preflight.ts); an empty account without --brand-id stops the run there.
// A sandbox made by scenario.ts's `sandbox()` returns its brand_id when it is created.
//
// Dates are "YYYY-MM-DD" days; instants are Unix seconds. "Today" and "now" of an account are its
// clock's: the simulator's sandbox clock when the target has one (GET /sim/v1/clock), the wall
// clock otherwise.

import { expect } from 'vitest';
import type { CheckContext } from './check.ts';
import type { ApiClient, Reply } from './client.ts';
import { purchaseDetails } from './bodies.ts';

export { monthlyTemplate, purchaseDetails } from './bodies.ts';

type Node = Record<string, any>;
type Ctx = Pick<CheckContext, 'api' | 'target'>;

/** A well-formed UUID v4 that names nothing. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
export const DAY = 86_400;

// ------------------------------------------------------------------------------------ dates

/** Unix seconds of an ISO instant: `at('2026-02-06T00:00:00Z')`. */
export function at(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad instant ${iso}`);
  return ms / 1000;
}

/** A calendar day `days` after `date` ("YYYY-MM-DD"). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY * 1000).toISOString().slice(0, 10);
}

/** The calendar day (YYYY-MM-DD) of a Unix-seconds instant in an IANA time zone. */
export function dayIn(seconds: number, timeZone = 'UTC'): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(seconds * 1000));
}

/** A UTC day `days` from the wall clock: far enough ahead, dates valid on a target without a clock. */
export const wallDay = (days: number): string => addDays(new Date().toISOString().slice(0, 10), days);

/** A deduction date far enough ahead for any target's "today plus 4 days". */
export const later = (): string => wallDay(30);

/** An instant `days` from the wall clock, in Unix seconds. */
export const wallInstant = (days: number): number => Math.floor(Date.now() / 1000) + Math.round(days * DAY);

/** The account's current instant in Unix seconds. */
export async function nowSeconds({ api, target }: Ctx): Promise<number> {
  if (target.capabilities.clock) {
    const res = await api.sim.get('/clock');
    if (res.status === 200) return Math.floor(Date.parse(res.body.now) / 1000);
  }
  return Math.floor(Date.now() / 1000);
}

/** The account's today (YYYY-MM-DD) in a time zone. */
export async function today(ctx: Ctx, timeZone = 'UTC'): Promise<string> {
  return dayIn(await nowSeconds(ctx), timeZone);
}

/** A due instant 30 days after the account's now. */
export async function futureDue(ctx: Ctx): Promise<number> {
  return (await nowSeconds(ctx)) + 30 * DAY;
}

/** A value no other object of the run carries: lower-case letters and digits. */
export function unique(prefix = 'ct'): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

// ------------------------------------------------------------------------- account facts

const brands = new Map<string, Promise<string>>();

/** Why a check that creates templates or purchases in the second account cannot run (preflight.ts found no brand there). */
export const SECOND_BRAND_UNKNOWN =
  'the second account has no billing template or purchase to take a brand from (pass --brand-id2, or set CONTRACT_BRAND_ID2, to its brand_id)';

/**
 * The account's brand_id: for the accounts checked, the one the preflight resolved; for another
 * account, read from one of its billing templates or purchases (see the file comment).
 */
export function brandId(api: ApiClient): Promise<string> {
  if (api.brand) return Promise.resolve(api.brand);
  if (api.account === 2) return Promise.reject(new Error(SECOND_BRAND_UNKNOWN));
  let found = brands.get(api.token);
  if (!found) {
    found = (async () => {
      const answers: string[] = [];
      for (const path of ['/billing_templates/?page_size=1', '/purchases/?page_size=1']) {
        const res = await api.get(path, { optional: true });
        const brand = res.status === 200 ? res.body?.results?.[0]?.brand_id : undefined;
        if (typeof brand === 'string') return brand;
        answers.push(`GET ${path} answered ${res.status} without one`);
      }
      throw new Error(
        'precondition not met: the account needs at least one billing template or purchase, from which the suite takes the ' +
          `brand_id (the API has no brand endpoint); ${answers.join('; ')}`,
      );
    })();
    found.catch(() => brands.delete(api.token));
    brands.set(api.token, found);
  }
  return found;
}

/**
 * The names GET /payment_methods/ offers for the account's brand in EUR (spec: "Payment method names as
 * returned by GET /payment_methods/"; the platform requires brand_id and currency).
 */
export async function paymentMethods(api: ApiClient): Promise<string[]> {
  const path = paymentMethodsPath(await brandId(api));
  return (expectStatus(await api.get(path), 200, `GET ${path}`) as { available_payment_methods: string[] }).available_payment_methods;
}

/** GET /payment_methods/ with the two parameters the platform requires, and any others. */
export const paymentMethodsPath = (brand: string, currency = 'EUR', more: Record<string, string> = {}): string =>
  `/payment_methods/?${new URLSearchParams({ brand_id: brand, currency, ...more })}`;

// ------------------------------------------------------------------------------------ bodies

/** A ClientCreate body with a unique e-mail address. */
export function clientBody(overrides: Node = {}): Node {
  return { email: `${unique('client')}@example.com`, full_name: 'Contract Check', ...overrides };
}

/** Charged at period end: add_subscriber makes the subscriber active at once. */
export const ACTIVE_AT_ONCE = { subscription_charge_period_end: true };

/** The four cycle fields of the spec's rules 1–3, with a value other than the monthly body's. */
export const CYCLE: Record<string, unknown> = {
  subscription_period: 3,
  subscription_period_units: 'weeks',
  subscription_charge_period_end: true,
  subscription_trial_periods: 2,
};
/** Required like the cycle fields on a subscription template ("required if is_subscription is true"). */
export const DUE_PERIOD: Record<string, unknown> = { subscription_due_period: 14, subscription_due_period_units: 'weeks' };
/** Spec defaults of the subscription_* fields (Default column). */
export const SUBSCRIPTION_DEFAULTS: Record<string, unknown> = {
  subscription_period: 1,
  subscription_period_units: 'months',
  subscription_due_period: 7,
  subscription_due_period_units: 'days',
  subscription_charge_period_end: false,
  subscription_trial_periods: 0,
  subscription_paused: false,
};

/** Template fields for purchases in another currency and time zone. */
export const zoned = (currency: string, timezone: string) => ({ purchase: { currency, timezone, products: [{ name: 'Plan', price: 2990 }] } });

/** A one-time template (is_subscription false); `due` is an integer Unix-seconds instant. */
export function oneTimeTemplate(brand: string, due: number, overrides: Node = {}): Node {
  return {
    brand_id: brand,
    title: 'Contract check, one-time',
    is_subscription: false,
    due,
    purchase: purchaseDetails(),
    ...overrides,
  };
}

/** An add_subscriber body; the mandate expires 2 years after the deduction date unless overridden. */
export function subscriberBody(clientId: string, deductionDate: string, overrides: Node = {}): Node {
  return {
    client_id: clientId,
    subscription_deduction_date: deductionDate,
    mandate_expiry_date: addDays(deductionDate, 730),
    ...overrides,
  };
}

/** A purchase body for POST /purchases/ (EUR 12.00, no due date). */
export function purchaseBody(brand: string, clientId: string, overrides: Node = {}): Node {
  return {
    brand_id: brand,
    client_id: clientId,
    purchase: purchaseDetails({ products: [{ name: 'Consulting hour', price: 1200 }] }),
    ...overrides,
  };
}

// -------------------------------------------------------------------------------- assertions

export const is2xx = (reply: Reply) => reply.status >= 200 && reply.status <= 299;

/** The reply has this status (the request, status and body are printed otherwise); returns the body. */
export function expectStatus(reply: Reply, status: number, what: string): any {
  expect(reply.status, `${what}: ${reply.text.slice(0, 800)}`).toBe(status);
  return reply.body;
}

/** A successful reply (any 2xx: the spec shows no success status for most operations); returns the body. */
export function expectSuccess(reply: Reply, what = 'the request'): any {
  expect(is2xx(reply), `${what} must succeed (2xx); got ${reply.status}: ${reply.text.slice(0, 800)}`).toBe(true);
  return reply.body;
}

/** A rejected request (any 4xx: the spec shows no error format). */
export function expectRejected(reply: Reply, what = 'the request'): void {
  expect(reply.status >= 400 && reply.status < 500, `${what} must be rejected with a 4xx status; got ${reply.status}: ${reply.text.slice(0, 800)}`).toBe(true);
}

/**
 * docs/behaviour.md#error-body: `status` (400 unless given), and the body lists `code` among the
 * errors of the field path `field`. With `alone`, the body names that field and no other.
 */
export function expectError(reply: Reply, field: string, code: string, { status = 400, alone = false }: { status?: number; alone?: boolean } = {}): void {
  expect(reply.status, `status (docs/behaviour.md#status-codes: ${status}): ${reply.text.slice(0, 800)}`).toBe(status);
  const errors = (reply.body ?? {}) as Record<string, Array<{ code: string }>>;
  if (alone) expect(Object.keys(errors), `the error body must name the field "${field}" and only it`).toEqual([field]);
  else expect(Object.keys(errors), `the error body must name the field "${field}"`).toContain(field);
  expect(
    errors[field]!.map((e) => e.code),
    `the errors of "${field}" must include the code "${code}"`,
  ).toContain(code);
}

/** Where an error may be answered: a field path (or `__all__`) and a code. */
export type Placement = readonly [field: string, code: string];

/** A placement's code that takes any code: the field must be named, the code is the target's to choose. */
export const ANY_CODE = '*';

/**
 * `status` with one of `placements`: the body names that field (`alone`: only it) with that code
 * among its errors. Where the spec is silent on an error's key and code, both billing-sim's former
 * placement (on the field) and the platform's (under `__all__` with its own code, where its client
 * code reads it) are right, and a server answering either passes.
 */
export function expectErrorAt(reply: Reply, placements: readonly Placement[], { status = 400, alone = false }: { status?: number; alone?: boolean } = {}): void {
  expect(reply.status, `status (docs/behaviour.md#status-codes: ${status}): ${reply.text.slice(0, 800)}`).toBe(status);
  const errors = (reply.body ?? {}) as Record<string, Array<{ code: string }> | undefined>;
  const fields = Object.keys(errors);
  const found = placements.find(
    ([field, code]) =>
      (alone ? fields.length === 1 && fields[0] === field : fields.includes(field)) &&
      (errors[field] ?? []).some((e) => (code === ANY_CODE ? typeof e.code === 'string' && e.code !== '' : e.code === code)),
  );
  const wanted = placements.map(([field, code]) => `${field} ${code}`).join(' or ');
  expect(found, `the error body must name ${wanted}${alone ? ', and only that field' : ''}: ${reply.text.slice(0, 800)}`).toBeDefined();
}

/**
 * Those of `fields`, simulator-only fields (x-simulator-only in openapi.yaml) expected of `record`,
 * that `record` carries: spread into an expected object, they hold a target to a field only where it
 * has the field (a subscriber's billing_template_id is the simulator's own).
 */
export function simulatorOnly(record: object | null | undefined, fields: Node): Node {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => record != null && name in record));
}

/** An absolute http(s) URL (spec: "The caller redirects the client to purchase.checkout_url to pay"). */
export function expectAbsoluteUrl(url: unknown): void {
  expect(typeof url).toBe('string');
  expect(new URL(url as string).protocol).toMatch(/^https?:$/);
}

/** A record without its updated_on, which any accepted write may move, even one that changes nothing. */
export const withoutUpdatedOn = ({ updated_on, ...rest }: Node) => rest;

/**
 * Reads `path` now and answers an assertion that it still reads the same (updated_on aside): for
 * a rejected request, which must change nothing.
 */
export async function snapshot(api: ApiClient, path: string): Promise<() => Promise<void>> {
  const before = (await api.get(path)).body as Node;
  return async () => {
    const after = await api.get(path);
    expect(after.status, `GET ${path}`).toBe(200);
    expect(withoutUpdatedOn(after.body), `a rejected request must change nothing at ${path}`).toEqual(withoutUpdatedOn(before));
  };
}

/**
 * Nothing with this marker was created: the newest objects of a collection (a created object would
 * be among them, lists being newest first) carry no `marker` at the dotted `path`. A list only the
 * simulator has (GET /purchases/) that the target lacks proves nothing and fails nothing.
 */
export async function expectNotListed(api: ApiClient, collection: string, path: string, marker: string): Promise<void> {
  const res = await api.get(`${collection}?page_size=25`, { optional: true });
  if (res.absent) return;
  expect(res.status, `GET ${collection}`).toBe(200);
  const hits = (res.body.results as Node[]).filter((item) => JSON.stringify(getPath(item, path.split('.'))).includes(marker));
  expect(hits.map((h) => h.id), `a rejected request must create nothing, yet ${collection} lists an object with its ${path}`).toEqual([]);
}

/** The value at a path of keys (array indexes as strings), or undefined. */
export function getPath(value: unknown, path: string[]): any {
  let node: any = value;
  for (const key of path) node = node == null ? undefined : node[key];
  return node;
}

/** Sets a value at a path of keys, creating objects (or arrays, before a numeric key) on the way. */
export function setPath(target: Node, path: string[], value: unknown): void {
  let node: any = target;
  path.forEach((key, index) => {
    if (index === path.length - 1) {
      node[key] = value;
      return;
    }
    if (node[key] == null || typeof node[key] !== 'object') node[key] = /^\d+$/.test(path[index + 1]!) ? [] : {};
    node = node[key];
  });
}

/** Removes the value at a path of keys, where its parent exists. */
export function deletePath(target: Node, path: string[]): void {
  const parent = getPath(target, path.slice(0, -1));
  if (parent && typeof parent === 'object') delete parent[path[path.length - 1]!];
}

// ------------------------------------------------------------------------------- instants

/** The rule of the instants, as the checks of a create cite it: the platform's models' own words. */
export const INSTANT_RULE = 'docs/fidelity.md#objects: "Object creation time", "Object last modification time", "Unix seconds"';

/** What a write does to the instants, as the checks of PUT and PATCH cite it. */
export const WRITE_INSTANT_RULE =
  'docs/behaviour.md#formats: "An object\'s created_on is set when it is made and never changes; its updated_on is the instant of its last write"; ' +
  'docs/behaviour.md#put-and-patch: "Every accepted PUT and PATCH moves updated_on to the sandbox clock\'s now and keeps created_on"; ' +
  'docs/fidelity.md#objects: "Object last modification time"';

/**
 * How far an instant may stand from the account's now and still be now: a target's clock may be
 * off the suite's by minutes. An instant in milliseconds is a thousand times too big.
 */
export const INSTANT_WINDOW = DAY;

/**
 * An object's `created_on` and `updated_on` are integer Unix seconds within INSTANT_WINDOW of the
 * account's instant `now` (primitives.ts `nowSeconds`), and `created_on` ≤ `updated_on`.
 */
export function expectInstants(object: Node, now: number, what = 'the object'): void {
  for (const field of ['created_on', 'updated_on']) {
    const value = object[field];
    expect(Number.isInteger(value), `${what}: ${field} must be an integer (Unix seconds), got ${JSON.stringify(value)}`).toBe(true);
    expect(Math.abs(value - now), `${what}: ${field} ${value} must be Unix seconds near the account's now ${now}`).toBeLessThanOrEqual(INSTANT_WINDOW);
  }
  expect(object.created_on, `${what}: created_on must not be after updated_on`).toBeLessThanOrEqual(object.updated_on);
}

/**
 * `after` is `before` as a write at the account's instant `now` left it: `created_on` unchanged and
 * `updated_on` moved to `now` (a write the check made once its sandbox clock had moved past `before`).
 */
export function expectWrittenAt(before: Node, after: Node, now: number, what = 'the object'): void {
  expect(after.created_on, `${what}: created_on never changes on a write`).toBe(before.created_on);
  expect(after.updated_on, `${what}: updated_on moves to the instant of the write (${now}; it was ${before.updated_on})`).toBe(now);
}
