// The rows of a data file and what they become: a log row holds an event apart from its payload,
// which is parsed only when first read; reading builds each sandbox's snapshot (store.ts form), and
// each of its checkpoints', in the order its rows were written. Any row that cannot be read is a
// DataFileError naming the file.

import type { Database, Statement } from 'better-sqlite3';
import { MAPS, type Checkpoint, type SandboxSnapshot } from './store.ts';

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

/** A sandbox as the file holds it, with its checkpoints (each as its store form), and whose rows are its (`sandboxes.rows`). */
export interface StoredSandbox {
  snapshot: SandboxSnapshot;
  checkpoints: Checkpoint[];
  rows: string;
}

/**
 * Every sandbox in the file (or one), with its checkpoints; rows in the order they were written. A
 * sandbox's records, log and jobs are rows under its `rows` (its own id, unless a restore gave it a
 * copy), a checkpoint's under the checkpoint's id. Rows of any other id are `orphans`: a copy that a
 * crash cut short (sqlite-slices.ts), never read.
 */
export function readSandboxes(db: Database, file: string, only?: string, { checkpoints = true } = {}): { sandboxes: StoredSandbox[]; orphans: Set<string> } {
  // The rows of one sandbox (and of its checkpoints, unless they are not wanted).
  const ofCheckpoints = checkpoints ? ' UNION ALL SELECT id FROM checkpoints WHERE sandbox_id = ?' : '';
  const where = only === undefined ? '' : ` WHERE sandbox_id IN (SELECT coalesce(rows, id) FROM sandboxes WHERE id = ?${ofCheckpoints})`;
  const args = only === undefined ? [] : checkpoints ? [only, only] : [only];
  const rows = <T>(statement: Statement, ...bound: string[]): T[] => statement.all(...bound) as T[];
  const owners = new Map<string, SandboxSnapshot>();
  const owner = (header: string, signingKey: string | null) => {
    const snapshot = { ...(parse(header, file) as object), signingKey: signingKey === null ? null : parse(signingKey, file), events: [], outbox: [], jobs: [] } as Record<string, unknown>;
    for (const field of MAPS) snapshot[field] = [];
    return snapshot as unknown as SandboxSnapshot;
  };
  const stored = new Map<string, StoredSandbox>();
  for (const row of rows<{ id: string; header: string; signing_key: string | null; rows: string }>(
    db.prepare(`SELECT id, header, signing_key, coalesce(rows, id) AS rows FROM sandboxes${only === undefined ? '' : ' WHERE id = ?'}`),
    ...(only === undefined ? [] : [only]),
  )) {
    const snapshot = owner(row.header, row.signing_key);
    owners.set(row.rows, snapshot);
    stored.set(row.id, { snapshot, checkpoints: [], rows: row.rows });
  }
  const checkpointRows = checkpoints
    ? rows<{ id: string; sandbox_id: string; info: string; header: string; signing_key: string | null }>(
        db.prepare(`SELECT id, sandbox_id, info, header, signing_key FROM checkpoints${only === undefined ? '' : ' WHERE sandbox_id = ?'} ORDER BY rowid`),
        ...(only === undefined ? [] : [only]),
      )
    : [];
  for (const row of checkpointRows) {
    const sandbox = stored.get(row.sandbox_id);
    if (!sandbox) throw new DataFileError(file, `checkpoint ${row.id} belongs to sandbox ${row.sandbox_id}, which the file does not have`);
    const state = owner(row.header, row.signing_key);
    owners.set(row.id, state);
    sandbox.checkpoints.push({ ...(parse(row.info, file) as Omit<Checkpoint, 'state'>), state });
  }
  const orphans = new Set<string>();
  /** The snapshot a row goes into; undefined for a row of no one's, which is not even parsed. */
  const of = (ownerId: string): SandboxSnapshot | undefined => {
    const snapshot = owners.get(ownerId);
    if (!snapshot) orphans.add(ownerId);
    return snapshot;
  };
  for (const row of rows<{ sandbox_id: string; collection: string; key: string; data: string }>(db.prepare(`SELECT sandbox_id, collection, key, data FROM records${where} ORDER BY rowid`), ...args)) {
    const snapshot = of(row.sandbox_id);
    if (!snapshot) continue;
    const entries = (snapshot as unknown as Record<string, [string, unknown][] | undefined>)[row.collection];
    if (!Array.isArray(entries) || !(MAPS as readonly string[]).includes(row.collection)) throw new DataFileError(file, `unknown collection "${row.collection}"`);
    entries.push([row.key, parse(row.data, file)]);
  }
  for (const row of rows<{ sandbox_id: string; kind: string; data: string; payload: string | null }>(
    db.prepare(`SELECT sandbox_id, kind, data, payload FROM log${where} ORDER BY sandbox_id, kind, seq`),
    ...args,
  )) {
    const snapshot = of(row.sandbox_id);
    if (!snapshot) continue;
    if (!(LOGS as readonly string[]).includes(row.kind)) throw new DataFileError(file, `unknown log "${row.kind}"`);
    const entry = parse(row.data, file) as Record<string, unknown>;
    if (row.payload !== null) lazyPayload(entry, row.payload, file);
    (snapshot[row.kind as (typeof LOGS)[number]] as unknown[]).push(entry);
  }
  for (const row of rows<{ sandbox_id: string; data: string }>(db.prepare(`SELECT sandbox_id, data FROM jobs${where} ORDER BY seq`), ...args)) {
    of(row.sandbox_id)?.jobs.push(parse(row.data, file) as never);
  }
  return { sandboxes: [...stored.values()], orphans };
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
