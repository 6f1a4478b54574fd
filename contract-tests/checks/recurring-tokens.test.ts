// Client recurring tokens: listing and reading them per client, the token's service type, and the
// spec's "Delete a client recurring token" with its three effects, through both endpoints. A token
// is saved by paying a purchase at the simulated checkout, so every check requires 'payments'. The
// spec's rules are normative, and so is a deleted token's 404 (an unknown id, as the platform's
// SDKs expect); the simulator-only token fields and a second delete_recurring_token/ are informative.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { NOT_FOUND } from '../lib/citations.ts';
import {
  ACTIVE_AT_ONCE,
  expectErrorAt,
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

/** The spec's "Delete a client recurring token", as openapi.yaml restates it. */
const DELETE = 'openapi.yaml#deleteClientRecurringToken';

describe('recurring tokens', () => {
  check(
    {
      id: 'TOK-SERVICE-TYPE',
      title: '"the token\'s service type is that of the creating Purchase": ONEDAY, TWODAY, and none',
      cites: `docs/behaviour.md#service-types: "A token takes the service type of the purchase that saved it"; docs/behaviour.md#simulated-payments: "its service type is the purchase's"`,
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
      cites:
        `docs/behaviour.md#template-fields: "forces saving of the customer's payment credentials for later recurring payments when the payment method supports it, without giving the customer a choice"; ` +
        'docs/behaviour.md#simulated-payments: "forced when the purchase has force_recurring and the method can save one"; ' +
        'docs/behaviour.md#field-names: "RecurringToken: id (the id of the purchase whose payment saved it)"',
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
      cites:
        'docs/behaviour.md#field-names: "RecurringToken: id (the id of the purchase whose payment saved it), client_id, payment_method, description (masked"; ' +
        `docs/behaviour.md#recurring-tokens: "lists a client's tokens"; openapi.yaml#listClientRecurringTokens: "newest first"`,
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
      cites: `${DELETE}: "success is HTTP 204 with no body"; docs/behaviour.md#status-codes: "204 | a delete; no body"`,
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
      cites: `docs/behaviour.md#recurring-tokens: "the token leaves the client's list and the checkout page"; ${DELETE}: "A Purchase created with the respective client's client_id no longer offers this token on the checkout page"`,
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
      cites: `docs/behaviour.md#recurring-tokens: "charging with it → 400 invalid_recurring_token under __all__"; ${DELETE}: "The token id can no longer be used as recurring_token in POST /purchases/{id}/charge/ (400)"`,
      requires: ['payments'],
      // The platform's placement, where its WooCommerce plugin looks before it drops the stored card;
      // or billing-sim's former one, on the field: the spec names neither.
      field: '__all__',
      code: 'invalid_recurring_token',
      also: [['recurring_token', 'does_not_exist']],
      codeCites: 'docs/behaviour.md#charges-with-a-token: "a token that can charge nothing, because it does not exist, was deleted or is another sandbox\'s (the same to the caller), → invalid_recurring_token"',
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
      cites: `docs/behaviour.md#recurring-tokens: "the purchase that saved it has is_recurring_token false"; ${DELETE}: "has is_recurring_token false, as if POST /purchases/{recurring_token}/delete_recurring_token/ had been issued"`,
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
      cites:
        `docs/behaviour.md#recurring-tokens: "Automatic charges use the client's newest usable token"; docs/behaviour.md#automatic-charges: "no usable token → status sent and an invoice e-mail"; ` +
        `${DELETE}: "automatic subscription charges stop using it"`,
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
      cites: `${DELETE}: "A token that is already deleted … answers 404"; docs/behaviour.md#recurring-tokens: "A token that does not exist, no longer does … → 404"; ${NOT_FOUND}`,
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
      cites: `${DELETE}: "a deletion addressed by the owner client and the token"; docs/behaviour.md#recurring-tokens: "or belongs to another client than the one in the path → 404"`,
      requires: ['payments'],
      field: '__all__',
      code: 'not_found',
      status: 404,
      codeCites: `${DELETE}: "or that belongs to another client, answers 404"; docs/behaviour.md#error-codes: "not_found | 404"`,
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
      cites:
        'docs/behaviour.md#recurring-tokens: "Deleting one, by DELETE /api/v1/clients/{id}/recurring_tokens/{token_id}/ or POST /api/v1/purchases/{token_id}/delete_recurring_token/"; ' +
        'openapi.yaml#deleteRecurringToken: "Same effects as DELETE /api/v1/clients/{id}/recurring_tokens/{token_id}/"',
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
      title: 'delete_recurring_token → 200 with the saving Purchase (is_recurring_token false); again → 404; charging → 400 __all__ invalid_recurring_token (or recurring_token does_not_exist)',
      cites:
        'openapi.yaml#deleteRecurringToken: "Answers that Purchase", "No token with this id (never saved, already deleted, or of another sandbox) → 404"; ' +
        'openapi.yaml#chargePurchase: "a token that can charge nothing, unknown, deleted"',
      level: 'informative',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, token, purchase } = await tokenAndPurchase(api, { serviceType: 'ONEDAY' }, typed('ONEDAY', wallInstant(30)));
      const res = await account.api.post(`/purchases/${token}/delete_recurring_token/`);
      expect(expectStatus(res, 200, 'delete_recurring_token')).toMatchObject({ id: token, is_recurring_token: false });
      expectStatus(await account.api.post(`/purchases/${token}/delete_recurring_token/`), 404, 'again');
      expectErrorAt(await charge(account, purchase.id, token), [['__all__', 'invalid_recurring_token'], ['recurring_token', 'does_not_exist']], { alone: true });
    },
  );
});
