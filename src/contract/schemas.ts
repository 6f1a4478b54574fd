// One ajv instance per kind of input, each holding every component schema of openapi.yaml once.
// References are rewritten from `#/components/schemas/X` to an absolute id, because ajv compiles
// schemas, not OpenAPI documents. Compiled on first use, or by `npm run build` (precompiled.ts);
// test/unit/routes.test.ts compiles every one.
// `date-time` is the representable kind (instants.ts); an array past its maxItems is not validated
// item by item (`lazyItems`), and a validation stops once it has too many errors (error-budget.ts).
// `x-default` is the document's default of a body field (openapi.yaml's header says why it is not
// `default`): an annotation, which ajv is told about and never applies. So is `x-simulator-only`,
// which marks what the real platform does not have (DESIGN.md §9), and `x-error-message`, the words
// a refusal of that schema's keyword says (ajv-errors.ts reads it from the error's parentSchema).

import type { AnySchema, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { FormatsPlugin } from 'ajv-formats';
import { ERROR_BUDGET, errorBudgetKeyword } from './error-budget.ts';
import { onFirstUse, requireLater } from './lazy.ts';
import { representableDateTime } from './instants.ts';
import { documentDigest, precompiled } from './precompiled.ts';

const SCHEMA_BASE = 'https://billing-sim.local/schemas/';

/** The id under which every ajv instance of createAjv holds a schema: a component's name, or a name of precompiled.ts. */
export const componentId = (name: string) => SCHEMA_BASE + name;

/** The value the server stores for a body field that a create or PUT omits. */
export const DEFAULT_KEYWORD = 'x-default';

/** Marks an operation, field or value only the simulator has: the contract suite never requires it. */
export const SIMULATOR_ONLY_KEYWORD = 'x-simulator-only';

/**
 * Keyword → what a refusal by that keyword says, in words a person acts on: `x-error-message:
 * {pattern: "Enter a three-letter ISO 4217 currency code in capitals, such as EUR."}` beside
 * `pattern: '^[A-Z]{3}$'`, so that no regex reaches a user. The code stays the keyword's.
 */
export const ERROR_MESSAGE_KEYWORD = 'x-error-message';

export function rewriteRefs<T>(node: T): T {
  if (Array.isArray(node)) return node.map(rewriteRefs) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')
        ? SCHEMA_BASE + value.slice('#/components/schemas/'.length)
        : rewriteRefs(value);
  }
  return lazyItems(out) as T;
}

/**
 * `{maxItems: 10, items: S}` → `{maxItems: 10, if: {maxItems: 10}, then: {items: S'}}`: the same
 * constraint, but an array that is too long gets its one `max_items` error without each of its
 * items being checked. ajv's allErrors otherwise checks them all: `{"cc": [1, 1, …]}` of 1 MiB gave
 * 524,000 errors. S' is S with the error budget, which bounds arrays without a maxItems. Only for
 * plain `items`; a schema that has an `if` of its own gets the pair in an `allOf`.
 */
function lazyItems(schema: Record<string, unknown>): Record<string, unknown> {
  const { items, ...rest } = schema;
  if (!items || typeof items !== 'object' || Array.isArray(items)) return schema;
  const budgeted = { ...items, ...ERROR_BUDGET };
  if (typeof schema.maxItems !== 'number' || 'prefixItems' in schema || 'unevaluatedItems' in schema) return { ...rest, items: budgeted };
  const lazy = { if: { maxItems: schema.maxItems }, then: { items: budgeted } };
  return 'if' in rest ? { ...rest, allOf: [...((rest.allOf as unknown[] | undefined) ?? []), lazy] } : { ...rest, ...lazy };
}

/** The two ajv instances, each made on first use: registering every component takes a while. */
export interface SchemaSet {
  /** Request bodies: exact types, no defaults filled in (the domain applies them). */
  body: () => Ajv2020;
  /** Query strings: strings coerced to the declared types. */
  query: () => Ajv2020;
}

/** The kinds of validator, each of an ajv instance of its own: bodies, query strings, snapshots. */
export type SchemaKind = 'body' | 'query' | 'snapshot';

/** Each kind's ajv options: `query` coerces strings to the declared types; `snapshot` stops at its first error. */
const KINDS: Record<SchemaKind, { coerce: boolean; allErrors: boolean }> = {
  body: { coerce: false, allErrors: true },
  query: { coerce: true, allErrors: true },
  snapshot: { coerce: false, allErrors: false },
};

/**
 * The names under which a validator module written by `npm run build` (precompiled.ts) takes the
 * formats and the error budget's stop from this package, as parameters of the function it exports.
 */
export const PRECOMPILED_PARAMETERS = ['billingSimFormats', 'billingSimStop'] as const;

/** The formats every ajv instance has: ajv-formats' full set, with `date-time` narrowed (instants.ts). */
export const FORMATS = onFirstUse(() => {
  const { fullFormats } = requireLater('ajv-formats/dist/formats.js') as typeof import('ajv-formats/dist/formats.js');
  return { ...fullFormats, 'date-time': representableDateTime };
});

/**
 * A new ajv instance of `kind` with every component schema of `doc`. With `source`, it keeps each
 * validator's code for `npm run build` to write (precompiled.ts), the formats named as the module's parameter.
 */
export function createAjv(doc: OpenAPIV3_1.Document, kind: SchemaKind, source = false): Ajv2020 {
  const { coerce, allErrors } = KINDS[kind];
  // strictRequired off: a name in `required` may be declared by a schema composed with allOf, which
  // ajv counts only when it happens to inline that schema; the document's unit test checks them all.
  const { Ajv2020 } = requireLater('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const { default: addFormats } = requireLater('ajv-formats') as { default: FormatsPlugin };
  const { _, Name } = requireLater('ajv') as typeof import('ajv');
  // validateSchema off: checking every schema against the 2020-12 meta-schema compiled that
  // meta-schema and took some 150 ms of the first request after a start. The document is checked
  // against it by test/unit/openapi-document.test.ts, whose ajv compiles every schema with the check.
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    allErrors,
    allowUnionTypes: true,
    coerceTypes: coerce,
    verbose: true,
    validateSchema: false,
    ...(source ? { code: { source: true, formats: _`${new Name(PRECOMPILED_PARAMETERS[0])}` } } : {}),
  });
  addFormats(ajv);
  ajv.addFormat('date-time', representableDateTime);
  ajv.addKeyword(errorBudgetKeyword(PRECOMPILED_PARAMETERS[1]));
  ajv.addKeyword(DEFAULT_KEYWORD);
  ajv.addKeyword(SIMULATOR_ONLY_KEYWORD);
  ajv.addKeyword(ERROR_MESSAGE_KEYWORD);
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    ajv.addSchema(rewriteRefs(schema), componentId(name));
  }
  return ajv;
}

export function createSchemaSet(doc: OpenAPIV3_1.Document): SchemaSet {
  // Nothing is compiled here: each operation compiles its validators on first use (routes.ts), so
  // a start does not wait for them. test/unit/routes.test.ts compiles them all.
  return { body: onFirstUse(() => createAjv(doc, 'body')), query: onFirstUse(() => createAjv(doc, 'query')) };
}

/**
 * One component schema, on an ajv of its own that stops at the first error: for documents too large
 * to list every error of, such as a snapshot of a sandbox with years of billings read from a file.
 */
export function compileComponent(doc: OpenAPIV3_1.Document, name: string): ValidateFunction {
  // Compiled once per process for each document text and name, as the route tables are (routes.ts):
  // SandboxSnapshot's took some 0.7 s of CPU at every start with a data file.
  const document = documentDigest(doc);
  const key = `${name} ${document}`;
  let validate = components.get(key);
  if (!validate) components.set(key, (validate = precompiled('snapshot', document, name) ?? compileComponentOf(doc, name)));
  return validate;
}

const components = new Map<string, ValidateFunction>();

function compileComponentOf(doc: OpenAPIV3_1.Document, name: string): ValidateFunction {
  let validate: ValidateFunction | undefined;
  try {
    validate = createAjv(doc, 'snapshot').getSchema(componentId(name));
  } catch (error) {
    throw new Error(`openapi.yaml: components/schemas/${name} does not compile: ${(error as Error).message}`);
  }
  if (!validate) throw new Error(`openapi.yaml: components/schemas/${name} is missing`);
  return validate;
}

export function compile(ajv: Ajv2020, schema: OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject, where: string) {
  try {
    // openapi-types' schema interfaces lack the index signature of ajv's schema type; the object is the same.
    return ajv.compile(rewriteRefs(schema) as AnySchema);
  } catch (error) {
    throw new Error(`openapi.yaml: the schema of ${where} does not compile: ${(error as Error).message}`);
  }
}
