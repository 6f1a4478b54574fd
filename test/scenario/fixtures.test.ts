// Every scenario of fixtures/scenarios/ (one per example of the spec) passes, run as a QA engineer
// runs them: `billing-sim scenario run fixtures/scenarios/ --junit FILE`, one process for the folder,
// against the simulator it starts itself. The JUnit report has one passing test case per file.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killSpawned, runCli } from '../support/spawn-sim.ts';

const FOLDER = 'fixtures/scenarios';
const files = readdirSync(fileURLToPath(new URL(`../../${FOLDER}`, import.meta.url)))
  .filter((name) => name.endsWith('.yaml'))
  .sort();
const dir = mkdtempSync(join(tmpdir(), 'billing-sim-scenarios-'));
const junit = join(dir, 'reports', 'scenarios.xml');
let run: Awaited<ReturnType<typeof runCli>>;

beforeAll(async () => {
  run = await runCli(['scenario', 'run', FOLDER, '--junit', junit], 180_000);
}, 200_000);
afterAll(async () => {
  await killSpawned();
  rmSync(dir, { recursive: true, force: true });
});

const nameOf = (file: string): string => (parse(readFileSync(fileURLToPath(new URL(`../../${FOLDER}/${file}`, import.meta.url)), 'utf8')) as { name: string }).name;

describe('fixtures/scenarios/', () => {
  it('holds a scenario for each example of the spec the issue names', () => {
    for (const example of ['trial-charge-at-period-start', 'trial-charge-at-period-end', 'month-end-anchoring', 'pause-and-resume', 'first-deduction', 'mandate-expiry', 'token-deletion', 'failed-automatic-charge-invoice', 'service-types-oneday-twoday', 'declined-once-then-fine']) {
      expect(files).toContain(`${example}.yaml`);
    }
  });

  it('the run passes: exit 0, every scenario counted as passed', () => {
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(`${files.length} scenario(s): ${files.length} passed, 0 failed`);
  });

  it.each(files)('%s passes', (file) => {
    expect(run.stdout).toContain(`✓ ${nameOf(file)} — ${FOLDER}/${file} (`);
  });

  it('the JUnit report has one passing test case per scenario, named after it', () => {
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(junit, 'utf8')) as {
      testsuites: { tests: string; failures: string; testsuite: { testcase: { classname: string; name: string; failure?: unknown }[] } };
    };
    expect(xml.testsuites).toMatchObject({ tests: String(files.length), failures: '0' });
    const cases = xml.testsuites.testsuite.testcase;
    expect(cases.map((testCase) => testCase.classname)).toEqual(files.map((file) => `${FOLDER}/${file}`));
    expect(cases.map((testCase) => testCase.name)).toEqual(files.map(nameOf));
    expect(cases.filter((testCase) => testCase.failure !== undefined)).toEqual([]);
  });
});
