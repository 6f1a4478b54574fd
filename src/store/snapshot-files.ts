// Snapshot files (DESIGN.md §6): `billing-sim export` writes one sandbox of a data file as a JSON
// snapshot, `billing-sim import` adds a snapshot to a data file as a new sandbox. The JSON files are
// read and written with lowdb (its writes go to a temporary file renamed into place, so a crash never
// leaves half a snapshot). The data file is opened as the server opens it: contents the server would
// refuse are refused here too, and a file a running server holds is left alone (SQLite's exclusive
// lock), with the way to reach that server's sandboxes instead.

import { existsSync } from 'node:fs';
import { JSONFile } from 'lowdb/node';
import type { Clock, Ids } from '../domain/context.ts';
import { exportSnapshot, importSnapshot, type SnapshotDocument, type SnapshotValidator } from './snapshot.ts';
import { DataFileError, SqliteStore, StorageUnavailable } from './sqlite.ts';
import type { Sandbox } from './store.ts';

export interface SnapshotFileOptions {
  /** The SQLite data file of `billing-sim serve --data`. */
  dataFile: string;
  validator: SnapshotValidator;
  /** Wall time: a running clock is exported at its current instant and imported running from there. */
  wall: Clock;
}

/** Writes sandbox `sandboxId` of the data file to `out`; returns the document written. */
export async function exportFromDataFile(options: SnapshotFileOptions & { sandboxId: string; out: string }): Promise<SnapshotDocument> {
  const { dataFile, sandboxId, out } = options;
  // Opening creates a missing file; an export must not leave an empty database behind a typo.
  if (!existsSync(dataFile)) throw new DataFileError(dataFile, 'no such file');
  const store = await openDataFile(options, 'export the sandbox with GET /sim/v1/snapshot from that server, or stop it');
  try {
    const sandbox = store.get(sandboxId);
    if (!sandbox) {
      const held = [...store.all()].map((each) => each.id).join(', ');
      throw new DataFileError(dataFile, `has no sandbox ${sandboxId} (it has ${held || 'none'}); pass one with --sandbox`);
    }
    const document = exportSnapshot(sandbox, options.wall);
    await write(out, document);
    return document;
  } finally {
    await store.close();
  }
}

/** Adds the snapshot in `file` to the data file (created if missing) as a new sandbox, and returns it. */
export async function importIntoDataFile(options: SnapshotFileOptions & { file: string; ids: Ids }): Promise<Sandbox> {
  const document = await read(options.file);
  const problem = options.validator.check(document);
  if (problem) throw new DataFileError(options.file, `${problem.path}: ${problem.detail.message}`);
  const store = await openDataFile(
    options,
    'import the snapshot with POST /sim/v1/sandboxes {"snapshot": …} on that server, or stop it',
  );
  try {
    const sandbox = await importSnapshot(document as SnapshotDocument, store, options.ids, options.wall);
    try {
      store.put(sandbox);
    } catch (error) {
      // The HTTP layer's 503 means nothing here; the database's own words do.
      if (error instanceof StorageUnavailable) throw new DataFileError(options.dataFile, `could not be written (${error.reason})`);
      throw error;
    }
    return sandbox;
  } finally {
    await store.close();
  }
}

async function openDataFile(options: SnapshotFileOptions, whenInUse: string): Promise<SqliteStore> {
  try {
    return await SqliteStore.open(options.dataFile, { validate: options.validator.checkStored });
  } catch (error) {
    if (error instanceof DataFileError && error.inUse) throw new DataFileError(options.dataFile, `is in use by another billing-sim process: ${whenInUse}`, true);
    throw error;
  }
}

async function read(file: string): Promise<unknown> {
  let document: unknown;
  try {
    document = await new JSONFile<unknown>(file).read();
  } catch (error) {
    const reason = error instanceof SyntaxError ? `is not JSON (${error.message})` : `cannot be read (${tooLong(error) ? LONGER_THAN_A_STRING : (error as Error).message})`;
    throw new DataFileError(file, reason);
  }
  if (document === null) throw new DataFileError(file, 'no such file');
  return document;
}

async function write(file: string, document: SnapshotDocument): Promise<void> {
  try {
    await new JSONFile<SnapshotDocument>(file).write(document);
  } catch (error) {
    throw new DataFileError(file, `cannot be written (${tooLong(error) ? `${LONGER_THAN_A_STRING}; GET /sim/v1/snapshot from a server on the data file sends any size` : (error as Error).message})`);
  }
}

/**
 * lowdb reads and writes a file as one string, and V8's longest is 2^29 - 24 characters: about
 * 500 MB of JSON, ten years of some 1,500 monthly subscribers. Node's own messages ("Invalid string length",
 * "Cannot create a string longer than 0x1fffffe8 characters") do not say so.
 */
const LONGER_THAN_A_STRING = 'the snapshot is more JSON than one JavaScript string holds, about 500 MB';

const tooLong = (error: unknown): boolean =>
  (error as NodeJS.ErrnoException | undefined)?.code === 'ERR_STRING_TOO_LONG' || (error instanceof RangeError && error.message === 'Invalid string length');
