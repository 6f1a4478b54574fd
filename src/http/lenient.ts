// Request bodies read as the platform reads them (DESIGN.md §14, "What the platform accepts"). The
// platform is a Django REST framework service: a body field its serializer does not define, or a
// read-only one (`id`, `status` on create, `purchase.total`), is dropped, and a few types are read
// as DRF's fields read them. Production integrations rely on it: FluentCart sends
// `purchase.products[].qty` and an integer `client.personal_code`, the Java SDK `status: "created"`.
// So, for /api/v1 operations of a sandbox that is not strict, before the domain sees the body:
// - every property marked `readOnly: true` in the operation's request schema is removed, whatever its
//   value (the paths are found once per operation by walking the schema through $ref and allOf);
// - what ajv reports as an unknown property (`unevaluatedProperties` / `additionalProperties`, at
//   any depth: `purchase.products.0.qty`), `__proto__` and `constructor` included, is removed;
// - what ajv reports as a wrong `type` is converted where DRF 3.14 converts it: a finite number for
//   text (42 → "42"), an integral string for an integer ("100", "100.0" → 100), DRF's spellings of
//   a boolean ("yes", "on", "1", 1 …). Only when every type error at that path agrees on one value: a
//   value an anyOf refuses in ways that convert differently is left as it is, and refused.
// Then the body is validated again (at most MAX_PASSES times in all); what remains is the 400 it
// always was. Each removed path is named (Billing-Sim-Ignored, the request log); converted ones are not.
// The spec's conditional read-only rules (a template's fields by its kind, a pending subscriber's
// status) are the domain's and no schema's `readOnly`: they stay refusals.

import type { ErrorObject, ValidateFunction } from 'ajv';
import type { OpenAPIV3_1 } from 'openapi-types';
import { pointerKeys } from '../contract/ajv-errors.ts';
import { validateWithin, type Validation } from '../contract/error-budget.ts';
import type { Operation } from '../contract/routes.ts';
import { resolveRef } from '../contract/spec.ts';
import { MAX_ERROR_TEXT } from '../contract/limits.ts';
import { MAX_ERRORS } from '../domain/errors.ts';

/** The response header naming what a request's body had ignored. */
export const IGNORED_HEADER = 'Billing-Sim-Ignored';

/**
 * Validations of one body: the first, then one after each round of removals and conversions. Two
 * suffice for every body seen (ajv reports every unknown key and type error at once, allErrors); a
 * third covers a conversion that lets a conditional schema look further. Bounded, as a body may be 1 MiB.
 */
const MAX_PASSES = 3;

/** Paths the header and the log line name, as many as an error body lists, each cut as an error body cuts one; a longer list ends `...`. */
export const MAX_IGNORED_NAMED = MAX_ERRORS;

/** Bytes of the header's value: clients refuse answers with headers past 8-16 KiB in all. */
export const MAX_IGNORED_HEADER_BYTES = 4096;

/** DRF 3.14 BooleanField's TRUE_VALUES and FALSE_VALUES (JSON has no 1.0 apart from 1). */
const TRUE_VALUES = new Set<unknown>(['t', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', '1', 1]);
const FALSE_VALUES = new Set<unknown>(['f', 'F', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF', '0', 0]);

/** DRF IntegerField: `int(re.sub(r'\.0*\s*$', '', text))`, texts of at most 1,000 characters. */
const INTEGRAL = /^\s*[+-]?\d+(?:\.0*)?\s*$/;
const MAX_INTEGRAL_TEXT = 1000;

/** The read-only properties of a schema: a node per property leading to one. */
interface ReadOnlyNode {
  readOnly: boolean;
  props: Map<string, ReadOnlyNode>;
  items?: ReadOnlyNode;
}

/** The paths one body had removed, in order, the first MAX_IGNORED_NAMED of them kept. */
export class IgnoredPaths {
  readonly named: string[] = [];
  count = 0;

  add(path: string): void {
    this.count += 1;
    if (this.named.length < MAX_IGNORED_NAMED) this.named.push(path);
  }

  /** `purchase.products.0.qty, order_id`: spaces, `,`, `%` and what a header cannot carry percent-encoded (UTF-8). */
  header(): string {
    let value = '';
    for (const path of this.named) {
      const entry = (value ? ', ' : '') + headerSafe(path);
      if (value.length + entry.length > MAX_IGNORED_HEADER_BYTES - 5) return `${value}, ...`;
      value += entry;
    }
    return this.count > this.named.length ? `${value}, ...` : value;
  }
}

/** What a header value may carry of a path as it is: visible ASCII but `%` and `,`. */
const HEADER_SAFE = /^[\x21-\x24\x26-\x2b\x2d-\x7e]$/;

/** The path percent-encoded (UTF-8) and, past MAX_ERROR_TEXT characters, cut between characters and ended with `...`. */
function headerSafe(path: string): string {
  let out = '';
  let fits = '';
  for (const char of path) {
    out += HEADER_SAFE.test(char) ? char : [...Buffer.from(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    if (out.length > MAX_ERROR_TEXT) return `${fits}...`;
    if (out.length <= MAX_ERROR_TEXT - 3) fits = out;
  }
  return out;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const dotted = (instancePath: string, child: string): string => [...pointerKeys(instancePath), child].join('.');

export class Leniency {
  /** Per operation, its read-only paths (null: none). */
  private readonly trees = new Map<Operation, ReadOnlyNode | null>();

  constructor(private readonly doc: OpenAPIV3_1.Document) {}

  /**
   * Removes from `body` what the operation ignores and converts what it reads, in place; answers
   * the last validation (what is still wrong is refused) and the removed paths.
   */
  read(operation: Operation, validate: ValidateFunction, body: unknown, ignored: IgnoredPaths): Validation {
    const tree = this.readOnlyTree(operation);
    if (tree) stripReadOnly(tree, body, '', ignored);
    let validation = validateWithin(validate, body);
    for (let pass = 1; pass < MAX_PASSES && validation.errors.length > 0; pass += 1) {
      if (!repair(validation.errors, body, ignored)) break;
      validation = validateWithin(validate, body);
    }
    return validation;
  }

  /** An operation that takes no body ignores every key of one sent; false for a body that is no object. */
  ignoreAll(body: unknown, ignored: IgnoredPaths): boolean {
    if (!isRecord(body)) return false;
    for (const key of Object.keys(body)) ignored.add(key);
    return true;
  }

  /** The operation's read-only paths, found on its first request and kept. */
  private readOnlyTree(operation: Operation): ReadOnlyNode | null {
    const known = this.trees.get(operation);
    if (known !== undefined) return known;
    const raw = this.doc.paths?.[operation.path]?.[operation.method as OpenAPIV3_1.HttpMethods];
    const requestBody = raw?.requestBody && resolveRef<OpenAPIV3_1.RequestBodyObject>(this.doc, raw.requestBody);
    const root = emptyNode();
    collect(this.doc, root, requestBody?.content['application/json']?.schema, []);
    const tree = pruned(root) ?? null;
    this.trees.set(operation, tree);
    return tree;
  }
}

const emptyNode = (): ReadOnlyNode => ({ readOnly: false, props: new Map() });

/** Merges what `schema` says of read-only properties into `node`: through $ref, allOf, properties and items. */
function collect(doc: OpenAPIV3_1.Document, node: ReadOnlyNode, schema: unknown, refs: readonly string[]): void {
  if (!isRecord(schema)) return;
  if (schema.readOnly === true) node.readOnly = true;
  const ref = schema.$ref;
  // A schema that contains itself (a tree of objects) is walked once along each chain of references.
  if (typeof ref === 'string' && !refs.includes(ref)) collect(doc, node, resolveRef(doc, { $ref: ref }), [...refs, ref]);
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) collect(doc, node, part, refs);
  if (isRecord(schema.properties)) {
    for (const [name, child] of Object.entries(schema.properties)) {
      const childNode = node.props.get(name) ?? emptyNode();
      node.props.set(name, childNode);
      collect(doc, childNode, child, refs);
    }
  }
  if (isRecord(schema.items)) collect(doc, (node.items ??= emptyNode()), schema.items, refs);
}

/** The node without branches that lead to no read-only property; undefined when none is left. */
function pruned(node: ReadOnlyNode): ReadOnlyNode | undefined {
  if (node.readOnly) return { readOnly: true, props: new Map() };
  const props = new Map<string, ReadOnlyNode>();
  for (const [name, child] of node.props) {
    const kept = pruned(child);
    if (kept) props.set(name, kept);
  }
  const items = node.items && pruned(node.items);
  return props.size > 0 || items ? { readOnly: false, props, ...(items && { items }) } : undefined;
}

function stripReadOnly(node: ReadOnlyNode, value: unknown, path: string, ignored: IgnoredPaths): void {
  const at = (key: string | number) => (path ? `${path}.${key}` : String(key));
  if (Array.isArray(value)) {
    if (node.items) for (const [index, item] of value.entries()) stripReadOnly(node.items, item, at(index), ignored);
    return;
  }
  if (!isRecord(value)) return;
  // The body's few keys looked up among the schema's properties: a purchase's schema has some thirty read-only ones.
  for (const name of Object.keys(value)) {
    const child = node.props.get(name);
    if (!child) continue;
    if (child.readOnly) {
      delete value[name];
      ignored.add(at(name));
    } else stripReadOnly(child, value[name], at(name), ignored);
  }
}

/** Removes the unknown properties ajv found and converts the values DRF converts; true when anything changed. */
function repair(errors: readonly ErrorObject[], body: unknown, ignored: IgnoredPaths): boolean {
  let changed = false;
  // Per instance path, the one value its type errors agree on; null when they disagree or one cannot be converted.
  const conversions = new Map<string, { value: unknown } | null>();
  for (const error of errors) {
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'unevaluatedProperties' || error.keyword === 'additionalProperties') {
      const name = String(params.unevaluatedProperty ?? params.additionalProperty);
      // ajv runs verbose: `data` is the object itself, the one inside `body`.
      if (!isRecord(error.data) || !Object.hasOwn(error.data, name)) continue;
      delete error.data[name];
      ignored.add(dotted(error.instancePath, name));
      changed = true;
    } else if (error.keyword === 'type' && error.instancePath !== '') {
      const types = Array.isArray(params.type) ? (params.type as string[]) : String(params.type).split(',');
      const converted = convert(error.data, types);
      // A branch that cannot take the value (the `null` of a nullable integer) abstains; two that read it differently veto.
      if (converted === undefined) continue;
      const seen = conversions.get(error.instancePath);
      const agrees = seen === undefined || (seen !== null && Object.is(seen.value, converted));
      conversions.set(error.instancePath, agrees ? { value: converted } : null);
    }
  }
  for (const [instancePath, conversion] of conversions) {
    if (conversion && setAt(body, instancePath, conversion.value)) changed = true;
  }
  return changed;
}

/** The value DRF 3.14 reads `value` as, for a field of one of `types`; undefined when it refuses it. */
function convert(value: unknown, types: readonly string[]): unknown {
  for (const type of types) {
    if (type === 'string' && typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (type === 'integer' && typeof value === 'string' && value.length <= MAX_INTEGRAL_TEXT && INTEGRAL.test(value)) {
      const number = Number(value.trim().replace(/\.0*$/, '')) + 0;
      if (Number.isSafeInteger(number)) return number;
    }
    if (type === 'boolean' && TRUE_VALUES.has(value)) return true;
    if (type === 'boolean' && FALSE_VALUES.has(value)) return false;
  }
  return undefined;
}

/** Replaces the value at a JSON pointer of `body` through own properties only; false when it is not there. */
function setAt(body: unknown, instancePath: string, value: unknown): boolean {
  const keys = pointerKeys(instancePath);
  const last = keys.pop()!;
  let parent: unknown = body;
  for (const key of keys) {
    if (typeof parent !== 'object' || parent === null || !Object.hasOwn(parent, key)) return false;
    parent = (parent as Record<string, unknown>)[key];
  }
  if (typeof parent !== 'object' || parent === null || !Object.hasOwn(parent, last)) return false;
  (parent as Record<string, unknown>)[last] = value;
  return true;
}
