// Validators compiled when the package is built, not at each start. `npm run build` writes one
// module per kind of validator (schemas.ts: bodies, query strings, snapshots) beside this one, with
// ajv's standalone code of every operation's validators and of the snapshot's: compiling them took
// about a second of CPU in every process that started a simulator or a proxy (its warm-up), and
// 0.7 s more at each start with a data file, the snapshot's. A module holds the digest of the
// document it was compiled from and is used only for that document; the sources have none, and
// compile on first use as before.
//
// A module is CommonJS, loaded at once where a validator is first needed (a compile happens there
// too), and exports a function of what its code takes from the package — the formats and the error
// budget's stop (PRECOMPILED_PARAMETERS) — that answers its validators by name.

import { createHash } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { stop } from './error-budget.ts';
import { onFirstUse, requireLater } from './lazy.ts';
import { FORMATS, type SchemaKind } from './schemas.ts';

/** What a validator module exports. */
interface ValidatorModule {
  (formats: unknown, stopValidation: unknown): Record<string, ValidateFunction>;
  /** sha256 of the document's JSON text (JSON.stringify of the parsed document). */
  document: string;
}

/** The file of a kind's module, beside this one (dist/src/contract/, where the CLI's bundle finds it too). */
export const fileOf = (kind: SchemaKind) => `./validators.${kind}.cjs`;

/** Digests by document object: routes.ts and schemas.ts key their compiled validators by it, each start asks twice. */
const digests = new WeakMap<object, string>();

/** sha256 of a document's JSON text (JSON.stringify of the parsed document), computed once per document object. */
export function documentDigest(doc: object): string {
  let digest = digests.get(doc);
  if (digest === undefined) digests.set(doc, (digest = createHash('sha256').update(JSON.stringify(doc)).digest('hex')));
  return digest;
}

/** Each kind's module, loaded once: its validators, or null when there is none (the sources). */
const loaded = Object.fromEntries(
  (['body', 'query', 'snapshot'] as const).map((kind) => [
    kind,
    onFirstUse((): { document: string; validators: Record<string, ValidateFunction> } | null => {
      let file: string;
      try {
        file = requireLater.resolve(fileOf(kind));
      } catch {
        // The module itself is not there (the sources): compile. A module that is there but fails to load throws.
        return null;
      }
      const module = requireLater(file) as ValidatorModule;
      return { document: module.document, validators: module(FORMATS(), stop) };
    }),
  ]),
) as Record<SchemaKind, () => { document: string; validators: Record<string, ValidateFunction> } | null>;

/** The validator `name` of `kind` compiled at build time, if it was, from the document whose digest is `document`. */
export function precompiled(kind: SchemaKind, document: string, name: string): ValidateFunction | undefined {
  const module = loaded[kind]();
  return module?.document === document ? module.validators[name] : undefined;
}
