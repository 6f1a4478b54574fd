// DESIGN.md §10: "`pay` takes `token_outcomes: ["failure", "success", …]`, one per later charge with
// the saved token (the last repeats)." A charge is a POST /purchases/{id}/charge/ or an automatic
// subscription charge; the sequence left is kept in the data file and in snapshots, and a single
// `token_outcome` of an older sandbox still loads.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.ts';
import { useHarness } from '../support/harness.ts';
import {
  advance,
  createPurchase,
  eventTypesOf,
  expectRejected,
  generated,
  getPurchase,
  makeClient,
  makeTemplate,
  payPurchase,
  sandboxAt,
  serverBox,
  subscribe,
  subscriberBody,
  tokenBox,
  type Box,
  type Errors,
  type Purchase,
} from '../builders/engine.ts';

const h = useHarness({ now: '2026-01-31T09:00:00Z' });
const dir = mkdtempSync(join(tmpdir(), 'billing-sim-outcomes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A client with a card saved by paying a one-off purchase with `pay`; returns the client and the token id. */
async function cardSaved(box: Box, pay: Record<string, unknown>) {
  const client = await makeClient(box);
  const saving = await createPurchase(box, client.id);
  await payPurchase(box, saving.id, { method: 'visa', save_token: true, ...pay });
  return { clientId: client.id, token: saving.id };
}

/** POST /purchases/{id}/charge/ of a new one-off purchase: 200 (paid) or 400 (declined, purchase_charge_error). */
async function charge(box: Box, clientId: string, token: string): Promise<'paid' | 'declined'> {
  const purchase = await createPurchase(box, clientId);
  const res = await box.req('POST', `/api/v1/purchases/${purchase.id}/charge/`, { recurring_token: token });
  if (res.status === 200) return (res.body as Purchase).status === 'paid' ? 'paid' : 'declined';
  expect(res.status, res.text).toBe(400);
  expect((res.body as Errors).__all__![0]!.code).toBe('purchase_charge_error');
  return 'declined';
}

async function charges(box: Box, clientId: string, token: string, count: number) {
  const seen: string[] = [];
  for (let i = 0; i < count; i += 1) seen.push(await charge(box, clientId, token));
  return seen;
}

describe('token_outcomes on POST /sim/v1/purchases/{id}/pay', () => {
  it('"declined once, then fine": one outcome per charge with the token, in order, and the last repeats', async () => {
    const box = await sandboxAt(h, '2026-01-31T09:00:00Z');
    const { clientId, token } = await cardSaved(box, { token_outcomes: ['failure', 'success'] });
    expect(await charges(box, clientId, token, 4)).toEqual(['declined', 'paid', 'paid', 'paid']);
  });

  it('a longer sequence is used up in order; its last outcome (failure) stays for good', async () => {
    const box = await sandboxAt(h, '2026-01-31T09:00:00Z');
    const { clientId, token } = await cardSaved(box, { token_outcomes: ['success', 'failure', 'success', 'failure'] });
    expect(await charges(box, clientId, token, 6)).toEqual(['paid', 'declined', 'paid', 'declined', 'declined', 'declined']);
  });

  it('token_outcome (one value) still means that value for every charge: "failure" is ["failure"]', async () => {
    const box = await sandboxAt(h, '2026-01-31T09:00:00Z');
    const { clientId, token } = await cardSaved(box, { token_outcome: 'failure' });
    expect(await charges(box, clientId, token, 3)).toEqual(['declined', 'declined', 'declined']);
  });

  it('automatic subscription charges take their outcomes from the sequence: launched Jan 31, the Feb 28 charge is declined, Mar 31 and Apr 30 are paid', async () => {
    const box = await sandboxAt(h, '2026-01-31T09:00:00Z');
    const template = await makeTemplate(box);
    const client = await makeClient(box);
    const { purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10', { send_invoice_on_charge_failure: true }));
    await payPurchase(box, purchase!.id, { method: 'visa', save_token: true, token_outcomes: ['failure', 'success'] });
    const advanced = await advance(box, { to: '2026-04-30T00:00:00Z' });
    expect(advanced.processed.charges).toBe(3);
    const billed = (await generated(box, template.id, client.id)).slice(1);
    expect(billed.map((p) => [p.issued, p.status])).toEqual([
      // Declined, it waited for its money and went overdue on its due date (Mar 7).
      ['2026-02-28', 'overdue'],
      ['2026-03-31', 'paid'],
      ['2026-04-30', 'paid'],
    ]);
    expect(await eventTypesOf(box, billed[0]!.id)).toContain('purchase.subscription_charge_failure');
  });

  it('a manual charge and the automatic ones share one sequence: the manual charge uses "success", Feb 28 gets "failure", Mar 31 the last "success"', async () => {
    const box = await sandboxAt(h, '2026-01-31T09:00:00Z');
    const template = await makeTemplate(box);
    const client = await makeClient(box);
    const { purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
    await payPurchase(box, purchase!.id, { method: 'visa', save_token: true, token_outcomes: ['success', 'failure', 'success'] });
    expect(await charge(box, client.id, purchase!.id)).toBe('paid');
    await advance(box, { to: '2026-03-31T00:00:00Z' });
    const billed = (await generated(box, template.id, client.id)).slice(1);
    expect(billed.map((p) => [p.issued, p.status])).toEqual([
      ['2026-02-28', 'overdue'],
      ['2026-03-31', 'paid'],
    ]);
    expect(await eventTypesOf(box, billed[0]!.id)).toContain('purchase.subscription_charge_failure');
  });

  it('a charge refused before it reaches the bank (a cancelled purchase) uses no outcome', async () => {
    const box = await sandboxAt(h, '2026-01-31T09:00:00Z');
    const { clientId, token } = await cardSaved(box, { token_outcomes: ['failure', 'success'] });
    const cancelled = await createPurchase(box, clientId);
    expect((await box.req('POST', `/api/v1/purchases/${cancelled.id}/cancel/`)).status).toBe(200);
    expectRejected(await box.req('POST', `/api/v1/purchases/${cancelled.id}/charge/`, { recurring_token: token }), '__all__', 'purchase_charge_error');
    expect(await charges(box, clientId, token, 2)).toEqual(['declined', 'paid']);
  });

  it('rejected: both forms at once (400 on token_outcomes), an empty list, more than 100 outcomes, an unknown outcome; nothing is paid', async () => {
    const box = await sandboxAt(h, '2026-01-31T09:00:00Z');
    const client = await makeClient(box);
    const purchase = await createPurchase(box, client.id);
    const pay = (body: Record<string, unknown>) => box.req('POST', `/sim/v1/purchases/${purchase.id}/pay`, { save_token: true, ...body });
    expectRejected(await pay({ token_outcome: 'failure', token_outcomes: ['failure'] }), 'token_outcomes', 'invalid');
    expectRejected(await pay({ token_outcomes: [] }), 'token_outcomes', 'min_items');
    expectRejected(await pay({ token_outcomes: Array(101).fill('success') }), 'token_outcomes', 'max_items');
    expectRejected(await pay({ token_outcomes: ['success', 'maybe'] }), 'token_outcomes.1', 'invalid_choice');
    expect((await getPurchase(box, purchase.id)).status).toBe('created');
    // 100 is the most.
    expect((await pay({ token_outcomes: Array(100).fill('success') })).status).toBe(200);
  });
});

describe('the sequence left is saved', () => {
  type Snapshot = { billing_sim_snapshot: number; sandbox: { tokenOutcomes: [string, unknown][] } & Record<string, unknown> };

  it('a snapshot holds what is left of it, and its copy goes on from there', async () => {
    const box = await sandboxAt(h, '2026-01-31T09:00:00Z');
    const { clientId, token } = await cardSaved(box, { token_outcomes: ['success', 'failure', 'success'] });
    expect(await charge(box, clientId, token)).toBe('paid');
    const snapshot = (await box.req('GET', '/sim/v1/snapshot')).body as Snapshot;
    expect(snapshot.sandbox.tokenOutcomes).toEqual([[token, ['failure', 'success']]]);

    const copy = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot } });
    expect(copy.status, copy.text).toBe(201);
    const copied = tokenBox(h, (copy.body as { token: string }).token, '');
    // The copy renamed every id (they were taken here): find the token by its client's list.
    const clients = (await copied.req('GET', '/api/v1/clients/')).body as { results: { id: string }[] };
    const tokens = (await copied.req('GET', `/api/v1/clients/${clients.results[0]!.id}/recurring_tokens/`)).body as { results: { id: string }[] };
    copied.brandId = ((await copied.req('GET', '/sim/v1/snapshot')).body as Snapshot & { sandbox: { brands: { id: string }[] } }).sandbox.brands[0]!.id;
    expect(await charges(copied, clients.results[0]!.id, tokens.results[0]!.id, 3)).toEqual(['declined', 'paid', 'paid']);
  });

  it('only what is still to play is kept: a token that accepts every charge has no entry', async () => {
    const box = await sandboxAt(h, '2026-01-31T09:00:00Z');
    const plain = await cardSaved(box, {});
    const once = await cardSaved(box, { token_outcomes: ['failure', 'success'] });
    const left = async () => ((await box.req('GET', '/sim/v1/snapshot')).body as Snapshot).sandbox.tokenOutcomes;
    expect(await left()).toEqual([[once.token, ['failure', 'success']]]);
    expect(await charges(box, once.clientId, once.token, 1)).toEqual(['declined']);
    // ["success"] is left, which a token without an entry does: the entry goes.
    expect(await left()).toEqual([]);
    expect(await charges(box, once.clientId, once.token, 2)).toEqual(['paid', 'paid']);
    expect(await charges(box, plain.clientId, plain.token, 2)).toEqual(['paid', 'paid']);
  });

  it('a snapshot written before sequences, with a single outcome per token, still loads: "failure" declines every charge', async () => {
    const box = await sandboxAt(h, '2026-01-31T09:00:00Z');
    const { token } = await cardSaved(box, { token_outcome: 'success' });
    const snapshot = (await box.req('GET', '/sim/v1/snapshot')).body as Snapshot;
    snapshot.sandbox.tokenOutcomes = [[token, 'failure']];
    // Loaded where none of its ids is taken yet: the sandbox it came from is deleted first.
    expect((await box.req('DELETE', '/sim/v1/sandbox')).status).toBe(204);
    const copy = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot } });
    expect(copy.status, copy.text).toBe(201);
    const copied = tokenBox(h, (copy.body as { token: string }).token, box.brandId);
    expect(((await copied.req('GET', '/sim/v1/snapshot')).body as Snapshot).sandbox.tokenOutcomes).toEqual([[token, ['failure']]]);
    const clientId = ((await copied.req('GET', `/api/v1/purchases/${token}/`)).body as Purchase).client_id;
    expect(await charges(copied, clientId, token, 2)).toEqual(['declined', 'declined']);
  });

  it('a data file keeps it across a restart, and a file whose token has one value (as earlier versions wrote it) still opens', async () => {
    const file = join(dir, 'outcomes.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file, clock: { now: () => Date.parse('2026-01-31T09:00:00Z') } });
    let sandbox = serverBox(h, first);
    const { clientId, token } = await cardSaved(sandbox, { token_outcomes: ['failure', 'success', 'failure'] });
    expect(await charge(sandbox, clientId, token)).toBe('declined');
    await first.stop();

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    sandbox = serverBox(h, second);
    try {
      expect(await charges(sandbox, clientId, token, 3)).toEqual(['paid', 'declined', 'declined']);
    } finally {
      await second.stop();
    }

    const db = new Database(file);
    db.prepare("UPDATE records SET data = ? WHERE collection = 'tokenOutcomes' AND key = ?").run(JSON.stringify('success'), token);
    db.close();
    const third = await startSimulator({ port: 0, quiet: true, dataFile: file });
    sandbox = serverBox(h, third);
    try {
      expect(await charges(sandbox, clientId, token, 2)).toEqual(['paid', 'paid']);
    } finally {
      await third.stop();
    }
  });
});
