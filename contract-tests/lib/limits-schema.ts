// What the limits checks read from openapi.yaml and send: its request schemas walked (following $ref
// and allOf, into nested objects and array items) to every writable property; a subject, the create
// request whose body a check changes at one property's path; and the values that probe a property:
// strings and arrays of a given length, a value of the wrong JSON type, one outside an enum.

import { expect } from 'vitest';
import type { CheckContext } from './check.ts';
import type { Reply } from './client.ts';
import { schema as documentSchema } from './operations.ts';
import { getPath, paymentMethods, today } from './primitives.ts';

export type Node = Record<string, any>;
export type Path = string[];

export const clone = <T>(value: T): T => structuredClone(value);

// ------------------------------------------------------------------ the document, walked

const refName = (ref: string) => ref.split('/').pop()!;

/** A schema with its $ref and allOf resolved, properties merged: its own narrow its allOf's (`purchase: {$ref: PurchaseDetails}`). */
export function resolve(node: Node): Node {
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

export interface Field {
  path: Path;
  node: Node;
}

/** Every writable property and array item under an object schema, depth first. */
export function walk(object: Node, prefix: Path, fields: Field[], requireds: Path[]): void {
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

export const typeOf = (node: Node): string | undefined => {
  const types = ([] as string[]).concat(node.type ?? []).filter((t) => t !== 'null');
  return types[0];
};

// ------------------------------------------------------------------------- the subjects

/** What a check needs from the account, loaded on demand. */
export interface Gen {
  ctx: CheckContext;
  /** Today (YYYY-MM-DD, UTC) on the account's clock. */
  day(): Promise<string>;
  methods(): Promise<string[]>;
}

export function gen(ctx: CheckContext): Gen {
  let day: Promise<string> | undefined;
  let methods: Promise<string[]> | undefined;
  return { ctx, day: () => (day ??= today(ctx)), methods: () => (methods ??= paymentMethods(ctx.api)) };
}

export interface Setup {
  /** A valid body (before the case changes `path`). */
  body: Node;
  send(body: Node): Promise<Reply>;
  /** Reads the created object back. */
  read(reply: Reply): Promise<Node>;
  /** Asserts that the (rejected) request created nothing. */
  nothingCreated(): Promise<void>;
}

export interface Subject {
  schema: string;
  prepare(g: Gen, path: Path, value: unknown): Promise<Setup>;
}

export const related = (path: Path, slot: string) => {
  const other = slot.split('.');
  const n = Math.min(path.length, other.length);
  return path.slice(0, n).join('.') === other.slice(0, n).join('.');
};

export async function readBack(g: Gen, path: string): Promise<Node> {
  const res = await g.ctx.api.get(path);
  expect(res.status, `GET ${path} after creating it`).toBe(200);
  return res.body as Node;
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

export const leafName = (path: Path) => [...path].reverse().find((key) => !/^\d+$/.test(key))!;
export const isWhitelistItem = (path: Path) => path.length >= 2 && path[path.length - 2] === 'payment_method_whitelist';

/** The start of an http(s) URL of any length from its own: a merchant's redirect or callback. */
const URL_STEM = 'https://shop.example.com/';

/** A field whose pattern takes URLs (`HttpUrl`, `MerchantUrl`): the pattern itself is asked, as it spells the scheme in either case. */
const isUrlField = (field: Field): boolean =>
  typeof field.node.pattern === 'string' && new RegExp(field.node.pattern, 'u').test(`${URL_STEM}a`) && !new RegExp(field.node.pattern, 'u').test('a');

/**
 * A string of exactly n characters that is valid for the field, or undefined when none is known
 * (e.g. no IANA time zone is 64 characters long). With `anyValue` any string of that length will
 * do (the request is meant to be rejected for its length).
 */
export async function text(g: Gen, field: Field, n: number, anyValue: boolean): Promise<string | undefined> {
  // An e-mail may also be checked only when not empty (`if: {minLength: 1}, then: {format: email}`).
  if (field.node.format === 'email' || field.node.then?.format === 'email') return n >= 6 ? emailOfLength(n) : undefined;
  if (anyValue) return 'a'.repeat(n);
  if (isUrlField(field)) return n >= URL_STEM.length ? URL_STEM + 'a'.repeat(n - URL_STEM.length) : undefined;
  if (field.node.format || field.node.pattern) return undefined;
  const name = leafName(field.path);
  if (name === 'timezone') return n === 3 ? 'UTC' : undefined;
  if (name === 'language') return n === 2 ? 'en' : n === 8 ? 'yue-Hant' : undefined;
  if (isWhitelistItem(field.path)) return (await g.methods()).find((m) => m.length === n);
  return 'a'.repeat(n);
}

/** An array of exactly n valid items for the field, or undefined when none is known. */
export async function items(g: Gen, field: Field, setup: Setup, n: number): Promise<unknown[] | undefined> {
  const existing = getPath(setup.body, field.path);
  if (Array.isArray(existing) && existing.length) return Array.from({ length: n }, () => clone(existing[0]));
  const item = resolve(field.node.items ?? {});
  if (item.format === 'email') return Array.from({ length: n }, (_, i) => `copy${i}@example.com`);
  if (leafName(field.path) === 'payment_method_whitelist') {
    const methods = await g.methods();
    return methods.length >= n ? methods.slice(0, n) : undefined;
  }
  // Plain strings (campaign ids): distinct, so a uniqueItems list takes them too.
  if (typesOf(item).join() === 'string' && !item.format && !item.pattern && !item.enum) return Array.from({ length: n }, (_, i) => `item-${i}`);
  return undefined;
}

/** The JSON types a schema allows, null aside: `type: [number, string]` → both. */
export const typesOf = (node: Node): string[] => ([] as string[]).concat(node.type ?? []).filter((t) => t !== 'null');

const jsonType = (value: unknown): string =>
  Array.isArray(value) ? 'array' : value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value === 'object' ? 'object' : typeof value;

/**
 * A value of none of the field's JSON types: the usual one for its first type, else the first of a
 * few that fits (quantity, a number or a decimal string, takes neither `"1"` nor `12345`: `true`).
 */
export function wrongType(node: Node): unknown {
  const types = typesOf(node);
  if (types.length === 0) return undefined;
  // Values every server refuses, the platform too: it reads as Django REST framework does, which takes
  // 12345 for a text field (as "12345"), "1" for an integer and "true" or "on" for a boolean, and
  // refuses `true` for text, "1.5" for an integer, a word for a number or a boolean (DESIGN.md §14,
  // docs/fidelity.md "Request fields").
  const usual: Record<string, unknown> = { string: true, integer: '1.5', number: 'many', boolean: 'maybe', array: 'visa', object: 'x' };
  const allowed = (value: unknown) => types.some((type) => type === jsonType(value) || (type === 'number' && jsonType(value) === 'integer'));
  return [usual[types[0]!], true, 'many', ['x'], { x: 1 }].find((value) => value !== undefined && !allowed(value));
}

/**
 * A stored value equal to the one sent: the same JSON, or the same number, sent as a number and
 * answered as a decimal string (quantity 1000000 is stored as "1000000.0000", as the platform answers it).
 */
export function sameValue(sent: unknown, stored: unknown): boolean {
  if (typeof sent === 'number' && typeof stored === 'string' && /^-?\d+(\.\d+)?$/.test(stored)) return Number(stored) === sent;
  return JSON.stringify(sent) === JSON.stringify(stored);
}

export function outsideEnum(values: unknown[]): string {
  if (values.includes('months')) return 'years';
  if (values.every((v) => v === null || (typeof v === 'string' && v === v.toUpperCase()))) return 'THREEDAY';
  return 'not_a_choice';
}

export const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 40 ? `${text.slice(0, 37)}… (${Array.isArray(value) ? `${value.length} items` : `${text.length - 2} characters`})` : text;
};
