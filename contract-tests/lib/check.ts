// A check: one test with a stable id, a level and the rule it cites (docs/behaviour.md#… or
// openapi.yaml#…, lib/citations.ts). A normative check (the API spec says so, as docs/behaviour.md
// restates it) fails the run; an informative one (billing-sim's decision on something the spec leaves
// open) only warns. A check that needs what the target lacks (a clock, simulated payments, a second
// account, an operation only the simulator has) is skipped with the reason, never failed. With CONTRACT_LEVEL set, the checks of the other
// level are not registered at all: they are neither run nor counted.
//
// A failure is kept in the test's meta as data (expected, got, the exchanges), for reporter.ts and
// lib/junit.ts to print; the error a normative check throws is one short line, so that nothing else
// vitest prints of it runs to a screenful. So are the check's notes (lib/client.ts: fields the
// target answered that openapi.yaml does not name), whatever its outcome: they never fail it.

import { inject, it } from 'vitest';
import { ApiClient, describeExchange, NotOnTarget, withRecord, type CheckRecord, type Note } from './client.ts';
import type { Capabilities, TargetConfig } from './config.ts';
import { describeFailure } from './failure.ts';
import { selectedChecks, selectedLevel } from './selection.ts';

export type Level = 'normative' | 'informative';
/**
 * What a check may need beyond the spec: a capability (lib/capabilities.ts), a second account, or
 * `simulator`: a field only the simulator has (`x-simulator-only` in openapi.yaml), which a target
 * has when it shows any capability of the simulator control API.
 */
export type Requirement = keyof Capabilities | 'token2' | 'simulator';

export interface CheckSpec {
  id: string;
  title: string;
  /** Where the rule comes from: `docs/behaviour.md#limits: "…"` or `openapi.yaml#createClient`. */
  cites: string;
  level?: Level;
  requires?: Requirement[];
}

export interface CheckMeta {
  id: string;
  level: Level;
  cites: string;
}

/** What a failed or warned check found, as reporter.ts and lib/junit.ts print it. */
export interface CheckFailure {
  /** One line: what was expected and what came, e.g. `status: expected 201, got 200`. */
  summary: string;
  /** The request that came last, e.g. `POST http://127.0.0.1:4010/api/v1/clients/ → 200`. */
  lastExchange?: string;
  /** The check's requests and answers as lib/client.ts describes them, the last few. */
  exchanges: string[];
  /** How many earlier exchanges `exchanges` leaves out. */
  exchangesLeftOut: number;
}

declare module 'vitest' {
  interface TaskMeta {
    check?: CheckMeta;
    /** The failure of a normative check, or an informative check's warning. */
    failure?: CheckFailure;
    /** An informative check's failure, reported as a warning: its one-line summary. */
    warning?: string;
    /** Fields the target's answers had that openapi.yaml does not name, each (operation, field) once. */
    notes?: Note[];
    /** The API operations the check exercised, with the status each answered: `createClient 201`, each once. */
    exercised?: string[];
  }
}

/** The exchanges kept for a failure; a check that made more shows how many it left out. */
const EXCHANGES_KEPT = 8;

export interface CheckContext {
  target: TargetConfig;
  /** The main account's API client (`api.sim` for the simulator control API). */
  api: ApiClient;
  /** The second account's client; only for checks that require 'token2'. */
  api2: ApiClient;
  /**
   * A fresh simulator sandbox whose clock is frozen at `now` (ISO instant): its own clients,
   * templates and clock, so a time scenario owns its dates. Only for checks that require 'clock'.
   */
  sandboxAt(now: string): Promise<ApiClient>;
  /** Ends the check as skipped, with the reason: what it needs turned out to be missing only as it ran. */
  skip(reason: string): never;
}

/** Thrown by `CheckContext.skip`. */
class Skipped extends Error {
  override name = 'Skipped';
}

const REASONS: Record<Requirement, string> = {
  clock: 'the target has no simulator clock (GET /sim/v1/capabilities: clock)',
  payments: 'the target cannot simulate payments (GET /sim/v1/capabilities: payments)',
  events: 'the target records no events (GET /sim/v1/capabilities: events)',
  token2: 'no second account was given (--token2)',
  simulator: 'only the simulator has it (x-simulator-only in openapi.yaml), and the target shows no simulator control API (GET /sim/v1/capabilities)',
};

export function target(): TargetConfig {
  return inject('target');
}

function has(config: TargetConfig, requirement: Requirement): boolean {
  if (requirement === 'token2') return config.token2 !== '';
  if (requirement === 'simulator') return Object.values(config.capabilities).some(Boolean);
  return config.capabilities[requirement];
}

function failureOf(error: unknown, { exchanges }: CheckRecord): CheckFailure {
  const last = exchanges.at(-1);
  return {
    summary: describeFailure(error),
    lastExchange: last && `${last.method} ${last.url} → ${last.status}`,
    exchanges: exchanges.slice(-EXCHANGES_KEPT).map(describeExchange),
    exchangesLeftOut: Math.max(0, exchanges.length - EXCHANGES_KEPT),
  };
}

export function check(spec: CheckSpec, body: (ctx: CheckContext) => Promise<void>): void {
  const level = spec.level ?? 'normative';
  const only = selectedLevel();
  if (only && only !== level) return;
  if (selectedChecks()?.has(spec.id) === false) return;
  const meta: CheckMeta = { id: spec.id, level, cites: spec.cites };
  // The meta is given at registration too, so that a collection without a run (the citations test)
  // and a skipped check carry it.
  it(`${spec.id} ${spec.title}`, { meta: { check: meta } }, async (context) => {
    context.task.meta.check = meta;
    const config = target();
    const missing = (spec.requires ?? []).find((requirement) => !has(config, requirement));
    if (missing) {
      context.skip(REASONS[missing]);
      return;
    }
    const record: CheckRecord = { id: spec.id, exchanges: [], notes: [], exercised: [] };
    // Kept whatever the check's outcome, before a skip or a failure ends it.
    const keepNotes = () => {
      if (record.notes.length) context.task.meta.notes = record.notes;
      if (record.exercised.length) context.task.meta.exercised = record.exercised;
    };
    try {
      const api = new ApiClient(config, config.token);
      const sandboxAt = async (now: string) => {
        const created = await api.sim.post('/sandboxes', { now, frozen: true }, { token: null });
        if (created.status !== 201) throw new Error(`POST /sim/v1/sandboxes answered ${created.status}`);
        return new ApiClient(config, created.body.token as string);
      };
      const skip = (reason: string): never => {
        throw new Skipped(reason);
      };
      await withRecord(record, () => body({ target: config, api, api2: new ApiClient(config, config.token2), sandboxAt, skip }));
      keepNotes();
    } catch (error) {
      keepNotes();
      // A simulator-only operation the target does not have (client.ts): nothing the target owes.
      if (error instanceof NotOnTarget || error instanceof Skipped) {
        context.skip(error.message);
        return;
      }
      const failure = failureOf(error, record);
      context.task.meta.failure = failure;
      if (level === 'informative') {
        context.task.meta.warning = failure.summary;
        return;
      }
      // One line, no stack: the reporter prints the rest from the meta.
      const thrown = new Error(`[${spec.id}] ${level} — ${failure.summary}`);
      thrown.stack = thrown.message;
      throw thrown;
    }
  });
}
