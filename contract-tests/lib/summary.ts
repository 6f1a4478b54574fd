// The run as GitHub-flavoured Markdown (`--summary FILE`), written for `$GITHUB_STEP_SUMMARY`: the
// verdict and totals, a table per group of passed/failed/warned/skipped, the failed checks and, apart,
// the warned ones (id, level, what failed, what it cites), the errors outside the checks, and the
// coverage of lib/coverage.ts with its conformance figures. Read from the same results as the screen
// (lib/results.ts), so the two always agree.
//
// Every cell is escaped (escapeCell): a failure's summary holds what the target answered, which may
// hold `|`, `<` or a line break, and any of them would break the table or become HTML.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { countedReasons, coverageOf, type Coverage, type OperationCoverage } from './coverage.ts';
import { tallies, type CheckResult, type RunResults, type Tally } from './results.ts';

export interface SummaryOptions {
  /** `--max-warnings N`: more warnings than this failed the run. */
  maxWarnings?: number;
  /** The API base checked; undefined: the simulator the suite started itself. */
  baseUrl?: string;
}

/** Text made safe for a table cell: one line, no HTML, no `|`, Markdown's marks shown as they are. */
export function escapeCell(value: string): string {
  return value
    .replace(/\s*\n\s*/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|~])/g, '\\$1');
}

const row = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;

function table(header: readonly string[], align: readonly ('l' | 'r')[], rows: readonly (readonly (string | number)[])[]): string[] {
  return [row(header), row(align.map((a) => (a === 'r' ? '---:' : '---'))), ...rows.map(row)];
}

/** `3 of 7 (42%)`, rounded down: 99.6% is not all. */
const figure = (part: number, whole: number) => `${part} of ${whole} (${whole ? Math.floor((100 * part) / whole) : 100}%)`;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function verdict(results: RunResults, total: Tally, maxWarnings: number | undefined): string[] {
  const reasons = [
    ...(total.failed ? [`${plural(total.failed, 'normative check')} failed`] : []),
    ...(results.errors.length ? [`${plural(results.errors.length, 'error')} outside the checks`] : []),
    ...(maxWarnings !== undefined && total.warned > maxWarnings ? [`${plural(total.warned, 'warning')}, more than --max-warnings ${maxWarnings} allows`] : []),
  ];
  return [`## Contract suite: ${reasons.length ? 'failed' : 'passed'}`, '', ...(reasons.length ? [`The run failed: ${reasons.join('; ')}.`, ''] : [])];
}

function groupTable(results: RunResults): string[] {
  const { groups, total } = tallies(results.checks);
  const rows = groups.map(([name, t]) => [escapeCell(name), t.passed, t.failed, t.warned, t.skipped]);
  rows.push(['**all checks**', `**${total.passed}**`, `**${total.failed}**`, `**${total.warned}**`, `**${total.skipped}**`]);
  return ['### Checks by group', '', ...table(['group', 'passed', 'failed', 'warned', 'skipped'], ['l', 'r', 'r', 'r', 'r'], rows), ''];
}

function checkTable(title: string, checks: readonly CheckResult[]): string[] {
  if (!checks.length) return [];
  const rows = checks.map((check) => [
    `\`${check.id}\` ${escapeCell(check.title)}`,
    check.level ?? 'check',
    escapeCell(check.failure?.summary ?? check.outcome),
    check.cites ? escapeCell(check.cites) : '—',
  ]);
  return [title, '', ...table(['check', 'level', 'what failed', 'cites'], ['l', 'l', 'l', 'l'], rows), ''];
}

function errorList(results: RunResults): string[] {
  if (!results.errors.length) return [];
  return ['### Errors outside the checks (they fail the run)', '', ...results.errors.map((error) => `- ${escapeCell(error.where)}: ${escapeCell(error.message)}`), ''];
}

/** createClient `POST /clients/`: a document path holds no backtick or `|`, so its code span needs no escape. */
const operationCell = (op: OperationCoverage) => `${op.operationId} \`${op.method} ${op.path}\``;

/** The statuses seen, those the document does not name marked so (they failed a check). */
const seenCell = (op: OperationCoverage) => op.seen.map((status) => (op.documented.includes(status) ? status : `${status} (not documented)`)).join(', ') || '—';

const notSeenCell = (op: OperationCoverage) => op.documented.filter((status) => !op.seen.includes(status)).join(', ') || '—';

/** A long table folded away: a CI page shows the figures and what was missed first. */
const folded = (summary: string, lines: string[]) => (lines.length ? ['<details>', `<summary>${summary}</summary>`, '', ...lines, '', '</details>', ''] : []);

function coverageSection(coverage: Coverage): string[] {
  const platform = coverage.operations.filter((op) => op.platform);
  const exercised = platform.filter((op) => !op.reason);
  const documented = platform.reduce((sum, op) => sum + op.documented.length, 0);
  const seen = platform.reduce((sum, op) => sum + op.seen.filter((status) => op.documented.includes(status)).length, 0);
  const flows = coverage.flows;
  const count = (state: string) => flows.filter((flow) => flow.state === state).length;
  const out = [
    '### Coverage',
    '',
    ...(coverage.partial ? ['Only some of the suite\'s checks ran (a filter, `--group`, `--level` or a choice of checks): what the others would have exercised counts as not exercised.', ''] : []),
    ...table(['of openapi.yaml', 'exercised against the target'], ['l', 'r'], [
      ['API operations (the platform\'s: under /api/v1, not simulator-only)', figure(exercised.length, platform.length)],
      ['their documented response statuses', figure(seen, documented)],
      ['flows (check groups), run in full', figure(count('exercised'), flows.length)],
    ]),
    '',
    `An operation is exercised when a check got an answer to it from the target; a skipped check exercised nothing. Flows: ${count('exercised')} run in full, ${count('in part')} in part, ${count('not exercised')} not exercised (every check skipped), ${count('not run')} not run.`,
    '',
  ];
  const missed = platform.filter((op) => op.reason);
  if (missed.length) {
    const skipped = flows.reduce((sum, flow) => sum + flow.skipped, 0);
    const unknown = skipped && missed.some((op) => op.reason!.startsWith('no check'));
    out.push('#### API operations not exercised', '');
    if (unknown) out.push(`${plural(skipped, 'check')} of the run ${skipped === 1 ? 'was' : 'were'} skipped: an operation no check sent may be one they would have sent.`, '');
    out.push(...table(['operation', 'documented statuses, none seen', 'why'], ['l', 'l', 'l'], missed.map((op) => [operationCell(op), notSeenCell(op), escapeCell(op.reason!)])), '');
  }
  out.push('#### API operations exercised', '');
  if (exercised.length) {
    out.push(
      'A documented status not seen is one no check of the run provoked from the target.',
      '',
      ...folded(
        plural(exercised.length, 'operation'),
        table(['operation', 'statuses seen', 'documented, not seen', 'checks'], ['l', 'l', 'l', 'r'], exercised.map((op) => [operationCell(op), seenCell(op), notSeenCell(op), op.checks.length])),
      ),
    );
  } else out.push('None.', '');
  const simulator = coverage.operations.filter((op) => !op.platform);
  out.push(
    '#### Simulator-only operations (not in the figures)',
    '',
    'The simulator control API (/sim/v1) and the API operations marked `x-simulator-only`: a real server need not have them.',
    '',
    ...folded(
      `${simulator.filter((op) => !op.reason).length} of ${simulator.length} exercised`,
      table(['operation', 'statuses seen', 'why not exercised'], ['l', 'l', 'l'], simulator.map((op) => [operationCell(op), op.reason ? '—' : seenCell(op), op.reason ? escapeCell(op.reason) : ''])),
    ),
  );
  out.push(
    '#### Flows',
    '',
    'A flow is a group of checks (the summary per group above): a resource or scenario its check files walk through against the target.',
    '',
    ...table(
      ['flow', 'state', 'checks run', 'skipped', 'why not all'],
      ['l', 'l', 'r', 'r', 'l'],
      flows.map((flow) => [escapeCell(flow.name), flow.state, flow.ran, flow.skipped, flow.reasons.map(escapeCell).join('; ') || '']),
    ),
    '',
  );
  return out;
}

/** The whole summary; `coverage` defaults to the run's own (it reads openapi.yaml and the check files). */
export function summaryMarkdown(results: RunResults, options: SummaryOptions = {}, coverage: Coverage = coverageOf(results)): string {
  const { total } = tallies(results.checks);
  const checked = options.baseUrl ? `against ${escapeCell(options.baseUrl)}` : 'against the simulator the suite started';
  const skips = countedReasons(results.checks.filter((check) => check.outcome === 'skipped').map((check) => check.skipReason ?? 'skipped'));
  const lines = [
    ...verdict(results, total, options.maxWarnings),
    `${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped, ${plural(total.warned, 'warning')} ${checked}.`,
    '',
    ...groupTable(results),
    ...checkTable('### Failed checks (normative: they fail the run)', results.checks.filter((check) => check.outcome === 'failed')),
    ...checkTable(
      `### Warnings (informative checks: billing-sim's own decisions${options.maxWarnings === undefined ? '; they do not fail the run' : `; more than ${options.maxWarnings} fail the run`})`,
      results.checks.filter((check) => check.outcome === 'warned'),
    ),
    ...errorList(results),
    ...(skips.length ? ['### Skipped (the target cannot do this; not a failure)', '', ...skips.map((line) => `- ${escapeCell(line)}`), ''] : []),
    ...coverageSection(coverage),
  ];
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

/** Writes the summary to `file` (an absolute path), its folder made if missing. */
export function writeSummary(file: string, results: RunResults, options: SummaryOptions = {}): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, summaryMarkdown(results, options));
}
