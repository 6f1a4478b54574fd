// Field-level rules shared by every resource: read-only checks, required-when checks, and the
// create / PUT / PATCH merge. A read-only field may be sent back unchanged (a client that GETs an
// object and PUTs it back must not fail); a different value is rejected with code `read_only`.

import { isDeepStrictEqual } from 'node:util';
import { unixSeconds, type Context } from './context.ts';
import { ErrorCollector, errors } from './errors.ts';
import type { Input, Resource } from './types.ts';

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
  // The stored object's server fields are the writer's to stamp: left in, a PATCH's merge put the
  // stored updated_on back over the new one (a client patched a day later kept its creation instant).
  if (mode === 'patch') for (const field of SERVER_FIELDS) delete base[field];
  if (mode === 'put' && stored) {
    for (const field of keepOnPut) base[field] = (stored as Record<string, unknown>)[field];
  }
  for (const field of writable) {
    if (!(field in input)) continue;
    // Objects are copied, so the record shares nothing with the request; a string or number is its own value.
    const value = input[field];
    base[field] = typeof value === 'object' && value !== null ? structuredClone(value) : value;
  }
  return base as T;
}

/**
 * The create / PUT / PATCH of a resource whose only rules are its schema's and the read-only
 * server fields (clients, webhooks): the server fields, then the writable ones merged per mode.
 */
export function resourceWriter<T extends Resource, W extends keyof T & string>(type: T['type'], writable: readonly W[], defaults: Pick<T, W>) {
  return (mode: WriteMode, stored: T | undefined, input: Input, ctx: Context): T => {
    const errs = new ErrorCollector();
    rejectChanges(errs, input, stored ?? {}, SERVER_FIELDS, 'set by the server');
    errs.throwIfAny();
    const now = unixSeconds(ctx.clock.now());
    return {
      id: stored?.id ?? ctx.ids.uuid(),
      type,
      created_on: stored?.created_on ?? now,
      updated_on: now,
      ...mergeWritable<Pick<T, W>>(mode, defaults, stored, input, writable),
    } as T;
  };
}
