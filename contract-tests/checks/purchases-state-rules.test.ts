// What may be done to a purchase in each state, and the events each step records, as the platform
// states them: "Cancel a pending Purchase … you can guarantee that it won't be paid", capture and
// release only of "funds reserved for a Purchase (status == hold)", "Refund a paid purchase"
// (docs/fidelity.md#purchase-actions), and its event names (its SDK's enum and published deliveries).
// A refusal must change nothing. Paying needs the simulated checkout ('payments'), reading what was
// recorded the event log ('events'); a target without them skips those checks. Each check makes its
// own client and purchases and reads only their events (GET /sim/v1/events?object_id=).

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { expectErrorAt, expectRejected, expectStatus, type Placement } from '../lib/primitives.ts';
import { act, expectUnchanged, heldPurchase, newPurchase, paidPurchase, platformEventsOf } from '../lib/purchase-actions.ts';
import { charge, createPurchase, getPurchase, mainClient, pay, refusal, saveToken, type Account, type Purchase } from '../lib/scenario.ts';

const ACTIONS = 'docs/fidelity.md#purchase-actions';
const CANCEL = `${ACTIONS}: "Cancel a pending Purchase", "If you have a Purchase that payment is possible for, using this request you can guarantee that it won't be paid"`;
const HOLD_ONLY = `${ACTIONS}: "Capture funds reserved for a Purchase (status == hold)", "Release funds reserved for a Purchase (status == hold)"`;
const PAID_ONLY = `${ACTIONS}: "Refund a paid purchase"`;
const UNDER_ALL = `${ACTIONS}: "the plugin reads a refund's and a capture's refusal under __all__"`;

/** A refused action, under `__all__`: the platform's code of the action, or billing-sim's invalid_state. */
const refusedAs = (code: string): Placement[] => [['__all__', code], ['__all__', 'invalid_state']];

/** POST /purchases/{id}/cancel/ that must answer 200 with the cancelled purchase. */
async function cancel(account: Account, id: string): Promise<Purchase> {
  const cancelled = expectStatus(await account.api.post(`/purchases/${id}/cancel/`), 200, 'cancel') as Purchase;
  expect(cancelled, 'the answer to cancel/').toMatchObject({ id, status: 'cancelled' });
  return cancelled;
}

describe('purchases', () => {
  // ------------------------------------------------------------------------------------ cancel
  check(
    {
      id: 'PUR-CANCEL-EVENT',
      title: 'cancel/ records purchase.cancelled, the platform\'s name, after purchase.created',
      cites: `${CANCEL}; ${ACTIONS}: "event purchase.cancelled"; docs/behaviour.md#events: "purchase.cancelled"`,
      requires: ['events'],
    },
    async ({ api }) => {
      const { account, purchase } = await newPurchase(api);
      await cancel(account, purchase.id);
      expect(await platformEventsOf(account, purchase.id)).toEqual(['purchase.created', 'purchase.cancelled']);
    },
  );

  check(
    {
      id: 'PUR-CANCELLED-NOT-PAYABLE',
      title: 'a cancelled purchase cannot be paid at checkout: the payment is refused and the purchase stays cancelled, unpaid',
      cites: `${CANCEL}; docs/behaviour.md#purchases: "cancelled; no longer payable"`,
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, purchase } = await newPurchase(api);
      const cancelled = await cancel(account, purchase.id);
      expectRejected(await account.api.sim.post(`/purchases/${purchase.id}/pay`, {}), 'paying a cancelled purchase at checkout');
      await expectUnchanged(account, cancelled);
    },
  );

  check(
    {
      id: 'PUR-CANCELLED-NOT-CHARGEABLE',
      title: 'a cancelled purchase cannot be charged with a recurring token → 400 under __all__ (purchase_charge_error, or invalid_state); it stays cancelled, unpaid',
      cites: `${CANCEL}; docs/fidelity.md#charge-errors: "the plugin reads a charge's errors under __all__ only"; openapi.yaml#chargePurchase: "a purchase that is not payable (paid, cancelled, expired, pending_execute) → purchase_charge_error"`,
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const token = await saveToken(account, client.id);
      const purchase = await createPurchase(account, client.id);
      const cancelled = await cancel(account, purchase.id);
      expectErrorAt(await charge(account, purchase.id, token), refusedAs('purchase_charge_error'), { alone: true });
      await expectUnchanged(account, cancelled);
    },
  );

  refusal(
    {
      id: 'PUR-CANCEL-PAID',
      title: 'a paid purchase cannot be cancelled: rejected, it stays paid',
      cites: `${CANCEL}; openapi.yaml#cancelPurchase: "Only an unpaid purchase (created, sent, viewed, error, overdue) or one on hold can be cancelled"`,
      requires: ['payments'],
      field: '__all__',
      code: 'invalid_state',
      codeCites: `docs/behaviour.md#purchases: "Any other status → 400 invalid_state for those actions"; ${ACTIONS}: "Other requests in the wrong state"`,
    },
    async ({ api }) => {
      const { account, purchase } = await paidPurchase(api);
      return { attempt: () => account.api.post(`/purchases/${purchase.id}/cancel/`), state: () => getPurchase(account, purchase.id) };
    },
  );

  // ------------------------------------------------------------------- hold and paid: who may act
  check(
    {
      id: 'PUR-ACTIONS-ON-PAID',
      title: 'capture/ and release/ of a paid purchase (not on hold) → 400 under __all__; it stays paid, all of it refundable',
      cites: `${HOLD_ONLY}; ${UNDER_ALL}`,
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, purchase } = await paidPurchase(api);
      expectErrorAt(await act(account, purchase.id, 'capture', {}), refusedAs('purchase_capture_error'), { alone: true });
      expectErrorAt(await act(account, purchase.id, 'release'), refusedAs('purchase_release_error'), { alone: true });
      await expectUnchanged(account, purchase);
    },
  );

  check(
    {
      id: 'PUR-REFUND-HOLD',
      title: 'refund/ of a purchase on hold (authorised, not captured) → 400 under __all__; it stays on hold, nothing refunded',
      cites: `${PAID_ONLY}; ${UNDER_ALL}`,
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, purchase } = await heldPurchase(api);
      expectErrorAt(await act(account, purchase.id, 'refund', {}), refusedAs('purchase_refund_error'), { alone: true });
      await expectUnchanged(account, purchase);
    },
  );

  // ---------------------------------------------------------------------- payments' events
  check(
    {
      id: 'PUR-PAID-EVENT',
      title: 'a payment at checkout records purchase.paid, the platform\'s name, after purchase.created',
      cites: `docs/fidelity.md#charge-errors: "purchase.paid or purchase.payment_failure event"; docs/behaviour.md#events: "purchase.paid"`,
      requires: ['payments', 'events'],
    },
    async ({ api }) => {
      const { account, purchase } = await paidPurchase(api);
      expect(await platformEventsOf(account, purchase.id)).toEqual(['purchase.created', 'purchase.paid']);
    },
  );

  check(
    {
      id: 'PUR-PAYMENT-FAILURE-EVENT',
      title: 'a payment declined at checkout leaves the purchase error, unpaid, its payment_method "" (the method that paid: none), and records purchase.payment_failure, the platform\'s name',
      cites: `docs/fidelity.md#charge-errors: "purchase.paid or purchase.payment_failure event", "the failed one error with its attempt"; docs/fidelity.md#purchase-statuses: "the method that paid"; docs/behaviour.md#events: "purchase.payment_failure"`,
      requires: ['payments', 'events'],
    },
    async ({ api }) => {
      const { account, purchase } = await newPurchase(api);
      const failed = await pay(account, purchase.id, { outcome: 'failure' });
      expect(failed).toMatchObject({ id: purchase.id, status: 'error', payment: null });
      expect(failed.transaction_data.attempts[0], 'the newest attempt').toMatchObject({ successful: false, error: { code: expect.any(String) } });
      expect(failed.transaction_data.payment_method, 'the platform\'s purchase.payment_failure: "" beside an attempt by fpx').toBe('');
      expect(await platformEventsOf(account, purchase.id)).toEqual(['purchase.created', 'purchase.payment_failure']);
    },
  );
});
