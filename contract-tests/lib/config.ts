// What the suite knows of its target, provided once by the global setup: where the API is, the
// tokens, and what the target can do beyond the spec (a simulator's clock and payments).

export interface Capabilities {
  /** POST /sim/v1/clock/advance and sandboxes with their own clock. */
  clock: boolean;
  /** POST /sim/v1/purchases/{id}/pay. */
  payments: boolean;
  /** GET /sim/v1/events and /sim/v1/outbox. */
  events: boolean;
}

export interface TargetConfig {
  /** The API base as a client configures it, e.g. http://127.0.0.1:4010/api/v1 (no trailing slash). */
  baseUrl: string;
  /** The origin of baseUrl: the simulator control API is looked for at `${origin}/sim/v1`. */
  origin: string;
  token: string;
  /** A second account's token, for the isolation checks; empty when not given. */
  token2: string;
  capabilities: Capabilities;
  /** True when the suite started the simulator itself. */
  selfHosted: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    target: TargetConfig;
  }
}
