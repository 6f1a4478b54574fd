// What a QA engineer sees when a scenario is wrong: a copy of a fixture with one deliberately wrong
// expectation fails with exit 1, naming the step (number, kind, line, the YAML as written), the
// expectation and what came, and the run goes on with the next scenario; the JUnit report says the same.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killSpawned, runCli } from '../support/spawn-sim.ts';

const fixture = (name: string): string => readFileSync(fileURLToPath(new URL(`../../fixtures/scenarios/${name}`, import.meta.url)), 'utf8');

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-scenario-failures-'));
const junit = join(dir, 'report.xml');
afterAll(async () => {
  await killSpawned();
  rmSync(dir, { recursive: true, force: true });
});

/** declined-once-then-fine.yaml, but expecting the declined February charge to be paid at once. */
const RIGHT = '    expect: {fields: {results.0: {issued: 2028-02-29, status: sent}}}';
const WRONG = '    expect: {fields: {results.0: {issued: 2028-02-29, status: paid}}}';
const original = fixture('declined-once-then-fine.yaml');
const wrongFile = join(dir, 'declined-once-wrong.yaml');
// The step starts on the line above (its `- note:`): 0-based index of RIGHT = 1-based line of the note.
const stepLine = original.split('\n').indexOf(RIGHT);
const stepNumber = (parse(original) as { steps: { expect?: { fields?: Record<string, { status?: string }> } }[] }).steps.findIndex((step) => step.expect?.fields?.['results.0']?.status === 'sent') + 1;

let run: Awaited<ReturnType<typeof runCli>>;
beforeAll(async () => {
  expect(original).toContain(RIGHT);
  writeFileSync(wrongFile, original.replace(RIGHT, WRONG));
  run = await runCli(['scenario', 'run', wrongFile, 'fixtures/scenarios/month-end-anchoring.yaml', '--junit', junit], 120_000);
}, 150_000);

describe('a scenario with a wrong expectation', () => {
  it('fails the run with exit 1, and the next scenario still runs and passes', () => {
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^✗ Declined once, then fine: a dunning retry with token_outcomes — .*declined-once-wrong\.yaml \(failed at step \d+ of 17, /m);
    expect(run.stdout).toMatch(/^✓ Month ends are respected: .* — fixtures\/scenarios\/month-end-anchoring\.yaml/m);
    expect(run.stdout).toContain('2 scenario(s): 1 passed, 1 failed');
  });

  it('names the step by number, kind and line, and prints it as written', () => {
    expect(stepNumber).toBeGreaterThan(1);
    const lines = run.stdout.split('\n');
    const at = lines.indexOf(`    step ${stepNumber}, expect fields (line ${stepLine}):`);
    expect(at, run.stdout).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 3)).toEqual(['      - note: declined, so the purchase is sent (waiting for payment) and the invoice e-mailed', `        ${WRONG.trim()}`]);
  });

  it('says what was expected and what came', () => {
    expect(run.stdout).toMatch(/^ {4}expected: results\.0\.status = "paid" in GET \/api\/v1\/purchases\/\?billing_template_id=[0-9a-f-]{36}$/m);
    expect(run.stdout).toMatch(/^ {4}got: {6}results\.0\.status = "sent"$/m);
  });

  it('the JUnit report has the failure on that scenario\'s test case, with the same text', () => {
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(junit, 'utf8')) as {
      testsuites: { tests: string; failures: string; testsuite: { testcase: { name: string; failure?: { message: string; '#text': string } }[] } };
    };
    expect(xml.testsuites).toMatchObject({ tests: '2', failures: '1' });
    const [failed, passed] = xml.testsuites.testsuite.testcase;
    expect(failed!.failure!.message).toBe(`step ${stepNumber} (expect fields): expected results.0.status = "paid" in GET /api/v1/purchases/?billing_template_id=${/billing_template_id=([0-9a-f-]{36})/.exec(run.stdout)![1]}, got results.0.status = "sent"`);
    expect(failed!.failure!['#text']).toContain(WRONG.trim());
    expect(passed!.failure).toBeUndefined();
  });
});

describe('other kinds of failed steps', () => {
  const run1 = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return runCli(['scenario', 'run', file], 60_000);
  };

  it('a count: expected and found, with what was found listed', async () => {
    const result = await run1('count.yaml', original.replace('  - expect: {count: emails, kind: invoice, is: 1}\n', '  - expect: {count: emails, kind: invoice, is: 2}\n'));
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toMatch(/step 17, expect count \(line \d+\):\n {6}- expect: \{count: emails, kind: invoice, is: 2\}\n {4}expected: 2 e-mail\(s\) with kind invoice\n {4}got: {6}1: invoice to ada@example\.com for purchase [0-9a-f-]{36} at 2028-02-29T00:00:00Z/);
  });

  it('a status: the status that came, with its history', async () => {
    const result = await run1('status.yaml', original.replace('  - expect: {fields: {status: paid, recurring_token: "${first}"}}\n', '  - expect: {purchase: "${february}", status: cancelled}\n'));
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toMatch(/step \d+, expect status .*\n.*\n {6}with february = ([0-9a-f-]{36})\n {4}expected: purchase \1 in status cancelled\n {4}got: {6}paid \(history: created 2028-02-29T00:00:00Z → sent 2028-02-29T00:00:00Z → paid 2028-02-29T00:00:00Z\)/);
  });

  it('an answer with another status than expect_status: the answer, body included', async () => {
    const result = await run1('answer.yaml', original.replace('body: {recurring_token: "${first}"}', 'body: {recurring_token: "${client}"}'));
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toMatch(/ {4}expected: status 2xx\n {4}got: {6}400 POST \/api\/v1\/purchases\/[0-9a-f-]{36}\/charge\/: \{"__all__":\[\{"message":.*"code":"invalid_recurring_token"\}\]\}/);
  });
});
