// State lives in sandboxes, each one isolated merchant account. The Store interface is all the
// engine and HTTP layers see; MemoryStore keeps it in Maps (insertion order = creation order, so
// "newest first" is a reverse walk), and persistence is an adapter around a plain JSON snapshot.

import type { BillingTemplate, Brand, Client } from '../domain/types.ts';

export interface SandboxClockState {
  frozen: boolean;
  /** The frozen instant (ms); for a running clock, the instant at which it was last set. */
  nowMs: number;
  /** Running clocks: sandbox time = wall time + offsetMs. */
  offsetMs: number;
}

export interface SandboxOrigin {
  /** Whether the sandbox was seeded from fixtures/, so that a reset seeds it again. */
  fixtures: boolean;
  seed: number;
  /** The default sandbox: its ids, fixtures' included, are drawn from `seed` too. */
  seededIds: boolean;
}

export interface Sandbox {
  id: string;
  companyId: string;
  brands: Brand[];
  origin: SandboxOrigin;
  clock: SandboxClockState;
  clients: Map<string, Client>;
  templates: Map<string, BillingTemplate>;
}

export interface Store {
  get(id: string): Sandbox | undefined;
  /** Adds a sandbox, or replaces the one with the same id (a reset). */
  put(sandbox: Sandbox): void;
  all(): Iterable<Sandbox>;
  /** Called after every accepted change, so that a persistent store can save it. */
  changed(): void;
  close(): Promise<void>;
}

export function emptySandbox(fields: Pick<Sandbox, 'id' | 'companyId' | 'brands' | 'origin' | 'clock'>): Sandbox {
  return { ...fields, clients: new Map(), templates: new Map() };
}

export class MemoryStore implements Store {
  private readonly sandboxes = new Map<string, Sandbox>();

  get(id: string): Sandbox | undefined {
    return this.sandboxes.get(id);
  }

  put(sandbox: Sandbox): void {
    this.sandboxes.set(sandbox.id, sandbox);
  }

  all(): Iterable<Sandbox> {
    return this.sandboxes.values();
  }

  changed(): void {}

  async close(): Promise<void> {}
}

/** The JSON form of a sandbox: Maps become arrays in creation order. */
export interface SandboxSnapshot extends Omit<Sandbox, 'clients' | 'templates'> {
  clients: Client[];
  templates: BillingTemplate[];
}

export function toSnapshot(sandbox: Sandbox): SandboxSnapshot {
  return { ...sandbox, clients: [...sandbox.clients.values()], templates: [...sandbox.templates.values()] };
}

export function fromSnapshot(snapshot: SandboxSnapshot): Sandbox {
  const byId = <T extends { id: string }>(items: T[] = []) => new Map(items.map((item) => [item.id, item]));
  return { ...snapshot, clients: byId(snapshot.clients), templates: byId(snapshot.templates) };
}
