// `expect: {count: purchases|events|emails, is|at_least|at_most: N, …filters}`: reads the whole
// list and counts what the filters keep. When the count is wrong, the report lists what was found
// (up to SHOWN_ITEMS), since "2 instead of 3" alone rarely says which billing is missing.

import { type Connection, describeAnswer, type Query } from './client.ts';
import { StepFailure } from './failure.ts';

/** Items listed in a failed count's report. */
const SHOWN_ITEMS = 10;

type Item = Record<string, unknown>;

interface Counted {
  path: string;
  /** Filters the API applies itself (GET /api/v1/purchases/ has them). */
  query: (spec: Item) => Query;
  /** Filter name → the item's field it compares. */
  fields: Record<string, string>;
  noun: string;
  summary: (item: Item) => string;
}

const iso = (seconds: unknown): string => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString().replace('.000', '') : String(seconds));

const COUNTED: Record<string, Counted> = {
  purchases: {
    path: '/api/v1/purchases/',
    query: (spec) => ({ billing_template_id: spec.template as string, client_id: spec.client as string, status: spec.status as string }),
    fields: { template: 'billing_template_id', client: 'client_id', status: 'status' },
    noun: 'purchase(s)',
    summary: (item) => `${String(item.id)} issued ${String(item.issued)}, ${String(item.status)}, total ${String((item.purchase as Item | undefined)?.total)}`,
  },
  events: {
    path: '/sim/v1/events',
    query: () => ({}),
    fields: { type: 'event_type', object: 'object_id' },
    noun: 'event(s)',
    summary: (item) => `${String(item.event_type)} of ${String(item.object_id)} at ${iso(item.created_on)}`,
  },
  emails: {
    path: '/sim/v1/outbox',
    query: () => ({}),
    fields: { kind: 'kind', purchase: 'purchase_id', to: 'to' },
    noun: 'e-mail(s)',
    summary: (item) => `${String(item.kind)} to ${String(item.to)} for purchase ${String(item.purchase_id)} at ${iso(item.sent_on)}`,
  },
};

export async function countItems(spec: Item, connection: Connection): Promise<void> {
  const counted = COUNTED[spec.count as string]!;
  const filters = Object.entries(counted.fields).filter(([name]) => spec[name] !== undefined);
  const described = `${counted.noun}${filters.length ? ` with ${filters.map(([name]) => `${name} ${String(spec[name])}`).join(', ')}` : ''}`;
  const bounds = ['is', 'at_least', 'at_most'].filter((bound) => spec[bound] !== undefined);
  for (const bound of bounds) {
    if (!Number.isInteger(spec[bound]) || (spec[bound] as number) < 0) throw new StepFailure(`a whole number as ${bound}`, JSON.stringify(spec[bound]));
  }
  const wanted = bounds.map((bound) => `${bound === 'is' ? '' : `${bound.replace('_', ' ')} `}${String(spec[bound])}`).join(' and ');

  const listed = await connection.listAll(counted.path, counted.query(spec));
  if ('failed' in listed) throw new StepFailure(`${wanted} ${described}`, describeAnswer(listed.failed));
  const kept = listed.items.filter((item) => filters.every(([name, field]) => item[field] === spec[name]));
  const n = kept.length;
  const fits = (spec.is === undefined || n === spec.is) && (spec.at_least === undefined || n >= (spec.at_least as number)) && (spec.at_most === undefined || n <= (spec.at_most as number));
  if (fits) return;
  const shown = kept.slice(0, SHOWN_ITEMS).map(counted.summary);
  if (n > SHOWN_ITEMS) shown.push(`… and ${n - SHOWN_ITEMS} more`);
  throw new StepFailure(`${wanted} ${described}`, `${n}${shown.length ? `: ${shown.join('; ')}` : ''}`);
}
