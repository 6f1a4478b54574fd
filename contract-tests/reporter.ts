// The suite's console output, the only reporter on the screen (vitest's default one printed stack
// frames, diffs and the same message many times). For CI, compact:
//   ✗ [CLI-GET] normative — expected full_name = "Jane Doe", got "Forged"
//     GET /clients/{id}/ returns the client as created · cites openapi.yaml#getClient
//     last exchange: GET http://127.0.0.1:4010/api/v1/clients/61ca…/ → 200
// that is at most three lines for a failed check, the same for an informative check that warned
// (⚠, never ✓); then each group's tally, each skip reason once with its count, and a last line
// `N passed, N failed, N skipped, N warnings` (`, N notes` when the target answered fields openapi.yaml
// does not name: one line per operation lists them first, under "Notes"; they never fail the run).
// With CONTRACT_VERBOSE=1 (`--verbose`) each failure and warning also shows its exchanges, every note
// its field is listed, and what the checks logged is printed. With `--max-warnings N` the warnings'
// heading says that more than N fail the run; run.ts prints that verdict, after the cleanup's lines.

import type { SerializedError, UserConsoleLog } from 'vitest';
import type { Reporter, TestModule, TestRunEndReason, TestSpecification } from 'vitest/node';
import { collectResults, runNotes, tallies, type CheckResult, type RunError, type RunNote, type RunResults, type Tally } from './lib/results.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A failed or warned check: at most three lines, and its exchanges when verbose. */
export function describeCheck(check: CheckResult, verbose: boolean): string[] {
  const mark = check.outcome === 'warned' ? '⚠' : '✗';
  const failure = check.failure;
  const lines = [`${mark} [${check.id}] ${check.level ?? 'check'} — ${failure?.summary ?? check.outcome}`];
  lines.push(`    ${check.title}${check.cites ? ` · cites ${check.cites}` : ''}`);
  if (failure?.lastExchange) lines.push(`    last exchange: ${failure.lastExchange}`);
  if (verbose && failure && failure.exchanges.length) {
    lines.push(`    exchanges${failure.exchangesLeftOut ? ` (the last ${failure.exchanges.length}; ${failure.exchangesLeftOut} before them not shown)` : ''}:`);
    for (const exchange of failure.exchanges) lines.push(...exchange.split('\n').map((line) => `    ${line}`));
  }
  return lines;
}

function describeError(error: RunError, verbose: boolean): string[] {
  const lines = [`✗ ${error.where}: ${error.message}`];
  if (verbose && error.stack) lines.push(...error.stack.split('\n').slice(1, 8).map((line) => `    ${line.trim()}`));
  return lines;
}

/** The fields of one operation a line of notes names before `… and N more`, unless verbose. */
const NOTED_FIELDS_SHOWN = 12;

/** One line per operation: the fields its answers had that the document does not name. */
export function describeNotes(notes: readonly RunNote[], verbose: boolean): string[] {
  const byOperation = new Map<string, string[]>();
  for (const note of notes) byOperation.set(note.operation, [...(byOperation.get(note.operation) ?? []), note.field]);
  return [...byOperation].map(([operation, fields]) => {
    const shown = verbose ? fields : fields.slice(0, NOTED_FIELDS_SHOWN);
    const more = fields.length - shown.length;
    return `ℹ ${operation}: ${shown.join(', ')}${more ? `, … and ${more} more (--verbose lists them)` : ''}`;
  });
}

const tallyLine = (name: string, t: Tally) =>
  `  ${name.padEnd(34)} ${String(t.passed).padStart(4)} passed ${String(t.failed).padStart(4)} failed ${String(t.skipped).padStart(4)} skipped ${String(t.warned).padStart(4)} ${t.warned === 1 ? 'warning' : 'warnings'}`;

/** Everything after the run: warnings, failures, errors outside the checks, the tallies, the skip reasons, the totals. */
export function summaryLines(results: RunResults, verbose: boolean, reason?: TestRunEndReason, maxWarnings?: number): string[] {
  const { groups, total } = tallies(results.checks);
  const out: string[] = [];
  const notes = runNotes(results.checks);
  // Notes, warnings, failures and errors first; the tallies and the skip reasons last, where a CI
  // log's tail shows them.
  if (notes.length) {
    out.push('', 'Notes (fields the target answered that openapi.yaml does not name; they never fail a check):');
    out.push(...describeNotes(notes, verbose));
  }
  const warned = results.checks.filter((check) => check.outcome === 'warned');
  if (warned.length) {
    const verdict = maxWarnings === undefined ? 'they do not fail the run' : `more than --max-warnings ${maxWarnings} fail the run`;
    out.push('', `Warnings (informative checks: billing-sim's decisions where the API spec is silent; ${verdict}):`);
    for (const check of warned) out.push(...describeCheck(check, verbose));
  }
  const failed = results.checks.filter((check) => check.outcome === 'failed');
  if (failed.length) {
    out.push('', 'Failures:');
    for (const check of failed) out.push(...describeCheck(check, verbose));
  }
  if (results.errors.length) {
    out.push('', 'Errors outside the checks (they fail the run):');
    for (const error of results.errors) out.push(...describeError(error, verbose));
  }
  out.push('', 'Contract suite summary', ...groups.map(([name, t]) => tallyLine(name, t)), tallyLine('all checks', total));
  const skips = new Map<string, number>();
  for (const check of results.checks) if (check.outcome === 'skipped') skips.set(check.skipReason!, (skips.get(check.skipReason!) ?? 0) + 1);
  if (skips.size) out.push('', 'Skipped (the target cannot do this; not a failure):', ...[...skips].map(([why, n]) => `  ${n} × ${why}`));
  if (reason === 'interrupted') out.push('', 'The run was interrupted: the checks not finished are counted as skipped.');
  const extra = [
    plural(total.warned, 'warning'),
    ...(results.errors.length ? [plural(results.errors.length, 'error')] : []),
    ...(notes.length ? [plural(notes.length, 'note')] : []),
  ];
  out.push('', `${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped, ${extra.join(', ')}`);
  return out;
}

export default class SummaryReporter implements Reporter {
  private readonly verbose = process.env.CONTRACT_VERBOSE === '1';
  /** `--max-warnings`, for the words of the warnings' heading; run.ts decides the exit status. */
  private readonly maxWarnings = process.env.CONTRACT_MAX_WARNINGS ? Number(process.env.CONTRACT_MAX_WARNINGS) : undefined;

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    console.log(`Contract suite: ${plural(specifications.length, 'check file')}…`);
  }

  onUserConsoleLog(log: UserConsoleLog): void {
    if (this.verbose) process[log.type === 'stderr' ? 'stderr' : 'stdout'].write(log.content);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    console.log(summaryLines(collectResults(modules, unhandled), this.verbose, reason, this.maxWarnings).join('\n'));
  }
}
