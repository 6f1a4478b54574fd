// Bounds of what a request may hold and of what a rejection answers (DESIGN.md §6 "Bad input";
// openapi.yaml documents them under "Requests" and `Error`), named once with their reasons.
//
// Error bodies: a 1 MiB body of `{"cc": [1, 1, …]}` has 524,000 bad items; listing them all once
// took 5 s of CPU and answered 32 MB. A client needs the first errors to fix its request, so the
// body lists at most MAX_ERRORS of them, cuts long texts, stays under MAX_ERROR_BODY_BYTES, and
// says under `__all__` when something was left out (boundErrors).

import { ALL, emptyFieldErrors, errors, MAX_ERRORS, type ErrorDetail, type FieldErrors } from '../domain/errors.ts';

/** Errors listed in one body; defined beside the error type, whose collector keeps no more. */
export { MAX_ERRORS };

/**
 * Nesting of a request body. The deepest one the document defines, a product in a purchase of a
 * snapshot (`snapshot.sandbox.purchases.0.1.purchase.products.0`), is 9 levels deep; free-form
 * event payloads are a few more. Deeper input is refused before a recursive JSON.stringify or
 * structuredClone overflows the stack on it (beyond-schema.ts).
 */
export const MAX_BODY_DEPTH = 32;

/**
 * ajv errors one validation may collect before it stops (error-budget.ts): ten per listed error,
 * since ajv also reports the combinators (`if`, `allOf`) and a second code for some fields.
 */
export const RAW_ERROR_BUDGET = 10 * MAX_ERRORS;

/** Bytes of one error body (UTF-8 JSON), so an answer always fits one small read of the client. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * Characters of one field path or message. Both can echo the client: an unknown key of 900 KB is a
 * field path, a time zone of 900 KB is quoted in its message. The catalogue's own messages, the
 * allowed values of an enum included, are far shorter.
 */
export const MAX_ERROR_TEXT = 500;

const TOO_MANY = errors.tooManyErrors(0).code;
/** What the notice itself costs, kept free in the byte budget: `"__all__":[{…}]` with its message. */
const NOTICE_BYTES = 256;

function cut(text: string): string {
  return text.length <= MAX_ERROR_TEXT ? text : `${text.slice(0, MAX_ERROR_TEXT - 1)}…`;
}

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/**
 * The body to send for `fields`: at most MAX_ERRORS details in the order given, each text cut to
 * MAX_ERROR_TEXT characters, under MAX_ERROR_BODY_BYTES in all. When anything was left out (or
 * `alreadyCut`, when the caller stopped collecting early) `__all__` ends with one `too_many_errors`.
 * Idempotent: a bounded body passes through unchanged.
 */
export function boundErrors(fields: FieldErrors, alreadyCut = false): FieldErrors {
  const out = emptyFieldErrors();
  let listed = 0;
  let bytes = 2 + NOTICE_BYTES;
  let wasCut = alreadyCut;
  fill: for (const [rawField, details] of Object.entries(fields)) {
    const field = cut(rawField);
    for (const { message, code } of details) {
      if (code === TOO_MANY) {
        wasCut = true;
        continue;
      }
      const detail: ErrorDetail = { message: cut(message), code };
      const cost = jsonBytes(detail) + 1 + (Object.hasOwn(out, field) ? 0 : jsonBytes(field) + 4);
      if (listed === MAX_ERRORS || bytes + cost > MAX_ERROR_BODY_BYTES) {
        wasCut = true;
        break fill;
      }
      (out[field] ??= []).push(detail);
      listed += 1;
      bytes += cost;
    }
  }
  if (wasCut) (out[ALL] ??= []).push(errors.tooManyErrors(listed));
  return out;
}
