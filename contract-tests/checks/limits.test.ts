// Limits, derived from the document's request schemas: BillingTemplateCreate, ClientCreate,
// PurchaseCreate and BillingTemplateClientCreate are walked (following $ref and allOf, into nested
// objects and array items), and every writable property yields checks:
// - minimum / maximum / minLength / maxLength / minItems / maxItems: the bound itself is accepted
//   (where a valid value of that size exists) and stored; bound - 1 / bound + 1 is rejected;
//   exclusiveMinimum: the bound is rejected;
// - enum: each value accepted (where a valid body exists for it), a value outside the set rejected;
// - a value of the wrong JSON type rejected;
// - each `required` field missing rejected.
// Plus the spec's date limits, which are rules rather than schema keywords: subscription_deduction_date
// at least today plus 4 days; subscription_first_deduction_date at least today plus 4 days and earlier
// than subscription_deduction_date.
//
// Levels. A rejection is normative where the spec states the rule (its Limits table, or the type,
// "Required" or allowed values of a field of its BillingTemplate and BillingTemplateClient tables);
// a bound or type that only openapi.yaml sets (client fields, the purchase details, PurchaseCreate)
// is informative. Every rejection has an informative twin, `…-CODE`: DESIGN.md §3 Errors decides the
// status (400) and the code under the field's dotted path.
//
// Ids: LIM-<schema>-<dotted path>-<case>, e.g. LIM-BillingTemplateCreate-subscription_period-max+1,
// LIM-BillingTemplateCreate-required-purchase; array items are addressed by index 0
// (purchase.products.0.price), as in the error body.

import { describe, expect } from 'vitest';
import { check, type CheckContext, type Level } from '../lib/check.ts';
import type { Reply } from '../lib/client.ts';
import { schema as documentSchema } from '../lib/operations.ts';
import {
  addDays,
  brandId,
  clientBody,
  DAY,
  expectError,
  expectNotListed,
  expectRejected,
  expectSuccess,
  futureDue,
  getPath,
  monthlyTemplate,
  nowSeconds,
  oneTimeTemplate,
  paymentMethods,
  purchaseDetails,
  subscriberBody,
  today,
  unique,
} from '../lib/primitives.ts';
import {
  makeClient,
  makeTemplate,
} from '../lib/scenario.ts';

type Node = Record<string, any>;
type Path = string[];

// ------------------------------------------------------------------ bodies, changed at a path

/** Sets a value at a path, creating objects (or arrays, before a numeric key) on the way. */
function setPath(target: Node, path: Path, value: unknown): void {
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

function deletePath(target: Node, path: Path): void {
  const parent = getPath(target, path.slice(0, -1));
  if (parent && typeof parent === 'object') delete parent[path[path.length - 1]!];
}

const clone = <T>(value: T): T => structuredClone(value);

// ------------------------------------------------------------------ the document, walked

const refName = (ref: string) => ref.split('/').pop()!;

/** A schema with its $ref and allOf resolved (properties merged; `{}` placeholders add nothing). */
function resolve(node: Node): Node {
  let out: Node = { ...node };
  if (out.$ref) {
    const { $ref, ...rest } = out;
    out = merge(resolve(documentSchema(refName($ref))), rest);
  }
  if (out.allOf) {
    const { allOf, ...rest } = out;
    out = merge((allOf as Node[]).map(resolve).reduce(merge, {}), rest);
  }
  return out;
}

function merge(a: Node, b: Node): Node {
  const properties: Node = { ...a.properties };
  for (const [name, node] of Object.entries((b.properties ?? {}) as Node)) properties[name] = { ...properties[name], ...node };
  return { ...a, ...b, properties, required: [...new Set([...(a.required ?? []), ...(b.required ?? [])])] };
}

interface Field {
  path: Path;
  node: Node;
}

/** Every writable property and array item under an object schema, depth first. */
function walk(object: Node, prefix: Path, fields: Field[], requireds: Path[]): void {
  for (const name of object.required ?? []) {
    const node = resolve(object.properties?.[name] ?? {});
    if (!node.readOnly) requireds.push([...prefix, name]);
  }
  for (const [name, raw] of Object.entries((object.properties ?? {}) as Node)) {
    const node = resolve(raw);
    if (node.readOnly) continue;
    const path = [...prefix, name];
    fields.push({ path, node });
    descend(node, path, fields, requireds);
  }
}

function descend(node: Node, path: Path, fields: Field[], requireds: Path[]): void {
  if (node.properties) walk(node, path, fields, requireds);
  if (node.items) {
    const item = resolve(node.items);
    fields.push({ path: [...path, '0'], node: item });
    descend(item, [...path, '0'], fields, requireds);
  }
}

const typeOf = (node: Node): string | undefined => {
  const types = ([] as string[]).concat(node.type ?? []).filter((t) => t !== 'null');
  return types[0];
};

// ------------------------------------------------------------------------- the subjects

/** What a check needs from the account, loaded on demand. */
interface Gen {
  ctx: CheckContext;
  /** Today (YYYY-MM-DD, UTC) on the account's clock. */
  day(): Promise<string>;
  methods(): Promise<string[]>;
}

function gen(ctx: CheckContext): Gen {
  let day: Promise<string> | undefined;
  let methods: Promise<string[]> | undefined;
  return { ctx, day: () => (day ??= today(ctx)), methods: () => (methods ??= paymentMethods(ctx.api)) };
}

interface Setup {
  /** A valid body (before the case changes `path`). */
  body: Node;
  send(body: Node): Promise<Reply>;
  /** Reads the created object back. */
  read(reply: Reply): Promise<Node>;
  /** Asserts that the (rejected) request created nothing. */
  nothingCreated(): Promise<void>;
}

interface Subject {
  schema: string;
  prepare(g: Gen, path: Path, value: unknown): Promise<Setup>;
}

const related = (path: Path, slot: string) => {
  const other = slot.split('.');
  const n = Math.min(path.length, other.length);
  return path.slice(0, n).join('.') === other.slice(0, n).join('.');
};

async function readBack(g: Gen, path: string): Promise<Node> {
  const res = await g.ctx.api.get(path);
  expect(res.status, `GET ${path} after creating it`).toBe(200);
  return res.body as Node;
}

const INVOICE_FIELDS = ['issued', 'due', 'skip_capture', 'send_receipt'];

const billingTemplate: Subject = {
  schema: 'BillingTemplateCreate',
  async prepare(g, path) {
    const { api } = g.ctx;
    const brand = await brandId(api);
    // The invoice fields are read-only on a subscription template, the subscription_* ones on a one-time template.
    const body = INVOICE_FIELDS.includes(path[0]!) ? oneTimeTemplate(brand, await futureDue(g.ctx)) : monthlyTemplate(brand);
    const marker = unique();
    const slot = related(path, 'title') ? 'purchase.notes' : 'title';
    setPath(body, slot.split('.'), marker);
    return {
      body,
      send: (b) => api.post('/billing_templates/', b),
      read: (reply) => readBack(g, `/billing_templates/${reply.body.id}/`),
      nothingCreated: () => expectNotListed(api, '/billing_templates/', slot, marker),
    };
  },
};

const client: Subject = {
  schema: 'ClientCreate',
  async prepare(g, path) {
    const { api } = g.ctx;
    const marker = unique();
    const body = clientBody({ email: `${marker}@example.com` });
    const slot = related(path, 'email') ? 'full_name' : 'email';
    if (slot === 'full_name') body.full_name = marker;
    return {
      body,
      send: (b) => api.post('/clients/', b),
      read: (reply) => readBack(g, `/clients/${reply.body.id}/`),
      nothingCreated: () => expectNotListed(api, '/clients/', slot, marker),
    };
  },
};

const purchase: Subject = {
  schema: 'PurchaseCreate',
  async prepare(g, path) {
    const { api } = g.ctx;
    const body: Node = { brand_id: await brandId(api), purchase: purchaseDetails() };
    // Exactly one of client_id or client: the client object when it is the field under test.
    if (path[0] === 'client') body.client = { email: `${unique()}@example.com` };
    else body.client_id = (await makeClient(api)).id;
    // A service_type needs force_recurring and a due that leaves its execution time (DESIGN.md §4.8).
    if (path[0] === 'service_type') Object.assign(body, { force_recurring: true, due: (await nowSeconds(g.ctx)) + 7 * DAY });
    const marker = unique();
    const slot = related(path, 'purchase.notes') ? 'success_redirect' : 'purchase.notes';
    setPath(body, slot.split('.'), slot === 'success_redirect' ? `https://shop.example.com/${marker}` : marker);
    return {
      body,
      send: (b) => api.post('/purchases/', b),
      read: (reply) => readBack(g, `/purchases/${reply.body.id}/`),
      nothingCreated: () => expectNotListed(api, '/purchases/', slot, marker),
    };
  },
};

const subscriber: Subject = {
  schema: 'BillingTemplateClientCreate',
  async prepare(g, path, value) {
    const { api } = g.ctx;
    const clientId = (await makeClient(api)).id as string;
    // A trial makes the subscriber active at once; status "pending" needs a template without one.
    const pending = path[0] === 'status' && value === 'pending';
    const template = await makeTemplate(api, pending ? {} : { subscription_trial_periods: 1 });
    const day = await g.day();
    const body = subscriberBody(clientId, addDays(day, 10));
    // Each of the first-deduction pair "requires" the other.
    if (path[0] === 'subscription_first_deduction_amount') body.subscription_first_deduction_date = addDays(day, 5);
    if (path[0] === 'subscription_first_deduction_date') body.subscription_first_deduction_amount = 1500;
    const base = `/billing_templates/${template.id}`;
    return {
      body,
      send: (b) => api.post(`${base}/add_subscriber/`, b),
      read: (reply) => readBack(g, `${base}/clients/${reply.body.billing_template_client.id}/`),
      async nothingCreated() {
        const res = await api.get(`${base}/clients/`);
        expect(res.status, `GET ${base}/clients/`).toBe(200);
        expect(res.body.results, 'a rejected add_subscriber must store no subscriber').toEqual([]);
      },
    };
  },
};

// --------------------------------------------------------------------------- levels, cites

const LIMITS = 'Spec, Limits';
/** Fields of the spec's tables, by schema: the row's words, and whether the spec marks it required. */
const SPEC_FIELDS: Record<string, Record<string, { cite: string; required?: boolean }>> = {
  BillingTemplateCreate: {
    brand_id: { cite: 'Spec, BillingTemplate: "a brand reference (uuid, the brand the template belongs to)"' },
    title: { cite: `${LIMITS}: "free text string on BillingTemplate | length at most 256"` },
    force_recurring: { cite: 'Spec, BillingTemplate: "a boolean (default false) that forces saving of the customer\'s payment credentials"' },
    purchase: { cite: 'Spec, BillingTemplate table: "purchase | object | yes"', required: true },
    is_subscription: { cite: 'Spec, BillingTemplate table: "is_subscription | boolean | yes"', required: true },
    issued: { cite: 'Spec, BillingTemplate table: "issued | string or null"' },
    due: { cite: 'Spec, BillingTemplate table: "due | integer or null"' },
    skip_capture: { cite: 'Spec, BillingTemplate table: "skip_capture | boolean"' },
    send_receipt: { cite: 'Spec, BillingTemplate table: "send_receipt | boolean"' },
    subscription_period: { cite: `${LIMITS}: "subscription_period | 1 to 256"; BillingTemplate table: "integer, 1 to 256"` },
    subscription_period_units: { cite: 'Spec, Rules on the subscription fields 4: "values are limited to an allowed set"; "not shown beyond months, weeks and days"' },
    subscription_due_period: { cite: `${LIMITS}: "subscription_due_period | 1 to 256"; BillingTemplate table: "integer, 1 to 256"` },
    subscription_due_period_units: { cite: 'Spec, Rules on the subscription fields 4: "values are limited to an allowed set"; "not shown beyond months, weeks and days"' },
    subscription_charge_period_end: { cite: 'Spec, BillingTemplate table: "subscription_charge_period_end | boolean"' },
    subscription_trial_periods: { cite: `${LIMITS}: "subscription_trial_periods | 0 to 256"; BillingTemplate table: "integer, 0 to 256"` },
    subscription_paused: { cite: 'Spec, BillingTemplate table: "subscription_paused | boolean"' },
  },
  BillingTemplateClientCreate: {
    client_id: { cite: 'Spec, BillingTemplateClient table: "client reference | uuid | yes"', required: true },
    send_receipt: { cite: 'Spec, BillingTemplateClient table: "send receipt on success | boolean"' },
    send_invoice_on_charge_failure: { cite: 'Spec, BillingTemplateClient table: "send invoice on failure | boolean"' },
    subscription_deduction_date: { cite: 'Spec, BillingTemplateClient table: "subscription_deduction_date | string | yes"', required: true },
    mandate_expiry_date: { cite: 'Spec, BillingTemplateClient table: "mandate expiry date | string | yes"', required: true },
    subscription_first_deduction_date: { cite: 'Spec, BillingTemplateClient table: "subscription_first_deduction_date | string"' },
    subscription_first_deduction_amount: { cite: `${LIMITS}: "subscription_first_deduction_amount | at least 1"; BillingTemplateClient table: "integer, at least 1"` },
    status: { cite: 'Spec, BillingTemplateClient table: "status | string enum"; "Values named: inactive, pending, active, subscription_paused"' },
    payment_method_whitelist: { cite: `${LIMITS}: "payment_method_whitelist | at least 1 item"; BillingTemplateClient table: "array of strings, at least 1 item"` },
    default_service_type: { cite: 'Spec, BillingTemplateClient table: "default_service_type | string enum"; "TWODAY and ONEDAY are named"' },
  },
};

const documentCite = (schemaName: string, path: Path, what: string) => `openapi.yaml ${schemaName}: ${path.join('.')} ${what}`;

function specRow(schemaName: string, path: Path) {
  return path.length === 1 ? SPEC_FIELDS[schemaName]?.[path[0]!] : undefined;
}

// ----------------------------------------------------------------------------- values

/** An e-mail address of exactly n characters (local part "x", labels of at most 63). */
function emailOfLength(n: number): string {
  let left = n - 2 - 3;
  let domain = '';
  while (left > 0) {
    let k = Math.min(63, left - 1);
    if (left - (k + 1) === 1) k -= 1;
    domain += `${'a'.repeat(k)}.`;
    left -= k + 1;
  }
  return `x@${domain}com`;
}

const leafName = (path: Path) => [...path].reverse().find((key) => !/^\d+$/.test(key))!;
const isWhitelistItem = (path: Path) => path.length >= 2 && path[path.length - 2] === 'payment_method_whitelist';

/**
 * A string of exactly n characters that is valid for the field, or undefined when none is known
 * (e.g. no IANA time zone is 64 characters long). With `anyValue` any string of that length will
 * do (the request is meant to be rejected for its length).
 */
async function text(g: Gen, field: Field, n: number, anyValue: boolean): Promise<string | undefined> {
  if (field.node.format === 'email') return n >= 6 ? emailOfLength(n) : undefined;
  if (anyValue) return 'a'.repeat(n);
  if (field.node.format || field.node.pattern) return undefined;
  const name = leafName(field.path);
  if (name === 'timezone') return n === 3 ? 'UTC' : undefined;
  if (name === 'language') return n === 2 ? 'en' : n === 8 ? 'yue-Hant' : undefined;
  if (isWhitelistItem(field.path)) return (await g.methods()).find((m) => m.length === n);
  return 'a'.repeat(n);
}

/** An array of exactly n valid items for the field, or undefined when none is known. */
async function items(g: Gen, field: Field, setup: Setup, n: number): Promise<unknown[] | undefined> {
  const existing = getPath(setup.body, field.path);
  if (Array.isArray(existing) && existing.length) return Array.from({ length: n }, () => clone(existing[0]));
  const item = resolve(field.node.items ?? {});
  if (item.format === 'email') return Array.from({ length: n }, (_, i) => `copy${i}@example.com`);
  if (leafName(field.path) === 'payment_method_whitelist') {
    const methods = await g.methods();
    return methods.length >= n ? methods.slice(0, n) : undefined;
  }
  return undefined;
}

function wrongType(node: Node): unknown {
  switch (typeOf(node)) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return '1';
    case 'boolean':
      return 'true';
    case 'array':
      return 'visa';
    case 'object':
      return 'x';
    default:
      return undefined;
  }
}

function outsideEnum(values: unknown[]): string {
  if (values.includes('months')) return 'years';
  if (values.every((v) => v === null || (typeof v === 'string' && v === v.toUpperCase()))) return 'THREEDAY';
  return 'not_a_choice';
}

// ------------------------------------------------------------------------------ cases

interface Case {
  id: string;
  title: string;
  level: Level;
  cites: string;
  path: Path;
  outcome: 'accepted' | 'rejected';
  /** The error code of DESIGN.md §3 for a rejection. */
  code?: string;
  /** The value to put at path; `undefined` from it means no such value is known: the case is not made. */
  value?: (g: Gen, setup: Setup) => Promise<unknown> | unknown;
  /** Remove the field instead of setting it. */
  remove?: boolean;
}

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 40 ? `${text.slice(0, 37)}… (${Array.isArray(value) ? `${value.length} items` : `${text.length - 2} characters`})` : text;
};

function casesOf(subject: Subject): Case[] {
  const root = resolve(documentSchema(subject.schema));
  const fields: Field[] = [];
  const requireds: Path[] = [];
  walk(root, [], fields, requireds);
  const cases: Case[] = [];
  const name = subject.schema;

  for (const { path, node } of fields) {
    const dotted = path.join('.');
    const spec = specRow(name, path);
    const level: Level = spec ? 'normative' : 'informative';
    const base = `LIM-${name}-${dotted}`;
    const add = (suffix: string, c: Omit<Case, 'id' | 'path' | 'level' | 'cites'> & { cites: string; level?: Level }) =>
      cases.push({ id: `${base}-${suffix}`, path, level: c.level ?? level, ...c });
    const field: Field = { path, node };
    const type = typeOf(node);

    const wrong = wrongType(node);
    if (wrong !== undefined) {
      add('type', {
        title: `${dotted} of the wrong JSON type (${type} expected, ${show(wrong)} sent) is rejected`,
        cites: spec?.cite ?? documentCite(name, path, `type ${type}`),
        outcome: 'rejected',
        code: 'invalid',
        value: () => wrong,
      });
    }

    if (type === 'integer' || type === 'number') {
      if (typeof node.minimum === 'number') {
        const min = node.minimum as number;
        const cite = spec?.cite ?? documentCite(name, path, `minimum ${min}`);
        add('min', { title: `${dotted} = ${min} (the minimum) is accepted and stored`, cites: cite, outcome: 'accepted', value: () => min });
        add('min-1', { title: `${dotted} = ${min - 1} (minimum − 1) is rejected`, cites: cite, outcome: 'rejected', code: 'min_value', value: () => min - 1 });
      }
      if (typeof node.exclusiveMinimum === 'number') {
        const min = node.exclusiveMinimum as number;
        add('xmin', {
          title: `${dotted} = ${min} (its exclusive minimum) is rejected`,
          cites: spec?.cite ?? documentCite(name, path, `exclusiveMinimum ${min}`),
          outcome: 'rejected',
          code: 'min_value',
          value: () => min,
        });
      }
      if (typeof node.maximum === 'number') {
        const max = node.maximum as number;
        const cite = spec?.cite ?? documentCite(name, path, `maximum ${max}`);
        add('max', { title: `${dotted} = ${max} (the maximum) is accepted and stored`, cites: cite, outcome: 'accepted', value: () => max });
        add('max+1', { title: `${dotted} = ${max + 1} (maximum + 1) is rejected`, cites: cite, outcome: 'rejected', code: 'max_value', value: () => max + 1 });
      }
    }

    if (type === 'string') {
      if (typeof node.minLength === 'number' && node.minLength > 0) {
        const min = node.minLength as number;
        const cite = spec?.cite ?? documentCite(name, path, `minLength ${min}`);
        add('minLength', { title: `${dotted} of ${min} characters (the minimum) is accepted and stored`, cites: cite, outcome: 'accepted', value: (g) => text(g, field, min, false) });
        add('minLength-1', { title: `${dotted} of ${min - 1} characters (minimum − 1) is rejected`, cites: cite, outcome: 'rejected', code: 'min_length', value: (g) => text(g, field, min - 1, true) });
      }
      if (typeof node.maxLength === 'number') {
        const max = node.maxLength as number;
        const cite = spec?.cite ?? documentCite(name, path, `maxLength ${max}`);
        add('maxLength', { title: `${dotted} of ${max} characters (the maximum) is accepted and stored`, cites: cite, outcome: 'accepted', value: (g) => text(g, field, max, false) });
        add('maxLength+1', { title: `${dotted} of ${max + 1} characters (maximum + 1) is rejected`, cites: cite, outcome: 'rejected', code: 'max_length', value: (g) => text(g, field, max + 1, true) });
      }
    }

    if (type === 'array') {
      if (typeof node.minItems === 'number') {
        const min = node.minItems as number;
        const cite = spec?.cite ?? documentCite(name, path, `minItems ${min}`);
        add('minItems', { title: `${dotted} with ${min} item(s) (the minimum) is accepted and stored`, cites: cite, outcome: 'accepted', value: (g, s) => items(g, field, s, min) });
        add('minItems-1', { title: `${dotted} with ${min - 1} item(s) (minimum − 1) is rejected`, cites: cite, outcome: 'rejected', code: 'min_items', value: (g, s) => items(g, field, s, min - 1) });
      }
      if (typeof node.maxItems === 'number') {
        const max = node.maxItems as number;
        const cite = spec?.cite ?? documentCite(name, path, `maxItems ${max}`);
        add('maxItems', { title: `${dotted} with ${max} items (the maximum) is accepted and stored`, cites: cite, outcome: 'accepted', value: (g, s) => items(g, field, s, max) });
        add('maxItems+1', { title: `${dotted} with ${max + 1} items (maximum + 1) is rejected`, cites: cite, outcome: 'rejected', code: 'max_items', value: (g, s) => items(g, field, s, max + 1) });
      }
    }

    if (Array.isArray(node.enum)) {
      const values = node.enum as unknown[];
      const cite = spec?.cite ?? documentCite(name, path, `enum ${JSON.stringify(values)}`);
      for (const choice of values) {
        // The server sets a subscriber's status (active, or pending per the state table); a value sent on
        // add_subscriber is accepted only when it equals that status (openapi.yaml, status): no valid body
        // exists for inactive or subscription_paused, and accepting the other two is the document's decision.
        if (name === 'BillingTemplateClientCreate' && dotted === 'status') {
          if (choice !== 'active' && choice !== 'pending') continue;
          add(`enum-${choice}`, {
            title: `status "${choice}", the status add_subscriber gives, is accepted and stored`,
            cites: documentCite(name, path, '(a value equal to the resulting status is accepted)'),
            level: 'informative',
            outcome: 'accepted',
            value: () => choice,
          });
          continue;
        }
        add(`enum-${String(choice)}`, { title: `${dotted} = ${JSON.stringify(choice)} (an allowed value) is accepted and stored`, cites: cite, outcome: 'accepted', value: () => choice });
      }
      const bad = outsideEnum(values);
      add('enum-invalid', { title: `${dotted} = "${bad}" (not an allowed value) is rejected`, cites: cite, outcome: 'rejected', code: 'invalid_choice', value: () => bad });
    }
  }

  for (const path of requireds) {
    const dotted = path.join('.');
    const spec = specRow(name, path);
    const level: Level = spec?.required ? 'normative' : 'informative';
    cases.push({
      id: `LIM-${name}-required-${dotted}`,
      title: `${dotted} missing (required) is rejected`,
      level,
      cites: spec?.required ? spec.cite : documentCite(name, path, 'required'),
      path,
      outcome: 'rejected',
      code: 'required',
      remove: true,
    });
  }
  return cases;
}

/** The spec's date limits for subscribers: rules of the spec, not keywords of the schema. */
function dateCases(): Case[] {
  const name = 'BillingTemplateClientCreate';
  const deduction = ['subscription_deduction_date'];
  const first = ['subscription_first_deduction_date'];
  const minCite = (field: string) => `${LIMITS}: "${field} | at least today plus 4 days"`;
  const beforeCite = `${LIMITS}: "subscription_first_deduction_date | at least today plus 4 days, earlier than subscription_deduction_date"`;
  // The subject's body starts the cycle on today + 10 and, with a first deduction, collects it on today + 5.
  return [
    {
      id: `LIM-${name}-subscription_deduction_date-min`,
      title: 'subscription_deduction_date = today + 4 days (the minimum) is accepted and stored',
      level: 'normative',
      cites: minCite('subscription_deduction_date'),
      path: deduction,
      outcome: 'accepted',
      value: async (g) => addDays(await g.day(), 4),
    },
    {
      id: `LIM-${name}-subscription_deduction_date-min-1`,
      title: 'subscription_deduction_date = today + 3 days (minimum − 1 day) is rejected',
      level: 'normative',
      cites: minCite('subscription_deduction_date'),
      path: deduction,
      outcome: 'rejected',
      code: 'min_value',
      value: async (g) => addDays(await g.day(), 3),
    },
    {
      id: `LIM-${name}-subscription_first_deduction_date-min`,
      title: 'subscription_first_deduction_date = today + 4 days (the minimum) is accepted and stored',
      level: 'normative',
      cites: beforeCite,
      path: first,
      outcome: 'accepted',
      value: async (g) => addDays(await g.day(), 4),
    },
    {
      id: `LIM-${name}-subscription_first_deduction_date-min-1`,
      title: 'subscription_first_deduction_date = today + 3 days (minimum − 1 day) is rejected',
      level: 'normative',
      cites: beforeCite,
      path: first,
      outcome: 'rejected',
      code: 'min_value',
      value: async (g) => addDays(await g.day(), 3),
    },
    {
      id: `LIM-${name}-subscription_first_deduction_date-max`,
      title: 'subscription_first_deduction_date one day before subscription_deduction_date is accepted and stored',
      level: 'normative',
      cites: beforeCite,
      path: first,
      outcome: 'accepted',
      value: async (g) => addDays(await g.day(), 9),
    },
    {
      id: `LIM-${name}-subscription_first_deduction_date-max+1`,
      title: 'subscription_first_deduction_date equal to subscription_deduction_date (not earlier) is rejected',
      level: 'normative',
      cites: beforeCite,
      path: first,
      outcome: 'rejected',
      code: 'max_value',
      value: async (g) => addDays(await g.day(), 10),
    },
  ];
}

// ------------------------------------------------------------------------------ checks

const CODE_CITE = 'DESIGN.md §3 Errors: 400, a map from the field path to [{message, code}]';

/** The case's body: the subject's valid body with the case applied; undefined when no value is known. */
async function apply(c: Case, g: Gen): Promise<{ setup: Setup; body: Node; value: unknown } | undefined> {
  // The subscriber subject picks its template by the value (status), so the value comes first.
  const early = c.value && c.path[0] === 'status' ? await c.value(g, { body: {} } as Setup) : undefined;
  const probe = await subjectOf(c).prepare(g, c.path, early);
  const body = clone(probe.body);
  if (c.remove) {
    deletePath(body, c.path);
    return { setup: probe, body, value: undefined };
  }
  const value = early !== undefined ? early : await c.value!(g, probe);
  if (value === undefined) return undefined;
  setPath(body, c.path, value);
  return { setup: probe, body, value };
}

const subjectByCase = new Map<Case, Subject>();
const subjectOf = (c: Case) => subjectByCase.get(c)!;

function checks(subject: Subject, cases: Case[]): void {
  for (const c of cases) {
    subjectByCase.set(c, subject);
    const dotted = c.path.join('.');
    if (c.outcome === 'accepted') {
      check({ id: c.id, title: c.title, cites: c.cites, level: c.level }, async (ctx) => {
        const applied = await apply(c, gen(ctx));
        if (!applied) throw new Error(`no valid value is known for ${dotted} (${c.id})`);
        const res = await applied.setup.send(applied.body);
        expectSuccess(res, `${subject.schema} with ${dotted} = ${show(applied.value)}`);
        const stored = await applied.setup.read(res);
        expect({ [dotted]: getPath(stored, c.path) }, 'the stored value').toMatchObject({ [dotted]: applied.value as any });
      });
      continue;
    }
    check({ id: c.id, title: `${c.title} and nothing is created`, cites: c.cites, level: c.level }, async (ctx) => {
      const applied = await apply(c, gen(ctx));
      if (!applied) throw new Error(`no value is known for ${dotted} (${c.id})`);
      const res = await applied.setup.send(applied.body);
      expectRejected(res, `${subject.schema} with ${c.remove ? `${dotted} missing` : `${dotted} = ${show(applied.value)}`}`);
      await applied.setup.nothingCreated();
    });
    check(
      { id: `${c.id}-CODE`, title: `${c.title}: 400, "${dotted}": ${c.code}`, cites: `${CODE_CITE}; openapi.yaml Error code "${c.code}"`, level: 'informative' },
      async (ctx) => {
        const applied = await apply(c, gen(ctx));
        if (!applied) throw new Error(`no value is known for ${dotted} (${c.id})`);
        expectError(await applied.setup.send(applied.body), dotted, c.code!);
      },
    );
  }
}

/** Cases whose value exists only for some fields (e.g. a 64-character time zone) are dropped here. */
function feasible(c: Case): boolean {
  if (c.outcome !== 'accepted' || !c.value) return true;
  const leaf = leafName(c.path);
  if (leaf === 'timezone') return false; // no IANA zone has exactly 1 or 64 characters
  if (isWhitelistItem(c.path) && c.id.endsWith('-minLength')) return false; // no 1-character payment method name
  return true;
}

describe('limits', () => {
  checks(billingTemplate, casesOf(billingTemplate).filter(feasible));
  checks(subscriber, [...casesOf(subscriber).filter(feasible), ...dateCases()]);
  checks(client, casesOf(client).filter(feasible));
  checks(purchase, casesOf(purchase).filter(feasible));
});
