// Moving many rows of a data file without holding the server: a checkpoint's copy of its sandbox's
// rows, a restore's copy of a checkpoint's, and the removal of rows nothing names any more, each
// done a chunk at a time inside SQLite (no record is turned into JSON again); and the first write of
// a new sandbox (a fork), from its objects. Each chunk is its own transaction, with the event loop let go between slices. A sandbox of 13,000 purchases and 27,000
// events is some 60 MB of rows: written whole in one transaction it held every sandbox of the server
// for 1.2–1.3 s; in slices a checkpoint took 0.9 s, a restore 1.7 s, and nothing waited more than
// 43 ms. A crash between two chunks leaves rows under an id that nothing names: the next start
// removes them (sqlite.ts), so a half-made copy is never read.

import type { Database, Statement } from 'better-sqlite3';

/** Rows per chunk: one chunk of events (about 1.4 KB each) writes some 350 KB. */
const CHUNK_ROWS = 256;

/**
 * The rows of an owner (a sandbox, or a checkpoint), each part walked in an order an index gives, so
 * that finding the next chunk costs its own rows, not all the owner's: records by rowid (the order a
 * sandbox's Maps are read back in), scanning the table from the last row copied (`+sandbox_id` keeps
 * SQLite from taking the index on it, which would sort all the owner's records for every chunk);
 * events and e-mails by their log's key, (owner, kind, seq); jobs by theirs, (owner, seq).
 */
const PARTS = [
  { table: 'records', key: 'rowid', owner: '+sandbox_id = ?', columns: 'collection, key, data' },
  { table: 'log', key: 'seq', owner: "sandbox_id = ? AND kind = 'events'", columns: 'kind, seq, data, payload' },
  { table: 'log', key: 'seq', owner: "sandbox_id = ? AND kind = 'outbox'", columns: 'kind, seq, data, payload' },
  { table: 'jobs', key: 'seq', owner: 'sandbox_id = ?', columns: 'seq, data' },
] as const;

/** The tables, for removing an owner's rows in any order. */
const TABLES = ['records', 'log', 'jobs'] as const;

/** Where a copy has got to: the part it is in (of PARTS), and the last row (rowid or seq) it copied there. */
export interface CopyCursor {
  table: number;
  after: number;
}

export const startOfCopy = (): CopyCursor => ({ table: 0, after: -1 });

export class RowSlices {
  private readonly parts: { boundary: Statement; copy: Statement }[];
  private readonly removals: Statement[];

  constructor(db: Database) {
    this.parts = PARTS.map(({ table, key, owner, columns }) => ({
      // The last row of the next chunk: the copy takes the rows up to it.
      boundary: db.prepare(`SELECT max(${key}) AS upTo FROM (SELECT ${key} FROM ${table} WHERE ${owner} AND ${key} > ? ORDER BY ${key} LIMIT ${CHUNK_ROWS})`),
      copy: db.prepare(`INSERT INTO ${table} (sandbox_id, ${columns}) SELECT ?, ${columns} FROM ${table} WHERE ${owner} AND ${key} > ? AND ${key} <= ? ORDER BY ${key}`),
    }));
    this.removals = TABLES.map((table) => {
      const key = table === 'jobs' ? 'seq' : 'rowid';
      return db.prepare(`DELETE FROM ${table} WHERE sandbox_id = ? AND ${key} IN (SELECT ${key} FROM ${table} WHERE sandbox_id = ? LIMIT ${CHUNK_ROWS})`);
    });
  }

  /** Copies the next chunk of `from`'s rows to `to`, in their order; false when all are copied. */
  copyChunk(from: string, to: string, cursor: CopyCursor): boolean {
    for (; cursor.table < this.parts.length; cursor.table += 1, cursor.after = -1) {
      const { boundary, copy } = this.parts[cursor.table]!;
      const { upTo } = boundary.get(from, cursor.after) as { upTo: number | null };
      if (upTo === null) continue;
      copy.run(to, from, cursor.after, upTo);
      cursor.after = upTo;
      return true;
    }
    return false;
  }

  /** Removes the next chunk of `owner`'s rows; false when none is left. */
  removeChunk(owner: string): boolean {
    return this.removals.some((remove) => remove.run(owner, owner).changes > 0);
  }
}

/** Writes a chunk of `writes` (one row each) per call: false once none is left. */
export function chunkOf(writes: Iterator<() => void>): () => boolean {
  return () => {
    for (let i = 0; i < CHUNK_ROWS; i += 1) {
      const next = writes.next();
      if (next.done) return false;
      next.value();
    }
    return true;
  };
}
