// Client recurring tokens: listing and reading them per client, the token's service type, and the
// spec's "Delete a client recurring token" with its three effects, through both endpoints. A token
// is saved by paying a purchase at the simulated checkout, so every check requires 'payments'.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import {
  ACTIVE_AT_ONCE,
  expectError,
  expectRejected,
  expectStatus,
  expectSuccess,
  subscriberBody,
  UNKNOWN_ID,
  wallInstant,
} from '../lib/primitives.ts';
import {
  advanceTo,
  charge,
  createPurchase,
  generated,
  getPurchase,
  mainClient,
  makeClient,
  makeTemplate,
  refusal,
  refusedCharge,
  sandbox,
  saveToken,
  subscribe,
  tokenAndPurchase,
  tokenPath,
  tokensOf,
  typed,
  type Purchase,
  type Token,
} from '../lib/scenario.ts';

const DELETE = 'Spec, Delete a client recurring token';

describe('recurring tokens', () => {
  check(
    {
      id: 'TOK-SERVICE-TYPE',
      title: '"the token\'s service type is that of the creating Purchase": ONEDAY, TWODAY, and none',
      cites: 'Spec, Rules on default_service_type 2: "Recurring tokens are created with Purchases, and the token\'s service type is that of the creating Purchase."',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const oneDay = await saveToken(account, client.id, { serviceType: 'ONEDAY' });
      const twoDay = await saveToken(account, client.id, { serviceType: 'TWODAY' });
      const plain = await saveToken(account, client.id);
      const byId = new Map((await tokensOf(account, client.id)).map((t) => [t.id, t.service_type]));
      expect([byId.get(oneDay), byId.get(twoDay), byId.get(plain)]).toEqual(['ONEDAY', 'TWODAY', null]);
    },
  );

  check(
    {
      id: 'TOK-FORCE-RECURRING-SAVES',
      title: 'a purchase with force_recurring saves the card without the client choosing',
      cites: 'Spec, BillingTemplate fields not shown: a boolean "that forces saving of the customer\'s payment credentials for later recurring payments when the payment method supports it, without giving the customer a choice"; DESIGN.md §3 Simulator control (save_token forced)',
      level: 'informative',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const purchase = await createPurchase(account, client.id, { force_recurring: true });
      const paid = expectStatus(await account.api.sim.post(`/purchases/${purchase.id}/pay`, { method: 'visa' }), 200, 'pay') as Purchase;
      expect(paid.is_recurring_token).toBe(true);
      expect((await tokensOf(account, client.id)).map((t) => t.id)).toEqual([purchase.id]);
    },
  );

  check(
    {
      id: 'TOK-LIST-GET',
      title: 'GET /clients/{id}/recurring_tokens/ lists the client\'s tokens newest first, ids equal to their purchases\'; GET one returns it',
      cites: 'DESIGN.md §3 Endpoints and Field names ("Recurring token: id equals the id of the Purchase whose payment saved it; client_id, payment_method, description (masked), service_type")',
      level: 'informative',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const other = await makeClient(account);
      const visa = await saveToken(account, client.id, { method: 'visa' });
      const mastercard = await saveToken(account, client.id, { method: 'mastercard' });
      const list = await tokensOf(account, client.id);
      expect(list.map((t) => [t.id, t.type, t.client_id, t.payment_method, t.service_type])).toEqual([
        [mastercard, 'recurring_token', client.id, 'mastercard', null],
        [visa, 'recurring_token', client.id, 'visa', null],
      ]);
      for (const token of list) expect(token.description.length).toBeGreaterThan(0);
      expect(expectStatus(await account.api.get(tokenPath(client.id, visa)), 200, 'get token')).toEqual(list[1]);
      expect(await tokensOf(account, other.id)).toEqual([]);
      expectStatus(await account.api.get(tokenPath(other.id, visa)), 404, 'token through another client');
      expectStatus(await account.api.get(tokenPath(client.id, UNKNOWN_ID)), 404, 'unknown token');
      expectStatus(await account.api.get(`/clients/${UNKNOWN_ID}/recurring_tokens/`), 404, 'tokens of an unknown client');
    },
  );

  // ------------------------------------------------------------------------------------ deletion
  check(
    {
      id: 'TOK-DELETE-204',
      title: 'deleting a client recurring token: "HTTP 204, no body"',
      cites: `${DELETE}: "Success response: HTTP 204, no body."`,
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const token = await saveToken(account, client.id);
      const res = await account.api.delete(tokenPath(client.id, token));
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
    },
  );

  check(
    {
      id: 'TOK-DELETE-EFFECT-1',
      title: 'effect 1: a Purchase created for the client afterwards "no longer offers this token": it is gone from the client\'s tokens, other tokens stay',
      cites: `${DELETE}, effect 1: "A Purchase created with the respective client's client_id no longer offers this token on the checkout page."; Spec, What the service does 5 ("removes it from use on checkout")`,
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const kept = await saveToken(account, client.id);
      const deleted = await saveToken(account, client.id, { method: 'mastercard' });
      expect((await tokensOf(account, client.id)).map((t) => t.id).sort()).toEqual([kept, deleted].sort());
      expectSuccess(await account.api.delete(tokenPath(client.id, deleted)), 'delete token');
      expect((await tokensOf(account, client.id)).map((t) => t.id)).toEqual([kept]);
      expectRejected(await account.api.get(tokenPath(client.id, deleted)), 'GET of the deleted token');
      // A purchase created afterwards can be paid with the kept token only.
      const later = await createPurchase(account, client.id);
      expectRejected(await charge(account, later.id, deleted), 'charge with the deleted token');
      expectSuccess(await charge(account, later.id, kept), 'charge with the kept token');
    },
  );

  refusal(
    {
      id: 'TOK-DELETE-EFFECT-2',
      title: 'effect 2: "The token ID can no longer be used as recurring_token in POST /purchases/{id}/charge/"',
      cites: `${DELETE}, effect 2: "The token ID can no longer be used as recurring_token in POST /purchases/{id}/charge/."`,
      requires: ['payments'],
      field: 'recurring_token',
      code: 'does_not_exist',
    },
    async ({ api }) => {
      const { account, client, token, purchase } = await tokenAndPurchase(api);
      expectSuccess(await account.api.delete(tokenPath(client.id, token)), 'delete token');
      return refusedCharge(account, purchase.id, token);
    },
  );

  check(
    {
      id: 'TOK-DELETE-EFFECT-3',
      title: 'effect 3: "The respective Purchase has is_recurring_token false"',
      cites: `${DELETE}, effect 3: "The respective Purchase has is_recurring_token false, as if POST /purchases/{recurring_token}/delete_recurring_token/ had been issued."`,
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const token = await saveToken(account, client.id);
      const before = await getPurchase(account, token);
      expect(before.is_recurring_token).toBe(true);
      expectSuccess(await account.api.delete(tokenPath(client.id, token)), 'delete token');
      const after = await getPurchase(account, token);
      expect(after.is_recurring_token).toBe(false);
      // Nothing else of the saving purchase changes: it stays paid.
      expect(after.status).toBe(before.status);
      expect(after.payment).toEqual(before.payment);
    },
  );

  check(
    {
      id: 'TOK-DELETE-NOT-CHARGED-AUTOMATICALLY',
      title: 'a deleted token is removed "for charging": the next subscription billing is not paid with it',
      cites: 'Spec, What the service does 5: "A client recurring token can be deleted by ID, which removes it from use on checkout and for charging"; What the service does 3 ("paid automatically when the client has saved a card")',
      requires: ['clock', 'payments'],
    },
    async ({ api }) => {
      const account = await sandbox(api, '2026-01-30T12:00:00Z');
      const client = await makeClient(account);
      const token = await saveToken(account, client.id);
      const template = await makeTemplate(account, ACTIVE_AT_ONCE);
      await subscribe(account, template.id, subscriberBody(client.id, '2026-02-03'));
      await advanceTo(account, '2026-03-03T23:59:59Z');
      const [march] = await generated(account, template.id, client.id);
      expect(march).toMatchObject({ issued: '2026-03-03', status: 'paid' });
      expectSuccess(await account.api.delete(tokenPath(client.id, token)), 'delete token');
      await advanceTo(account, '2026-04-03T23:59:59Z');
      const bills = await generated(account, template.id, client.id);
      expect(bills.map((p) => p.issued)).toEqual(['2026-03-03', '2026-04-03']);
      expect(bills[1]!.status).not.toBe('paid');
      expect(bills[1]!.payment).toBeNull();
    },
  );

  check(
    {
      id: 'TOK-DELETE-AGAIN-404',
      title: 'a deleted token: GET and a second DELETE → 404',
      cites: 'openapi.yaml deleteClientRecurringToken ("A token that is already deleted … answers 404"); DESIGN.md §3 Errors',
      level: 'informative',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const token = await saveToken(account, client.id);
      expectStatus(await account.api.delete(tokenPath(client.id, token)), 204, 'delete');
      expectStatus(await account.api.get(tokenPath(client.id, token)), 404, 'GET after delete');
      expectStatus(await account.api.delete(tokenPath(client.id, token)), 404, 'DELETE again');
    },
  );

  refusal(
    {
      id: 'TOK-DELETE-OTHER-CLIENT',
      title: 'a deletion addressed through a client that does not own the token is rejected and deletes nothing',
      cites: `${DELETE}: "the operation is a deletion addressed by two UUID path parameters (the owner client and the token)"`,
      requires: ['payments'],
      field: '__all__',
      code: 'not_found',
      status: 404,
      codeCites: 'DESIGN.md §3 Errors (404 unknown id) and openapi.yaml deleteClientRecurringToken ("… or that belongs to another client, answers 404")',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const other = await makeClient(account);
      const token = await saveToken(account, client.id);
      return {
        attempt: () => account.api.delete(tokenPath(other.id, token)),
        state: async () => ({ tokens: await tokensOf(account, client.id), purchase: await getPurchase(account, token) }),
      };
    },
  );

  check(
    {
      id: 'TOK-DELETE-VIA-PURCHASE',
      title: 'POST /purchases/{recurring_token}/delete_recurring_token/ has the same effects: is_recurring_token false, no longer listed, no longer charges',
      cites: `${DELETE}, effect 3 ("as if POST /purchases/{recurring_token}/delete_recurring_token/ had been issued"); Spec, Other operations referenced`,
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, client, token, purchase } = await tokenAndPurchase(api);
      expectSuccess(await account.api.post(`/purchases/${token}/delete_recurring_token/`), 'delete_recurring_token');
      expect((await getPurchase(account, token)).is_recurring_token).toBe(false);
      expect((await tokensOf(account, client.id)).map((t: Token) => t.id)).not.toContain(token);
      const before = await getPurchase(account, purchase.id);
      expectRejected(await charge(account, purchase.id, token), 'charge with the deleted token');
      expect(await getPurchase(account, purchase.id)).toEqual(before);
    },
  );

  check(
    {
      id: 'TOK-DELETE-VIA-PURCHASE-200',
      title: 'delete_recurring_token → 200 with the saving Purchase (is_recurring_token false); again → 404; charging → 400 recurring_token does_not_exist',
      cites: 'openapi.yaml deleteRecurringToken and chargePurchase; DESIGN.md §4.9',
      level: 'informative',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, token, purchase } = await tokenAndPurchase(api, { serviceType: 'ONEDAY' }, typed('ONEDAY', wallInstant(30)));
      const res = await account.api.post(`/purchases/${token}/delete_recurring_token/`);
      expect(expectStatus(res, 200, 'delete_recurring_token')).toMatchObject({ id: token, is_recurring_token: false });
      expectStatus(await account.api.post(`/purchases/${token}/delete_recurring_token/`), 404, 'again');
      expectError(await charge(account, purchase.id, token), 'recurring_token', 'does_not_exist', { alone: true });
    },
  );
});
