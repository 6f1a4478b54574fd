// Every citation of the contract suite resolves inside the repository (the grammar is in
// contract-tests/lib/citations.ts): each docs/*.md#anchor is a heading of that page, each
// openapi.yaml#operationId an operation and each openapi.yaml#/pointer a node of the document, each
// quote is in the section it follows, and no citation or check file sends a reader to a file the
// repository does not have (DESIGN.md, the spec). The checks are collected by vitest, not run
// (citations-list.ts), so the citations are the ones the reporter prints, interpolations included.

import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { problemsOf } from './citations-check.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = `${ROOT}node_modules/.bin/tsx`;
const LIST = fileURLToPath(new URL('./citations-list.ts', import.meta.url));

interface ListedCheck {
  file: string;
  name: string;
  id?: string;
  cites?: string;
}

describe('the citations of the contract suite', () => {
  let checks: ListedCheck[] = [];

  beforeAll(async () => {
    // Every check, of both levels, against the simulator the global setup starts: no CONTRACT_* of the caller's.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CONTRACT_')));
    const { stdout } = await run(TSX, [LIST], { cwd: ROOT, maxBuffer: 64 * 2 ** 20, env });
    const line = stdout.split('\n').find((text) => text.startsWith('CHECKS '));
    expect(line, stdout.slice(-2000)).toBeDefined();
    const listed = JSON.parse(line!.slice('CHECKS '.length)) as { checks: ListedCheck[]; errors: string[] };
    expect(listed.errors).toEqual([]);
    checks = listed.checks;
  }, 120_000);

  it('are collected from every check file, and every check has one', () => {
    const files = readdirSync(`${ROOT}contract-tests/checks`).filter((name) => name.endsWith('.test.ts'));
    // Listed from dist/, where each check file is compiled to .js.
    expect(new Set(checks.map((check) => check.file.replace(/^.*\//, '').replace(/\.js$/, '.ts')))).toEqual(new Set(files));
    expect(checks.filter((check) => !check.cites).map((check) => check.name)).toEqual([]);
  });

  it('each resolve: anchors, operations and schemas that exist, quotes that are in the section they follow', () => {
    const byCitation = new Map<string, string[]>();
    for (const check of checks.filter((c) => c.cites)) byCitation.set(check.cites!, [...(byCitation.get(check.cites!) ?? []), check.id!]);
    const problems = [...byCitation].flatMap(([cites, ids]) => problemsOf(cites).map((problem) => `${ids[0]}${ids.length > 1 ? ` (and ${ids.length - 1} more)` : ''}: ${problem}`));
    expect(problems).toEqual([]);
  });

  it('no check file, nor a module that writes citations or failure messages, sends a reader to DESIGN.md or the spec document', () => {
    const checkFiles = readdirSync(`${ROOT}contract-tests/checks`).filter((name) => name.endsWith('.ts')).map((name) => `contract-tests/checks/${name}`);
    const writers = ['check', 'citations', 'failure', 'limits-cases', 'primitives', 'purchase-actions', 'refusal', 'scenario'].map((name) => `contract-tests/lib/${name}.ts`);
    const offenders = [...checkFiles, ...writers, 'contract-tests/reporter.ts'].flatMap((file) =>
      readFileSync(`${ROOT}${file}`, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/DESIGN\.md|billing-templates-spec\.md|§\s?\d/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});

describe('the checker of citations itself', () => {
  it('accepts a heading, an operation, a pointer and quotes found there', () => {
    expect(
      problemsOf(
        'docs/behaviour.md#status-codes: "a create"; openapi.yaml#deleteClientRecurringToken: "A token that is already deleted … answers 404"; openapi.yaml#/components/schemas/ClientUpdate',
      ),
    ).toEqual([]);
  });

  it('refuses a missing anchor, operation or pointer, a quote not in its section, and a file outside the repository', () => {
    expect(problemsOf('docs/behaviour.md#no-such-rule')).toEqual(['docs/behaviour.md has no heading #no-such-rule']);
    expect(problemsOf('docs/design.md#errors')).toEqual(['docs/design.md is not a page of the repository']);
    expect(problemsOf('openapi.yaml#makeClient')).toEqual(['openapi.yaml has no operation makeClient']);
    expect(problemsOf('openapi.yaml#/components/schemas/Nothing')).toEqual(['openapi.yaml has nothing at /components/schemas/Nothing']);
    expect(problemsOf('docs/behaviour.md#status-codes: "a delete answers 200"')).toEqual(['"a delete answers 200" is not in docs/behaviour.md#status-codes']);
    expect(problemsOf('DESIGN.md §3 Errors: "201 create"')).toEqual([
      'cites nothing in the repository (docs/*.md#anchor or openapi.yaml#…)',
      'the quote "201 create" follows no reference',
      'names "DESIGN.md", which is not a place in the repository',
      'names "§", which is not a place in the repository',
    ]);
    expect(problemsOf('openapi.yaml#createClient; billing-templates-spec.md, Limits')).toEqual(['names "billing-templates-spec.md", which is not a place in the repository']);
  });
});
