// The data file's form: what marks it as billing-sim's and of which format, its tables, the
// statements the store writes them with, and what an open that failed means in words. The rows and
// what they become are in sqlite-rows.ts; the store that reads and writes them is sqlite.ts.

import type { Database, Statement } from 'better-sqlite3';
import { DataFileError } from './sqlite-rows.ts';

/** Written in `meta.format`: a SQLite file without it is someone else's, and is left alone. */
export const FORMAT = 'billing-sim';
/**
 * 2 since checkpoints: their table, and `sandboxes.rows`. A file of format 1 gets both when it is
 * opened (and a billing-sim that reads 1 then refuses it, by its version).
 */
export const SCHEMA_VERSION = '2';

const CHECKPOINTS_TABLE = `
  CREATE TABLE checkpoints (id TEXT PRIMARY KEY, sandbox_id TEXT NOT NULL, info TEXT NOT NULL, header TEXT NOT NULL,
                            signing_key TEXT);
`;
export const UPGRADE_FROM_1 = `ALTER TABLE sandboxes ADD COLUMN rows TEXT; ${CHECKPOINTS_TABLE}`;

export const SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE sandboxes (id TEXT PRIMARY KEY, header TEXT NOT NULL, signing_key TEXT, rows TEXT);
  CREATE TABLE records (sandbox_id TEXT NOT NULL, collection TEXT NOT NULL, key TEXT NOT NULL, data TEXT NOT NULL);
  CREATE UNIQUE INDEX records_key ON records (sandbox_id, collection, key);
  CREATE TABLE log (sandbox_id TEXT NOT NULL, kind TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL,
                    payload TEXT, PRIMARY KEY (sandbox_id, kind, seq));
  CREATE TABLE jobs (sandbox_id TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL,
                     PRIMARY KEY (sandbox_id, seq)) WITHOUT ROWID;
  ${CHECKPOINTS_TABLE}
`;


/** The file's data format, one this billing-sim reads (the current one, or 1, which opening upgrades); anything else is refused untouched. */
export function checkFormat(db: Database, file: string): string {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  const format = hasMeta && (db.prepare("SELECT value FROM meta WHERE key = 'format'").get() as { value: string } | undefined)?.value;
  if (format !== FORMAT) throw new DataFileError(file, 'is a SQLite database, but not a billing-sim data file; it was left as it is');
  const schema = (db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as { value: string } | undefined)?.value;
  if (schema !== SCHEMA_VERSION && schema !== '1') throw new DataFileError(file, `has data format ${schema ?? 'unknown'}; this billing-sim reads format ${SCHEMA_VERSION} (and upgrades 1)`);
  return schema;
}

export function describeOpenError(error: Error & { code?: string }): string {
  switch (error.code) {
    case 'SQLITE_NOTADB':
      return 'is not a billing-sim data file (not a SQLite database); it was left as it is';
    case 'SQLITE_BUSY':
      return 'is in use by another billing-sim process';
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_READONLY':
    case 'SQLITE_PERM':
      return `cannot be opened for writing (${error.message})`;
    default:
      return `cannot be read (${error.code ?? error.name}: ${error.message})`;
  }
}

/** A prepared statement of better-sqlite3, named here so that the compiled declarations can name it. */
export type Prepared = Statement<unknown[], unknown>;

/** The statements the store writes the file with (prepare). */
export interface Statements {
  upsertRecord: Prepared;
  updateRecord: Prepared;
  deleteRecord: Prepared;
  insertLog: Prepared;
  insertJob: Prepared;
  deleteJob: Prepared;
  dropLog: Prepared;
  putSandbox: Prepared;
  updateHeader: Prepared;
  deleteSandbox: Prepared;
  setMeta: Prepared;
  /** One per table of rows, for all the rows of one owner. */
  dropRows: Prepared[];
  /** The ids of a sandbox's checkpoints: the owners of their rows. */
  checkpointsOf: Prepared;
  putCheckpoint: Prepared;
  deleteCheckpoint: Prepared;
  deleteCheckpoints: Prepared;
}

/** The tables whose rows belong to an owner: a sandbox (its `rows`), or a checkpoint (its id). */
const ROW_TABLES = ['records', 'log', 'jobs'];

/** The store's statements, prepared once per file. */
export function prepare(db: Database): Statements {
  const statement = (sql: string): Prepared => db.prepare(sql);
  return {
    upsertRecord: statement('INSERT OR REPLACE INTO records (sandbox_id, collection, key, data) VALUES (?, ?, ?, ?)'),
    updateRecord: statement('UPDATE records SET data = ? WHERE sandbox_id = ? AND collection = ? AND key = ?'),
    deleteRecord: statement('DELETE FROM records WHERE sandbox_id = ? AND collection = ? AND key = ?'),
    insertLog: statement('INSERT OR REPLACE INTO log (sandbox_id, kind, seq, data, payload) VALUES (?, ?, ?, ?, ?)'),
    insertJob: statement('INSERT OR REPLACE INTO jobs (sandbox_id, seq, data) VALUES (?, ?, ?)'),
    deleteJob: statement('DELETE FROM jobs WHERE sandbox_id = ? AND seq = ?'),
    dropLog: statement('DELETE FROM log WHERE sandbox_id = ? AND kind = ? AND seq < ?'),
    putSandbox: statement('INSERT OR REPLACE INTO sandboxes (id, header, signing_key, rows) VALUES (?, ?, ?, ?)'),
    updateHeader: statement('UPDATE sandboxes SET header = ?, signing_key = ? WHERE id = ?'),
    deleteSandbox: statement('DELETE FROM sandboxes WHERE id = ?'),
    setMeta: statement('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
    dropRows: ROW_TABLES.map((table) => statement(`DELETE FROM ${table} WHERE sandbox_id = ?`)),
    checkpointsOf: statement('SELECT id FROM checkpoints WHERE sandbox_id = ?'),
    putCheckpoint: statement('INSERT INTO checkpoints (id, sandbox_id, info, header, signing_key) VALUES (?, ?, ?, ?, ?)'),
    deleteCheckpoint: statement('DELETE FROM checkpoints WHERE id = ?'),
    deleteCheckpoints: statement('DELETE FROM checkpoints WHERE sandbox_id = ?'),
  };
}
