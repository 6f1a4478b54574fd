// A replay's result for people and for CI: printed lines (drift first, then what the simulator
// cannot know, each difference once with the exchanges it concerns), a JSON file of the result, and
// JUnit XML with one test case per operation replayed, failing where it drifted. Exchanges are named
// by their index in the recording (from 0, the order of its entries).

import type { Difference } from './compare.ts';
import type { ReplayResult } from './replay.ts';
import { escapeXml } from '../xml.ts';

export interface ReportContext {
  /** The recording's file, as given. */
  file: string;
  origin: string;
  /** When the replay began. */
  started: Date;
}

/** Exchanges listed in one line at most: a difference on every GET of a long recording is still one line. */
const MAX_LISTED = 20;

const exchangesText = (indexes: number[]): string => {
  const listed = indexes.slice(0, MAX_LISTED).join(', ');
  return `exchange${indexes.length > 1 ? 's' : ''} ${listed}${indexes.length > MAX_LISTED ? ` and ${indexes.length - MAX_LISTED} more` : ''}`;
};

const WHAT: Record<Difference['kind'], string> = {
  http_status: 'status code',
  missing: 'missing in the replay',
  extra: 'only in the replay',
  type: 'JSON type',
  value: 'value',
  count: 'number of items',
  shape: 'kind of value',
};

export function differenceLine(difference: Difference): string {
  const where = difference.path === '' ? '' : ` ${difference.path}`;
  return `${difference.operation}${where}: ${WHAT[difference.kind]}, recorded ${difference.recorded}, replayed ${difference.replayed} (${exchangesText(difference.exchanges)})`;
}

export function reportLines(result: ReplayResult, context: ReportContext): string[] {
  const lines = [`billing-sim replay: ${result.exchanges} exchange(s) of ${context.file}, ${result.replayed} replayed on ${context.origin}, ${result.skipped.length} skipped`];
  lines.push(result.drift.length === 0 ? 'no drift' : `drift (${result.drift.length}): the simulator differs from the recording`);
  lines.push(...result.drift.map((difference) => `  ${differenceLine(difference)}`));
  if (result.unknowable.length > 0) {
    lines.push(`what the simulator cannot know (${result.unknowable.length}): not drift`);
    for (const difference of result.unknowable) lines.push(`  ${differenceLine(difference)}`, `    ${difference.why}`);
  }
  if (result.documented.length > 0) {
    lines.push(`billing-sim's documented differences (${result.documented.length}): not drift`);
    for (const difference of result.documented) lines.push(`  ${differenceLine(difference)}`, `    ${difference.documented}`);
  }
  if (result.skipped.length > 0) {
    lines.push(`skipped (${result.skipped.length}):`);
    lines.push(...result.skipped.map((skip) => `  exchange ${skip.index}: ${skip.why}`));
  }
  return lines;
}

/** The JSON report file: the result as it is, with where and when. */
export const toJsonReport = (result: ReplayResult, context: ReportContext): string =>
  `${JSON.stringify({ recording: context.file, origin: context.origin, started: context.started.toISOString(), ...result }, null, 2)}\n`;

function testCase(operation: string, exchanges: number[], drift: Difference[], apart: Difference[]): string {
  const open = `    <testcase classname="billing-sim replay" name="${escapeXml(operation)}">`;
  const aside = (difference: Difference) =>
    difference.documented ? `documented: ${differenceLine(difference)} — ${difference.documented}` : `cannot know: ${differenceLine(difference)} — ${difference.why}`;
  const out = [`${exchanges.length} ${exchangesText(exchanges)}`, ...apart.map(aside)].join('\n');
  const failure = drift.length === 0 ? [] : [`      <failure message="${escapeXml(`${drift.length} difference(s) from the recording`)}" type="drift">${escapeXml(drift.map(differenceLine).join('\n'))}</failure>`];
  return [open, ...failure, `      <system-out>${escapeXml(out)}</system-out>`, '    </testcase>'].join('\n');
}

export function toJUnit(result: ReplayResult, context: ReportContext): string {
  const operations = Object.entries(result.operations);
  const of = (list: Difference[], operation: string) => list.filter((difference) => difference.operation === operation);
  const failures = operations.filter(([operation]) => of(result.drift, operation).length > 0).length;
  const suite = escapeXml(`billing-sim replay ${context.file} → ${context.origin}`);
  const counts = `tests="${operations.length}" failures="${failures}" errors="0"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${suite}" ${counts}>`,
    `  <testsuite name="${suite}" ${counts} skipped="0" timestamp="${context.started.toISOString()}">`,
    ...operations.map(([operation, exchanges]) => testCase(operation, exchanges, of(result.drift, operation), of([...result.unknowable, ...result.documented], operation))),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
