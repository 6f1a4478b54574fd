// Limits, derived from the document's request schemas: BillingTemplateCreate, ClientCreate,
// PurchaseCreate and BillingTemplateClientCreate are walked (following $ref and allOf, into nested
// objects and array items), and every writable property yields checks:
// - minimum / maximum / minLength / maxLength / minItems / maxItems: the bound itself is accepted
//   (where a valid value of that size exists) and stored; bound - 1 / bound + 1 is rejected;
//   exclusiveMinimum: the bound is rejected;
// - enum: each value accepted (where a valid body exists for it), a value outside the set rejected;
// - a value of the wrong JSON type rejected;
// - each `required` field missing rejected.
// Plus the spec's date limits, which are rules rather than schema keywords, made by
// limits-templates-and-subscribers.test.ts. Each limits-*.test.ts file names its subjects, the
// create requests whose schemas limits-schema.ts walks; this file makes their cases and checks.
//
// Levels. A case is normative where the spec states the rule (its Limits table, or the type,
// "Required" or allowed values of a field of its BillingTemplate and BillingTemplateClient tables),
// and so is a value of the wrong JSON type for a top-level field: the platform reads bodies as Django
// REST framework does, which refuses `true` for text, "1.5" for an integer, a word for a number
// (docs/fidelity.md#request-fields); a nested field's error is named by billing-sim's dotted path,
// where Django REST framework nests it. A bound, enum or requirement that only openapi.yaml sets (client
// fields, the purchase details, PurchaseCreate) is informative. A rejection is answered as the
// platform's errors are (lib/refusal.ts): 400 naming the field's dotted path with the code of
// docs/behaviour.md#error-codes, or Django REST framework's own code for it where billing-sim's
// differs (`min_length` of a list for `min_items`, `not_a_list`, `invalid_choice` for a wrong type
// sent to a choice). The spec's rules are cited as docs/behaviour.md restates them (#template-fields,
// #subscriber-fields), the document's bounds by the request schema they come from.
//
// Ids: LIM-<schema>-<dotted path>-<case>, e.g. LIM-BillingTemplateCreate-subscription_period-max+1,
// LIM-BillingTemplateCreate-required-purchase; array items are addressed by index 0
// (purchase.products.0.price), as in the error body.

import { expect } from 'vitest';
import { check, type Level, type Requirement } from './check.ts';
import { schema as documentSchema } from './operations.ts';
import { deletePath, expectErrorAt, expectSuccess, getPath, setPath, type Placement } from './primitives.ts';
import { citing, refusalCode } from './refusal.ts';
import {
  clone,
  gen,
  isWhitelistItem,
  items,
  leafName,
  outsideEnum,
  resolve,
  sameValue,
  show,
  text,
  typeOf,
  typesOf,
  walk,
  wrongType,
  type Field,
  type Gen,
  type Node,
  type Path,
  type Setup,
  type Subject,
} from './limits-schema.ts';

// --------------------------------------------------------------------------- levels, cites

const row = (section: string, words: string) => `docs/behaviour.md#${section}: "${words}"`;
/** Fields of the spec's tables, by schema: the row's words, and whether the spec marks it required. */
const SPEC_FIELDS: Record<string, Record<string, { cite: string; required?: boolean }>> = {
  BillingTemplateCreate: {
    brand_id: { cite: row('template-fields', 'brand_id | UUID | yes | – | the brand the template belongs to') },
    title: { cite: row('template-fields', 'title | string, at most 256 characters') },
    force_recurring: { cite: row('template-fields', "force_recurring | boolean | no | false | forces saving of the customer's payment credentials") },
    purchase: { cite: row('template-fields', 'purchase | object | yes'), required: true },
    is_subscription: { cite: row('template-fields', 'is_subscription | boolean | yes'), required: true },
    issued: { cite: row('template-fields', 'issued | date or null') },
    due: { cite: row('template-fields', 'due | integer (Unix seconds) or null') },
    skip_capture: { cite: row('template-fields', 'skip_capture | boolean') },
    send_receipt: { cite: row('template-fields', 'send_receipt | boolean') },
    subscription_period: { cite: row('template-fields', 'subscription_period | integer, 1 to 256') },
    subscription_period_units: { cite: row('template-fields', 'The units take only the values days, weeks and months') },
    subscription_due_period: { cite: row('template-fields', 'subscription_due_period | integer, 1 to 256') },
    subscription_due_period_units: { cite: row('template-fields', 'The units take only the values days, weeks and months') },
    subscription_charge_period_end: { cite: row('template-fields', 'subscription_charge_period_end | boolean') },
    subscription_trial_periods: { cite: row('template-fields', 'subscription_trial_periods | integer, 0 to 256') },
    subscription_paused: { cite: row('template-fields', 'subscription_paused | boolean') },
  },
  BillingTemplateClientCreate: {
    client_id: { cite: row('subscriber-fields', 'client_id | UUID | yes'), required: true },
    send_receipt: { cite: row('subscriber-fields', 'send_receipt | boolean') },
    send_invoice_on_charge_failure: { cite: row('subscriber-fields', 'send_invoice_on_charge_failure | boolean') },
    subscription_deduction_date: { cite: row('subscriber-fields', 'subscription_deduction_date | date | yes'), required: true },
    mandate_expiry_date: { cite: row('subscriber-fields', 'mandate_expiry_date | date | yes'), required: true },
    subscription_first_deduction_date: { cite: row('subscriber-fields', 'subscription_first_deduction_date | date or null') },
    subscription_first_deduction_amount: { cite: row('subscriber-fields', 'subscription_first_deduction_amount | integer, at least 1, or null') },
    status: { cite: row('subscriber-fields', 'status | inactive, pending, active or subscription_paused') },
    payment_method_whitelist: { cite: row('subscriber-fields', 'payment_method_whitelist | array of strings, at least 1 item, or null') },
    default_service_type: { cite: row('subscriber-fields', 'default_service_type | ONEDAY or TWODAY') },
  },
};

/** A bound only the document sets: the request schema, and the keyword at the field's path. */
const documentCite = (schemaName: string, path: Path, what: string) => `openapi.yaml#/components/schemas/${schemaName}, ${path.join('.')}: ${what}`;

function specRow(schemaName: string, path: Path) {
  return path.length === 1 ? SPEC_FIELDS[schemaName]?.[path[0]!] : undefined;
}

/** A value of the wrong JSON type: refused by the platform as by Django REST framework. */
const WRONG_TYPE = 'docs/fidelity.md#request-fields: "are refused as on the platform"';

/** Django REST framework's codes for a list's length, beside billing-sim's (a ListField's min_length, max_length; empty). */
const DRF_LIST_CODES = { min_items: ['min_length', 'empty'], max_items: ['max_length'] };

/**
 * Django REST framework's codes for a value of the wrong JSON type where they are not `invalid`: a list
 * refuses anything else as `not_a_list`, a choice field any value outside its choices as `invalid_choice`.
 */
function wrongTypeCodes(node: Node): string[] {
  if (typesOf(node).includes('array')) return ['not_a_list'];
  if (Array.isArray(node.enum)) return ['invalid_choice'];
  return [];
}

// ------------------------------------------------------------------------------ cases

export interface Case {
  id: string;
  title: string;
  level: Level;
  cites: string;
  path: Path;
  outcome: 'accepted' | 'rejected';
  /** The error code of docs/behaviour.md#error-codes for a rejection. */
  code?: string;
  /** Other codes a target may answer at the field: Django REST framework's, where billing-sim's differs. */
  also?: string[];
  /** The value to put at path; `undefined` from it means no such value is known: the case is not made. */
  value?: (g: Gen, setup: Setup) => Promise<unknown> | unknown;
  /** Remove the field instead of setting it. */
  remove?: boolean;
  /** `['simulator']` for a field only the simulator has (`x-simulator-only`): never required of another target. */
  requires?: Requirement[];
}

export function casesOf(subject: Subject): Case[] {
  const root = resolve(documentSchema(subject.schema));
  const fields: Field[] = [];
  const requireds: Path[] = [];
  walk(root, [], fields, requireds);
  const cases: Case[] = [];
  const name = subject.schema;

  for (const { path, node } of fields) {
    const dotted = path.join('.');
    const spec = specRow(name, path);
    const level: Level = spec ? 'normative' : 'informative';
    const base = `LIM-${name}-${dotted}`;
    const requires: Requirement[] = node['x-simulator-only'] === true ? ['simulator'] : [];
    const add = (suffix: string, c: Omit<Case, 'id' | 'path' | 'level' | 'cites'> & { cites: string; level?: Level }) =>
      cases.push({ id: `${base}-${suffix}`, path, level: c.level ?? level, requires, ...c });
    const field: Field = { path, node };
    const type = typeOf(node);

    const wrong = wrongType(node);
    if (wrong !== undefined) {
      add('type', {
        title: `${dotted} of the wrong JSON type (${typesOf(node).join(' or ')} expected, ${show(wrong)} sent) is rejected`,
        // At the top level only: a nested field's error is named by billing-sim's dotted path
        // (docs/behaviour.md#error-body), where Django REST framework nests it.
        cites: citing(spec?.cite ?? documentCite(name, path, `type ${typesOf(node).join(' or ')}`), path.length === 1 ? WRONG_TYPE : undefined),
        level: path.length === 1 ? 'normative' : level,
        outcome: 'rejected',
        code: 'invalid',
        also: wrongTypeCodes(node),
        value: () => wrong,
      });
    }

    if (type === 'integer' || type === 'number') {
      if (typeof node.minimum === 'number') {
        const min = node.minimum as number;
        const cite = spec?.cite ?? documentCite(name, path, `minimum ${min}`);
        add('min', { title: `${dotted} = ${min} (the minimum) is accepted and stored`, cites: cite, outcome: 'accepted', value: () => min });
        add('min-1', { title: `${dotted} = ${min - 1} (minimum − 1) is rejected`, cites: cite, outcome: 'rejected', code: 'min_value', value: () => min - 1 });
      }
      if (typeof node.exclusiveMinimum === 'number') {
        const min = node.exclusiveMinimum as number;
        add('xmin', {
          title: `${dotted} = ${min} (its exclusive minimum) is rejected`,
          cites: spec?.cite ?? documentCite(name, path, `exclusiveMinimum ${min}`),
          outcome: 'rejected',
          code: 'min_value',
          value: () => min,
        });
      }
      if (typeof node.maximum === 'number') {
        const max = node.maximum as number;
        const cite = spec?.cite ?? documentCite(name, path, `maximum ${max}`);
        add('max', { title: `${dotted} = ${max} (the maximum) is accepted and stored`, cites: cite, outcome: 'accepted', value: () => max });
        add('max+1', { title: `${dotted} = ${max + 1} (maximum + 1) is rejected`, cites: cite, outcome: 'rejected', code: 'max_value', value: () => max + 1 });
      }
    }

    if (type === 'string') {
      if (typeof node.minLength === 'number' && node.minLength > 0) {
        const min = node.minLength as number;
        const cite = spec?.cite ?? documentCite(name, path, `minLength ${min}`);
        add('minLength', { title: `${dotted} of ${min} characters (the minimum) is accepted and stored`, cites: cite, outcome: 'accepted', value: (g) => text(g, field, min, false) });
        add('minLength-1', { title: `${dotted} of ${min - 1} characters (minimum − 1) is rejected`, cites: cite, outcome: 'rejected', code: 'min_length', value: (g) => text(g, field, min - 1, true) });
      }
      if (typeof node.maxLength === 'number') {
        const max = node.maxLength as number;
        const cite = spec?.cite ?? documentCite(name, path, `maxLength ${max}`);
        add('maxLength', { title: `${dotted} of ${max} characters (the maximum) is accepted and stored`, cites: cite, outcome: 'accepted', value: (g) => text(g, field, max, false) });
        add('maxLength+1', { title: `${dotted} of ${max + 1} characters (maximum + 1) is rejected`, cites: cite, outcome: 'rejected', code: 'max_length', value: (g) => text(g, field, max + 1, true) });
      }
    }

    if (type === 'array') {
      if (typeof node.minItems === 'number') {
        const min = node.minItems as number;
        const cite = spec?.cite ?? documentCite(name, path, `minItems ${min}`);
        add('minItems', { title: `${dotted} with ${min} item(s) (the minimum) is accepted and stored`, cites: cite, outcome: 'accepted', value: (g, s) => items(g, field, s, min) });
        add('minItems-1', {
          title: `${dotted} with ${min - 1} item(s) (minimum − 1) is rejected`,
          cites: cite,
          outcome: 'rejected',
          code: 'min_items',
          also: DRF_LIST_CODES.min_items,
          value: (g, s) => items(g, field, s, min - 1),
        });
      }
      if (typeof node.maxItems === 'number') {
        const max = node.maxItems as number;
        const cite = spec?.cite ?? documentCite(name, path, `maxItems ${max}`);
        add('maxItems', { title: `${dotted} with ${max} items (the maximum) is accepted and stored`, cites: cite, outcome: 'accepted', value: (g, s) => items(g, field, s, max) });
        add('maxItems+1', {
          title: `${dotted} with ${max + 1} items (maximum + 1) is rejected`,
          cites: cite,
          outcome: 'rejected',
          code: 'max_items',
          also: DRF_LIST_CODES.max_items,
          value: (g, s) => items(g, field, s, max + 1),
        });
      }
    }

    if (Array.isArray(node.enum)) {
      const values = node.enum as unknown[];
      // The values without quotes: a quote in a citation is the rule's words (lib/citations.ts).
      const cite = spec?.cite ?? documentCite(name, path, `enum [${values.map((v) => String(v)).join(', ')}]`);
      for (const choice of values) {
        // The server sets a subscriber's status (active, or pending per the state table); a value sent on
        // add_subscriber is accepted only when it equals that status (openapi.yaml, status): no valid body
        // exists for inactive or subscription_paused, and accepting the other two is the document's decision.
        if (name === 'BillingTemplateClientCreate' && dotted === 'status') {
          if (choice !== 'active' && choice !== 'pending') continue;
          add(`enum-${choice}`, {
            title: `status "${choice}", the status add_subscriber gives, is accepted and stored`,
            cites: documentCite(name, path, '(a value equal to the resulting status is accepted)'),
            level: 'informative',
            outcome: 'accepted',
            value: () => choice,
          });
          continue;
        }
        add(`enum-${String(choice)}`, { title: `${dotted} = ${JSON.stringify(choice)} (an allowed value) is accepted and stored`, cites: cite, outcome: 'accepted', value: () => choice });
      }
      const bad = outsideEnum(values);
      add('enum-invalid', { title: `${dotted} = "${bad}" (not an allowed value) is rejected`, cites: cite, outcome: 'rejected', code: 'invalid_choice', value: () => bad });
    }
  }

  for (const path of requireds) {
    const dotted = path.join('.');
    const spec = specRow(name, path);
    const level: Level = spec?.required ? 'normative' : 'informative';
    cases.push({
      id: `LIM-${name}-required-${dotted}`,
      title: `${dotted} missing (required) is rejected`,
      level,
      cites: spec?.required ? spec.cite : documentCite(name, path, 'required'),
      path,
      outcome: 'rejected',
      code: 'required',
      remove: true,
    });
  }
  return cases;
}

// ------------------------------------------------------------------------------ checks

/** The case's body: the subject's valid body with the case applied; undefined when no value is known. */
async function apply(c: Case, g: Gen): Promise<{ setup: Setup; body: Node; value: unknown } | undefined> {
  // The subscriber subject picks its template by the value (status), so the value comes first.
  const early = c.value && c.path[0] === 'status' ? await c.value(g, { body: {} } as Setup) : undefined;
  const probe = await subjectOf(c).prepare(g, c.path, early);
  const body = clone(probe.body);
  if (c.remove) {
    deletePath(body, c.path);
    return { setup: probe, body, value: undefined };
  }
  const value = early !== undefined ? early : await c.value!(g, probe);
  if (value === undefined) return undefined;
  setPath(body, c.path, value);
  raisePriceToDiscount(body, c.path, value);
  return { setup: probe, body, value };
}

/**
 * A product's discount may not exceed round(price × quantity) (openapi.yaml, Product.discount), so a
 * case that sends a large discount gives the line a price to match: the case tests the bound of
 * `discount`, not that rule.
 */
function raisePriceToDiscount(body: Node, path: Path, value: unknown): void {
  if (path.at(-1) !== 'discount' || typeof value !== 'number') return;
  const line = path.slice(0, -1);
  const price = getPath(body, [...line, 'price']);
  if (typeof price === 'number' && price < value) setPath(body, [...line, 'price'], value);
}

const subjectByCase = new Map<Case, Subject>();
const subjectOf = (c: Case) => subjectByCase.get(c)!;

export function checks(subject: Subject, cases: Case[]): void {
  for (const c of cases) {
    subjectByCase.set(c, subject);
    const dotted = c.path.join('.');
    if (c.outcome === 'accepted') {
      check({ id: c.id, title: c.title, cites: c.cites, level: c.level, requires: c.requires }, async (ctx) => {
        const applied = await apply(c, gen(ctx));
        if (!applied) throw new Error(`no valid value is known for ${dotted} (${c.id})`);
        const res = await applied.setup.send(applied.body);
        expectSuccess(res, `${subject.schema} with ${dotted} = ${show(applied.value)}`);
        const stored = getPath(await applied.setup.read(res), c.path);
        // A decimal field answers the number sent as a decimal string (sameValue); anything else as it was sent.
        if (!sameValue(applied.value, stored)) expect({ [dotted]: stored }, 'the stored value').toMatchObject({ [dotted]: applied.value as any });
      });
      continue;
    }
    const placements: Placement[] = [c.code!, ...(c.also ?? [])].map((code) => [dotted, code] as const);
    const codes = placements.map(([, code]) => code).join(' or ');
    check(
      { id: c.id, title: `${c.title}: 400, "${dotted}": ${codes}, and nothing is created`, cites: citing(c.cites, refusalCode(c.code!)), level: c.level, requires: c.requires },
      async (ctx) => {
        const applied = await apply(c, gen(ctx));
        if (!applied) throw new Error(`no value is known for ${dotted} (${c.id})`);
        expectErrorAt(await applied.setup.send(applied.body), placements);
        await applied.setup.nothingCreated();
      },
    );
  }
}

/** Cases whose value exists only for some fields (e.g. a 64-character time zone) are dropped here. */
export function feasible(c: Case): boolean {
  if (c.outcome !== 'accepted' || !c.value) return true;
  const leaf = leafName(c.path);
  if (leaf === 'timezone') return false; // no IANA zone has exactly 1 or 64 characters
  if (isWhitelistItem(c.path) && c.id.endsWith('-minLength')) return false; // no 1-character payment method name
  return true;
}
