// A field an answer has that openapi.yaml does not name (DESIGN.md §14: "The contract suite and proxy
// report a field a target answers that the document does not name as a note (it never fails a
// check); documented fields keep their types, formats and bounds"), as contract-tests/lib/document.ts
// tells it apart: from Prism's diagnostics of the keywords unevaluatedProperties and
// additionalProperties. The platform's reading takes it as a note; the full reading, which the
// simulator's own tests use (test/support/harness.ts), still fails on it: "the simulator answers no
// field the document does not name".

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertDocumented, documentFindings, responseIssues, undocumentedField, UNDOCUMENTED, type SeenResponse } from '../../contract-tests/lib/document.ts';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { clientBody } from '../builders/templates.ts';

let sim: RunningSimulator;
let client: SeenResponse;
let purchase: SeenResponse;
let paid: SeenResponse;

async function call(method: string, path: string, body?: unknown): Promise<SeenResponse> {
  const res = await fetch(`${sim.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${sim.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: await res.json() };
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
  const created = await call('POST', '/clients/', clientBody({ email: 'notes@example.com' }));
  client = await call('GET', `/clients/${(created.body as { id: string }).id}/`);
  const made = await call('POST', '/purchases/', {
    brand_id: sim.brandId,
    client_id: (created.body as { id: string }).id,
    purchase: { products: [{ name: 'Plan', price: 990 }] },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  purchase = await call('GET', `/purchases/${(made.body as { id: string }).id}/`);
  const payment = await fetch(`${sim.url}/sim/v1/purchases/${(made.body as { id: string }).id}/pay`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sim.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ outcome: 'success' }),
  });
  expect(payment.status).toBe(200);
  paid = await call('GET', `/purchases/${(made.body as { id: string }).id}/`);
});
afterAll(() => sim?.stop());

/** The answer with `change` applied to a copy of its body. */
const changed = (answer: SeenResponse, change: (body: Record<string, any>) => void): SeenResponse => {
  const body = structuredClone(answer.body) as Record<string, any>;
  change(body);
  return { ...answer, body };
};

const PLATFORM = { platform: true } as const;

describe("Prism's diagnostics of a field the document does not name", () => {
  it('unevaluatedProperties and additionalProperties name the field after the object that holds it', () => {
    expect(undocumentedField({ path: ['body', 'client'], code: 'unevaluatedProperties', message: "Response body property client must NOT have unevaluated properties: 'client_type'" })).toEqual([
      'client',
      'client_type',
    ]);
    expect(
      undocumentedField({
        path: ['body', 'transaction_data', 'attempts', '0'],
        code: 'additionalProperties',
        message: "Response body property transaction_data.attempts.0 must NOT have additional properties; found 'flow'",
      }),
    ).toEqual(['transaction_data', 'attempts', '0', 'flow']);
    expect(undocumentedField({ path: ['body'], code: 'unevaluatedProperties', message: "Response body must NOT have unevaluated properties: 'company_id'" })).toEqual(['company_id']);
  });

  it('are told by the words alone when no keyword comes with them, and a name with a quote in it is kept whole', () => {
    expect(undocumentedField({ path: ['body'], message: "Response body must NOT have unevaluated properties: 'it's'" })).toEqual(["it's"]);
  });

  it('no other diagnostic is one: a wrong type, a missing property, a header', () => {
    expect(undocumentedField({ path: ['body', 'total'], code: 'type', message: 'Response body property total must be integer' })).toBeUndefined();
    expect(undocumentedField({ path: ['body'], code: 'required', message: "Response body must have required property 'id'" })).toBeUndefined();
    expect(undocumentedField({ path: ['header', 'x-extra'], code: 'additionalProperties', message: "must NOT have additional properties; found 'x'" })).toBeUndefined();
  });
});

describe('the platform reading: a field the document does not name is a note', () => {
  it('the simulator answers conform in every reading', async () => {
    for (const answer of [client, purchase, paid]) {
      const path = answer === client ? `/api/v1/clients/x/` : `/api/v1/purchases/x/`;
      expect(await documentFindings('GET', path, answer)).toMatchObject({ violations: [], notes: [] });
      expect(await documentFindings('GET', path, answer, PLATFORM)).toMatchObject({ violations: [], notes: [] });
    }
  });

  // Names no version of the document will have: the document grows with the platform's own fields
  // (company_id, client.client_type, … are named now), and these stand for the next ones.
  it('fields of the target, top-level and nested, are notes, not violations', async () => {
    const answer = changed(purchase, (body) => {
      body.undocumented_id = '6e5b8c44-1a37-4c8c-9d6f-0ad4c4d3b8a1';
      body.client.undocumented_kind = null;
      body.transaction_data.undocumented_flow = 'payform';
    });
    const found = await documentFindings('GET', '/api/v1/purchases/x/', answer, PLATFORM);
    expect(found.violations).toEqual([]);
    expect(found.operationId).toBe('getPurchase');
    expect(found.notes.map((note) => note.path.join('.')).sort()).toEqual(['client.undocumented_kind', 'transaction_data.undocumented_flow', 'undocumented_id']);
    for (const note of found.notes) expect(note).toMatchObject({ part: 'body', message: UNDOCUMENTED });
  });

  it('a field under an anyOf (payment: PaymentDetails or null) is a note too, and the anyOf does not fail for it', async () => {
    const answer = changed(paid, (body) => {
      expect(body.payment).toEqual(expect.objectContaining({ payment_type: 'purchase' }));
      body.payment.undocumented_bank = null;
    });
    const strict = await documentFindings('GET', '/api/v1/purchases/x/', answer);
    // Held to the full reading the extra field fails the branch, and the anyOf with it.
    expect(strict.violations.join('\n')).toMatch(/undocumented_bank[\s\S]*must match a schema in anyOf/);
    const found = await documentFindings('GET', '/api/v1/purchases/x/', answer, PLATFORM);
    expect(found.notes.map((note) => note.path.join('.'))).toEqual(['payment.undocumented_bank']);
    expect(found.violations).toEqual([]);
  });

  it('a documented field keeps its type, format and bounds: a wrong one is a violation, never a note', async () => {
    const answer = changed(client, (body) => {
      body.full_name = 42;
      body.created_on = 'yesterday';
      body.undocumented_type = null;
    });
    const found = await documentFindings('GET', '/api/v1/clients/x/', answer, PLATFORM);
    expect(found.violations.join('\n')).toMatch(/full_name.*must be string/);
    expect(found.violations.join('\n')).toMatch(/created_on/);
    expect(found.notes.map((note) => note.path.join('.'))).toEqual(['undocumented_type']);
  });

  it('responseIssues locates the notes apart from the issues (the proxy)', async () => {
    const answer = changed(client, (body) => void (body.undocumented_methods = [{ method: 'email', options: {} }]));
    const located = await responseIssues('GET', '/api/v1/clients/x/', answer, PLATFORM);
    expect(located).toMatchObject({ operationId: 'getClient', issues: [], notes: [{ part: 'body', path: ['undocumented_methods'], message: UNDOCUMENTED }] });
  });
});

describe("the simulator's own tests hold its answers to every field (strict)", () => {
  const extra = () => changed(client, (body) => void (body.undocumented_type = null));

  it('the full reading, the default of assertDocumented (test/support/harness.ts), fails on an undocumented field', async () => {
    await expect(assertDocumented('GET', '/api/v1/clients/x/', client)).resolves.toBeUndefined();
    await expect(assertDocumented('GET', '/api/v1/clients/x/', extra())).rejects.toThrow(/unevaluated properties: 'undocumented_type'/);
    expect((await documentFindings('GET', '/api/v1/clients/x/', extra())).notes).toEqual([]);
  });

  it('the platform reading made strict (the suite against the simulator it started itself) fails on it too, naming the field', async () => {
    const found = await documentFindings('GET', '/api/v1/clients/x/', extra(), { platform: true, strict: true });
    expect(found.notes).toEqual([]);
    expect(found.violations).toEqual([`body.undocumented_type: Response body property undocumented_type: ${UNDOCUMENTED}`]);
    const located = await responseIssues('GET', '/api/v1/clients/x/', extra(), { platform: true, strict: true });
    expect(located!.issues).toEqual([{ part: 'body', path: ['undocumented_type'], message: `Response body property undocumented_type: ${UNDOCUMENTED}` }]);
  });
});
