// Client recurring tokens over HTTP: listing, the spec's three effects of "Delete a client
// recurring token" through both endpoints, automatic subscription charges (DESIGN.md §4.9) and
// tokens that a deleted client takes with it.

import { describe, expect, it } from 'vitest';
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
  outbox,
  payPurchase,
  sandboxAt,
  saveToken,
  subscribe,
  subscriberBody,
  tokensOf,
  type Box,
  type Purchase,
} from '../builders/engine.ts';

const h = useHarness();

const NOW = '2026-01-30T12:00:00Z';

async function setup() {
  const box = await sandboxAt(h, NOW);
  const client = await makeClient(box);
  return { box, client };
}

const tokenPath = (clientId: string, tokenId: string) => `/api/v1/clients/${clientId}/recurring_tokens/${tokenId}/`;
const charge = (box: Box, purchaseId: string, token: string) =>
  box.req('POST', `/api/v1/purchases/${purchaseId}/charge/`, { recurring_token: token });

describe('GET /clients/{id}/recurring_tokens/', () => {
  it('lists a client\'s tokens newest first; each token\'s id is its Purchase\'s and "the token\'s service type is that of the creating Purchase"', async () => {
    const { box, client } = await setup();
    const other = await makeClient(box, { email: 'grace@example.com' });
    const card = await saveToken(box, client.id, { method: 'visa' });
    const oneDay = await saveToken(box, client.id, { serviceType: 'ONEDAY', method: 'eft', currency: 'ZAR' });
    const twoDay = await saveToken(box, client.id, { serviceType: 'TWODAY', method: 'mastercard' });
    const list = await tokensOf(box, client.id);
    expect(list.map((t) => [t.id, t.client_id, t.payment_method, t.service_type])).toEqual([
      [twoDay, client.id, 'mastercard', 'TWODAY'],
      [oneDay, client.id, 'eft', 'ONEDAY'],
      [card, client.id, 'visa', null],
    ]);
    for (const token of list) {
      expect(token.description.length).toBeGreaterThan(0);
      expect((await getPurchase(box, token.id)).is_recurring_token).toBe(true);
    }
    const one = await box.req('GET', tokenPath(client.id, card));
    expect(one.status).toBe(200);
    expect(one.body).toEqual(list[2]);
    expect(await tokensOf(box, other.id)).toEqual([]);
    // Addressed through another client it does not exist.
    expect((await box.req('GET', tokenPath(other.id, card))).status).toBe(404);
  });
});

describe('"Delete a client recurring token": DELETE /clients/{id}/recurring_tokens/{token_id}/', () => {
  it('"Success response: HTTP 204, no body"; effect 1, "no longer offers this token": it leaves the client\'s token list and GET → 404', async () => {
    const { box, client } = await setup();
    const kept = await saveToken(box, client.id);
    const deleted = await saveToken(box, client.id, { method: 'mastercard' });
    const res = await box.req('DELETE', tokenPath(client.id, deleted));
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await tokensOf(box, client.id)).map((t) => t.id)).toEqual([kept]);
    expect((await box.req('GET', tokenPath(client.id, deleted))).status).toBe(404);
    expect((await box.req('DELETE', tokenPath(client.id, deleted))).status).toBe(404);
  });

  it('effect 2: "The token ID can no longer be used as recurring_token in POST /purchases/{id}/charge/" → 400 __all__ invalid_recurring_token', async () => {
    const { box, client } = await setup();
    const token = await saveToken(box, client.id);
    const purchase = await createPurchase(box, client.id);
    expect((await box.req('DELETE', tokenPath(client.id, token))).status).toBe(204);
    expectRejected(await charge(box, purchase.id, token), '__all__', 'invalid_recurring_token');
    expect(await getPurchase(box, purchase.id)).toEqual(purchase);
  });

  it('effect 3: "The respective Purchase has is_recurring_token false"; event purchase.recurring_token_deleted', async () => {
    const { box, client } = await setup();
    const token = await saveToken(box, client.id);
    expect((await getPurchase(box, token)).is_recurring_token).toBe(true);
    expect((await box.req('DELETE', tokenPath(client.id, token))).status).toBe(204);
    const saving = await getPurchase(box, token);
    expect(saving).toMatchObject({ is_recurring_token: false, status: 'paid' });
    const deletedEvents = (await events(box)).filter((e) => e.event_type === 'purchase.recurring_token_deleted');
    expect(deletedEvents).toHaveLength(1);
    expect(deletedEvents[0]).toMatchObject({ object_type: 'purchase', object_id: token });
    expect(deletedEvents[0]!.payload).toMatchObject({ id: token, is_recurring_token: false });
  });

  it('a token addressed through another client → 404, and it is not deleted', async () => {
    const { box, client } = await setup();
    const other = await makeClient(box, { email: 'grace@example.com' });
    const token = await saveToken(box, client.id);
    expect((await box.req('DELETE', tokenPath(other.id, token))).status).toBe(404);
    expect((await tokensOf(box, client.id)).map((t) => t.id)).toEqual([token]);
    expect((await getPurchase(box, token)).is_recurring_token).toBe(true);
  });

  it('"removes it from use on checkout and for charging": the next subscription billing is not charged with a deleted token', async () => {
    const { box, client } = await setup();
    const token = await saveToken(box, client.id);
    const template = await makeTemplate(box, { subscription_charge_period_end: true });
    await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    await advance(box, { to: '2026-03-03T00:00:00Z' });
    expect((await generated(box, template.id)).map((p) => [p.status, p.recurring_token])).toEqual([['paid', token]]);
    expect((await box.req('DELETE', tokenPath(client.id, token))).status).toBe(204);
    const run = await advance(box, { to: '2026-04-03T00:00:00Z' });
    expect(run.processed).toMatchObject({ billings: 1, charges: 0 });
    const april = (await generated(box, template.id)).at(-1)!;
    expect(april).toMatchObject({ issued: '2026-04-03', status: 'sent', recurring_token: null });
    expect((await outbox(box)).filter((m) => m.purchase_id === april.id).map((m) => m.kind)).toEqual(['invoice']);
  });
});

describe('POST /purchases/{recurring_token}/delete_recurring_token/', () => {
  it('"as if POST /purchases/{recurring_token}/delete_recurring_token/ had been issued": 200 with the Purchase, is_recurring_token false, and the same effects', async () => {
    const { box, client } = await setup();
    const token = await saveToken(box, client.id);
    const purchase = await createPurchase(box, client.id);
    const res = await box.req('POST', `/api/v1/purchases/${token}/delete_recurring_token/`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: token, is_recurring_token: false });
    expect(await tokensOf(box, client.id)).toEqual([]);
    expect((await box.req('GET', tokenPath(client.id, token))).status).toBe(404);
    expectRejected(await charge(box, purchase.id, token), '__all__', 'invalid_recurring_token');
    expect((await events(box)).filter((e) => e.event_type === 'purchase.recurring_token_deleted').map((e) => e.object_id)).toEqual([token]);
    // No token with this id any more.
    expect((await box.req('POST', `/api/v1/purchases/${token}/delete_recurring_token/`)).status).toBe(404);
  });

  it('a purchase that never saved a token → 404', async () => {
    const { box, client } = await setup();
    const purchase = await createPurchase(box, client.id);
    await payPurchase(box, purchase.id);
    expect((await box.req('POST', `/api/v1/purchases/${purchase.id}/delete_recurring_token/`)).status).toBe(404);
    expect((await getPurchase(box, purchase.id)).is_recurring_token).toBe(false);
  });
});

describe('charging with tokens', () => {
  it('token_outcome failure: "a card that works today and is declined next month" declines every later charge', async () => {
    const { box, client } = await setup();
    const token = await saveToken(box, client.id, { tokenOutcome: 'failure' });
    expect((await getPurchase(box, token)).status).toBe('paid');
    for (const day of ['2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z']) {
      await advance(box, { to: day });
      const purchase = await createPurchase(box, client.id);
      const res = await charge(box, purchase.id, token);
      expect(res.status, res.text).toBe(400);
      expect(Object.values(res.body as Record<string, { code: string }[]>)[0]![0]!.code).toBe('purchase_charge_error');
      expect((await getPurchase(box, purchase.id)).transaction_data.attempts[0]).toMatchObject({ type: 'recurring_execute', successful: false });
    }
  });

  it('automatic subscription charges use the client\'s newest usable token', async () => {
    const { box, client } = await setup();
    const older = await saveToken(box, client.id);
    await advance(box, { to: '2026-01-30T12:05:00Z' });
    const newer = await saveToken(box, client.id, { tokenOutcome: 'failure' });
    const template = await makeTemplate(box, { subscription_charge_period_end: true });
    await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));

    await advance(box, { to: '2026-03-03T00:00:00Z' });
    const [march] = await generated(box, template.id);
    expect(march).toMatchObject({ status: 'sent', payment: null });
    expect((await events(box)).filter((e) => e.object_id === march!.id).map((e) => e.event_type)).toContain('purchase.subscription_charge_failure');

    expect((await box.req('DELETE', tokenPath(client.id, newer))).status).toBe(204);
    await advance(box, { to: '2026-04-03T00:00:00Z' });
    const april = (await generated(box, template.id)).at(-1)!;
    expect(april).toMatchObject({ issued: '2026-04-03', status: 'paid', recurring_token: older });
  });
});

describe('deleting a client', () => {
  it('deletes its recurring tokens with it', async () => {
    const { box, client } = await setup();
    const token = await saveToken(box, client.id);
    expect((await box.req('DELETE', `/api/v1/clients/${client.id}/`)).status).toBe(204);
    expect((await box.req('GET', `/api/v1/clients/${client.id}/recurring_tokens/`)).status).toBe(404);
    expect((await box.req('POST', `/api/v1/purchases/${token}/delete_recurring_token/`)).status).toBe(404);
    expect((await getPurchase(box, token)).is_recurring_token).toBe(false);
  });
});
