// DESIGN.md §13, decline reasons: "`POST /sim/v1/purchases/{id}/pay` takes `decline_code` with
// `outcome: "failure"` (the platform's codes, as its Go SDK's `error.go` lists them; default
// `insufficient_funds`); `token_outcomes` items are `"success"`, `"failure"` or a code. The code and the
// platform's message go into `transaction_data.attempts[].error` and the `purchase.payment_failure` event."

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.ts';
import { DECLINE_CODES, declineMessage } from '../../src/domain/decline-codes.ts';
import { loadSpec } from '../../src/contract/spec.ts';
import { useHarness } from '../support/harness.ts';
import {
  advance,
  createPurchase,
  events,
  expectRejected,
  generated,
  getPurchase,
  makeClient,
  makeTemplate,
  payPurchase,
  sandboxAt,
  saveToken,
  serverBox,
  subscribe,
  subscriberBody,
  tokenBox,
  type Box,
  type Errors,
  type Purchase,
} from '../builders/engine.ts';

const NOW = '2026-01-31T09:00:00Z';
const h = useHarness({ now: NOW });
const dir = mkdtempSync(join(tmpdir(), 'billing-sim-declines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A client with a card saved with these later outcomes; returns the client and the token id. */
async function cardSaved(box: Box, outcomes: Parameters<typeof saveToken>[2]) {
  const client = await makeClient(box);
  return { clientId: client.id, token: await saveToken(box, client.id, outcomes) };
}

const newestError = (purchase: Purchase) => purchase.transaction_data.attempts[0]!.error;

describe('decline_code on POST /sim/v1/purchases/{id}/pay', () => {
  it('pay with outcome failure and decline_code: the attempt\'s error carries the code and its message, and so does the purchase.payment_failure event', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = await createPurchase(box, (await makeClient(box)).id);
    const declined = await payPurchase(box, purchase.id, { outcome: 'failure', decline_code: 'lost_card' });
    expect(declined.status).toBe('error');
    expect(declined.transaction_data.attempts[0]).toMatchObject({ type: 'execute', successful: false, error: { code: 'lost_card', message: declineMessage('lost_card') } });
    const failure = (await events(box)).find((event) => event.event_type === 'purchase.payment_failure' && event.object_id === purchase.id)!;
    expect(newestError(failure.payload as unknown as Purchase)).toMatchObject({ code: 'lost_card', message: 'The card was reported lost.' });
  });

  it('without decline_code a decline is insufficient_funds, as before', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = await createPurchase(box, (await makeClient(box)).id);
    const declined = await payPurchase(box, purchase.id, { outcome: 'failure' });
    expect(newestError(declined)).toMatchObject({ code: 'insufficient_funds', message: 'Insufficient funds.' });
  });

  it('an unknown code → 400 invalid_choice naming decline_code, and nothing changed', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = await createPurchase(box, (await makeClient(box)).id);
    const refused = await box.req('POST', `/sim/v1/purchases/${purchase.id}/pay`, { outcome: 'failure', decline_code: 'card_on_fire' });
    expectRejected(refused, 'decline_code', 'invalid_choice');
    // The common reasons are named first, then how many more there are; the message stays short.
    expect((refused.body as Errors).decline_code![0]!.message).toMatch(/^"card_on_fire" is not a valid choice\. Allowed: insufficient_funds, expired_card, do_not_honour, .* and 54 more/);
    expect(await getPurchase(box, purchase.id)).toEqual(purchase);
    expect((await events(box)).filter((event) => event.event_type === 'purchase.payment_failure')).toEqual([]);
  });

  it('decline_code with outcome success, or without an outcome → 400 naming decline_code; nothing is paid', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = await createPurchase(box, (await makeClient(box)).id);
    expectRejected(await box.req('POST', `/sim/v1/purchases/${purchase.id}/pay`, { outcome: 'success', decline_code: 'expired_card' }), 'decline_code', 'invalid');
    expectRejected(await box.req('POST', `/sim/v1/purchases/${purchase.id}/pay`, { decline_code: 'expired_card' }), 'decline_code', 'invalid');
    expect(await getPurchase(box, purchase.id)).toEqual(purchase);
  });

  it('the platform\'s codes are kept as it sends them, its typo included: valiadtion_expires_too_long', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = await createPurchase(box, (await makeClient(box)).id);
    expect(newestError(await payPurchase(box, purchase.id, { outcome: 'failure', decline_code: 'valiadtion_expires_too_long' }))?.code).toBe('valiadtion_expires_too_long');
  });
});

describe('a decline code in token_outcomes', () => {
  it('a charge declined with expired_card answers 400 purchase_charge_error naming the reason, and the purchase\'s attempt carries that code and its message', async () => {
    const box = await sandboxAt(h, NOW);
    const { clientId, token } = await cardSaved(box, { tokenOutcomes: ['expired_card'] });
    const purchase = await createPurchase(box, clientId);
    const refused = await box.req('POST', `/api/v1/purchases/${purchase.id}/charge/`, { recurring_token: token });
    expectRejected(refused, '__all__', 'purchase_charge_error');
    expect((refused.body as Errors).__all__![0]!.message).toContain('expired_card');
    const after = await getPurchase(box, purchase.id);
    expect(after.status).toBe(purchase.status);
    expect(after.transaction_data.attempts[0]).toMatchObject({ type: 'recurring_execute', successful: false, error: { code: 'expired_card', message: 'The card has expired.' } });
  });

  it('["do_not_honour", "success"] declines the next POST /charge/ with do_not_honour, then succeeds', async () => {
    const box = await sandboxAt(h, NOW);
    const { clientId, token } = await cardSaved(box, { tokenOutcomes: ['do_not_honour', 'success'] });
    const first = await createPurchase(box, clientId);
    expectRejected(await box.req('POST', `/api/v1/purchases/${first.id}/charge/`, { recurring_token: token }), '__all__', 'purchase_charge_error');
    expect(newestError(await getPurchase(box, first.id))?.code).toBe('do_not_honour');
    const second = await createPurchase(box, clientId);
    const charged = await box.req('POST', `/api/v1/purchases/${second.id}/charge/`, { recurring_token: token });
    expect(charged.status, charged.text).toBe(200);
    expect((charged.body as Purchase).status).toBe('paid');
  });

  it('["do_not_honour", "success"] declines the automatic subscription charge after a clock advance (purchase.subscription_charge_failure), then the next is paid', async () => {
    const box = await sandboxAt(h, NOW);
    const template = await makeTemplate(box);
    const client = await makeClient(box);
    const { purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
    await payPurchase(box, purchase!.id, { method: 'visa', save_token: true, token_outcomes: ['do_not_honour', 'success'] });
    await advance(box, { to: '2026-03-31T00:00:00Z' });
    const [declined, paid] = (await generated(box, template.id, client.id)).slice(1);
    expect(declined!.transaction_data.attempts[0]).toMatchObject({ successful: false, error: { code: 'do_not_honour', message: declineMessage('do_not_honour') } });
    const failure = (await events(box)).find((event) => event.event_type === 'purchase.subscription_charge_failure' && event.object_id === declined!.id)!;
    expect(newestError(failure.payload as unknown as Purchase)?.code).toBe('do_not_honour');
    expect(paid!.status).toBe('paid');
  });

  it('token_outcome (one value) may be a code too: every later charge is declined with it', async () => {
    const box = await sandboxAt(h, NOW);
    const { clientId, token } = await cardSaved(box, { tokenOutcome: 'stolen_card' });
    for (let i = 0; i < 2; i += 1) {
      const purchase = await createPurchase(box, clientId);
      expectRejected(await box.req('POST', `/api/v1/purchases/${purchase.id}/charge/`, { recurring_token: token }), '__all__', 'purchase_charge_error');
      expect(newestError(await getPurchase(box, purchase.id))?.code).toBe('stolen_card');
    }
  });

  it('an unknown outcome → 400 invalid_choice on the item, naming success, failure and the codes', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = await createPurchase(box, (await makeClient(box)).id);
    const refused = await box.req('POST', `/sim/v1/purchases/${purchase.id}/pay`, { save_token: true, token_outcomes: ['success', 'maybe'] });
    expectRejected(refused, 'token_outcomes.1', 'invalid_choice');
    expect((refused.body as Errors)['token_outcomes.1']).toEqual([
      { code: 'invalid_choice', message: '"maybe" is not a valid choice. Allowed: success, failure, insufficient_funds, expired_card, do_not_honour, 3ds_authentication_failed, exceeds_withdrawal_limit, issuer_not_available, lost_card, stolen_card and 56 more (openapi.yaml lists them).' },
    ]);
  });

  it('a snapshot export/import round trip keeps a token\'s code outcomes', async () => {
    const box = await sandboxAt(h, NOW);
    const { token } = await cardSaved(box, { tokenOutcomes: ['expired_card', 'failure', 'success'] });
    const snapshot = (await box.req('GET', '/sim/v1/snapshot')).body as { sandbox: { tokenOutcomes: unknown } };
    expect(snapshot.sandbox.tokenOutcomes).toEqual([[token, ['expired_card', 'failure', 'success']]]);
    // Loaded where none of its ids is taken: the sandbox it came from is deleted first.
    expect((await box.req('DELETE', '/sim/v1/sandbox')).status).toBe(204);
    const copy = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot } });
    expect(copy.status, copy.text).toBe(201);
    const copied = tokenBox(h, (copy.body as { token: string }).token, box.brandId);
    expect(((await copied.req('GET', '/sim/v1/snapshot')).body as typeof snapshot).sandbox.tokenOutcomes).toEqual([[token, ['expired_card', 'failure', 'success']]]);
    const clientId = (await getPurchase(copied, token)).client_id;
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 3; i += 1) {
      const purchase = await createPurchase(copied, clientId);
      await copied.req('POST', `/api/v1/purchases/${purchase.id}/charge/`, { recurring_token: token });
      const after = await getPurchase(copied, purchase.id);
      codes.push(after.status === 'paid' ? 'paid' : newestError(after)?.code);
    }
    expect(codes).toEqual(['expired_card', 'insufficient_funds', 'paid']);
  });
});

describe('a data file', () => {
  it('keeps a token\'s code outcomes across a restart', async () => {
    const file = join(dir, 'declines.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file, clock: { now: () => Date.parse(NOW) } });
    const { clientId, token } = await cardSaved(serverBox(h, first), { tokenOutcomes: ['restricted_card', 'success'] });
    await first.stop();
    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      const again = serverBox(h, second);
      const purchase = await createPurchase(again, clientId);
      expect((await again.req('POST', `/api/v1/purchases/${purchase.id}/charge/`, { recurring_token: token })).status).toBe(400);
      expect(newestError(await getPurchase(again, purchase.id))?.code).toBe('restricted_card');
    } finally {
      await second.stop();
    }
  });
});

describe('the catalogue', () => {
  it('openapi.yaml\'s DeclineCode enum is the catalogue, in its order, and scenario.schema.json takes the same codes', () => {
    const spec = loadSpec() as unknown as { components: { schemas: { DeclineCode: { enum: string[] } } } };
    expect(spec.components.schemas.DeclineCode.enum).toEqual(DECLINE_CODES);
    const scenario = JSON.parse(readFileSync(new URL('../../scenario.schema.json', import.meta.url), 'utf8')) as { $defs: { declineCode: { enum: string[] } } };
    expect(scenario.$defs.declineCode.enum).toEqual(DECLINE_CODES);
  });

  it('holds the 64 codes of the platform\'s Go SDK (error.go), each with a one-sentence message', () => {
    expect(DECLINE_CODES).toHaveLength(64);
    expect(new Set(DECLINE_CODES).size).toBe(64);
    for (const code of DECLINE_CODES) expect(declineMessage(code), code).toMatch(/^[A-Z0-9].*\.$/);
  });
});
