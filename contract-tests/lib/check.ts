// A check: one test with a stable id, a level and the spec section it cites. A normative check
// (the spec says so) fails the run; an informative one (a DESIGN.md decision on something the spec
// leaves open) only warns. A check that needs what the target lacks (a clock, simulated payments,
// a second account) is skipped with the reason, never failed.

import { inject, it } from 'vitest';
import { ApiClient, describeExchange, exchanges } from './client.ts';
import type { Capabilities, TargetConfig } from './config.ts';

export type Level = 'normative' | 'informative';
export type Requirement = keyof Capabilities | 'token2';

export interface CheckSpec {
  id: string;
  title: string;
  /** Where the rule comes from: `Spec, Limits` or `DESIGN.md §4.5`. */
  cites: string;
  level?: Level;
  requires?: Requirement[];
}

export interface CheckMeta {
  id: string;
  level: Level;
  cites: string;
}

declare module 'vitest' {
  interface TaskMeta {
    check?: CheckMeta;
    /** An informative check's failure, reported as a warning. */
    warning?: string;
  }
}

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
}

const REASONS: Record<Requirement, string> = {
  clock: 'the target has no simulator clock (GET /sim/v1/capabilities: clock)',
  payments: 'the target cannot simulate payments (GET /sim/v1/capabilities: payments)',
  events: 'the target records no events (GET /sim/v1/capabilities: events)',
  token2: 'no second account was given (--token2)',
};

export function target(): TargetConfig {
  return inject('target');
}

function has(config: TargetConfig, requirement: Requirement): boolean {
  return requirement === 'token2' ? config.token2 !== '' : config.capabilities[requirement];
}

export function check(spec: CheckSpec, body: (ctx: CheckContext) => Promise<void>): void {
  const level = spec.level ?? 'normative';
  it(`${spec.id} ${spec.title}`, async (context) => {
    context.task.meta.check = { id: spec.id, level, cites: spec.cites };
    const config = target();
    const missing = (spec.requires ?? []).find((requirement) => !has(config, requirement));
    if (missing) {
      context.skip(REASONS[missing]);
      return;
    }
    exchanges.length = 0;
    try {
      const api = new ApiClient(config, config.token);
      const sandboxAt = async (now: string) => {
        const created = await api.sim.post('/sandboxes', { now, frozen: true }, { token: null });
        if (created.status !== 201) throw new Error(`POST /sim/v1/sandboxes answered ${created.status}`);
        return new ApiClient(config, created.body.token as string);
      };
      await body({ target: config, api, api2: new ApiClient(config, config.token2), sandboxAt });
    } catch (error) {
      const report =
        `[${spec.id}] ${level} — cites ${spec.cites}\n${(error as Error).message}` +
        (exchanges.length ? `\nlast exchanges:\n${exchanges.slice(-3).map(describeExchange).join('\n')}` : '');
      if (level === 'informative') {
        context.task.meta.warning = report;
        context.annotate(report, 'warning');
        return;
      }
      const failure = new Error(report);
      failure.stack = report;
      throw failure;
    }
  });
}
