// The run as JUnit XML for CI: one test case per scenario (class name: its file), a failed one
// carrying the report's lines for its failed step.

import { failureLines, stepTitle, type ScenarioResult } from './report.ts';
import { escapeXml } from '../xml.ts';

function testCase(result: ScenarioResult): string {
  const { scenario, failure } = result;
  const open = `    <testcase classname="${escapeXml(scenario.file)}" name="${escapeXml(scenario.name)}" time="${(result.ms / 1000).toFixed(3)}"`;
  if (!failure) return `${open}/>`;
  const where = failure.step ? `step ${failure.step.number} (${stepTitle(failure.step)})` : 'the sandbox';
  const message = `${where}: expected ${failure.expected}, got ${failure.got}`;
  return [
    `${open}>`,
    `      <failure message="${escapeXml(message.length > 1000 ? `${message.slice(0, 1000)}…` : message)}" type="step">${escapeXml(failureLines(failure).join('\n'))}</failure>`,
    '    </testcase>',
  ].join('\n');
}

export function toJUnit(results: ScenarioResult[], started: Date): string {
  const failures = results.filter((result) => result.failure).length;
  const time = (results.reduce((sum, result) => sum + result.ms, 0) / 1000).toFixed(3);
  const counts = `tests="${results.length}" failures="${failures}" errors="0"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="billing-sim scenarios" ${counts} time="${time}">`,
    `  <testsuite name="billing-sim scenarios" ${counts} skipped="0" time="${time}" timestamp="${started.toISOString()}">`,
    ...results.map(testCase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
