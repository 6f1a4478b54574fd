// The JUnit XML report (`--junit FILE`, CONTRACT_JUNIT), written by the suite itself instead of
// vitest's junit reporter, which wrote `<skipped/>` without its reason and showed an informative check
// that found a fault as a plain pass. One <testsuite> per group, one <testcase> per check:
//   passed       <testcase> with its id, level and citation as properties
//   failed       <failure message="what was expected and what came" type="normative">, the exchanges inside
//   skipped      <skipped message="the reason"/>
//   warned       <skipped message="warning: …"/>, property `warning` and the details in <system-out>:
//                CI tools show it as neither passed nor failed, and it does not fail the build
//   notes        (any outcome) a property `note` per field the check's answers had that openapi.yaml
//                does not name (`getPurchase company_id: …`), and a `NOTE …` line each in <system-out>:
//                never a failure; each <testsuite> counts its group's in the property `notes`
// Errors outside the checks (a check file that does not load) are <error> test cases of their own.
// The file's path is as given: vitest.config.ts resolves it against the user's current folder.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import type { SerializedError } from 'vitest';
import { collectResults, runNotes, tallies, type CheckResult, type RunResults } from './results.ts';

/** Characters XML 1.0 cannot hold at all (control characters but tab, LF and CR; lone surrogates). */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function escapeXml(value: string): string {
  return value
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;');
}

/** Element text: only what would end the text needs escaping; line breaks stay. */
const text = (value: string) => value.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const attributes = (attrs: Record<string, string | number | undefined>) =>
  Object.entries(attrs)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXml(String(value))}"`)
    .join('');

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function details(check: CheckResult): string {
  const failure = check.failure!;
  return [
    `[${check.id}] ${check.level ?? 'check'} — ${failure.summary}`,
    `${check.title}${check.cites ? `\ncites ${check.cites}` : ''}`,
    ...(failure.exchanges.length
      ? [`exchanges${failure.exchangesLeftOut ? ` (the last ${failure.exchanges.length}; ${failure.exchangesLeftOut} before them not shown)` : ''}:`, ...failure.exchanges]
      : []),
  ].join('\n');
}

/** A check's notes, one line each: `getPurchase company_id: a field openapi.yaml does not name`. */
const noteLines = (check: CheckResult): string[] => (check.notes ?? []).map((note) => `${note.operation} ${note.field}: ${note.message}`);

function testcase(check: CheckResult): string[] {
  const properties = [
    ['id', check.id],
    ['level', check.level],
    ['cites', check.cites],
    ['warning', check.outcome === 'warned' ? check.failure?.summary : undefined],
    ...noteLines(check).map((line) => ['note', line]),
  ].filter((pair): pair is [string, string] => pair[1] !== undefined);
  const out: string[] = [];
  const open = `    <testcase${attributes({ classname: `contract.${check.group}`, name: `${check.id} ${check.title}`, file: check.file, time: seconds(check.durationMs) })}>`;
  const lines = [open];
  if (properties.length) {
    lines.push('      <properties>', ...properties.map(([name, value]) => `        <property${attributes({ name, value })}/>`), '      </properties>');
  }
  if (check.outcome === 'failed') {
    lines.push(`      <failure${attributes({ message: check.failure!.summary, type: check.level ?? 'error' })}>${text(details(check))}</failure>`);
  } else if (check.outcome === 'skipped') {
    lines.push(`      <skipped${attributes({ message: check.skipReason })}/>`);
  } else if (check.outcome === 'warned') {
    lines.push(`      <skipped${attributes({ message: `warning: informative check found a difference: ${check.failure!.summary}` })}/>`);
    out.push(`WARNING ${details(check)}`);
  }
  out.push(...noteLines(check).map((line) => `NOTE ${line}`));
  if (out.length) lines.push(`      <system-out>${text(out.join('\n'))}</system-out>`);
  lines.push('    </testcase>');
  return lines;
}

export function junitXml(results: RunResults, now = new Date()): string {
  const { groups, total } = tallies(results.checks);
  const totalMs = results.checks.reduce((sum, check) => sum + check.durationMs, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'contract', tests: results.checks.length + results.errors.length, failures: total.failed, errors: results.errors.length, skipped: total.skipped + total.warned, time: seconds(totalMs) })}>`,
  ];
  for (const [group, tally] of groups) {
    const checks = results.checks.filter((check) => check.group === group);
    lines.push(
      `  <testsuite${attributes({
        name: group,
        tests: checks.length,
        failures: tally.failed,
        errors: 0,
        skipped: tally.skipped + tally.warned,
        time: seconds(checks.reduce((sum, check) => sum + check.durationMs, 0)),
        timestamp: now.toISOString().slice(0, 19),
      })}>`,
      '    <properties>',
      `      <property${attributes({ name: 'warnings', value: tally.warned })}/>`,
      `      <property${attributes({ name: 'notes', value: runNotes(checks).length })}/>`,
      '    </properties>',
      ...checks.flatMap(testcase),
      '  </testsuite>',
    );
  }
  if (results.errors.length) {
    lines.push(`  <testsuite${attributes({ name: 'errors outside the checks', tests: results.errors.length, failures: 0, errors: results.errors.length, skipped: 0, time: '0.000' })}>`);
    for (const error of results.errors) {
      lines.push(
        `    <testcase${attributes({ classname: 'contract', name: error.where, time: '0.000' })}>`,
        `      <error${attributes({ message: error.message })}>${text(error.stack ?? error.message)}</error>`,
        '    </testcase>',
      );
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

/** Writes the report to `file` (an absolute path) at the end of the run. */
export class JUnitReporter implements Reporter {
  constructor(private readonly file: string) {}

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): void {
    mkdirSync(dirname(this.file), { recursive: true });
    writeFileSync(this.file, junitXml(collectResults(modules, unhandled)));
    console.log(`JUnit report written to ${this.file}`);
  }
}
