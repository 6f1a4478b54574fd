// `billing-sim scenario from-recording` (DESIGN.md §15): a recording with time passing (recorded-flow.ts)
// becomes a scenario file that is valid, names its ids, and "passes on the simulator when the replay had
// no drift"; an expectation changed in it fails, so its expectations check something.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Entry, Har } from '../../src/recording/har-file.ts';
import { scenarioFromRecording, scenarioText, type ScenarioDocument } from '../../src/recording/to-scenario.ts';
import { checkScenario } from '../../src/scenario/schema.ts';
import { loadScenarios } from '../../src/scenario/load.ts';
import { runScenarioFiles } from '../../src/scenario/run.ts';
import { startHarBuilder } from '../support/har-builder.ts';
import { recordFlow } from './recorded-flow.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const dir = mkdtempSync(join(tmpdir(), 'billing-sim-from-recording-'));
let har: Har;
let text: string;
let scenario: ScenarioDocument;
let warnings: string[];

/** An entry the live server cannot give: a copy of a recorded one, changed. */
const variant = (entry: Entry, change: (copy: Entry) => void): Entry => {
  const copy = structuredClone(entry);
  change(copy);
  return copy;
};

beforeAll(async () => {
  const builder = await startHarBuilder();
  try {
    await recordFlow(builder);
    const last = builder.har().log.entries.at(-1)!;
    // A browser's preflight, and a request the upstream never answered.
    builder.push(variant(last, (entry) => Object.assign(entry.request, { method: 'OPTIONS', postData: undefined })));
    builder.push(variant(last, (entry) => Object.assign(entry.response, { status: 0, content: { size: 0, mimeType: '' } })));
    har = builder.har();
  } finally {
    await builder.close();
  }
  ({ scenario, warnings } = scenarioFromRecording(har, '/somewhere/checkout-flow.har'));
  text = scenarioText(scenario);
  writeFileSync(join(dir, 'checkout-flow.yaml'), text);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Step = Record<string, any>;
const steps = (): Step[] => scenario.steps;
const requests = () => scenario.steps.filter((step) => 'request' in step).map((step) => step.request as Step);
const stepAfter = (where: (step: Step) => boolean): Step => steps()[steps().findIndex(where) + 1]!;

describe('scenario from-recording', () => {
  it('writes a scenario file that scenario.schema.json accepts, each ${name} saved before it is used', () => {
    const parsed = parse(text) as unknown;
    expect(checkScenario(parsed)).toBeUndefined();
    expect(parsed).toEqual(scenario);
    expect(loadScenarios([join(dir, 'checkout-flow.yaml')])[0]!.steps).toHaveLength(scenario.steps.length);
  });

  it('is named after the file, says it was made from a recording and when, and starts a frozen sandbox at the first instant', () => {
    expect(scenario.name).toBe('checkout-flow');
    expect(scenario.description).toContain('from-recording from checkout-flow.har');
    expect(scenario.description).toContain(`recorded from ${har.log.entries[0]!.startedDateTime}`);
    expect(scenario.sandbox).toEqual({ now: '2028-01-31T09:00:00Z', frozen: true });
  });

  it('names the ids that flow from an answer to a later request, and writes no recorded UUID', () => {
    expect(text).not.toMatch(UUID);
    const saves = scenario.steps.flatMap((step) => Object.entries((step.save ?? {}) as Record<string, string>));
    expect(saves).toEqual([
      ['client', 'id'],
      ['template', 'id'],
      ['purchase_1', 'purchase.id'],
      ['subscriber', 'billing_template_client.id'],
      ['webhook', 'id'],
      ['purchase_2', 'id'],
      ['purchase_3', 'id'],
      ['purchase_4', 'id'],
    ]);
    expect(requests().map((request) => `${request.method} ${request.path}`)).toContain('GET /api/v1/billing_templates/${template}/clients/${subscriber}/');
    expect(requests().map((request) => request.path)).toContain('/api/v1/webhooks/${webhook}/');
    expect(requests().find((request) => request.path === '/api/v1/billing_templates/')!.body.brand_id).toBe('${brand_id}');
    expect(requests().find((request) => request.method === 'GET' && request.path === '/api/v1/purchases/')!.query).toEqual({ client_id: '${client}' });
  });

  it('moves the clock where the recording moved: its own advance, and the instant that jumped to March 31', () => {
    const advances = scenario.steps.filter((step) => 'advance' in step).map((step) => step.advance);
    expect(advances).toEqual([{ to: '2028-02-29T12:00:00Z' }, { to: '2028-03-31T12:00:00Z' }]);
    expect(requests().some((request) => request.path === '/sim/v1/clock/advance')).toBe(false);
  });

  it('pays as the payer did: the recorded /sim/v1 payment, and the ones made only on the checkout page', () => {
    const pays = scenario.steps.filter((step) => 'pay' in step);
    expect(pays.map((step) => step.pay)).toEqual([
      { purchase: '${purchase_1}', save_token: true },
      { purchase: '${purchase_2}', outcome: 'success', method: 'visa' },
      { purchase: '${purchase_4}', outcome: 'failure', method: 'visa', decline_code: 'do_not_honour' },
    ]);
    // Just before the first answer that shows it paid.
    expect(stepAfter((step) => step === pays[1])).toMatchObject({ request: { method: 'GET', path: '/api/v1/purchases/${purchase_2}/' } });
  });

  it('a decline code the scenario format does not know: the payer\'s payment is declined with the default', () => {
    const renamed = JSON.parse(JSON.stringify(har).replaceAll('do_not_honour', 'a_code_of_next_year')) as Har;
    const pays = scenarioFromRecording(renamed, 'renamed.har').scenario.steps.filter((step) => 'pay' in step);
    expect(pays.at(-1)!.pay).toEqual({ purchase: '${purchase_4}', outcome: 'failure', method: 'visa' });
  });

  it('says in a note what it skipped: its own sandbox, a page outside the API, a preflight, an exchange without answer', () => {
    const notes = scenario.steps.map((step) => step.note).filter(Boolean).join('\n');
    expect(notes).toContain('skipped #0 POST /sim/v1/sandboxes: the scenario makes its own sandbox');
    expect(notes).toMatch(/skipped #\d+ GET \/checkout\/\{purchase_3\}\/: a page outside the API/);
    expect(notes).toMatch(/the payer opened the checkout page of \{purchase_3\}/);
    expect(notes).toMatch(/skipped #\d+ OPTIONS \/api\/v1\/purchases\/: a CORS preflight/);
    expect(notes).toMatch(/skipped #\d+ POST \/api\/v1\/purchases\/: it has no answer/);
    expect(warnings.filter((line) => line.startsWith('skipped'))).toHaveLength(4);
  });

  it('expects what matters in an answer: statuses, amounts, currencies, error codes, a list\'s items; no ids nor instants', () => {
    const after = (method: string, path: string) => stepAfter((step) => step.request?.method === method && step.request?.path === path).expect.fields;
    expect(after('POST', '/api/v1/purchases/${purchase_2}/refund/')).toMatchObject({ status: 'success', 'payment.amount': 1000, 'payment.currency': 'EUR' });
    expect(after('GET', '/api/v1/purchases/${purchase_2}/')).toMatchObject({ status: 'paid', 'purchase.total': 3000, refundable_amount: 3000 });
    const lists = steps().filter((step) => step.expect?.fields?.results).map((step) => step.expect.fields.results);
    expect(lists).toEqual([[{ status: 'paid' }, { status: 'paid' }], [{ status: 'paid' }, { status: 'paid' }, { status: 'paid' }]]);
    const refusal = steps().filter((step) => step.request?.method === 'POST' && step.expect_status === 400).at(-1)!;
    expect(scenario.steps[scenario.steps.indexOf(refusal) + 1]!.expect).toEqual({ fields: { '/purchase.products/0/code': 'min_items' } });
    // The purchase opened on the checkout page stays `created` in a scenario: its status is not expected.
    expect(after('GET', '/api/v1/purchases/${purchase_3}/')).not.toHaveProperty('status');
    const expected = JSON.stringify(scenario.steps.filter((step) => 'expect' in step));
    expect(expected).not.toMatch(/created_on|due|checkout_url|is_test/);
  });

  it('passes on a fresh simulator', async () => {
    const lines: string[] = [];
    const status = await runScenarioFiles({ files: [join(dir, 'checkout-flow.yaml')], print: (line) => lines.push(line) });
    expect(status, lines.join('\n')).toBe(0);
    expect(lines.join('\n')).toContain(`✓ checkout-flow`);
  }, 60_000);

  it.each([
    ['an amount', 'purchase.total: 3000', 'purchase.total: 3001'],
    ['a status of a list\'s item', 'results: [{status: paid}, {status: paid}, {status: paid}]', 'results: [{status: paid}, {status: paid}]'],
    ['an error code', "/purchase.products/0/code: min_items", '/purchase.products/0/code: required'],
  ])('fails when %s in it is changed', async (_, before, after) => {
    expect(text).toContain(before);
    const file = join(dir, 'changed.yaml');
    writeFileSync(file, text.replace(before, after));
    const lines: string[] = [];
    const status = await runScenarioFiles({ files: [file], print: (line) => lines.push(line) });
    expect(status, lines.join('\n')).toBe(1);
    expect(lines.join('\n')).toContain(after.split(':')[0]);
  }, 60_000);

  it('without the simulator\'s clock header, reads the Date header and moves the clock only for moves of a minute or more', () => {
    const entries = har.log.entries.map((entry, index) =>
      variant(entry, (copy) => {
        copy.response.headers = copy.response.headers.filter((header) => header.name.toLowerCase() !== 'billing-sim-clock');
        // One second per exchange, and two days before the sixth.
        const ms = Date.parse('2028-01-31T09:00:00Z') + index * 1000 + (index >= 5 ? 2 * 86_400_000 : 0);
        copy.response.headers.push({ name: 'date', value: new Date(ms).toUTCString() });
      }),
    );
    const { scenario: platform } = scenarioFromRecording({ log: { ...har.log, entries } }, 'platform.har');
    expect(platform.sandbox.now).toBe('2028-01-31T09:00:01Z');
    const advances = platform.steps.filter((step) => 'advance' in step).map((step) => (step.advance as { to: string }).to);
    // The jump of two days, the recorded advance (to where its answer says), and the payer's payment on the
    // checkout page at the instant its purchase's history gives; no step for a second's move.
    expect(advances).toEqual(['2028-02-02T09:00:05Z', '2028-02-29T12:00:00Z', '2028-03-31T12:00:00Z']);
  });
});

describe('billing-sim scenario from-recording (the command)', () => {
  it('prints the scenario without --out and what it skipped on stderr; writes the file with --out', async () => {
    const { runCli } = await import('../support/spawn-sim.ts');
    const recording = join(dir, 'checkout-flow.har');
    writeFileSync(recording, JSON.stringify(har));
    const printed = await runCli(['scenario', 'from-recording', recording]);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toBe(text);
    expect(printed.stderr).toContain('billing-sim: skipped #0 POST /sim/v1/sandboxes: the scenario makes its own sandbox');
    const out = join(dir, 'written.yaml');
    const written = await runCli(['scenario', 'from-recording', recording, '--out', out]);
    expect(written.code, written.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(text);
  }, 60_000);

  it.each([
    [['scenario', 'from-recording'], 'from-recording takes 1 recording file, got 0'],
    [['scenario', 'from-recording', 'no-such.har'], 'no-such.har: no such file'],
    [['scenario', 'from-recording', '--origin', 'http://127.0.0.1:4010', 'rec.har'], '--origin is a flag of run, not of from-recording'],
    [['scenario', 'run', '--out', 'x.yaml', 'fixtures/scenarios/'], '--out is a flag of from-recording, not of run'],
  ])('%j: exit 2, one line', async (args, message) => {
    const { runCli } = await import('../support/spawn-sim.ts');
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`billing-sim: ${message} (see billing-sim scenario --help)\n`);
  }, 60_000);

  it('a file that is no recording: exit 2, one line', async () => {
    const { runCli } = await import('../support/spawn-sim.ts');
    const bad = join(dir, 'bad.har');
    writeFileSync(bad, 'not json\n');
    const result = await runCli(['scenario', 'from-recording', bad]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`billing-sim: ${bad}: not a HAR file: it does not parse as JSON, nor as a recording cut short\n`);
  }, 60_000);
});
