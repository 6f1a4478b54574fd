// The pieces of the contract suite's output, without a run: a failed assertion as one line
// (lib/failure.ts), the JUnit XML of a run's results (lib/junit.ts), the failure lines and summary
// (reporter.ts), and the group names `--group` takes (lib/selection.ts).

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../contract-tests/lib/failure.ts';
import { junitXml } from '../../contract-tests/lib/junit.ts';
import type { CheckResult, RunResults } from '../../contract-tests/lib/results.ts';
import { filesOfGroups, knownGroups, selectionProblem } from '../../contract-tests/lib/selection.ts';
import { describeCheck, summaryLines } from '../../contract-tests/reporter.ts';

/** The error `assertion` throws. */
function thrown(assertion: () => void): unknown {
  try {
    assertion();
  } catch (error) {
    return error;
  }
  throw new Error('the assertion passed');
}

describe('a failed assertion in one line', () => {
  it('an equality of values: expected, got', () => {
    expect(describeFailure(thrown(() => expect(200).toBe(201)))).toBe('expected 201, got 200');
  });

  it('keeps the label given to expect()', () => {
    expect(describeFailure(thrown(() => expect(200, 'GET /clients/x/').toBe(404)))).toBe('GET /clients/x/: expected 404, got 200');
  });

  it('an equality of objects: the fields that differ, not the objects', () => {
    const sent = { email: 'a@example.com', full_name: 'Jane Doe', cc: ['x@example.com'], id: 'c1' };
    const line = describeFailure(thrown(() => expect({ ...sent, full_name: 'Forged', cc: [] }).toEqual(sent)));
    expect(line).toBe('expected full_name = "Jane Doe", got "Forged"; expected cc.0 = "x@example.com", got (missing)');
  });

  it('toMatchObject: a field the answer lacks', () => {
    const line = describeFailure(thrown(() => expect({ type: 'billing_template' }).toMatchObject({ type: 'billing_template', brand_id: 'b1' })));
    expect(line).toBe('expected brand_id = "b1", got (missing)');
  });

  it('a comparison other than equality keeps its own words', () => {
    expect(describeFailure(thrown(() => expect(13).toBeLessThan(12)))).toBe('expected 13 to be less than 12');
    expect(describeFailure(thrown(() => expect(['a']).toContain('b')))).toBe("expected [ 'a' ] to include 'b'");
  });

  it('expect(condition, why).toBe(true): the why alone', () => {
    expect(describeFailure(thrown(() => expect(false, 'POST /clients/ must be rejected with a 4xx status; got 201').toBe(true)))).toBe(
      'POST /clients/ must be rejected with a 4xx status; got 201',
    );
  });

  it('any other error: its lines joined, and long lines cut', () => {
    const violation = new Error('the response does not match openapi.yaml (GET /api/v1/clients/ → 200):\n  results.0: must have required property id\n  next: must be string');
    expect(describeFailure(violation)).toBe(
      'the response does not match openapi.yaml (GET /api/v1/clients/ → 200): results.0: must have required property id · next: must be string',
    );
    const long = describeFailure(new Error('x'.repeat(1000)));
    expect(long).toHaveLength(300);
    expect(long.endsWith('…')).toBe(true);
  });
});

const base = { group: 'clients', file: 'checks/clients.test.ts', durationMs: 12 };
const RESULTS: RunResults = {
  checks: [
    { ...base, id: 'CLI-CREATE', title: 'POST /clients/ creates a client', level: 'normative', cites: 'openapi.yaml#createClient', outcome: 'passed' },
    {
      ...base,
      id: 'CLI-GET',
      title: 'GET /clients/{id}/ returns the client as created',
      level: 'normative',
      cites: 'openapi.yaml#getClient',
      outcome: 'failed',
      failure: {
        summary: 'expected full_name = "Jane <Doe>", got "Forged & co"',
        lastExchange: 'GET http://127.0.0.1:4010/api/v1/clients/c1/ → 200',
        exchanges: ['  → GET http://127.0.0.1:4010/api/v1/clients/c1/\n  ← 200\n    {"full_name":"Forged & co"}'],
        exchangesLeftOut: 2,
      },
    },
    {
      ...base,
      id: 'CLI-CREATE-STATUS',
      title: 'Creating a client answers 201',
      level: 'informative',
      cites: 'docs/behaviour.md#status-codes',
      outcome: 'warned',
      failure: { summary: 'expected 201, got 200', exchanges: [], exchangesLeftOut: 0 },
    },
    { ...base, group: 'time', file: 'checks/time-billing-dates.test.ts', id: 'TIME-1', title: 'a billing', level: 'normative', cites: 'docs/behaviour.md#billing', outcome: 'skipped', skipReason: 'the target has no simulator clock' },
    { ...base, group: 'time', file: 'checks/time-billing-dates.test.ts', id: 'TIME-2', title: 'another', level: 'normative', cites: 'docs/behaviour.md#billing', outcome: 'skipped', skipReason: 'the target has no simulator clock' },
  ] satisfies CheckResult[],
  errors: [{ where: 'checks/broken.test.ts', message: "SyntaxError: Unexpected token '}'", stack: "SyntaxError: Unexpected token '}'\n    at checks/broken.test.ts:3:1" }],
};

describe('the console output of results', () => {
  it('a failure: three lines, the exchanges only when verbose', () => {
    const failed = RESULTS.checks[1]!;
    expect(describeCheck(failed, false)).toEqual([
      '✗ [CLI-GET] normative — expected full_name = "Jane <Doe>", got "Forged & co"',
      '    GET /clients/{id}/ returns the client as created · cites openapi.yaml#getClient',
      '    last exchange: GET http://127.0.0.1:4010/api/v1/clients/c1/ → 200',
    ]);
    const verbose = describeCheck(failed, true);
    expect(verbose.slice(3)).toEqual([
      '    exchanges (the last 1; 2 before them not shown):',
      '      → GET http://127.0.0.1:4010/api/v1/clients/c1/',
      '      ← 200',
      '        {"full_name":"Forged & co"}',
    ]);
  });

  it('the summary: warnings apart from passes, each skip reason once, errors outside the checks, the totals last', () => {
    const lines = summaryLines(RESULTS, false);
    expect(lines).toContain('⚠ [CLI-CREATE-STATUS] informative — expected 201, got 200');
    expect(lines.filter((line) => line.includes('the target has no simulator clock'))).toEqual(['  2 × the target has no simulator clock']);
    expect(lines).toContain("✗ checks/broken.test.ts: SyntaxError: Unexpected token '}'");
    expect(lines.find((line) => line.startsWith('  clients '))).toMatch(/ 1 passed +1 failed +0 skipped +1 warning$/);
    expect(lines.at(-1)).toBe('1 passed, 1 failed, 2 skipped, 1 warning, 1 error');
    expect(lines.join('\n')).not.toContain('✓');
  });
});

describe('the JUnit XML of results', () => {
  const xml = junitXml(RESULTS, new Date('2026-01-30T12:00:00Z'));
  const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name) }).parse(xml);
  const suites = parsed.testsuites.testsuite as any[];
  const testcase = (id: string) => suites.flatMap((s) => s.testcase).find((c: any) => c['@_name'].startsWith(`${id} `));

  it('is well-formed XML, with its text escaped', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(testcase('CLI-GET').failure['@_message']).toBe('expected full_name = "Jane <Doe>", got "Forged & co"');
  });

  it('counts like the console: a warning is skipped, not passed, and an error outside the checks is an error', () => {
    expect(parsed.testsuites).toMatchObject({ '@_tests': '6', '@_failures': '1', '@_errors': '1', '@_skipped': '3' });
    expect(suites.map((s) => [s['@_name'], s['@_tests'], s['@_failures'], s['@_skipped']])).toEqual([
      ['clients', '3', '1', '1'],
      ['time', '2', '0', '2'],
      ['errors outside the checks', '1', '0', '0'],
    ]);
    expect(suites[2].testcase[0].error['@_message']).toBe("SyntaxError: Unexpected token '}'");
  });

  it('gives a skipped check its reason, and a warned one a warning', () => {
    expect(testcase('TIME-1').skipped['@_message']).toBe('the target has no simulator clock');
    const warned = testcase('CLI-CREATE-STATUS');
    expect(warned.skipped['@_message']).toBe('warning: informative check found a difference: expected 201, got 200');
    expect(warned.properties.property).toContainEqual({ '@_name': 'warning', '@_value': 'expected 201, got 200' });
    expect(warned['system-out']).toContain('WARNING [CLI-CREATE-STATUS] informative — expected 201, got 200');
  });

  it('names each check with its id, level and citation; a passed one has nothing else', () => {
    const passed = testcase('CLI-CREATE');
    expect(passed).toMatchObject({ '@_classname': 'contract.clients', '@_file': 'checks/clients.test.ts', '@_time': '0.012' });
    expect(passed.properties.property).toEqual([
      { '@_name': 'id', '@_value': 'CLI-CREATE' },
      { '@_name': 'level', '@_value': 'normative' },
      { '@_name': 'cites', '@_value': 'openapi.yaml#createClient' },
    ]);
    expect(Object.keys(passed).filter((key) => !key.startsWith('@_'))).toEqual(['properties']);
  });
});

// Fields a target answered that openapi.yaml does not name (DESIGN.md §14): notes, "counted in the
// summary and the report", never a failure.
describe('notes: fields the target answered that the document does not name', () => {
  const note = (operation: string, field: string) => ({ operation, field, message: 'a field openapi.yaml does not name' });
  const noted: RunResults = {
    checks: [
      { ...base, id: 'CLI-CREATE', title: 'creates', level: 'normative', cites: 'openapi.yaml#createClient', outcome: 'passed', notes: [note('createClient', 'client_type'), note('createClient', 'delivery_methods')] },
      { ...base, id: 'CLI-GET', title: 'reads', level: 'normative', cites: 'openapi.yaml#getClient', outcome: 'passed', notes: [note('createClient', 'client_type'), note('getClient', 'client_type')] },
      {
        ...base,
        group: 'purchases',
        id: 'PUR-GET',
        title: 'a purchase',
        level: 'normative',
        cites: 'openapi.yaml#getPurchase',
        outcome: 'passed',
        notes: Array.from({ length: 14 }, (_, i) => note('getPurchase', `field_${String(i).padStart(2, '0')}`)),
      },
    ] satisfies CheckResult[],
    errors: [],
  };

  it('are listed first, one line per operation, each (operation, field) once, and counted on the totals line; nothing fails', () => {
    const lines = summaryLines(noted, false);
    expect(lines).toContain('Notes (fields the target answered that openapi.yaml does not name; they never fail a check):');
    expect(lines).toContain('ℹ createClient: client_type, delivery_methods');
    expect(lines).toContain('ℹ getClient: client_type');
    expect(lines.find((line) => line.startsWith('ℹ getPurchase: '))).toMatch(/field_11, … and 2 more \(--verbose lists them\)$/);
    expect(summaryLines(noted, true).find((line) => line.startsWith('ℹ getPurchase: '))).toMatch(/field_13$/);
    expect(lines.at(-1)).toBe('3 passed, 0 failed, 0 skipped, 0 warnings, 17 notes');
    // A run without notes says nothing of them.
    expect(summaryLines(RESULTS, false).join('\n')).not.toMatch(/note/i);
  });

  it('in the JUnit XML: a property and a NOTE line of the check that saw them, the count of the group; no failure', () => {
    const xml = junitXml(noted, new Date('2026-01-30T12:00:00Z'));
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name) }).parse(xml);
    expect(parsed.testsuites).toMatchObject({ '@_failures': '0', '@_skipped': '0' });
    const clients = parsed.testsuites.testsuite.find((suite: any) => suite['@_name'] === 'clients');
    expect(clients.properties.property).toContainEqual({ '@_name': 'notes', '@_value': '3' });
    const created = clients.testcase.find((c: any) => c['@_name'].startsWith('CLI-CREATE '));
    expect(created.failure).toBeUndefined();
    expect(created.properties.property).toContainEqual({ '@_name': 'note', '@_value': 'createClient client_type: a field openapi.yaml does not name' });
    expect(created['system-out']).toBe('NOTE createClient client_type: a field openapi.yaml does not name\nNOTE createClient delivery_methods: a field openapi.yaml does not name');
  });
});

describe('the groups --group takes', () => {
  it('are the top-level describes of the check files, several files making one group', () => {
    const groups = knownGroups();
    expect([...groups.keys()]).toEqual(expect.arrayContaining(['authentication', 'billing templates', 'clients', 'time', 'webhooks']));
    expect(groups.get('billing templates')).toEqual(expect.arrayContaining(['checks/billing-templates-create.test.ts', 'checks/billing-templates-edit.test.ts']));
  });

  it('compare without case, a hyphen standing for a space', () => {
    expect(filesOfGroups(['Recurring-Tokens'])).toEqual(['checks/recurring-tokens.test.ts']);
    expect(selectionProblem(['Recurring-Tokens', 'billing_templates'])).toBeUndefined();
  });

  it('an unknown one is refused in one line naming every group', () => {
    const problem = selectionProblem(['clients', 'invoices'])!;
    expect(problem.split('\n')).toHaveLength(1);
    expect(problem).toMatch(/^unknown group "invoices"; the groups are: authentication, billing templates, clients, /);
    expect(selectionProblem([], 'normal')).toMatch(/^--level must be normative or informative/);
  });
});
