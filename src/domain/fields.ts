// Field-level rules shared by every resource: read-only checks, required-when checks, and the
// create / PUT / PATCH merge. A read-only field may be sent back unchanged (a client that GETs an
// object and PUTs it back must not fail); a different value is rejected with code `read_only`.

import { isDeepStrictEqual } from 'node:util';
import { ErrorCollector, errors } from './errors.ts';
import type { Input } from './types.ts';

/** Fields the server sets on every resource; they are read-only everywhere. */
export const SERVER_FIELDS = ['id', 'type', 'created_on', 'updated_on'] as const;

export type WriteMode = 'create' | 'put' | 'patch';

/**
 * Rejects each of `fields` that the input sends with a value other than `current`'s.
 * On create there is no current object, so `current` holds what would be stored without the input.
 */
export function rejectChanges(
  errs: ErrorCollector,
  input: Input,
  current: object,
  fields: readonly string[],
  reason: string,
): void {
  const stored = current as Record<string, unknown>;
  for (const field of fields) {
    if (field in input && !isDeepStrictEqual(input[field], stored[field])) {
      errs.add(field, errors.readOnly(reason));
    }
  }
}

/** Adds `required` for each field the input lacks and `null` for each it sends as null. */
export function requireFields(errs: ErrorCollector, input: Input, fields: readonly string[]): void {
  for (const field of fields) {
    if (!(field in input)) errs.add(field, errors.required());
  }
  rejectNulls(errs, input, fields);
}

/** Adds `null` for each of `fields` that the input sends as null (a PATCH of a required field). */
export function rejectNulls(errs: ErrorCollector, input: Input, fields: readonly string[]): void {
  for (const field of fields) {
    if (field in input && input[field] === null) errs.add(field, errors.null());
  }
}

/**
 * The writable part of a new state: PATCH starts from the stored object, create and PUT (a full
 * replacement) from the defaults; the input's writable fields then overwrite it. Fields in
 * `keepOnPut` are read-only in the object's current state, so a PUT that omits them keeps them.
 */
export function mergeWritable<T extends object>(
  mode: WriteMode,
  defaults: T,
  stored: T | undefined,
  input: Input,
  writable: readonly (keyof T & string)[],
  keepOnPut: readonly (keyof T & string)[] = [],
): T {
  const base = { ...(mode === 'patch' && stored ? stored : defaults) } as Record<string, unknown>;
  if (mode === 'put' && stored) {
    for (const field of keepOnPut) base[field] = (stored as Record<string, unknown>)[field];
  }
  for (const field of writable) {
    if (field in input) base[field] = structuredClone(input[field]);
  }
  return base as T;
}
