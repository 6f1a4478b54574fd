// Persistence as an adapter: the in-memory store plus a JSON snapshot written after each accepted
// change. lowdb's JSONFile writes through steno (a temporary file renamed over the old one, later
// writes coalesced while one is under way), so a kill -9 mid-write leaves the previous snapshot whole.

import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { fromSnapshot, MemoryStore, toSnapshot, type Sandbox, type SandboxSnapshot, type Store } from './store.ts';

interface FileData {
  version: 1;
  sandboxes: SandboxSnapshot[];
}

export class JsonFileStore implements Store {
  private pending: Promise<void> = Promise.resolve();

  private constructor(
    private readonly memory: MemoryStore,
    private readonly db: Low<FileData>,
  ) {}

  static async open(file: string): Promise<JsonFileStore> {
    const db = new Low<FileData>(new JSONFile(file), { version: 1, sandboxes: [] });
    await db.read();
    const memory = new MemoryStore();
    for (const snapshot of db.data.sandboxes) memory.put(fromSnapshot(snapshot));
    return new JsonFileStore(memory, db);
  }

  get(id: string): Sandbox | undefined {
    return this.memory.get(id);
  }

  put(sandbox: Sandbox): void {
    this.memory.put(sandbox);
  }

  all(): Iterable<Sandbox> {
    return this.memory.all();
  }

  changed(): void {
    this.db.data = { version: 1, sandboxes: [...this.memory.all()].map(toSnapshot) };
    this.pending = this.db.write();
  }

  async close(): Promise<void> {
    await this.pending;
  }
}
