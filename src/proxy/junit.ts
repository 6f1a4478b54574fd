// The report as JUnit XML, for CI systems that show test results: one test case per operation seen,
// failing with its violations (one line each, as logged), passing when it had none. Notes (fields the
// document does not name) never fail a test case: they are its property `notes` (the count) and one
// `note …` line each in its <system-out>.

import type { OperationReport, ProxyReport } from './tally.ts';
import { violationLine } from './tally.ts';
import { escapeXml } from '../xml.ts';

function testCase(name: string, operation: OperationReport): string {
  const title = escapeXml(`${name} (${operation.method} ${operation.path})`);
  const out = escapeXml(
    [
      `${operation.exchanges} exchange(s), ${operation.upstream_errors} unanswered by the upstream, ${operation.unchecked} too large or unreadable to check`,
      ...operation.noted.map((noted) => `note: ${noted.side} ${noted.part} ${noted.field}: ${noted.message} (${noted.exchanges} answer(s); first ${noted.method} ${noted.url})`),
    ].join('\n'),
  );
  const properties = operation.notes ? `\n      <properties>\n        <property name="notes" value="${operation.notes}"/>\n      </properties>` : '';
  if (operation.violations === 0) {
    return `    <testcase classname="openapi.yaml" name="${title}">${properties}\n      <system-out>${out}</system-out>\n    </testcase>`;
  }
  const more = operation.violations - operation.listed.length;
  const lines = operation.listed.map((violation) => violationLine(name, violation));
  if (more > 0) lines.push(`… and ${more} more`);
  const message = escapeXml(`${operation.violations} violation(s) of openapi.yaml in ${operation.exchanges} exchange(s)`);
  return [
    `    <testcase classname="openapi.yaml" name="${title}">${properties}`,
    `      <failure message="${message}" type="violation">${escapeXml(lines.join('\n'))}</failure>`,
    `      <system-out>${out}</system-out>`,
    '    </testcase>',
  ].join('\n');
}

export function toJUnit(report: ProxyReport): string {
  const entries = Object.entries(report.operations);
  const failures = entries.filter(([, operation]) => operation.violations > 0).length;
  const suite = escapeXml(`billing-sim proxy → ${report.upstream}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${suite}" tests="${entries.length}" failures="${failures}" errors="0">`,
    `  <testsuite name="${suite}" tests="${entries.length}" failures="${failures}" errors="0" skipped="0" timestamp="${report.started}">`,
    '    <properties>',
    `      <property name="notes" value="${report.notes}"/>`,
    '    </properties>',
    ...entries.map(([name, operation]) => testCase(name, operation)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
