// What a sandbox becomes in the data file's rows: all of it, one row per record, event, e-mail and
// job (a new sandbox, a reset); or only what one turn changed, as its ChangeSet noted it, so a
// write costs what it changed. And what the store keeps of its last write of each sandbox (Saved),
// to tell whether a turn changed anything at all. The store that runs these writes is sqlite.ts.

import type { ChangeSet } from './changes.ts';
import { logRow, type LOGS, rememberingStringify } from './sqlite-rows.ts';
import type { Statements } from './sqlite-schema.ts';
import { MAPS, type Sandbox } from './store.ts';

/** What the file holds for a sandbox since its last write: compared, so an unchanged header is not rewritten. */
export interface Saved {
  header: string;
  /** The key object saved: it is made once and replaced whole, so a change is a new object (no JSON of the PEMs per turn). */
  signingKey: Sandbox['signingKey'];
  eventsDropped: number;
  outboxDropped: number;
  /** Whose rows are the sandbox's: its own id, or after a restore the id its copy of the checkpoint's rows was made under. */
  rows: string;
}

/** The writes of every record, event, e-mail and job of the sandbox as rows of `ownerId`, one row each, in order. */
export function* rowWrites(statements: Statements, ownerId: string, state: Sandbox): Generator<() => void> {
  const { upsertRecord, insertLog, insertJob } = statements;
  for (const field of MAPS) {
    for (const [key, value] of state[field] as Iterable<[string, unknown]>) yield () => upsertRecord.run(ownerId, field, key, JSON.stringify(value));
  }
  // An event's (an e-mail's) seq is its place in the sandbox's whole history, so dropping the oldest renumbers nothing.
  for (const [i, event] of state.events.entries()) yield () => insertLog.run(ownerId, 'events', state.eventsDropped + i, ...logRow(event));
  for (const [i, email] of state.outbox.entries()) yield () => insertLog.run(ownerId, 'outbox', state.outboxDropped + i, ...logRow(email));
  for (const job of state.jobs) yield () => insertJob.run(ownerId, job.seq, JSON.stringify(job));
}

/** Writes what a turn changed in the sandbox, as ChangeSet noted it, to its rows (`rows`). */
export function writeChanges(statements: Statements, sandbox: Sandbox, rows: string, changes: ChangeSet): void {
  const { upsertRecord, updateRecord, deleteRecord, insertLog, insertJob, deleteJob } = statements;
  // What a turn changed, so a few hundred billings at most between an advance's slices: their
  // JSON may be held until the write ends (put() writes every record, and remembers none).
  const stringify = rememberingStringify();
  for (const [collection, keys] of changes.keys) {
    const map = sandbox[collection as (typeof MAPS)[number]] as Map<string, unknown>;
    for (const [key, change] of keys) {
      // An insert (a key new to the Map, or deleted and set again) goes to the end of the order.
      if (change === 'delete') deleteRecord.run(rows, collection, key);
      else if (change === 'insert') upsertRecord.run(rows, collection, key, stringify(map.get(key)));
      else updateRecord.run(stringify(map.get(key)), rows, collection, key);
    }
  }
  // Events (e-mails) recorded and dropped again within the turn (a long advance) are never written.
  const newRows = (kind: (typeof LOGS)[number], log: object[], dropped: number, saved: number) => {
    for (let seq = Math.max(saved, dropped); seq < dropped + log.length; seq += 1) insertLog.run(rows, kind, seq, ...logRow(log[seq - dropped]!, stringify));
  };
  newRows('events', sandbox.events, sandbox.eventsDropped, changes.eventsSaved);
  newRows('outbox', sandbox.outbox, sandbox.outboxDropped, changes.outboxSaved);
  for (const seq of changes.jobsRemoved) deleteJob.run(rows, seq);
  for (const [seq, job] of changes.jobsAdded) insertJob.run(rows, seq, JSON.stringify(job));
}

/** The signing key's column: its JSON, or null while the sandbox has none. */
export function keyText(sandbox: Pick<Sandbox, 'signingKey'>): string | null {
  return sandbox.signingKey === null ? null : JSON.stringify(sandbox.signingKey);
}

/** How many events the sandbox has recorded in all, dropped ones included. */
export const eventsSeen = (sandbox: Sandbox): number => sandbox.eventsDropped + sandbox.events.length;
/** How many e-mails the sandbox has sent in all, dropped ones included. */
export const emailsSeen = (sandbox: Sandbox): number => sandbox.outboxDropped + sandbox.outbox.length;

export const savedState = (sandbox: Sandbox, rows: string, header: string): Saved => ({
  rows,
  header,
  signingKey: sandbox.signingKey,
  eventsDropped: sandbox.eventsDropped,
  outboxDropped: sandbox.outboxDropped,
});

export function hasChanges(sandbox: Sandbox, changes: ChangeSet): boolean {
  return (
    changes.keys.size > 0 ||
    changes.jobsAdded.size > 0 ||
    changes.jobsRemoved.size > 0 ||
    eventsSeen(sandbox) !== changes.eventsSaved ||
    emailsSeen(sandbox) !== changes.outboxSaved
  );
}
