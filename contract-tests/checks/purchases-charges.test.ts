// Purchases charged with a client's recurring token (POST /purchases/{id}/charge/), and the spec's
// "Rules on default_service_type" on creating and charging a Purchase (normative; restated in
// docs/behaviour.md#service-types). What the platform's API reference says of a charge — a decline
// is 400 purchase_charge_error with the failed attempt newest first, another client's token charges
// (docs/fidelity.md#charge-errors) — is normative too; the rest is billing-sim's
// (docs/behaviour.md#charges-with-a-token; informative).

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { at, DAY, expectError, expectStatus, expectSuccess, purchaseBody, wallInstant } from '../lib/primitives.ts';
import {
  advanceTo,
  charge,
  createPurchase,
  expectPurchasesOf,
  getPurchase,
  mainClient,
  makeClient,
  pay,
  purchasesIfListed,
  refusal,
  refusedCharge,
  SANDBOX_NOW as NOW,
  sandboxClient as setupAt,
  saveToken,
  tokenAndPurchase,
  typed,
  type Purchase,
} from '../lib/scenario.ts';


/**
 * Where a charge's refusal by the service-type rules may be answered: under `__all__` with the
 * platform's charge code, where its client code reads a charge's errors, or on `recurring_token`
 * (billing-sim before); the spec names neither.
 */
const CHARGE_REFUSED = {
  field: '__all__',
  code: 'purchase_charge_error',
  also: [['recurring_token', 'invalid']] as const,
  codeCites: 'docs/behaviour.md#charges-with-a-token: "a token of another service type, a purchase due sooner than the token\'s execution time, or a purchase that is not payable → purchase_charge_error"',
};

/** A due instant far ahead of any target's clock, long enough for either service type. */
const FAR_DUE = () => wallInstant(60);

describe('purchases', () => {
  // ------------------------------------------------------------------- charging with a token
  check(
    {
      id: 'PUR-CHARGE-TOKEN',
      title: 'a client recurring token is "Used as recurring_token in POST /purchases/{id}/charge/": the charge is accepted and the Purchase is paid',
      cites: `docs/behaviour.md#charges-with-a-token: "pays a purchase with a client's saved token"; openapi.yaml#chargePurchase`,
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, token, purchase } = await tokenAndPurchase(api);
      const charged = expectSuccess(await charge(account, purchase.id, token), 'charge') as Purchase;
      expect(charged.status).toBe('paid');
      expect((await getPurchase(account, purchase.id)).status).toBe('paid');
    },
  );

  check(
    {
      id: 'PUR-CHARGE-TOKEN-FIELDS',
      title: 'a charge → 200 with recurring_token set and payment {amount, currency, payment_method of the token}',
      cites:
        'docs/behaviour.md#field-names: "recurring_token (the token that paid it, or null)"; ' +
        `docs/behaviour.md#charges-with-a-token: "A successful one sets the purchase's recurring_token and ends as a payment does"; openapi.yaml#chargePurchase`,
      level: 'informative',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, token, purchase } = await tokenAndPurchase(api, { method: 'mastercard' });
      const charged = expectStatus(await charge(account, purchase.id, token), 200, 'charge') as Purchase;
      expect(charged).toMatchObject({ id: purchase.id, status: 'paid', recurring_token: token, payment: { amount: 1200, currency: 'EUR', payment_method: 'mastercard' } });
    },
  );

  check(
    {
      id: 'PUR-CHARGE-DECLINED',
      title: 'a declined charge → 400 __all__ purchase_charge_error; the purchase is not paid and records the failed attempt, newest first, with its error code',
      cites:
        'docs/fidelity.md#charge-errors: "400 with code purchase_charge_error; the reason is in transaction_data.attempts", "the plugin reads a charge\'s errors under __all__ only"; ' +
        'openapi.yaml#chargePurchase: "In transaction_data.attempts[] array (newest element first) you\'ll find the corresponding attempt with error code"',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, token, purchase } = await tokenAndPurchase(api, { tokenOutcome: 'failure' });
      expectError(await charge(account, purchase.id, token), '__all__', 'purchase_charge_error', { alone: true });
      const after = await getPurchase(account, purchase.id);
      expect(after).toMatchObject({ payment: null, recurring_token: null });
      expect(after.status, 'a declined purchase').not.toBe('paid');
      expect(after.transaction_data.attempts[0], 'the newest attempt').toMatchObject({ successful: false, error: { code: expect.any(String) } });
    },
  );

  check(
    {
      id: 'PUR-CHARGE-DECLINED-STATUS',
      title: 'a declined charge leaves the purchase in its status, with a recurring_execute attempt of the token\'s decline code (insufficient_funds), and it can still be paid',
      // The platform publishes the error and the attempt, not the status a declined charge leaves: billing-sim keeps it.
      cites:
        'openapi.yaml#chargePurchase: "The purchase keeps its status", "type recurring_execute"; ' +
        'docs/behaviour.md#charge-errors: "the purchase keeps its status but gains an attempt"',
      level: 'informative',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, token, purchase } = await tokenAndPurchase(api, { tokenOutcome: 'failure' });
      expectError(await charge(account, purchase.id, token), '__all__', 'purchase_charge_error', { alone: true });
      const after = await getPurchase(account, purchase.id);
      expect(after.status).toBe(purchase.status);
      expect(after.transaction_data.attempts[0], 'the newest attempt').toMatchObject({ type: 'recurring_execute', successful: false, error: { code: 'insufficient_funds' } });
      expect((await pay(account, purchase.id)).status).toBe('paid');
    },
  );

  check(
    {
      id: 'PUR-CHARGE-OTHER-CLIENT-TOKEN',
      title: 'a charge with another client\'s token is accepted, as on the platform ("not recommended"): the purchase is paid with that token',
      cites:
        'docs/behaviour.md#charges-with-a-token: "A token of another client of the sandbox charges too, as on the real platform"; ' +
        'openapi.yaml#chargePurchase: "A token of another client of the same sandbox charges the purchase, as on the platform"; docs/fidelity.md#charge-errors: "Charging with another client\'s token"',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const other = await makeClient(account);
      const token = await saveToken(account, other.id);
      const purchase = await createPurchase(account, client.id);
      const charged = expectSuccess(await charge(account, purchase.id, token), 'charge with another client\'s token') as Purchase;
      expect(charged).toMatchObject({ id: purchase.id, status: 'paid', recurring_token: token });
    },
  );

  // ------------------------------------------------------------------ service types (spec rules)
  check(
    {
      id: 'PUR-SERVICE-TYPE-NEEDS-FORCE-RECURRING',
      title: '"force_recurring must be true to use the default_service_type": a Purchase created with service_type and no force_recurring gets no service type',
      cites: 'docs/behaviour.md#service-types: "A purchase has a service_type only when force_recurring is true"',
      // Purchase.service_type is the simulator's own name for the spec's service type (x-simulator-only).
      requires: ['simulator'],
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      for (const flags of [{}, { force_recurring: false }]) {
        const res = await account.api.post('/purchases/', purchaseBody(account.brandId, client.id, { service_type: 'ONEDAY', due: FAR_DUE(), ...flags }));
        if (res.status >= 200 && res.status < 300) expect((res.body as Purchase).service_type, JSON.stringify(flags)).toBeNull();
        else expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      }
      const forced = await createPurchase(account, client.id, typed('ONEDAY', FAR_DUE()));
      expect(forced).toMatchObject({ force_recurring: true, service_type: 'ONEDAY' });
    },
  );

  check(
    {
      id: 'PUR-SERVICE-TYPE-NEEDS-FORCE-RECURRING-CODE',
      title: 'POST /purchases/ with service_type and no force_recurring → 400 service_type invalid; nothing is created',
      cites: 'docs/behaviour.md#service-types: "POST /purchases/ with a service_type and without force_recurring → 400 on service_type"; docs/behaviour.md#error-codes: "invalid | 400"',
      level: 'informative',
      requires: ['simulator'],
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      for (const flags of [{}, { force_recurring: false }]) {
        expectError(await account.api.post('/purchases/', purchaseBody(account.brandId, client.id, { service_type: 'ONEDAY', due: FAR_DUE(), ...flags })), 'service_type', 'invalid', { alone: true });
      }
      await expectPurchasesOf(account, client.id, []);
    },
  );

  refusal(
    {
      id: 'PUR-TWODAY-DUE-TOMORROW-CREATE',
      title: '"A Purchase due tomorrow cannot be created … with a TWODAY type"; ONEDAY due tomorrow and TWODAY due in two days can',
      cites: 'docs/behaviour.md#service-types: "their execution time is 1 and 2 days", "A purchase whose due is sooner than its execution time cannot be created (400 on service_type)"',
      requires: ['clock'],
      field: 'service_type',
      code: 'invalid',
    },
    async ({ api }) => {
      const { account, client } = await setupAt(api);
      const tomorrow = at(NOW) + DAY;
      return {
        attempt: () => account.api.post('/purchases/', purchaseBody(account.brandId, client.id, typed('TWODAY', tomorrow))),
        state: () => purchasesIfListed(account, client.id),
        after: async () => {
          expect((await createPurchase(account, client.id, typed('ONEDAY', tomorrow))).service_type).toBe('ONEDAY');
          expect((await createPurchase(account, client.id, typed('TWODAY', tomorrow + DAY))).service_type).toBe('TWODAY');
        },
      };
    },
  );

  refusal(
    {
      id: 'PUR-TWODAY-DUE-TOMORROW-CHARGE',
      title: '"A Purchase due tomorrow cannot be … charged with a TWODAY … token"; the same purchase two days before due can',
      cites: 'docs/behaviour.md#service-types: "their execution time is 1 and 2 days", "A purchase whose due is sooner than its execution time cannot be created … nor charged with such a token (400 purchase_charge_error under __all__)"',
      requires: ['clock', 'payments'],
      ...CHARGE_REFUSED,
    },
    async ({ api }) => {
      const { account, client } = await setupAt(api);
      const token = await saveToken(account, client.id, { serviceType: 'TWODAY' });
      const due = at('2026-02-02T12:00:00Z');
      const early = await createPurchase(account, client.id, typed('TWODAY', due));
      const late = await createPurchase(account, client.id, typed('TWODAY', due));
      await advanceTo(account, '2026-01-31T12:00:00Z');
      expectSuccess(await charge(account, early.id, token), 'charge two days before due');
      // Now the purchase is due tomorrow.
      await advanceTo(account, '2026-02-01T12:00:00Z');
      return refusedCharge(account, late.id, token);
    },
  );

  refusal(
    {
      id: 'PUR-ONEDAY-NEEDS-ONEDAY-TOKEN',
      title: '"A ONEDAY Purchase needs a ONEDAY token": a TWODAY token is rejected; a ONEDAY token is accepted',
      cites: 'docs/behaviour.md#service-types: "A token takes the service type of the purchase that saved it, and charges only purchases of the same service type"',
      requires: ['payments'],
      ...CHARGE_REFUSED,
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const twoDay = await saveToken(account, client.id, { serviceType: 'TWODAY' });
      const oneDay = await saveToken(account, client.id, { serviceType: 'ONEDAY' });
      const purchase = await createPurchase(account, client.id, typed('ONEDAY', FAR_DUE()));
      return {
        ...refusedCharge(account, purchase.id, twoDay),
        after: async () => {
          const charged = expectSuccess(await charge(account, purchase.id, oneDay), 'charge with the ONEDAY token') as Purchase;
          expect(charged.id).toBe(purchase.id);
        },
      };
    },
  );

  for (const { id, title, token, purchase } of [
    { id: 'PUR-ONEDAY-UNTYPED-TOKEN', title: 'a ONEDAY Purchase cannot be charged with a token that has no service type', token: {}, purchase: () => typed('ONEDAY', FAR_DUE()) },
    { id: 'PUR-UNTYPED-ONEDAY-TOKEN', title: 'a Purchase without a service type cannot be charged with a ONEDAY token', token: { serviceType: 'ONEDAY' as const }, purchase: () => ({}) },
  ]) {
    refusal(
      {
        id,
        title,
        cites: 'docs/behaviour.md#service-types: "charges only purchases of the same service type (a token without one charges only purchases without one)"',
        requires: ['payments'],
        ...CHARGE_REFUSED,
      },
      async ({ api }) => {
        const made = await tokenAndPurchase(api, token, purchase());
        return refusedCharge(made.account, made.purchase.id, made.token);
      },
    );
  }
});
