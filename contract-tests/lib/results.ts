// The run as the suite reports it: every check with its group and outcome, and the errors that
// belong to no check (a check file that does not load, a failed hook, an unhandled rejection).
// reporter.ts prints it, lib/junit.ts writes it as XML and lib/summary.ts as Markdown; all read it
// from here, so that the screen and the files always agree. An informative check that found a fault is `warned`: the test passed
// for vitest, but it is never counted or shown as passed. A note (a field a target answered that
// openapi.yaml does not name) belongs to the check that saw it and to the run, where each
// (operation, field) counts once; it is never an outcome.

import type { SerializedError } from 'vitest';
import type { TestCase, TestModule } from 'vitest/node';
import type { CheckFailure, Level } from './check.ts';
import type { Note } from './client.ts';

export type Outcome = 'passed' | 'failed' | 'warned' | 'skipped';

export interface CheckResult {
  /** The check's id (`CLI-CREATE`), or the test's name for a test made without check(). */
  id: string;
  title: string;
  group: string;
  /** The check file, relative to the suite's root: `checks/clients.test.ts`. */
  file: string;
  level?: Level;
  cites?: string;
  outcome: Outcome;
  /** Why it failed or warned: what was expected and what came, the exchanges. */
  failure?: CheckFailure;
  /** Why it was skipped. */
  skipReason?: string;
  /** Fields the target answered that openapi.yaml does not name, each (operation, field) once. */
  notes?: Note[];
  /** `operationId status` of every API answer the check got, each once (lib/coverage.ts). */
  exercised?: string[];
  durationMs: number;
}

/** A note of the run: one field of one operation's answers, and the checks that saw it. */
export interface RunNote extends Note {
  /** The ids of the checks whose answers had it, in the order of the run. */
  checks: string[];
}

export interface RunError {
  /** Where: a check file, a group's hook, or "the run". */
  where: string;
  message: string;
  stack?: string;
}

export interface RunResults {
  checks: CheckResult[];
  errors: RunError[];
  /** The check files of the run, relative to the suite's root, those without a check of the run included. */
  files?: string[];
}

/** The group of a test: the outermost describe around it, else its file's name. */
export function groupOf(test: TestCase): string {
  let node: TestCase['parent'] = test.parent;
  let name = test.module.relativeModuleId.replace(/^.*\//, '').replace(/\.test\.[jt]s$/, '');
  while (node.type === 'suite') {
    name = node.name;
    node = node.parent;
  }
  return name;
}

function failureOfTest(test: TestCase): CheckFailure {
  const errors = test.result().errors ?? [];
  const first = errors[0];
  return {
    // A timeout or an error outside check()'s body: the error's first line.
    summary: (first?.message ?? 'failed').split('\n')[0]!.trim(),
    exchanges: [],
    exchangesLeftOut: 0,
  };
}

function resultOf(test: TestCase): CheckResult {
  const meta = test.meta();
  const check = meta.check;
  const name = test.name;
  const id = check?.id ?? name.split(' ')[0]!;
  const result = test.result();
  const base = {
    id,
    title: check && name.startsWith(`${id} `) ? name.slice(id.length + 1) : name,
    group: groupOf(test),
    file: test.module.relativeModuleId,
    level: check?.level,
    cites: check?.cites,
    ...(meta.notes?.length ? { notes: meta.notes } : {}),
    ...(meta.exercised?.length ? { exercised: meta.exercised } : {}),
    durationMs: test.diagnostic()?.duration ?? 0,
  };
  if (result.state === 'skipped') return { ...base, outcome: 'skipped', skipReason: result.note ?? 'skipped' };
  if (result.state === 'failed') return { ...base, outcome: 'failed', failure: meta.failure ?? failureOfTest(test) };
  if (meta.warning) return { ...base, outcome: 'warned', failure: meta.failure ?? { summary: meta.warning, exchanges: [], exchangesLeftOut: 0 } };
  // 'pending' only when the run was cut short: the check did not finish, which is not a pass.
  if (result.state === 'pending') return { ...base, outcome: 'skipped', skipReason: 'not run: the run was interrupted' };
  return { ...base, outcome: 'passed' };
}

const errorOf = (where: string, error: SerializedError): RunError => ({
  where,
  message: (error.message ?? String(error)).split('\n')[0]!.trim(),
  stack: error.stack,
});

export function collectResults(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError> = []): RunResults {
  const checks: CheckResult[] = [];
  const errors: RunError[] = [];
  const files: string[] = [];
  for (const module of modules) {
    files.push(module.relativeModuleId);
    for (const error of module.errors()) errors.push(errorOf(module.relativeModuleId, error));
    for (const suite of module.children.allSuites()) {
      for (const error of suite.errors()) errors.push(errorOf(`${module.relativeModuleId} > ${suite.fullName}`, error));
    }
    for (const test of module.children.allTests()) checks.push(resultOf(test));
  }
  for (const error of unhandled) errors.push(errorOf('the run (an unhandled error)', error));
  return { checks, errors, files };
}

/** The notes of every check, each (operation, field) once with the checks that saw it; by operation, then field. */
export function runNotes(checks: readonly CheckResult[]): RunNote[] {
  const byKey = new Map<string, RunNote>();
  for (const check of checks) {
    for (const note of check.notes ?? []) {
      const key = `${note.operation} ${note.field}`;
      const seen = byKey.get(key) ?? { ...note, checks: [] };
      byKey.set(key, seen);
      if (!seen.checks.includes(check.id)) seen.checks.push(check.id);
    }
  }
  return [...byKey.values()].sort((a, b) => a.operation.localeCompare(b.operation) || a.field.localeCompare(b.field));
}

export interface Tally {
  passed: number;
  failed: number;
  warned: number;
  skipped: number;
}

export const emptyTally = (): Tally => ({ passed: 0, failed: 0, warned: 0, skipped: 0 });

/** The tally of each group, sorted by name, and of the whole run. */
export function tallies(checks: readonly CheckResult[]): { groups: [string, Tally][]; total: Tally } {
  const groups = new Map<string, Tally>();
  const total = emptyTally();
  for (const check of checks) {
    const tally = groups.get(check.group) ?? emptyTally();
    groups.set(check.group, tally);
    tally[check.outcome] += 1;
    total[check.outcome] += 1;
  }
  return { groups: [...groups].sort(([a], [b]) => a.localeCompare(b)), total };
}
