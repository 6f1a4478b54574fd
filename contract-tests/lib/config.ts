// What the suite knows of its target, provided once by the global setup: where the API is, the
// tokens, the brand of each account, what the target can do beyond the spec (a simulator's clock
// and payments, each proven by trying it: lib/capabilities.ts), and where the run notes what it
// creates so that it can delete it at the end (lib/ledger.ts).

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
  /** The brand the suite creates the main account's templates and purchases for (--brand-id, or found). */
  brandId: string;
  /** The second account's brand (CONTRACT_BRAND_ID2, or found); empty when unknown. */
  brandId2: string;
  capabilities: Capabilities;
  /** True when the suite started the simulator itself. */
  selfHosted: boolean;
  /** True when token and token2 are sandboxes the suite made on the target, deleted at the end (lib/own-sandboxes.ts). */
  ownSandboxes: boolean;
  /**
   * The folder where each worker appends what it created in the two accounts (lib/ledger.ts), read
   * by the global setup's teardown; empty: nothing is noted (the suite's own simulator).
   */
  ledger: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    target: TargetConfig;
  }
}

/** How many requests the run has in flight at most when --concurrency (CONTRACT_CONCURRENCY) says nothing: real servers rate-limit. */
export const DEFAULT_CONCURRENCY = 4;

/** At most this many requests in flight at once: `--concurrency N`, passed to the checks' process as CONTRACT_CONCURRENCY. */
export const requestConcurrency = (env: NodeJS.ProcessEnv = process.env): number => Number(env.CONTRACT_CONCURRENCY) || DEFAULT_CONCURRENCY;
