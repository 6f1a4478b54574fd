// What domain rules may know of the world: the sandbox's current instant and a source of ids.
// Both are injected so that every rule is deterministic under test (no Date.now(), no Math.random()).

export interface Clock {
  /** Milliseconds since the Unix epoch, as the sandbox sees it. */
  now(): number;
}

export interface Ids {
  /** A fresh UUID v4. */
  uuid(): string;
}

export interface Context {
  clock: Clock;
  ids: Ids;
}

/** Integer Unix seconds, the API's format for instants (`created_on`, `due`, …). */
export const unixSeconds = (ms: number): number => Math.floor(ms / 1000);
