// The names a scenario made from a recording gives to ids: an id that an answer shows and a later
// request uses is saved from that answer (`save: {purchase_1: purchase.id}`) and written `${purchase_1}`
// where it is used. Only ids that flow get a name; the others stay out of the file (expectations never
// hold ids).
//
// A name says what the id is, read off where the answer shows it: the `type` of the object whose `id` it
// is (`billing_template_client` → `subscriber`), else the key (`client_id` → `client`, `recurring_token`
// → `token`), else the resource of the request (`POST /api/v1/webhooks/` → `webhook`). Numbered only
// when there are several of a kind: `client`, but `purchase_1`, `purchase_2`. The account's brand (any
// id under a `brand_id` key: the API has no way to create one) and a recorded sandbox are the runner's
// own `${brand_id}` and `${sandbox_id}` (src/scenario/load.ts PREDEFINED_NAMES).

import type { RecordedExchange } from './exchanges.ts';
import { idsIn, idsInText, type FoundId } from './recorded-ids.ts';
import { valueAt } from '../scenario/values.ts';

/** What `type` an object of the API has → the name of its id in a scenario. */
const TYPE_NAMES: Record<string, string> = {
  billing_template: 'template',
  billing_template_client: 'subscriber',
  recurring_token: 'token',
};
/** The same for a key that holds an id (`client_id`, `recurring_token`) or a resource in a path. */
const KEY_NAMES: Record<string, string> = {
  billing_template: 'template',
  billing_templates: 'template',
  billing_template_client: 'subscriber',
  recurring_token: 'token',
  recurring_tokens: 'token',
  clients: 'client',
  purchases: 'purchase',
  webhooks: 'webhook',
  webhook_deliveries: 'delivery',
  checkpoints: 'checkpoint',
  faults: 'fault',
};

export interface Naming {
  /** Recorded id (lower case) → `${name}`, for every id a request may be written with. */
  references: Map<string, string>;
  /** Exchange index → the names its answer saves, with their paths into it. */
  saves: Map<number, Record<string, string>>;
  /** Ids that requests use but no earlier answer of the scenario shows: left as recorded. */
  unknown: Set<string>;
}

/** The ids a request sends: in its path, its query and its body. */
export function idsSent(exchange: RecordedExchange): string[] {
  return [...idsInText(exchange.path), ...idsInText(exchange.query), ...idsIn(exchange.requestBody).map((found) => found.value)].map((id) => id.toLowerCase());
}

/**
 * Names for the ids that flow from an answer of `kept` to a later request of `kept`. `saveable` says
 * which exchanges become a step that can save (a request or a pay step; not an advance).
 */
export function nameIds(kept: readonly RecordedExchange[], saveable: (exchange: RecordedExchange) => boolean, sandbox?: RecordedExchange): Naming {
  const references = new Map<string, string>();
  const predefined = predefinedIds(kept, sandbox);
  for (const [id, name] of predefined) references.set(id, `\${${name}}`);
  const seen = new Map<string, { exchange: RecordedExchange; found: FoundId }>();
  const flowing: { id: string; exchange: RecordedExchange; found: FoundId; kind: string }[] = [];
  const unknown = new Set<string>();
  for (const exchange of kept) {
    for (const id of idsSent(exchange)) {
      if (references.has(id) || flowing.some((flow) => flow.id === id)) continue;
      const first = seen.get(id);
      if (!first) {
        unknown.add(id);
        continue;
      }
      flowing.push({ id, ...first, kind: kindOf(first.exchange, first.found) });
    }
    if (!saveable(exchange) || exchange.status < 200 || exchange.status >= 300) continue;
    for (const [id, found] of bestPaths(exchange.responseBody)) if (!seen.has(id)) seen.set(id, { exchange, found });
  }
  const saves = new Map<number, Record<string, string>>();
  const counts = new Map<string, number>();
  for (const flow of flowing) counts.set(flow.kind, (counts.get(flow.kind) ?? 0) + 1);
  const numbers = new Map<string, number>();
  for (const flow of flowing) {
    const number = (numbers.get(flow.kind) ?? 0) + 1;
    numbers.set(flow.kind, number);
    const name = counts.get(flow.kind)! > 1 ? `${flow.kind}_${number}` : flow.kind;
    references.set(flow.id, `\${${name}}`);
    saves.set(flow.exchange.index, { ...saves.get(flow.exchange.index), [name]: flow.found.path });
  }
  return { references, saves, unknown };
}

/** Brands (under `brand_id` anywhere) and the recorded sandbox's id: the runner's own names. */
function predefinedIds(kept: readonly RecordedExchange[], sandbox?: RecordedExchange): Map<string, string> {
  const ids = new Map<string, string>();
  const bodies = [sandbox?.responseBody, ...kept.flatMap((exchange) => [exchange.requestBody, exchange.responseBody])];
  for (const found of bodies.flatMap((body) => idsIn(body))) {
    if (found.path === 'brand_id' || found.path.endsWith('.brand_id')) ids.set(found.value.toLowerCase(), 'brand_id');
  }
  const own = (sandbox?.responseBody as { id?: unknown } | undefined)?.id;
  if (typeof own === 'string') ids.set(own.toLowerCase(), 'sandbox_id');
  return ids;
}

/**
 * Per id of an answer, the path to save it from: where it is an object's own `id` before where another
 * object points at it (`id` before `client_id`), then the shortest, then the first.
 */
function bestPaths(body: unknown): Map<string, FoundId> {
  const rank = (found: FoundId) => (isOwnId(found) ? 0 : 1000) + found.path.split('.').length;
  const best = new Map<string, FoundId>();
  for (const found of idsIn(body)) {
    const id = found.value.toLowerCase();
    const before = best.get(id);
    if (!before || rank(found) < rank(before)) best.set(id, found);
  }
  return best;
}

const isOwnId = (found: FoundId) => found.path === 'id' || found.path.endsWith('.id');

function kindOf(exchange: RecordedExchange, found: FoundId): string {
  const segments = found.path.split('.');
  const key = segments.at(-1)!;
  if (key === 'id') {
    const parent = segments.slice(0, -1);
    const type = valueAt(exchange.responseBody, parent.join('.')) as { type?: unknown } | undefined;
    if (typeof type?.type === 'string') return TYPE_NAMES[type.type] ?? safeName(type.type);
    const parentKey = parent.filter((segment) => !/^\d+$/.test(segment)).at(-1);
    if (parentKey) return KEY_NAMES[parentKey] ?? safeName(parentKey);
    return resourceOf(exchange.path);
  }
  const base = key.replace(/_id$/, '');
  return KEY_NAMES[base] ?? (/^\d+$/.test(base) ? 'value' : safeName(base));
}

/** The resource a path names last: `/api/v1/billing_templates/…/clients/` → its clients' name. */
function resourceOf(path: string): string {
  const words = path.split('/').filter((part) => part !== '' && !idsInText(part).length && !['api', 'sim', 'v1'].includes(part));
  const last = words.at(-1) ?? 'value';
  // A template's clients are its subscribers, not clients of the account.
  if (last === 'clients' && words.includes('billing_templates')) return 'subscriber';
  return KEY_NAMES[last] ?? safeName(last.replace(/s$/, ''));
}

/** A name the scenario format takes: letters, digits and `_`, not starting with a digit. */
const safeName = (word: string) => word.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=\d)/, '_') || 'value';
