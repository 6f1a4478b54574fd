// The rows of a data file and what they become: a log row holds an event apart from its payload,
// which is parsed only when first read; reading builds each sandbox's snapshot (store.ts form) in
// the order its rows were written. Any row that cannot be read is a DataFileError naming the file.

import type { Database, Statement } from 'better-sqlite3';
import { MAPS, type SandboxSnapshot } from './store.ts';

/** The two append-only logs of a sandbox, kept in the `log` table by position. */
export const LOGS = ['events', 'outbox'] as const;

/** The data file cannot be used: the message names the file and says why, for a one-line exit. */
export class DataFileError extends Error {
  constructor(
    file: string,
    reason: string,
    /** Another process holds the file (a running server): the caller may say how to reach it instead. */
    readonly inUse = false,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'DataFileError';
  }
}

/** Every sandbox in the file (or one), as snapshots; rows in the order they were written. */
export function readSnapshots(db: Database, file: string, only?: string): SandboxSnapshot[] {
  const where = only === undefined ? '' : ' WHERE sandbox_id = ?';
  const args = only === undefined ? [] : [only];
  const rows = <T>(statement: Statement): T[] => statement.all(...args) as T[];
  const snapshots = new Map<string, SandboxSnapshot>();
  for (const row of rows<{ id: string; header: string; signing_key: string | null }>(
    db.prepare(`SELECT id, header, signing_key FROM sandboxes${only === undefined ? '' : ' WHERE id = ?'}`),
  )) {
    const snapshot = { ...(parse(row.header, file) as object), signingKey: row.signing_key === null ? null : parse(row.signing_key, file), events: [], outbox: [], jobs: [] } as Record<string, unknown>;
    for (const field of MAPS) snapshot[field] = [];
    snapshots.set(row.id, snapshot as unknown as SandboxSnapshot);
  }
  const of = (sandboxId: string, table: string): SandboxSnapshot => {
    const snapshot = snapshots.get(sandboxId);
    if (!snapshot) throw new DataFileError(file, `a row of ${table} belongs to sandbox ${sandboxId}, which the file does not have`);
    return snapshot;
  };
  for (const row of rows<{ sandbox_id: string; collection: string; key: string; data: string }>(db.prepare(`SELECT sandbox_id, collection, key, data FROM records${where} ORDER BY rowid`))) {
    const entries = (of(row.sandbox_id, 'records') as unknown as Record<string, [string, unknown][] | undefined>)[row.collection];
    if (!Array.isArray(entries) || !(MAPS as readonly string[]).includes(row.collection)) throw new DataFileError(file, `unknown collection "${row.collection}"`);
    entries.push([row.key, parse(row.data, file)]);
  }
  for (const row of rows<{ sandbox_id: string; kind: string; data: string; payload: string | null }>(
    db.prepare(`SELECT sandbox_id, kind, data, payload FROM log${where} ORDER BY sandbox_id, kind, seq`),
  )) {
    if (!(LOGS as readonly string[]).includes(row.kind)) throw new DataFileError(file, `unknown log "${row.kind}"`);
    const entry = parse(row.data, file) as Record<string, unknown>;
    if (row.payload !== null) lazyPayload(entry, row.payload, file);
    (of(row.sandbox_id, 'log')[row.kind as (typeof LOGS)[number]] as unknown[]).push(entry);
  }
  for (const row of rows<{ sandbox_id: string; data: string }>(db.prepare(`SELECT sandbox_id, data FROM jobs${where} ORDER BY seq`))) {
    of(row.sandbox_id, 'jobs').jobs.push(parse(row.data, file) as never);
  }
  return [...snapshots.values()];
}
/** Objects whose JSON one write remembers: a slice of an advance changes a few hundred records. */
const REMEMBERED = 4096;

/**
 * JSON.stringify that remembers what it wrote, for one write to the file: the payload of a
 * `purchase.paid` event is the very purchase record written beside it, 1.8 kB serialised once
 * instead of twice. At most REMEMBERED objects, and not beyond the write: a turn that changed a
 * million records must not hold a copy of each.
 */
export function rememberingStringify(): (value: unknown) => string {
  const written = new Map<unknown, string>();
  return (value) => {
    const known = written.get(value);
    if (known !== undefined) return known;
    const json = JSON.stringify(value);
    if (typeof value === 'object' && value !== null && written.size < REMEMBERED) written.set(value, json);
    return json;
  };
}

/** A log row: an event without its payload, and the payload apart (through `stringify`); an e-mail whole. */
export function logRow(entry: object, stringify: (value: unknown) => string = JSON.stringify): [string, string | null] {
  if (!('payload' in entry)) return [JSON.stringify(entry), null];
  const { payload, ...event } = entry as { payload: unknown };
  return [JSON.stringify(event), stringify(payload)];
}

/**
 * Gives a loaded event its payload as a property that parses the text on first read and then
 * holds the object (a spread, JSON.stringify and the API read it like any other property). The
 * text must at least look like an object; a validator reading payloads would parse them all.
 */
function lazyPayload(event: Record<string, unknown>, text: string, file: string): void {
  if (!text.startsWith('{') || !text.endsWith('}')) throw new DataFileError(file, `event ${String(event.id)} has a payload that is not a JSON object`);
  Object.defineProperty(event, 'payload', {
    configurable: true,
    enumerable: true,
    get() {
      const value: unknown = JSON.parse(text);
      Object.defineProperty(event, 'payload', { value, configurable: true, enumerable: true, writable: true });
      return value;
    },
  });
}

const UNREAD = Object.freeze({});

/**
 * The snapshot a validator sees: events with an empty object in place of their payload, which the
 * schema takes as any object, so that checking a file does not parse every payload it holds.
 */
export function withUnreadPayloads(snapshot: SandboxSnapshot): SandboxSnapshot {
  const events = snapshot.events.map((event) => {
    const copy: Record<string, unknown> = {};
    // Object.keys lists the lazy payload without reading it.
    for (const key of Object.keys(event)) copy[key] = key === 'payload' ? UNREAD : (event as unknown as Record<string, unknown>)[key];
    return copy;
  });
  return { ...snapshot, events: events as unknown as SandboxSnapshot['events'] };
}

function parse(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new DataFileError(file, 'a row holds text that is not JSON');
  }
}
