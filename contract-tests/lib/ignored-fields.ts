// Fields a target may refuse or ignore. The platform, a Django REST framework service, ignores a body
// field it does not know and one that is always the server's (`id`, `status` on create, `company_id`,
// `order_id`, `created_on`, …); billing-sim ignores them too by default and refuses them in a strict
// sandbox (400 `unknown_field` / `read_only`, docs/behaviour.md#requests, #read-only-fields). Either is
// right. What is never right is a field so sent changing something: `status: "paid"` on a create
// leaving the purchase paid, the `id` sent becoming its id, a misspelt field stored and answered.
//
//   const how = expectRefusedOrIgnored(reply, { status: 'paid', id: SENT_ID });
//   if (how === 'ignored') expectNotTaken(await getPurchase(…), { status: 'paid', id: SENT_ID });
//
// The spec's own read-only rules (a template's fields by its kind or once launched, a pending
// subscriber's status) are no such field: their checks require the 400 (expectError).

import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import type { Reply } from './client.ts';
import { getPath } from './primitives.ts';

/** The codes of a refused field of this kind: not defined by the operation, or the server's. */
export const IGNORABLE_CODES = ['unknown_field', 'read_only'] as const;

/** Sent fields by their dotted path as an error body names them (`purchase.products.0.prise`), with the values sent. */
export type SentFields = Record<string, unknown>;

/**
 * The answer to a request that sent `fields` (a valid request otherwise): refused — 400, the error
 * body naming each field with one of `codes` — or accepted (2xx). Anything else fails. Says which;
 * an accepted request is then for the caller to read back (expectNotTaken).
 */
export function expectRefusedOrIgnored(reply: Reply, fields: SentFields, codes: readonly string[] = IGNORABLE_CODES): 'refused' | 'ignored' {
  const names = Object.keys(fields);
  if (reply.status >= 200 && reply.status <= 299) return 'ignored';
  const wanted = `400 naming ${names.join(', ')} (${codes.join(' or ')}), or a 2xx that ignores ${names.length === 1 ? 'it' : 'them'}`;
  expect(reply.status, `expected ${wanted}; got ${reply.status}: ${reply.text.slice(0, 800)}`).toBe(400);
  const errors = (reply.body ?? {}) as Record<string, Array<{ code?: string }> | undefined>;
  for (const name of names) {
    const found = (errors[name] ?? []).map((error) => error.code);
    expect(
      found.some((code) => codes.includes(code ?? '')),
      `the error body must name "${name}" with ${codes.join(' or ')}; it names ${JSON.stringify(Object.keys(errors))}: ${reply.text.slice(0, 800)}`,
    ).toBe(true);
  }
  return 'refused';
}

/**
 * An object a request that sent `fields` made or changed, as answered or read back: none of them was
 * taken. Each path (`status`, `purchase.products.0.prise`) holds anything but the value sent: the
 * server's own value, or nothing.
 */
export function expectNotTaken(object: unknown, fields: SentFields, where = 'the object'): void {
  for (const [path, sent] of Object.entries(fields)) {
    const stored = getPath(object, path.split('.'));
    expect(
      !isDeepStrictEqual(stored, sent),
      `${where}: "${path}" was sent as ${JSON.stringify(sent)}, a field the server must ignore or refuse, and it was taken (${path} = ${JSON.stringify(stored)})`,
    ).toBe(true);
  }
}

/** Whether `value` holds, at any depth, the key `name` with the value `sent` (a misspelt field answered back). */
export function carries(value: unknown, name: string, sent: unknown): boolean {
  if (Array.isArray(value)) return value.some((item) => carries(item, name, sent));
  if (!value || typeof value !== 'object') return false;
  const object = value as Record<string, unknown>;
  if (Object.hasOwn(object, name) && isDeepStrictEqual(object[name], sent)) return true;
  return Object.values(object).some((item) => carries(item, name, sent));
}
