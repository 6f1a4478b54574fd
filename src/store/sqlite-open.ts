// Opening a data file: its folder, its mode (0600: it holds the webhook signing keys), the native
// module, one process per file, WAL, and the check that it is billing-sim's, made before anything
// is written, so that someone else's file is left exactly as it was. A new file gets the schema; one
// of format 1 its upgrade, in the transaction that loads it. Every failure is a DataFileError naming
// the file. The store that reads and writes the file once open is sqlite.ts.

import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Database } from 'better-sqlite3';
import { DataFileError } from './sqlite-rows.ts';
import { checkFormat, describeOpenError, FORMAT, SCHEMA, SCHEMA_VERSION, UPGRADE_FROM_1 } from './sqlite-schema.ts';

/**
 * Opens (or creates, mode 0600) the data file and runs `load` on it in one transaction: a file that
 * fails to load is rolled back and closed. Throws DataFileError for a missing folder, a file that is
 * not a billing-sim database, or whatever `load` refuses.
 */
export async function openDataFile<T>(file: string, load: (db: Database) => T): Promise<T> {
  const path = resolve(file);
  if (!existsSync(dirname(path))) throw new DataFileError(file, `the folder ${dirname(path)} does not exist`);
  if (existsSync(path) && !statSync(path).isFile()) throw new DataFileError(file, 'is not a file');
  // Loaded only with --data: the in-memory simulator never needs the native module.
  const { default: BetterSqlite } = await import('better-sqlite3').catch((error: Error) => {
    throw new DataFileError(file, `better-sqlite3 could not be loaded (${error.message}); reinstall with its install script allowed`);
  });
  const isNew = !existsSync(path) || statSync(path).size === 0;
  // SQLite creates the file 0644; make it 0600 first (it holds the webhook signing keys). The WAL
  // file takes the database file's mode.
  if (isNew) closeSync(openSync(path, 'a', 0o600));
  let db: Database | undefined;
  try {
    // timeout 0: a file held by another process is refused at once, not after a 5 s wait.
    db = new BetterSqlite(path, { fileMustExist: true, timeout: 0 });
    // One process per file: a second simulator on the same file would overwrite the first's writes.
    db.pragma('locking_mode = EXCLUSIVE');
    // Only reads until the file is known to be ours: switching another program's database to WAL
    // would rewrite its header.
    const schema = isNew ? undefined : checkFormat(db, file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    if (isNew) {
      db.exec(SCHEMA);
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?)').run('format', FORMAT, 'schema', SCHEMA_VERSION);
    }
    const opened = db;
    // A file of format 1 gets the checkpoints table in the transaction that reads it: a file that fails
    // to load is rolled back, left exactly as it was.
    return opened.transaction(() => {
      if (schema === '1') {
        opened.exec(UPGRADE_FROM_1);
        opened.prepare("UPDATE meta SET value = ? WHERE key = 'schema'").run(SCHEMA_VERSION);
      }
      return load(opened);
    })();
  } catch (error) {
    db?.close();
    if (error instanceof DataFileError) throw error;
    const { code } = error as { code?: string };
    throw new DataFileError(file, describeOpenError(error as Error & { code?: string }), code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED');
  }
}
