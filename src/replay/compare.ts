// One recorded answer against the simulator's answer to the same request, replayed: what differs.
//
// Compared, in this order (a difference found at one level hides the levels below it):
// 1. the HTTP status code: when it differs, the bodies are not compared (a 404's body beside a 200's
//    would be every key of the object again);
// 2. the key paths and their JSON types. Array items are one path, `results[]`, whose keys are the
//    union of every item's, so a list of 3 against a list of 4 is one count, not 4 differences;
// 3. the values that must agree (MUST_AGREE: statuses, amounts, totals, quantities, discounts, taxes,
//    currencies, flags, event and object types, payment methods, error codes; calendar dates), and the
//    length of each array. Every other value is compared by its shape only: an id against an id, an
//    instant against an instant, a URL against a URL (ids, instants, URLs, tokens and scrubbed e-mails
//    differ on every run by nature).
//
// The replay's differences are each reported once (Differences): grouped by operation (the
// operationId of openapi.yaml, or `METHOD /path/{id}/` for a request outside it), kind and key path,
// with every exchange it concerns; the values shown are the first exchange's.
//
// Array items are paired by the id map where they have ids (a list's order among objects created in
// the same frozen second is the server's to choose), else by position.

import { isId } from '../recording/recorded-ids.ts';
import { documentedWhy, unknowableWhy } from './unknowable.ts';

export type DifferenceKind = 'http_status' | 'missing' | 'extra' | 'type' | 'value' | 'count' | 'shape';

export interface Finding {
  kind: DifferenceKind;
  /** Dotted key path, `[]` for an array's items, `["a.b"]` for a key holding dots (an error body's field); '' for the status code. */
  path: string;
  recorded: string;
  replayed: string;
}

export interface Answered {
  status: number;
  body: unknown;
}

/**
 * Keys whose values must agree, by name. `type` is an object's kind (`purchase`, `payment`), `code` an
 * error's or a decline's, `payment_method` the method a payment went through.
 */
const MUST_AGREE =
  /^(status|\w+_status|total|\w+_total|amount|\w+_amount|price|quantity|discount|tax_percent|\w+_tax|currency|\w+_currency|event_type|type|payment_method|code|count|\w+_count|number_of_\w+)$/;
/** Arrays of names whose members must agree, in any order: `payment_method_whitelist`, `available_payment_methods`. */
const NAMES_MUST_AGREE = /payment_method/;
/** A calendar day (`issued`, `subscription_billing_scheduled_on`): where month-end rules show, so it must agree. */
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
/** Longest rendering of a value in a finding: a report line, not a dump. */
const MAX_SHOWN = 80;

export const show = (value: unknown): string => {
  const text = value === undefined ? '(none)' : JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
};

const jsonType = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

const child = (path: string, key: string): string => {
  const segment = /^[\w-]+$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  return path === '' ? segment : segment.startsWith('[') ? `${path}${segment}` : `${path}.${segment}`;
};

/** Every key path of a body with the JSON types found there (items of an array: their union). */
function shapeOf(value: unknown, path = '', into = new Map<string, Set<string>>()): Map<string, Set<string>> {
  if (path !== '') into.set(path, (into.get(path) ?? new Set()).add(jsonType(value)));
  if (Array.isArray(value)) for (const item of value) shapeOf(item, `${path}[]`, into);
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) shapeOf(item, child(path, key), into);
  return into;
}

/** The path an item or key hangs under: `a.b[]` → `a.b`, `a.b` → `a`. */
const parentOf = (path: string): string => /^(.*?)(\[\]|\.[\w-]+|\["[^"]*"\])$/.exec(path)?.[1] ?? '';

function shapeFindings(recorded: unknown, replayed: unknown): Finding[] {
  const before = shapeOf(recorded);
  const after = shapeOf(replayed);
  const findings: Finding[] = [];
  const reported = new Set<string>();
  // A key below one already reported (missing, extra or of another type) is that difference again.
  const covered = (path: string): boolean => {
    for (let up = parentOf(path); up !== ''; up = parentOf(up)) if (reported.has(up)) return true;
    return false;
  };
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(path);
    const is = after.get(path);
    if (covered(path)) continue;
    const types = (set?: Set<string>) => (set ? [...set].sort().join('|') : '(none)');
    if (was && is && types(was) === types(is)) continue;
    const kind = !is ? 'missing' : !was ? 'extra' : 'type';
    reported.add(path);
    findings.push({ kind, path, recorded: types(was), replayed: types(is) });
  }
  return findings;
}

type Pairing = (recorded: unknown[], replayed: unknown[]) => [unknown, unknown][];

/** Items of two arrays side by side: those whose ids the map pairs first, then the rest in order. */
export function pairItems(ids: ReadonlyMap<string, string>): Pairing {
  return (recorded, replayed) => {
    const idOf = (item: unknown) => (item !== null && typeof item === 'object' && isId((item as { id?: unknown }).id) ? (item as { id: string }).id.toLowerCase() : undefined);
    const free = new Set(replayed.keys());
    const pairs: [unknown, unknown][] = [];
    const unpaired: unknown[] = [];
    for (const item of recorded) {
      const mapped = ids.get(idOf(item) ?? '');
      const at = mapped === undefined ? -1 : replayed.findIndex((other, index) => free.has(index) && idOf(other) === mapped.toLowerCase());
      if (at === -1) unpaired.push(item);
      else {
        free.delete(at);
        pairs.push([item, replayed[at]]);
      }
    }
    const rest = [...free].sort((a, b) => a - b);
    unpaired.forEach((item, index) => index < rest.length && pairs.push([item, replayed[rest[index]!]]));
    return pairs;
  };
}

const lastKey = (path: string): string => /([\w-]+)(\[\])*$/.exec(path)?.[1] ?? '';

function formatOf(text: string): string {
  if (isId(text)) return 'an id';
  if (INSTANT.test(text)) return 'an instant';
  if (DATE.test(text)) return 'a date';
  if (/^https?:\/\//.test(text)) return 'a URL';
  return 'text';
}

interface ValueRules {
  pair: Pairing;
  ids: ReadonlyMap<string, string>;
  /** Paths whose values are compared whatever their key (the account's values, to be listed apart). */
  listed: (path: string) => boolean;
}

function valueFindings(recorded: unknown, replayed: unknown, path: string, rules: ValueRules, into: Finding[]): void {
  const { pair } = rules;
  if (jsonType(recorded) !== jsonType(replayed)) return; // a type difference: the shape says it
  if (Array.isArray(recorded)) {
    const other = replayed as unknown[];
    const names = recorded.every((item) => typeof item === 'string') && other.every((item) => typeof item === 'string');
    if (names && NAMES_MUST_AGREE.test(lastKey(path))) {
      const [a, b] = [[...recorded].sort(), [...other].sort()];
      if (JSON.stringify(a) !== JSON.stringify(b)) into.push({ kind: 'value', path, recorded: show(a), replayed: show(b) });
      return;
    }
    if (recorded.length !== other.length) {
      // The items are not the same set: comparing some of them by position would list strangers' differences.
      into.push({ kind: 'count', path, recorded: String(recorded.length), replayed: String(other.length) });
      return;
    }
    for (const [a, b] of pair(recorded, other)) valueFindings(a, b, `${path}[]`, rules, into);
    return;
  }
  if (recorded !== null && typeof recorded === 'object') {
    const other = replayed as Record<string, unknown>;
    for (const [key, value] of Object.entries(recorded)) if (key in other) valueFindings(value, other[key], child(path, key), rules, into);
    return;
  }
  // An id agrees with the one the map pairs it with: the same object on each side.
  if (recorded === replayed || (isId(recorded) && rules.ids.get(recorded.toLowerCase()) === replayed)) return;
  const mustAgree = typeof recorded === 'boolean' || MUST_AGREE.test(lastKey(path)) || (typeof recorded === 'string' && DATE.test(recorded)) || rules.listed(path);
  if (mustAgree) into.push({ kind: 'value', path, recorded: show(recorded), replayed: show(replayed) });
  else if (typeof recorded === 'string' && recorded !== '' && replayed !== '' && formatOf(recorded) !== formatOf(replayed as string)) {
    into.push({ kind: 'shape', path, recorded: formatOf(recorded), replayed: formatOf(replayed as string) });
  }
}

/**
 * What differs between a recorded answer and the replayed one (see the header); each finding once per
 * path. `listed` names paths whose values are compared though they need not agree: the account's own
 * values, which the report lists as what the simulator cannot know.
 */
export function compareAnswers(recorded: Answered, replayed: Answered, ids: ReadonlyMap<string, string> = new Map(), listed: (path: string) => boolean = () => false): Finding[] {
  if (recorded.status !== replayed.status) return [{ kind: 'http_status', path: '', recorded: String(recorded.status), replayed: String(replayed.status) }];
  const shape = shapeFindings(recorded.body, replayed.body);
  const values: Finding[] = [];
  valueFindings(recorded.body, replayed.body, '', { pair: pairItems(ids), ids, listed }, values);
  // Items of a list give the same path once each: one finding per path and kind is enough.
  const seen = new Set(shape.map((finding) => `${finding.kind} ${finding.path}`));
  return [...shape, ...values.filter((finding) => !seen.has(`${finding.kind} ${finding.path}`) && seen.add(`${finding.kind} ${finding.path}`))];
}

export interface Difference {
  operation: string;
  kind: DifferenceKind;
  /** Key path in the answer (see compare.ts); '' for the status code. */
  path: string;
  recorded: string;
  replayed: string;
  /** Indexes of the recording's entries (from 0) where it shows. */
  exchanges: number[];
  /** Only for what the simulator cannot know: why it cannot. */
  why?: string;
  /** Only for billing-sim's documented differences (unknowable.ts DOCUMENTED): where they are documented. */
  documented?: string;
}

export class Differences {
  private readonly groups = new Map<string, Difference>();

  /** Adds an exchange's findings; `why` marks them all as unknowable (an object that existed before). */
  add(operation: string, index: number, findings: readonly Finding[], why?: string): void {
    for (const finding of findings) {
      // A difference about an object that existed before is kept apart from the same one found as drift.
      const key = JSON.stringify([operation, finding.kind, finding.path, why ?? null]);
      const known = this.groups.get(key);
      if (known) {
        if (!known.exchanges.includes(index)) known.exchanges.push(index);
        continue;
      }
      const reason = why ?? unknowableWhy(operation, finding.path);
      const documented = reason ? undefined : documentedWhy(finding.kind, finding.path);
      this.groups.set(key, { operation, ...finding, exchanges: [index], ...(reason ? { why: reason } : {}), ...(documented ? { documented } : {}) });
    }
  }

  get drift(): Difference[] {
    return [...this.groups.values()].filter((difference) => difference.why === undefined && difference.documented === undefined);
  }

  get documented(): Difference[] {
    return [...this.groups.values()].filter((difference) => difference.documented !== undefined);
  }

  get unknowable(): Difference[] {
    return [...this.groups.values()].filter((difference) => difference.why !== undefined);
  }
}
