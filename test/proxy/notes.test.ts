// The validating proxy before a server that answers fields openapi.yaml does not name (DESIGN.md §14:
// "The contract suite and proxy report a field a target answers that the document does not name as
// a note (it never fails a check); documented fields keep their types, formats and bounds"): each such
// field is a note of its operation — logged once, counted once with the answers that had it, in the
// report and its JUnit — and never a violation.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNDOCUMENTED } from '../../contract-tests/lib/document.ts';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import type { ProxyReport } from '../../src/proxy/tally.ts';
import { everyObject, type Fault } from '../contract/fault-proxy.ts';
import { clientBody } from '../builders/templates.ts';
import { chain } from './support.ts';

let sim: RunningSimulator;
const dir = mkdtempSync(join(tmpdir(), 'billing-sim-proxy-notes-'));

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
});
afterAll(async () => {
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Every client answered carries two fields no version of the document names; a `x-wrong-type` request gets a number for full_name. */
const EXTRA_FIELDS: Fault = {
  name: 'clients with fields the document does not name',
  response: (req, res) => {
    everyObject(res.body, (o) => {
      if (o.type !== 'client') return;
      o.undocumented_kind = null;
      o.undocumented_methods = [{ method: 'email', options: {} }];
      if (req.headers['x-wrong-type']) o.full_name = 42;
    });
  },
};

describe('a field the document does not name is a note, never a violation', () => {
  it('counted once per operation with the answers that had it, logged once, in the report, the JUnit and the summary line', async () => {
    const reportFile = join(dir, 'report.json');
    const junitFile = join(dir, 'junit.xml');
    const c = await chain(sim.url, sim.token, EXTRA_FIELDS, { reportFile, junitFile });
    expect((await c.call('POST', '/api/v1/clients/', { body: clientBody({ email: 'notes-1@example.com' }) })).status).toBe(201);
    expect((await c.call('POST', '/api/v1/clients/', { body: clientBody({ email: 'notes-2@example.com' }) })).status).toBe(201);
    expect((await c.call('GET', '/api/v1/clients/?page_size=5')).status).toBe(200);

    const live = await c.proxy.report();
    expect(live.violations, JSON.stringify(live, null, 2)).toBe(0);
    expect(live.notes).toBe(4);
    expect(live.operations.createClient).toMatchObject({ exchanges: 2, violations: 0, notes: 2 });
    expect(live.operations.createClient!.noted).toEqual([
      expect.objectContaining({ side: 'response', part: 'body', field: 'undocumented_kind', message: UNDOCUMENTED, exchanges: 2, method: 'POST', url: '/api/v1/clients/', status: 201 }),
      expect.objectContaining({ field: 'undocumented_methods', exchanges: 2 }),
    ]);
    // A list's items are one field whatever their position.
    expect(live.operations.listClients!.noted.map((noted) => noted.field)).toEqual(['results.*.undocumented_kind', 'results.*.undocumented_methods']);
    expect(c.lines.filter((line) => / note createClient response body undocumented_kind: /.test(line))).toHaveLength(1);
    expect(c.lines.filter((line) => / violation /.test(line))).toEqual([]);

    await c.close();
    const written = JSON.parse(readFileSync(reportFile, 'utf8')) as ProxyReport;
    expect(written).toEqual(live);
    const xml = readFileSync(junitFile, 'utf8');
    expect(xml).not.toContain('<failure');
    expect(xml).toMatch(/<testsuites [^>]*failures="0"/);
    expect(xml).toMatch(/<property name="notes" value="4"\/>/);
    expect(xml).toMatch(/name="createClient \(POST \/api\/v1\/clients\/\)">\s*<properties>\s*<property name="notes" value="2"\/>/);
    expect(xml).toContain('note: response body undocumented_kind: a field openapi.yaml does not name (2 answer(s); first POST /api/v1/clients/)');
    expect(c.lines.at(-1)).toMatch(/^billing-sim proxy: 3 exchange\(s\), 0 violation\(s\) in 0 operation\(s\), 4 note\(s\) \(fields openapi.yaml does not name\) in 2 operation\(s\); wrote /);
  });

  it('a documented field of the wrong type beside them is still a violation', async () => {
    const c = await chain(sim.url, sim.token, EXTRA_FIELDS);
    try {
      await c.call('POST', '/api/v1/clients/', { body: clientBody({ email: 'notes-3@example.com' }), headers: { 'x-wrong-type': '1' } });
      const tally = await c.proxy.report();
      expect(tally.violations).toBe(1);
      expect(tally.operations.createClient!.listed).toEqual([expect.objectContaining({ side: 'response', part: 'body', field: 'full_name', message: expect.stringMatching(/must be string/) })]);
      expect(tally.operations.createClient!.notes).toBe(2);
    } finally {
      await c.close();
    }
  });
});
