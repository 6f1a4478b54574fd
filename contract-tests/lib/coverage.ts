// What a run exercised of openapi.yaml, for the Markdown summary (lib/summary.ts): each operation
// with the statuses its answers had (lib/check.ts keeps `createClient 201` for every API answer a
// check got, whatever the check's outcome), each documented status seen or not, and each flow — a
// group of checks (lib/selection.ts), the scenario its check files walk through — run in full, in
// part or not at all. Nothing is assumed: an operation only a skipped check would have sent is not
// exercised, and the run's figures count it so.
//
// Why something was not exercised is said as precisely as the run shows it: the skip reasons of the
// checks that cite the operation (`openapi.yaml#createClient`) or that were skipped for lack of it
// (`the target has no GET /api/v1/purchases/`), else that no check of the run sent it (lib/summary.ts
// then says how many checks were skipped: what they would have sent is not known).

import { document, operations, type DocumentOperation } from './operations.ts';
import type { CheckResult, RunResults } from './results.ts';
import { knownGroups } from './selection.ts';

export interface OperationCoverage {
  operationId: string;
  method: string;
  /** As a client writes it: relative to /api/v1 or /sim/v1 (`/clients/{id}/`). */
  path: string;
  /** The platform has it: under /api/v1 and not `x-simulator-only`. Only these make the figures. */
  platform: boolean;
  /** The statuses openapi.yaml documents for it, `default` left out. */
  documented: string[];
  /** The statuses its answers had, documented or not, in numeric order. */
  seen: string[];
  /** The checks whose requests exercised it. */
  checks: string[];
  /** Why it was not exercised; undefined when it was. */
  reason?: string;
}

export type FlowState = 'exercised' | 'in part' | 'not exercised' | 'not run';

export interface FlowCoverage {
  /** The group's name, as the summary per group shows it. */
  name: string;
  state: FlowState;
  /** Its checks that ran (passed, failed or warned) and those skipped. */
  ran: number;
  skipped: number;
  /** The skip reasons of its skipped checks, each once with its count; or why it did not run. */
  reasons: string[];
}

export interface Coverage {
  operations: OperationCoverage[];
  flows: FlowCoverage[];
  /** The run took only some of the suite's checks (a filter, --group or --level). */
  partial: boolean;
}

/** `12 × reason` for each distinct reason, most frequent first. */
export function countedReasons(reasons: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].sort(([, a], [, b]) => b - a).map(([reason, n]) => `${n} × ${reason}`);
}

const byNumber = (a: string, b: string) => Number(a) - Number(b) || a.localeCompare(b);

/** The statuses openapi.yaml documents for an operation; `default` is no status a check can see. */
function documentedStatuses(operation: DocumentOperation): string[] {
  const responses = document.paths[operation.path]?.[operation.method.toLowerCase()]?.responses ?? {};
  return Object.keys(responses).filter((code) => code !== 'default').sort(byNumber);
}

/** Whether a skipped check would have sent the operation: it cites it, or it was skipped for lack of it. */
function wouldSend(check: CheckResult, operation: DocumentOperation): boolean {
  const cited = new RegExp(`openapi\\.yaml#${operation.operationId}(?![\\w/])`).test(check.cites ?? '');
  const missing = [operation.path, operation.relativePath].some((path) => (check.skipReason ?? '').includes(`${operation.method} ${path} `));
  return cited || missing;
}

function reasonNotExercised(operation: DocumentOperation, skipped: readonly CheckResult[], partial: boolean): string {
  const concerned = skipped.filter((check) => wouldSend(check, operation));
  if (concerned.length) return `its checks were skipped: ${countedReasons(concerned.map((check) => check.skipReason!)).join('; ')}`;
  // The control API's operations: the checks that would have sent them are among those skipped for want of it.
  const wanting = operation.area === 'sim' ? skipped.filter((check) => /\/sim\/v1/.test(check.skipReason ?? '')).length : 0;
  if (wanting) return `${wanting} ${wanting === 1 ? 'check was' : 'checks were'} skipped for want of the simulator control API (see the skip reasons)`;
  // A check that failed may have stopped before it: "sent", not "sends".
  return partial ? 'no check of this run sent it (the run took only some checks)' : 'no check sent it';
}

function flowOf(name: string, checks: readonly CheckResult[]): FlowCoverage {
  const skipped = checks.filter((check) => check.outcome === 'skipped');
  const ran = checks.length - skipped.length;
  const reasons = countedReasons(skipped.map((check) => check.skipReason ?? 'skipped'));
  if (checks.length === 0) return { name, state: 'not run', ran: 0, skipped: 0, reasons: ['not selected in this run'] };
  const state: FlowState = skipped.length === 0 ? 'exercised' : ran === 0 ? 'not exercised' : 'in part';
  return { name, state, ran, skipped: skipped.length, reasons };
}

/**
 * The coverage of a run. `env` gives CONTRACT_LEVEL: with it, the checks of the other level were
 * never registered, so the run is partial even when every file ran.
 */
export function coverageOf(results: RunResults, env: NodeJS.ProcessEnv = process.env): Coverage {
  const groups = knownGroups();
  const allFiles = new Set([...groups.values()].flat().map((file) => file.replace(/\.test\.[jt]s$/, '')));
  const runFiles = new Set((results.files ?? results.checks.map((check) => check.file)).map((file) => file.replace(/\.test\.[jt]s$/, '')));
  const partial = Boolean(env.CONTRACT_LEVEL || env.CONTRACT_CHECK) || [...allFiles].some((file) => !runFiles.has(file));

  const seen = new Map<string, { statuses: Set<string>; checks: Set<string> }>();
  for (const check of results.checks) {
    for (const entry of check.exercised ?? []) {
      const [operationId, status] = entry.split(' ');
      const record = seen.get(operationId!) ?? { statuses: new Set(), checks: new Set() };
      seen.set(operationId!, record);
      if (status) record.statuses.add(status);
      record.checks.add(check.id);
    }
  }
  const skipped = results.checks.filter((check) => check.outcome === 'skipped');
  const covered = operations
    // /healthz and the like: not the API a client calls, nor the simulator's control.
    .filter((operation) => operation.area !== 'other')
    .map((operation): OperationCoverage => {
      const record = seen.get(operation.operationId);
      return {
        operationId: operation.operationId,
        method: operation.method,
        path: operation.relativePath,
        platform: operation.area === 'api' && !operation.simulatorOnly,
        documented: documentedStatuses(operation),
        seen: [...(record?.statuses ?? [])].sort(byNumber),
        checks: [...(record?.checks ?? [])],
        ...(record ? {} : { reason: reasonNotExercised(operation, skipped, partial) }),
      };
    });

  const flows = [...groups.keys()]
    .sort((a, b) => a.localeCompare(b))
    .map((name) => flowOf(name, results.checks.filter((check) => check.group === name)));
  return { operations: covered, flows, partial };
}
