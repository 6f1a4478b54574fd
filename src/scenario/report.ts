// How a run reads: one line per passed scenario; for a failed one, the step as written in its file
// (number, kind, line), the names it used with their values, what it expected and what came.

import type { Scenario, Step } from './load.ts';

export interface ScenarioFailure {
  /** The failed step, or undefined when the sandbox could not be made. */
  step?: Step;
  expected: string;
  got: string;
  /** The names the step uses, with their values, for the report. */
  names: [string, unknown][];
}

export interface ScenarioResult {
  scenario: Scenario;
  /** Steps that ran to the end. */
  passed: number;
  failure?: ScenarioFailure;
  ms: number;
  sandbox?: { id: string; token: string };
}

const elapsed = (ms: number): string => (ms < 10_000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** The lines printed for one scenario. */
export function report(result: ScenarioResult, origin?: string): string[] {
  const { scenario, failure } = result;
  const total = scenario.steps.length;
  if (!failure) return [`✓ ${scenario.name} — ${scenario.file} (${total} steps, ${elapsed(result.ms)})`];
  return [`✗ ${scenario.name} — ${scenario.file} (failed at step ${failure.step?.number ?? 0} of ${total}, ${elapsed(result.ms)})`, ...failureLines(failure).map((line) => `    ${line}`), ...kept(result, origin)];
}

/** The failure without the scenario's line: the step, the expectation and what came. */
export function failureLines(failure: ScenarioFailure): string[] {
  const { step } = failure;
  const lines = step
    ? [`step ${step.number}, ${stepTitle(step)} (line ${step.line}):`, ...step.source.split('\n').map((line) => `  ${line}`)]
    : ['the sandbox (POST /sim/v1/sandboxes):'];
  if (failure.names.length) lines.push(`  with ${failure.names.map(([name, value]) => `${name} = ${typeof value === 'string' ? value : JSON.stringify(value)}`).join(', ')}`);
  lines.push(`expected: ${failure.expected}`, `got:      ${failure.got}`);
  return lines;
}

/** `request`, `pay`, `advance`, or `expect status` / `expect fields` / `expect count`. */
export function stepTitle(step: Step): string {
  if (step.kind !== 'expect') return step.kind;
  const expect = step.spec.expect as Record<string, unknown>;
  return `expect ${'count' in expect ? 'count' : 'fields' in expect ? 'fields' : 'status'}`;
}

function kept(result: ScenarioResult, origin?: string): string[] {
  if (!origin || !result.sandbox) return [];
  return [`    the sandbox is kept: ${origin}/#token=${result.sandbox.token} (its id ${result.sandbox.id})`];
}
