// What a scenario made from a recording checks in an answer (`expect: {fields: …}`): the values a team
// would notice if they changed, and nothing that differs on every run. Kept small on purpose: a
// fixture whose every answer is pinned field by field fails on each harmless change and is read by no one.
//
// - An error answer (`{field: [{message, code}]}`): each field's codes, never the messages (their
//   wording is the platform's to change). A field named with dots (`purchase.products`) is written as
//   a JSON pointer, `/purchase.products/0/code`, so that the dots stay part of the name.
// - Any other answer: at its top level, statuses, amounts and totals, currencies and flags (`is_…`,
//   `has_…`, `…_paused`, `marked_as_paid`); one level down (`purchase.total`, `payment.amount`,
//   `billing_template_client.status`) only status, total, amount and currency.
// - A list (`{results: […]}`): its items' statuses, one entry per item, so that the count is checked too.
// Never ids, instants, URLs, nor `is_test` (the account's mode, which the simulator cannot know).

import { isId } from './recorded-ids.ts';

/** A list longer than this is not checked item by item: a page of 1,000 would bury the file. */
export const MAX_LISTED_ITEMS = 25;

const TOP_LEVEL_KEY = /(^|_)(status|amount|total|currency|availability|count|passed)$|^(is|has)_|_has_|_paused$|^marked_as_paid$/;
const NESTED_KEY = /^(status|total|amount|currency)$/;
/** Flags of the account rather than of the flow: a replay tells them apart as what the simulator cannot know. */
const ACCOUNT_KEYS = new Set(['is_test']);
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}|$)/;

type Fields = Record<string, unknown>;

/** Whether a recorded value may be expected as it is: a scalar that is no id, no URL and no instant. */
function expectable(value: unknown): boolean {
  if (typeof value === 'boolean' || typeof value === 'number') return true;
  if (typeof value !== 'string') return false;
  return !isId(value) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value) && !ISO_INSTANT.test(value);
}

/** Whether a body is the API's error body: every value a list of `{message, code}`. */
function isErrorBody(body: Record<string, unknown>): boolean {
  const values = Object.values(body);
  return values.length > 0 && values.every((value) => Array.isArray(value) && value.every((item) => item !== null && typeof item === 'object' && 'code' in item));
}

/**
 * The fields to expect of a recorded answer, or undefined when nothing in it is worth a step.
 * `skip(path, value)` leaves a value out (a status that the scenario cannot reproduce).
 */
export function fieldsToExpect(status: number, body: unknown, skip: (path: string, value: unknown) => boolean = () => false): Fields | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const object = body as Record<string, unknown>;
  const fields: Fields = {};
  if (status >= 400 && isErrorBody(object)) {
    for (const [field, errors] of Object.entries(object)) {
      (errors as { code: unknown }[]).forEach((error, index) => {
        if (typeof error.code === 'string') fields[field.includes('.') || field.includes('/') ? `/${pointerPart(field)}/${index}/code` : `${field}.${index}.code`] = error.code;
      });
    }
    return Object.keys(fields).length > 0 ? fields : undefined;
  }
  if (Array.isArray(object.results)) {
    const items = object.results as unknown[];
    if (items.length <= MAX_LISTED_ITEMS) fields.results = items.map((item, index) => listedItem(item, `results.${index}`, skip));
    return fields;
  }
  for (const [key, value] of Object.entries(object)) {
    if (TOP_LEVEL_KEY.test(key) && !ACCOUNT_KEYS.has(key) && expectable(value) && !skip(key, value)) fields[key] = value;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const [inner, item] of Object.entries(value)) {
      const path = `${key}.${inner}`;
      if (NESTED_KEY.test(inner) && expectable(item) && !skip(path, item)) fields[path] = item;
    }
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** An item of a list as expected: its status, or `{}` (any object: the item is counted). */
function listedItem(item: unknown, path: string, skip: (path: string, value: unknown) => boolean): Fields {
  const status = (item as { status?: unknown } | null)?.status;
  return expectable(status) && !skip(`${path}.status`, status) ? { status } : {};
}

/** A JSON pointer's segment (RFC 6901): `~` and `/` escaped. */
const pointerPart = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
