// Statement requests, /api/v1/company_statements/ (issue 42): what the Gravity Forms and Formidable
// plugins read and send. They GET the list and take `results[0].company_uid`, else POST
// `{"format": "csv", "timezone": "UTC"}` and take the answer's `company_uid`, then key the account's
// public key by it and look it up by a callback's `company_id`: so `company_uid` must be the
// `company_id` of the sandbox's purchases. The object is the platform's (its API reference and a
// published answer of the same engine): `pending`, no file, `type: statement_request`.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.ts';
import { useHarness } from '../support/harness.ts';
import { send } from '../support/spawn-sim.ts';
import { at, createPurchase, expectRejected, makeClient, sandboxAt, tokenBox, type Box, type List } from '../builders/engine.ts';

interface Statement {
  id: string;
  type: string;
  created_on: number;
  updated_on: number;
  format: string;
  timezone: string;
  is_test: boolean;
  company_uid: string;
  query_string: string;
  status: string;
  download_url: string | null;
  began_on: number | null;
  finished_on: number | null;
}

const h = useHarness();
const NOW = '2026-03-29T12:00:00Z';
const PLUGINS_BODY = { format: 'csv', timezone: 'UTC' };

async function schedule(box: Box, body: unknown = PLUGINS_BODY, query = ''): Promise<Statement> {
  const res = await box.req('POST', `/api/v1/company_statements/${query}`, body);
  expect(res.status, res.text).toBe(201);
  return res.body as Statement;
}

async function list(box: Box, query = ''): Promise<List<Statement>> {
  const res = await box.req('GET', `/api/v1/company_statements/${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as List<Statement>;
}

describe('company statements', () => {
  it('an account without statements lists none; the plugins\' POST makes one, pending, which the list then shows first', async () => {
    const box = await sandboxAt(h, NOW);
    // Formidable's GET carries a `?time=` cache-buster.
    expect(await list(box, '?time=1774785600')).toEqual({ results: [], next: null, previous: null });

    const statement = await schedule(box);
    expect(statement).toEqual({
      format: 'csv',
      timezone: 'UTC',
      is_test: true,
      company_uid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      query_string: '',
      status: 'pending',
      download_url: null,
      began_on: null,
      finished_on: null,
      created_on: at(NOW),
      updated_on: at(NOW),
      type: 'statement_request',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(Object.keys(statement), 'the platform\'s order of fields, id last').toEqual([
      'format', 'timezone', 'is_test', 'company_uid', 'query_string', 'status', 'download_url', 'began_on', 'finished_on', 'created_on', 'updated_on', 'type', 'id',
    ]);
    expect((await list(box)).results).toEqual([statement]);
    const read = await box.req('GET', `/api/v1/company_statements/${statement.id}/`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(statement);
  });

  it('company_uid is the company_id of the sandbox\'s purchases (the key the plugins look up by a callback\'s company_id)', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = await createPurchase(box, (await makeClient(box)).id);
    const statement = await schedule(box);
    expect(statement.company_uid).toBe((purchase as unknown as { company_id: string }).company_id);
    expect((await list(box)).results[0]!.company_uid).toBe(statement.company_uid);
    // Every statement of the account names the same company.
    expect((await schedule(box, { format: 'xlsx', timezone: 'Asia/Kuala_Lumpur' })).company_uid).toBe(statement.company_uid);
  });

  it('takes format csv or xlsx and an IANA time zone, UTC when left out; the request\'s query is answered as query_string', async () => {
    const box = await sandboxAt(h, NOW);
    expect(await schedule(box, { format: 'xlsx' })).toMatchObject({ format: 'xlsx', timezone: 'UTC' });
    expect(await schedule(box, { format: 'csv', timezone: 'Europe/Oslo' })).toMatchObject({ timezone: 'Europe/Oslo' });
    expect((await schedule(box, PLUGINS_BODY, '?from=1774742400&to=1774828800')).query_string).toBe('from=1774742400&to=1774828800');
  });

  it('a bad format or an unknown time zone → 400 naming the field, and nothing is stored', async () => {
    const box = await sandboxAt(h, NOW);
    expectRejected(await box.req('POST', '/api/v1/company_statements/', { format: 'pdf', timezone: 'UTC' }), 'format', 'invalid_choice');
    expectRejected(await box.req('POST', '/api/v1/company_statements/', { timezone: 'UTC' }), 'format', 'required');
    expectRejected(await box.req('POST', '/api/v1/company_statements/', { format: 'csv', timezone: 'Mars/Olympus_Mons' }), 'timezone', 'invalid');
    expectRejected(await box.req('POST', '/api/v1/company_statements/', { format: 'csv', timezone: '' }), 'timezone', 'min_length');
    expect((await list(box)).results).toEqual([]);
  });

  it('another account sees none of them: its list is its own, and an id of this one is 404 to it', async () => {
    const mine = await sandboxAt(h, NOW);
    const theirs = await sandboxAt(h, NOW);
    const statement = await schedule(mine);
    expect((await list(theirs)).results).toEqual([]);
    expect((await theirs.req('GET', `/api/v1/company_statements/${statement.id}/`)).status).toBe(404);
    const own = await schedule(theirs);
    expect(own.company_uid, 'each account is its own company').not.toBe(statement.company_uid);
    expect((await list(mine)).results.map((s) => s.id)).toEqual([statement.id]);
  });

  it('lists page by page, newest first, with next and previous links', async () => {
    const box = await sandboxAt(h, NOW);
    const made: Statement[] = [];
    for (let i = 0; i < 3; i += 1) made.push(await schedule(box));
    const first = await list(box, '?page_size=2');
    expect(first.results.map((s) => s.id)).toEqual([made[2]!.id, made[1]!.id]);
    expect(first.previous).toBeNull();
    expect(first.next).toBe(`${h.origin}/api/v1/company_statements/?page=2&page_size=2`);
    const second = await list(box, '?page=2&page_size=2');
    expect(second.results.map((s) => s.id)).toEqual([made[0]!.id]);
    expect(second.next).toBeNull();
    expect(second.previous).toBe(`${h.origin}/api/v1/company_statements/?page=1&page_size=2`);
  });

  it('a statement goes with its sandbox into a snapshot, and comes back from it', async () => {
    const box = await sandboxAt(h, NOW);
    const statement = await schedule(box);
    const exported = await box.req('GET', '/sim/v1/snapshot');
    expect(exported.status).toBe(200);
    const document = exported.body as { sandbox: { statements: [string, Statement][]; companyId: string } };
    expect(document.sandbox.statements).toEqual([[statement.id, statement]]);
    const imported = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: document } });
    expect(imported.status, imported.text.slice(0, 500)).toBe(201);
    const { token, brand_id } = imported.body as { token: string; brand_id: string };
    const copy = (await list(tokenBox(h, token, brand_id))).results;
    // The same server already holds its ids, so the copy's are renamed, its company's too.
    expect(copy).toHaveLength(1);
    expect(copy[0]).toMatchObject({ format: 'csv', timezone: 'UTC', status: 'pending' });
  });

  it('a snapshot written before statements existed still imports, with none', async () => {
    const box = await sandboxAt(h, NOW);
    const document = (await box.req('GET', '/sim/v1/snapshot')).body as { sandbox: Record<string, unknown> };
    delete document.sandbox.statements;
    const imported = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: document } });
    expect(imported.status, imported.text.slice(0, 500)).toBe(201);
    const { token, brand_id } = imported.body as { token: string; brand_id: string };
    expect((await list(tokenBox(h, token, brand_id))).results).toEqual([]);
  });

  it('a snapshot whose statement is kept under another key than its id → 400 naming that key', async () => {
    const box = await sandboxAt(h, NOW);
    await schedule(box);
    const document = (await box.req('GET', '/sim/v1/snapshot')).body as { sandbox: { statements: [string, Statement][] } };
    document.sandbox.statements[0]![0] = '00000000-0000-4000-8000-000000000000';
    expectRejected(await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: document } }), 'snapshot.sandbox.statements.0.0', 'invalid');
  });

  it('a checkpoint restored takes back a statement made after it', async () => {
    const box = await sandboxAt(h, NOW);
    const kept = await schedule(box);
    const checkpoint = (await box.req('POST', '/sim/v1/checkpoints', {})).body as { id: string };
    await schedule(box);
    expect((await box.req('POST', `/sim/v1/checkpoints/${checkpoint.id}/restore`)).status).toBe(200);
    expect((await list(box)).results).toEqual([kept]);
  });
});

describe('company statements in a data file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'billing-sim-statements-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('survive a restart, as every object does', async () => {
    const file = join(dir, 'state.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const made = (await send(first.url, 'POST', '/api/v1/company_statements/', first.token, PLUGINS_BODY)).body as Statement;
    await first.stop();
    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      const listed = await send(second.url, 'GET', '/api/v1/company_statements/', second.token);
      expect((listed.body as List<Statement>).results).toEqual([made]);
    } finally {
      await second.stop();
    }
  });
});
