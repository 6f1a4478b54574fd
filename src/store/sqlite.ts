// The durable store (`--data FILE`): sandboxes in memory, as MemoryStore keeps them, and in a
// SQLite database (better-sqlite3, WAL), one row per object. Each turn's changes, as the sandbox's
// ChangeSet noted them, are written in one transaction before the turn's answer goes out (a long
// advance also between its slices: engine/time.ts, RunOptions.checkpoint), so the
// cost of a write is the size of what it changed, never the size of the store. Opening the file is
// sqlite-open.ts; the rows a sandbox, or a turn's changes, are written as, sqlite-writes.ts.
//
// Rows (the schema is in sqlite-schema.ts): `sandboxes` (the scalar header as JSON, the webhook
// signing key apart, since it rarely changes, and `rows`, whose rows are its: its id, unless a
// restore made a copy of a checkpoint's its rows); `records` (one per object of a keyed collection; rowid order is the Map's insertion
// order); `log` (events and outbox e-mails, by position); `jobs` (the queue's jobs, by seq);
// `meta` (what this file is, and how many seeded ids have been drawn); `checkpoints` (a checkpoint's
// header, the sandbox's at the time, and its id, name, time and clock: its records, log and jobs
// are rows of those tables under the checkpoint's id; sqlite-slices.ts copies them). `log` keeps its rowid: its
// rows (an event holds a copy of its object, ~1.4 KB) are too wide for a WITHOUT ROWID b-tree,
// which left the file of 1,000 subscribers × 2 years at 283 MB instead of 162 MB. An event's
// payload has a column of its own and is parsed when first read: events are two thirds of a big
// file, and hardly any is ever read again, so a start-up that parsed them all took a second longer.
//
// Promise: a process crash (kill -9) never loses an answered write; an OS crash may lose the last
// second of them (synchronous=NORMAL in WAL mode syncs at checkpoints, not at every commit).

import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { ApiError, ALL, errors } from '../domain/errors.ts';
import { inSlices } from './slices.ts';
import { openDataFile } from './sqlite-open.ts';
import { DataFileError, readSandboxes, type StoredSandbox, withUnreadPayloads } from './sqlite-rows.ts';
import { prepare, type Statements } from './sqlite-schema.ts';
import { chunkOf, RowSlices, startOfCopy } from './sqlite-slices.ts';
import { emailsSeen, eventsSeen, hasChanges, keyText, rowWrites, type Saved, savedState, writeChanges } from './sqlite-writes.ts';
import { fromSnapshot, sandboxHeader, type Checkpoint, type Sandbox, type SandboxSnapshot, type Store } from './store.ts';
import { upgradeDataFileSandbox } from './upgrade.ts';

export { DataFileError };

/** A write (or the read back after it) failed: the client's 503, with the database's own words for the log and the CLI. */
export class StorageUnavailable extends ApiError {
  constructor(readonly reason: string) {
    super(503, { [ALL]: [errors.storageUnavailable()] });
  }
}

export interface SqliteStoreOptions {
  /** How many seeded ids have been drawn, saved with every write (`--seed`: a restart skips them). */
  idsPosition?: () => number;
  /** Checks a sandbox read from the file; returns what is wrong with it, or null. */
  validate?: (snapshot: SandboxSnapshot) => string | null;
  /** Failures to write, which the client sees only as a 503. */
  report?: (line: string) => void;
}

export class SqliteStore implements Store {
  readonly durable = true;
  private readonly sandboxes = new Map<string, Sandbox>();
  private readonly saved = new Map<string, Saved>();
  /**
   * Sandboxes whose write failed and whose rows could not be read back either (the file gone, an
   * I/O error): out of memory, since memory holds the unsaved change, and read again when asked for.
   */
  private readonly unreadable = new Set<string>();
  private readonly statements: Statements;
  private readonly slices: RowSlices;
  /** Removals of rows still under way (removeAllRows), which close() lets finish. */
  private readonly removals = new Set<Promise<void>>();
  private savedIdsPosition: number;

  private constructor(
    private readonly db: Database,
    private readonly file: string,
    private readonly options: SqliteStoreOptions,
  ) {
    this.statements = prepare(db);
    this.slices = new RowSlices(db);
    this.savedIdsPosition = Number(this.meta('ids_drawn') ?? 0);
  }

  /**
   * Opens (or creates, mode 0600) the data file and loads every sandbox. Throws DataFileError for
   * a missing folder, a file that is not a billing-sim database, or contents that fail validation;
   * such a file is never written to.
   */
  static open(file: string, options: SqliteStoreOptions = {}): Promise<SqliteStore> {
    return openDataFile(file, (db) => {
      const store = new SqliteStore(db, file, options);
      store.loadAll();
      return store;
    });
  }

  /** How many seeded ids the file says were drawn before (0 for a new file). */
  get idsDrawn(): number {
    return this.savedIdsPosition;
  }

  /** Throws StorageUnavailable for a sandbox that the file cannot give back yet. */
  get(id: string): Sandbox | undefined {
    if (this.unreadable.has(id)) {
      this.readBack(id);
      this.unreadable.delete(id);
    }
    return this.sandboxes.get(id);
  }

  all(): Iterable<Sandbox> {
    return this.sandboxes.values();
  }

  /**
   * A sandbox new to the file is written whole, in one transaction. One that replaces a sandbox (a
   * reset) is written under a new owner of rows, which the same transaction makes its; the rows it
   * replaces, perhaps a long history's, are removed afterwards in slices (the promise returned), so
   * a reset of a big sandbox holds no other sandbox for their length.
   */
  put(sandbox: Sandbox): Promise<void> | undefined {
    const header = JSON.stringify(sandboxHeader(sandbox));
    const old = this.saved.get(sandbox.id)?.rows;
    const rows = old === undefined ? sandbox.id : randomUUID();
    this.write(`save sandbox ${sandbox.id}`, () => {
      this.statements.putSandbox.run(sandbox.id, header, keyText(sandbox), rows === sandbox.id ? null : rows);
      for (const row of rowWrites(this.statements, rows, sandbox)) row();
    });
    this.unreadable.delete(sandbox.id);
    this.adopt(sandbox, rows, header);
    // The sandbox id's rows too: a restore whose removal of them failed leaves them there.
    return old === undefined ? undefined : this.removeAllRows([old, sandbox.id]);
  }

  /**
   * A new sandbox (created, imported, forked from a checkpoint), written in slices that let other
   * sandboxes' requests run: a fork of a checkpoint of 13,000 purchases is some 60 MB of rows. Its
   * header row goes last, so a crash between two slices leaves rows of no one, removed at the next
   * start. Nothing else holds the sandbox yet, so nothing changes it meanwhile.
   */
  async add(sandbox: Sandbox): Promise<void> {
    const writes = rowWrites(this.statements, sandbox.id, sandbox);
    const what = `save sandbox ${sandbox.id}`;
    await this.inSlices(what, chunkOf(writes));
    const header = JSON.stringify(sandboxHeader(sandbox));
    this.write(what, () => this.statements.putSandbox.run(sandbox.id, header, keyText(sandbox), null));
    this.adopt(sandbox, sandbox.id, header);
  }

  commit(sandbox: Sandbox): void {
    // A reset in this turn replaced the sandbox, and put() saved the new one whole.
    if (this.sandboxes.get(sandbox.id) !== sandbox) return;
    const { changes } = sandbox;
    const header = JSON.stringify(sandboxHeader(sandbox));
    const saved = this.saved.get(sandbox.id)!;
    const keyChanged = sandbox.signingKey !== saved.signingKey;
    if (!hasChanges(sandbox, changes) && header === saved.header && !keyChanged && this.idsPosition() === this.savedIdsPosition) {
      return;
    }
    try {
      this.write(`save sandbox ${sandbox.id}`, () => {
        writeChanges(this.statements, sandbox, saved.rows, changes);
        if (sandbox.eventsDropped > saved.eventsDropped) this.statements.dropLog.run(saved.rows, 'events', sandbox.eventsDropped);
        if (sandbox.outboxDropped > saved.outboxDropped) this.statements.dropLog.run(saved.rows, 'outbox', sandbox.outboxDropped);
        if (header !== saved.header || keyChanged) this.statements.updateHeader.run(header, keyText(sandbox), sandbox.id);
      });
    } catch (error) {
      try {
        this.readBack(sandbox.id, sandbox.checkpoints);
      } catch {
        this.sandboxes.delete(sandbox.id);
        this.unreadable.add(sandbox.id);
      }
      throw error;
    }
    this.saved.set(sandbox.id, savedState(sandbox, saved.rows, header));
    changes.clear(eventsSeen(sandbox), emailsSeen(sandbox));
  }

  /**
   * The sandbox and its checkpoints are gone from the file in one small transaction; their rows,
   * which nothing names from then on, are removed afterwards in slices (the promise returned).
   */
  delete(id: string): Promise<void> {
    const owners = [this.rowsOf(id), id, ...(this.statements.checkpointsOf.all(id) as { id: string }[]).map((checkpoint) => checkpoint.id)];
    this.write(`delete sandbox ${id}`, () => {
      this.statements.deleteCheckpoints.run(id);
      this.statements.deleteSandbox.run(id);
    });
    this.sandboxes.delete(id);
    this.saved.delete(id);
    this.unreadable.delete(id);
    return this.removeAllRows(owners);
  }

  /**
   * The checkpoint's rows are copies of the sandbox's, made inside SQLite in slices (sqlite-slices.ts),
   * the sandbox saved first so that its rows are what the checkpoint holds; its header row last, so
   * that a copy cut short by a crash is rows of no one, removed at the next start.
   */
  async saveCheckpoint(sandbox: Sandbox, checkpoint: Checkpoint): Promise<void> {
    this.commit(sandbox);
    const from = this.rowsOf(sandbox.id);
    const cursor = startOfCopy();
    const what = `save checkpoint ${checkpoint.id} of sandbox ${sandbox.id}`;
    await this.inSlices(what, () => this.slices.copyChunk(from, checkpoint.id, cursor));
    const { state, ...info } = checkpoint;
    this.write(what, () => this.statements.putCheckpoint.run(checkpoint.id, sandbox.id, JSON.stringify(info), JSON.stringify(sandboxHeader(state)), keyText(state)));
  }

  /**
   * The restored sandbox's rows are copies of the checkpoint's, made in slices under a new id; one
   * small transaction then makes them the sandbox's (`sandboxes.rows`), and its old rows are removed
   * in slices. A crash at any point leaves the sandbox as it was before or as restored, never between.
   */
  async restore(restored: Sandbox, checkpointId: string): Promise<void> {
    const header = JSON.stringify(sandboxHeader(restored));
    const rows = randomUUID();
    const old = this.rowsOf(restored.id);
    const cursor = startOfCopy();
    const what = `restore sandbox ${restored.id}`;
    await this.inSlices(what, () => this.slices.copyChunk(checkpointId, rows, cursor));
    this.write(what, () => this.statements.putSandbox.run(restored.id, header, keyText(restored), rows));
    this.unreadable.delete(restored.id);
    this.adopt(restored, rows, header);
    await this.removeAllRows([old]);
  }

  async deleteCheckpoint(sandboxId: string, checkpointId: string): Promise<void> {
    this.write(`delete checkpoint ${checkpointId} of sandbox ${sandboxId}`, () => this.statements.deleteCheckpoint.run(checkpointId));
    await this.removeAllRows([checkpointId]);
  }

  /**
   * Removes the rows of an owner that nothing names any more, in slices. The change they belonged
   * to is made by then, so a failure here does not undo it or refuse it: write() has reported it,
   * and the rows left are no one's, which the next start removes.
   */
  private async removeRows(owner: string): Promise<void> {
    try {
      await this.inSlices(`remove the rows of ${owner}, which nothing names any more,`, () => this.slices.removeChunk(owner));
    } catch (error) {
      if (!(error instanceof StorageUnavailable)) throw error;
    }
  }

  /** Removes the rows of owners that nothing names any more (removeRows); close() waits for it. */
  private removeAllRows(owners: string[]): Promise<void> {
    const removal = (async () => {
      for (const owner of new Set(owners)) await this.removeRows(owner);
    })();
    this.removals.add(removal);
    return removal.finally(() => this.removals.delete(removal));
  }

  /** Runs `chunk` in a transaction of its own each time, in slices (slices.ts), until it says nothing is left. */
  private inSlices(what: string, chunk: () => boolean): Promise<void> {
    return inSlices(() => {
      let more = false;
      this.write(what, () => void (more = chunk()));
      return more;
    });
  }

  /** Whose rows are the sandbox's in the file (its own id, unless a restore made a copy its rows). */
  private rowsOf(id: string): string {
    return this.saved.get(id)?.rows ?? id;
  }

  async close(): Promise<void> {
    await Promise.all(this.removals);
    if (this.db.open) this.db.close();
  }

  /** Runs `work` and the ids position in one transaction; a failure is reported and becomes a 503. */
  private write(what: string, work: () => void): void {
    const position = this.idsPosition();
    try {
      this.db.transaction(() => {
        work();
        if (position !== this.savedIdsPosition) this.statements.setMeta.run('ids_drawn', String(position));
      })();
    } catch (error) {
      const reason = (error as Error).message;
      this.options.report?.(`billing-sim: could not ${what} to ${this.file}: ${reason}`);
      throw new StorageUnavailable(reason);
    }
    this.savedIdsPosition = position;
  }

  private idsPosition(): number {
    return this.options.idsPosition?.() ?? this.savedIdsPosition;
  }

  /** Takes a sandbox that the file now holds exactly, as rows of `rows`: tracking on, nothing pending. */
  private adopt(sandbox: Sandbox, rows: string, header = JSON.stringify(sandboxHeader(sandbox))): void {
    this.sandboxes.set(sandbox.id, sandbox);
    this.saved.set(sandbox.id, savedState(sandbox, rows, header));
    sandbox.changes.clear(eventsSeen(sandbox), emailsSeen(sandbox));
    sandbox.changes.enabled = true;
  }

  private meta(key: string): string | undefined {
    return (this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  /** Reads every sandbox; then removes the rows that no sandbox or checkpoint names (a copy a crash cut short). */
  private loadAll(): void {
    const { sandboxes, orphans } = readSandboxes(this.db, this.file);
    for (const stored of sandboxes) {
      this.check(stored.snapshot, `sandbox ${stored.snapshot.id}`);
      for (const checkpoint of stored.checkpoints) this.check(checkpoint.state, `checkpoint ${checkpoint.id} of sandbox ${stored.snapshot.id}`);
      this.adopt(loaded(stored), stored.rows);
    }
    for (const owner of orphans) for (const drop of this.statements.dropRows) drop.run(owner);
  }

  /** Brings a sandbox read from the file (or a checkpoint's state) to today's form, and validates it. */
  private check(snapshot: SandboxSnapshot, what: string): void {
    upgradeDataFileSandbox(snapshot);
    const problem = this.options.validate?.(withUnreadPayloads(snapshot));
    if (problem) throw new DataFileError(this.file, `${what}: ${problem}`);
  }

  /**
   * After a failed write: the sandbox as the file holds it, so the failed turn leaves no trace. Its
   * checkpoints, when the caller has them (a turn never changes one), are kept rather than read again:
   * twenty of a big sandbox are twenty times its rows.
   */
  private readBack(id: string, checkpoints?: Checkpoint[]): void {
    let stored: StoredSandbox | undefined;
    try {
      [stored] = readSandboxes(this.db, this.file, id, { checkpoints: checkpoints === undefined }).sandboxes;
    } catch (error) {
      const reason = (error as Error).message;
      this.options.report?.(`billing-sim: could not read sandbox ${id} back from ${this.file}: ${reason}`);
      throw new StorageUnavailable(reason);
    }
    if (stored) {
      upgradeDataFileSandbox(stored.snapshot);
      for (const checkpoint of stored.checkpoints) upgradeDataFileSandbox(checkpoint.state);
      this.adopt(loaded(checkpoints === undefined ? stored : { ...stored, checkpoints }), stored.rows);
    } else this.sandboxes.delete(id);
  }
}

/** The sandbox of a stored one, with its checkpoints. */
function loaded(stored: StoredSandbox): Sandbox {
  const sandbox = fromSnapshot(stored.snapshot);
  sandbox.checkpoints = stored.checkpoints;
  return sandbox;
}
