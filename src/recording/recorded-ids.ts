// Which values of a recording are ids: the ones a replay maps to the simulator's own, and a scenario
// names and reuses. An id is a UUID string (spec: "Path parameters are UUID strings") found in an answer;
// where it sits (`id`, `client_id`, `results.0.recurring_token`, `related_to.id`) says what it names, so
// that the same id found in a later request is known to be that object.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** UUIDs inside a longer text: a path, a query, a URL. */
const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export const isId = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

export interface FoundId {
  /** Dotted path in the body: `id`, `purchase.id`, `results.0.client_id`. */
  path: string;
  value: string;
}

/** Every UUID-valued leaf of a JSON body, depth first, in document order. */
export function idsIn(body: unknown, prefix = ''): FoundId[] {
  if (isId(body)) return [{ path: prefix, value: body }];
  if (body === null || typeof body !== 'object') return [];
  const entries = Array.isArray(body) ? body.map((item, index) => [String(index), item] as const) : Object.entries(body);
  return entries.flatMap(([key, value]) => idsIn(value, prefix === '' ? key : `${prefix}.${key}`));
}

/** The UUIDs a text holds (a path such as /api/v1/purchases/{id}/refund/, a query), in order. */
export const idsInText = (text: string): string[] => text.match(UUID_IN_TEXT) ?? [];

/** `text` with every UUID that `map` knows replaced (case-insensitively: a UUID's hex may come in either case). */
export function replaceIdsInText(text: string, map: ReadonlyMap<string, string>): string {
  return text.replace(UUID_IN_TEXT, (id) => map.get(id.toLowerCase()) ?? map.get(id) ?? id);
}

/** A JSON value with every id that `map` knows replaced, at any depth, in strings too (URLs hold ids). */
export function replaceIds(value: unknown, map: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return replaceIdsInText(value, map);
  if (Array.isArray(value)) return value.map((item) => replaceIds(item, map));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceIds(item, map)]));
}
