// The scenario format's JSON Schema (scenario.schema.json at the package root, the same file an
// editor can use for completion), compiled once with ajv, and its first error in words: the
// path of the bad value ([steps, 3, advance, by], which load.ts names `step 4, advance.by`) and what is wrong there.
//
// The schema carries `errorMessage` on the values whose generic error would say little (a step
// with no kind, an advance with both `by` and `to`) and on every pattern, whose regex no user
// should read; VS Code's JSON language service shows the same texts. Everything else is described
// from ajv's keyword.
//
// `npm run build` writes the compiled validator beside this module (writeScenarioValidator, below):
// compiling it took some 0.17 s of CPU, ajv loaded, at every `scenario run`; the module loads in
// 5 ms. It holds the digest of the schema file it was compiled from and is used only for that file;
// the sources have none, and compile on first use.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { onFirstUse, requireLater } from '../contract/lazy.ts';

/** Beside the package's other documents: ../../ from src/scenario/ (and from dist/src/scenario/, where the build copies it). */
export const SCHEMA_PATH = fileURLToPath(new URL('../../scenario.schema.json', import.meta.url));

export interface SchemaProblem {
  /** Path segments of the bad value (property names and array indexes). */
  path: (string | number)[];
  message: string;
}

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;

/** The compiled validator's module, beside this one in dist/src/scenario/ (the CLI's bundle finds it at the same place). */
const BUILT_VALIDATOR = './schema-validator.cjs';

/** What the built module exports: the validator, with the digest of the schema file's text it was compiled from. */
type BuiltValidator = ValidateFunction & { schemaDigest: string };

const digestOf = (text: string) => createHash('sha256').update(text).digest('hex');

/** The schema compiled by an ajv of its own (`source`: keeping the code, for standaloneCode). */
export function compileScenarioSchema(text: string, source = false): { ajv: Ajv2020; validate: ValidateFunction } {
  const { Ajv2020 } = requireLater('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const { default: addFormats } = requireLater('ajv-formats') as { default: FormatsPlugin };
  // allErrors off: the first error is the one reported, and ajv stops there.
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true, verbose: true, code: { source } });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  return { ajv, validate: ajv.compile(JSON.parse(text) as object) };
}

/** The validator the build compiled into `file`, if there is one and it was compiled from `text`. */
export function builtValidator(text: string, file = fileURLToPath(new URL(BUILT_VALIDATOR, import.meta.url))): ValidateFunction | undefined {
  // None there (the sources): compile. A module that is there but fails to load throws.
  if (!existsSync(file)) return undefined;
  const built = createRequire(import.meta.url)(file) as BuiltValidator;
  return built.schemaDigest === digestOf(text) ? built : undefined;
}

const validator = onFirstUse((): ValidateFunction => {
  const text = readFileSync(SCHEMA_PATH, 'utf8');
  return builtValidator(text) ?? compileScenarioSchema(text).validate;
});

/** Writes the compiled validator of the schema file beside this module's build in `folder` (a file: URL ending in `/`), for `npm run build`. */
export function writeScenarioValidator(folder: URL): void {
  const { default: standaloneCode } = requireLater('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js');
  const text = readFileSync(SCHEMA_PATH, 'utf8');
  const { ajv, validate } = compileScenarioSchema(text, true);
  writeFileSync(
    new URL(BUILT_VALIDATOR, folder),
    [
      "// Written by npm run build (src/scenario/schema.ts): ajv's standalone code of scenario.schema.json.",
      standaloneCode(ajv, validate),
      `module.exports.schemaDigest = ${JSON.stringify(digestOf(text))};`,
      '',
    ].join('\n'),
  );
}

/** The first problem of `document` against the schema, or undefined when it is a valid scenario. */
export function checkScenario(document: unknown): SchemaProblem | undefined {
  const validate = validator();
  if (validate(document)) return undefined;
  return describe(validate.errors ?? []);
}

const segments = (pointer: string): (string | number)[] =>
  pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));

const own = (error: ErrorObject): string | undefined => (error.parentSchema as { errorMessage?: string } | undefined)?.errorMessage;

function describe(errors: ErrorObject[]): SchemaProblem {
  const first = errors[0]!;
  const path = segments(first.instancePath);
  // A bad key of a mapping (propertyNames): the key is the bad value.
  const key = (first as ErrorObject & { propertyName?: string }).propertyName;
  if (key !== undefined) path.push(key);
  const params = first.params as Record<string, unknown>;
  const message = own(first);
  // A step without a kind: the keys it has say what was meant (`advnce`).
  if (message && first.keyword === 'required' && first.data !== null && typeof first.data === 'object') {
    return { path, message: `${message} (it has: ${Object.keys(first.data).join(', ') || 'nothing'})` };
  }
  if (message) return { path, message };
  // A combinator that failed (anyOf, oneOf) says more than its first branch does. (The `if` of a
  // failed `then` only repeats that the mapping is wrong.)
  const summary = errors.find((error) => error.instancePath === first.instancePath && error.keyword !== 'if' && own(error));
  if (summary) return { path, message: own(summary)! };
  if (first.keyword === 'required') return { path: [...path, params.missingProperty as string], message: 'required' };
  if (first.keyword === 'additionalProperties') {
    const allowed = Object.keys((first.parentSchema as { properties?: object }).properties ?? {});
    return { path: [...path, params.additionalProperty as string], message: `not a key here (allowed: ${allowed.join(', ')})` };
  }
  return { path, message: generic(first) };
}

function generic(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `must be ${String(params.type).replace(',', ' or ')}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `must be ${String(params.allowedValue)}`;
    case 'format':
      return `must be a ${String(params.format)}`;
    case 'minItems':
    case 'minProperties':
      return `needs at least ${String(params.limit)} ${error.keyword === 'minItems' ? 'item' : 'key'}(s)`;
    case 'maxItems':
    case 'maxProperties':
      return `takes at most ${String(params.limit)} ${error.keyword === 'maxItems' ? 'item' : 'key'}(s)`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `needs at least ${String(params.limit)} characters`;
    case 'maxLength':
      return `takes at most ${String(params.limit)} characters`;
    case 'pattern':
      // Every pattern of the schema has its errorMessage (test/scenario/format.test.ts); ajv's own text quotes the regex.
      return 'is not in the form this key takes (scenario.schema.json describes it)';
    case 'minimum':
    case 'maximum':
      return `must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${String(params.limit)}`;
    default:
      // ajv's own wording is plain for the rest: "must be >= 0", "must NOT have fewer than 1 items".
      return error.message ?? error.keyword;
  }
}
