// A recorded exchange as the step of a scenario that sends it again: its method, path, query and body
// with the recorded ids written as the names they were saved under, its recorded status as
// `expect_status`, and the names its answer gives to later steps. Text that holds `${` as data (a
// product named "${x}") is written `$${` so that the runner sends it as it was, not as a reference.

import { readFileSync } from 'node:fs';
import type { RecordedExchange } from './exchanges.ts';
import { SCHEMA_PATH } from '../scenario/schema.ts';
import type { OutsideStep } from './outside-steps.ts';
import { replaceIdsInText } from './recorded-ids.ts';
import type { Naming } from './scenario-names.ts';

type Step = Record<string, unknown>;

/** The fields of a `pay` step (scenario.schema.json's payStep), besides the purchase. */
const PAY_FIELDS = new Set(['method', 'outcome', 'decline_code', 'save_token', 'token_outcome', 'token_outcomes']);
const PAY_PATH = /^\/sim\/v1\/purchases\/([^/]+)\/pay\/?$/;

/** Recorded text as the runner must send it: `${` is a reference there, `$${` the characters themselves. */
export const literalText = (text: string): string => text.replace(/\$\{/g, '$${');

export function written(value: unknown, naming: Naming): unknown {
  if (typeof value === 'string') return replaceIdsInText(literalText(value), naming.references);
  if (Array.isArray(value)) return value.map((item) => written(item, naming));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [literalText(key), written(item, naming)]));
}

function queryOf(query: string, naming: Naming): Record<string, string | string[]> | undefined {
  const params = new URLSearchParams(query);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of params) {
    const item = written(value, naming) as string;
    const key = literalText(name);
    const before = out[key];
    out[key] = before === undefined ? item : [...(Array.isArray(before) ? before : [before]), item];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The step that sends `exchange` again: `pay` for a payment through /sim/v1 with a pay step's fields, else `request`. */
export function requestOf(exchange: RecordedExchange, naming: Naming): Step {
  const tail = { expect_status: exchange.status, ...(naming.saves.has(exchange.index) ? { save: naming.saves.get(exchange.index) } : {}) };
  const pay = PAY_PATH.exec(exchange.path);
  const body = exchange.requestBody;
  const payBody = body === undefined ? {} : body;
  if (exchange.method === 'POST' && pay && !exchange.query && payBody !== null && typeof payBody === 'object' && !Array.isArray(payBody) && Object.keys(payBody).every((key) => PAY_FIELDS.has(key))) {
    return { pay: { purchase: written(pay[1]!, naming), ...(written(payBody, naming) as Step) }, ...tail };
  }
  const query = queryOf(exchange.query, naming);
  const request: Step = { method: exchange.method, path: written(exchange.path, naming), ...(query ? { query } : {}), ...(body !== undefined ? { body: written(body, naming) } : {}) };
  // The runner sends JSON: a form's fields go as a JSON object of strings, which the API reads alike.
  const note = exchange.requestType === 'application/x-www-form-urlencoded' ? { note: 'recorded as a form; sent as JSON with the same fields' } : {};
  return { ...note, request, ...tail };
}

/** The decline codes a pay step takes (scenario.schema.json's declineCode), read once. */
let declineCodes: Set<string> | undefined;
function knownDeclineCode(code: string): boolean {
  declineCodes ??= new Set((JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as { $defs: { declineCode: { enum: string[] } } }).$defs.declineCode.enum);
  return declineCodes.has(code);
}

/**
 * The payer's payment on the checkout page, made through the control API as a `pay` step. A decline code
 * the format does not know (one the platform added) is left out: the payment is declined with the default.
 */
export function payOf(step: OutsideStep & { kind: 'pay' }, naming: Naming): Step {
  const { decline_code: code, ...body } = step.body;
  return { pay: { purchase: written(step.purchase, naming), ...body, ...(code !== undefined && knownDeclineCode(code) ? { decline_code: code } : {}) } };
}
