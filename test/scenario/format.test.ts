// The scenario format, read in-process: each kind of problem a file can have is reported with its
// line and the dotted path of the first bad value (the CLI prints this line and exits 2:
// usage.test.ts), and the values of a run: paths into answers, ${name}, how expected values match;
// and the worked example of docs/scenarios.md, which must be the fixture it says it is.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenarios, ScenarioError } from '../../src/scenario/load.ts';
import { ABSENT, differences, substitute, UnknownName, valueAt } from '../../src/scenario/values.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-scenario-format-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEAD = 'name: bad\nsandbox: {now: 2028-02-29T09:00:00Z}\nsteps:\n  - request: {method: GET, path: /api/v1/clients/}\n    save: {clients: results}\n';

function problemOf(text: string): string {
  const file = join(dir, 'bad.yaml');
  writeFileSync(file, text);
  try {
    loadScenarios([file]);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return (error as Error).message.replace(new RegExp(`^${file}:? ?`), '');
  }
  throw new Error('no problem found');
}

describe('a file that is not a valid scenario', () => {
  it.each([
    ['an advance with both by and to', `${HEAD}  - advance: {by: P1M, to: 2028-04-01}\n`, '6: step 2, advance: advance takes exactly one of by (a duration such as P1M) or to (an instant or a date)'],
    ['a duration that is not one', `${HEAD}  - advance:\n      by: one month\n`, '7: step 2, advance.by: by is an ISO-8601 duration such as P1M, P3D, PT12H or P1Y2M'],
    ['a misspelt step kind', `${HEAD}  - advnce: {by: P1M}\n`, '6: step 2: a step needs one of request, pay, advance or expect (it has: advnce)'],
    ['a step that is not a mapping', `${HEAD}  - advance P1M\n`, '6: step 2: a step is a mapping with one of request, pay, advance or expect'],
    ['two kinds in one step', `${HEAD}  - pay: {purchase: abc}\n    advance: {by: P1M}\n`, '7: step 2, advance: not a key here (allowed: note, pay, expect_status, save)'],
    ['a key the step does not take', `${HEAD}  - pay: {purchase: abc, outcom: failure}\n`, '6: step 2, pay.outcom: not a key here (allowed: purchase, method, outcome, decline_code, save_token, token_outcome, token_outcomes)'],
    ['a value outside its set', `${HEAD}  - pay: {purchase: abc, outcome: maybe}\n`, '6: step 2, pay.outcome: must be one of success, failure'],
    ['an outcome that is neither success, failure nor a decline code', `${HEAD}  - pay: {purchase: abc, token_outcomes: [failure, maybe]}\n`, "6: step 2, pay.token_outcomes.1: an outcome is success, failure or a decline code such as do_not_honour (openapi.yaml's DeclineCode lists them)"],
    ['a decline code the platform does not have', `${HEAD}  - pay: {purchase: abc, outcome: failure, decline_code: card_on_fire}\n`, "6: step 2, pay.decline_code: a decline code of the platform, such as expired_card or do_not_honour (openapi.yaml's DeclineCode lists them)"],
    ['a method in small letters', `${HEAD}  - request: {method: get, path: /api/v1/clients/}\n`, '6: step 2, request.method: method is one of GET, POST, PUT, PATCH, DELETE (in capitals)'],
    ['a path outside the API', `${HEAD}  - request: {method: GET, path: /clients/}\n`, '6: step 2, request.path: a path starts with /api/v1/ or /sim/v1/ (the runner adds the origin and the token)'],
    ['an expect_status that is not one', `${HEAD}  - request: {method: GET, path: /api/v1/clients/}\n    expect_status: 2xy\n`, '7: step 2, expect_status: expect_status is a status such as 201, a class such as 4xx, or a list of them'],
    ['a status in a list that is not one', `${HEAD}  - request: {method: GET, path: /api/v1/clients/}\n    expect_status: [201, 2xy]\n`, '7: step 2, expect_status: expect_status is a status such as 201, a class such as 4xx, or a list of them'],
    ['a count without its number', `${HEAD}  - expect: {count: purchases, status: paid}\n`, '6: step 2, expect: a count takes is, or at_least and/or at_most'],
    ['a count with is and a bound', `${HEAD}  - expect: {count: purchases, is: 1, at_least: 1}\n`, '6: step 2, expect: a count takes is, or at_least and/or at_most'],
    ['a filter of another kind of count', `${HEAD}  - expect: {count: emails, type: invoice, is: 1}\n`, '6: step 2, expect.type: a count of e-mails filters by kind (invoice or receipt), purchase and to'],
    ['a status of two objects', `${HEAD}  - expect: {purchase: a, subscriber: b, status: paid}\n`, '6: step 2, expect: a status expectation names one purchase, or one subscriber (and, if you like, its template), besides the status'],
    ['a status expectation without the status', `${HEAD}  - expect: {purchase: a}\n`, '6: step 2, expect.status: required'],
    ['fields without any', `${HEAD}  - expect: {fields: {}}\n`, '6: step 2, expect.fields: needs at least 1 key(s)'],
    ['a saved name the runner gives', `${HEAD}  - request: {method: GET, path: /api/v1/clients/}\n    save: {brand_id: results.0.id}\n`, '7: step 2, save.brand_id: a saved name is letters, digits and _ (not starting with a digit), and not brand_id or sandbox_id (given by the runner)'],
    ['no steps', 'name: bad\nsteps: []\n', '2: steps: needs at least 1 item(s)'],
    ['a missing name', 'sandbox: {now: 2028-02-29}\nsteps:\n  - advance: {by: P1D}\n', '1: name: required'],
    ['a key the scenario does not take', 'name: bad\nclock: {now: 2028-02-29}\nsteps:\n  - advance: {by: P1D}\n', '2: clock: not a key here (allowed: name, description, sandbox, steps)'],
    ['a sandbox instant that is not one', 'name: bad\nsandbox:\n  now: tomorrow\nsteps:\n  - advance: {by: P1D}\n', '3: sandbox.now: an instant is ISO-8601 such as 2028-02-29T09:00:00Z, or a date such as 2028-02-29 (its 00:00:00Z)'],
    ['a name no earlier step saves', `${HEAD}  - pay: {purchase: "\${clinets}"}\n`, '6: step 2, pay.purchase: ${clinets} is not saved by an earlier step (known here: brand_id, sandbox_id, clients)'],
    ['a name saved only by a later step', 'name: bad\nsteps:\n  - expect: {purchase: "${p}", status: paid}\n  - request: {method: GET, path: /api/v1/purchases/}\n    save: {p: results.0.id}\n', '3: step 1, expect.purchase: ${p} is not saved by an earlier step (known here: brand_id, sandbox_id)'],
    ['a name inside a longer string', `${HEAD}  - request: {method: GET, path: "/api/v1/purchases/\${purchase}/"}\n`, '6: step 2, request.path: ${purchase} is not saved by an earlier step'],
    ['a key given twice', `${HEAD}  - advance: {by: P1D}\n    advance: {by: P2D}\n`, '7:5: not YAML: Map keys must be unique'],
    ['the second of two documents', `${HEAD}---\nname: second\nsteps:\n  - advance: {}\n`, '9: step 1, advance: advance takes exactly one of by (a duration such as P1M) or to (an instant or a date)'],
    ['only comments', '# nothing yet\n', 'no scenario in the file'],
  ])('%s', (_, text, message) => {
    expect(problemOf(text)).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('every pattern of scenario.schema.json has its words (errorMessage), so that no regex reaches a user', () => {
    const missing: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${where}/${i}`));
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      // statusCode is used only inside expectStatus, whose errorMessage says it (the two cases above).
      if (typeof schema.pattern === 'string' && typeof schema.errorMessage !== 'string' && !where.startsWith('#/$defs/statusCode/')) missing.push(where);
      for (const [key, value] of Object.entries(schema)) walk(value, `${where}/${key}`);
    };
    walk(JSON.parse(readFileSync(fileURLToPath(new URL('../../scenario.schema.json', import.meta.url)), 'utf8')), '#');
    expect(missing).toEqual([]);
  });

  it('several documents are several scenarios; an escaped $${name} is text', () => {
    const file = join(dir, 'two.yaml');
    writeFileSync(file, 'name: first\nsteps:\n  - advance: {by: P1D}\n---\nname: second\nsteps:\n  - request: {method: GET, path: /api/v1/clients/, query: {search: "$${x}"}}\n');
    const scenarios = loadScenarios([file]);
    expect(scenarios.map((scenario) => [scenario.name, scenario.steps.map((step) => [step.number, step.kind, step.line])])).toEqual([
      ['first', [[1, 'advance', 3]]],
      ['second', [[1, 'request', 7]]],
    ]);
    expect(substitute(scenarios[1]!.steps[0]!.spec, new Map())).toMatchObject({ request: { query: { search: '${x}' } } });
  });
});

describe('values', () => {
  const answer = { purchase: { total: 3074, products: [{ name: 'a' }, { name: 'b' }] }, results: [{ id: 'new' }, { id: 'old' }], 'a/b': 1 };

  it('a dotted path or a JSON pointer finds a value; a negative index counts from the end; an empty path is the answer', () => {
    expect(valueAt(answer, 'purchase.total')).toBe(3074);
    expect(valueAt(answer, '/purchase/products/1/name')).toBe('b');
    expect(valueAt(answer, 'results.-1.id')).toBe('old');
    expect(valueAt(answer, '/a~1b')).toBe(1);
    expect(valueAt(answer, '')).toBe(answer);
    expect(valueAt(answer, 'results.2.id')).toBe(ABSENT);
    expect(valueAt(answer, 'purchase.constructor')).toBe(ABSENT);
  });

  it('${name} alone keeps the saved value\'s type; inside a string it is text', () => {
    const names = new Map<string, unknown>([['total', 3074], ['id', 'p1'], ['tags', ['x']]]);
    expect(substitute({ amount: '${total}', path: '/api/v1/purchases/${id}/', note: 'tags ${tags}' }, names)).toEqual({ amount: 3074, path: '/api/v1/purchases/p1/', note: 'tags ["x"]' });
    expect(() => substitute('${nope}', names)).toThrow(UnknownName);
  });

  it('a mapping matches one with at least its keys; a list needs the same length; scalars are equal or not', () => {
    expect(differences({ purchase: { total: 3074 } }, answer)).toEqual([]);
    expect(differences({ results: [{ id: 'new' }] }, answer)).toEqual([['results', [{ id: 'new' }], answer.results]]);
    expect(differences({ purchase: { total: '3074', currency: 'EUR' } }, answer)).toEqual([
      ['purchase.total', '3074', 3074],
      ['purchase.currency', 'EUR', ABSENT],
    ]);
    expect(differences(null, null)).toEqual([]);
  });
});

describe('docs/scenarios.md', () => {
  it('shows the worked example as fixtures/scenarios/declined-once-then-fine.yaml has it', () => {
    const page = readFileSync(fileURLToPath(new URL('../../docs/scenarios.md', import.meta.url)), 'utf8');
    const heading = page.indexOf('## Worked example: declined once, then fine');
    expect(heading).toBeGreaterThan(-1);
    const section = page.slice(heading);
    const shown = parse(/```yaml\n([\s\S]*?)```/.exec(section)![1]!) as Record<string, unknown>;
    const { description, ...fixture } = parse(readFileSync(fileURLToPath(new URL('../../fixtures/scenarios/declined-once-then-fine.yaml', import.meta.url)), 'utf8')) as Record<string, unknown>;
    expect(description).toBeTypeOf('string');
    expect(shown).toEqual(fixture);
  });
});
