// The real platform's money actions on a purchase: capture/ and release/ of a payment held with
// skip_capture, refund/ in full or in part, and mark_as_paid/. The spec names none of them; the
// platform's API reference and published deliveries state what each may start from and ends in
// (docs/fidelity.md#purchase-actions), so those checks are normative; what only billing-sim decides
// (a partial capture's fields, mark_as_paid/'s refusals) is informative. A purchase reaches `hold` or
// `paid` only at the simulated checkout, so those checks require 'payments'; a refusal of an action on
// a new purchase and mark_as_paid/ need nothing beyond the API. The platform takes capture, release
// and refund through a pending state (`pending_capture`, …, as its published deliveries show): a
// target may answer it and end the step seconds later, so the checks read the purchase once the
// step has ended and judge its history without the pending states.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { expectError, expectErrorAt, nowSeconds, type Placement } from '../lib/primitives.ts';
import {
  act,
  acted,
  actedAndSettled,
  eventsOf,
  expectUnchanged,
  heldPurchase,
  newPurchase,
  paidPurchase,
  platformEventsOf,
  settledHistory,
  TOTAL,
} from '../lib/purchase-actions.ts';
import { getPurchase, type Purchase } from '../lib/scenario.ts';

const ACTIONS = 'docs/fidelity.md#purchase-actions';
const CAPTURE = `${ACTIONS}: "Capture funds reserved for a Purchase (status == hold)", "By default the full amount is captured"; openapi.yaml#capturePurchase: "a purchase on hold (paid with skip_capture true) becomes paid"`;
const RELEASE = `${ACTIONS}: "Release funds reserved for a Purchase (status == hold)", "an updated Purchase with status = released"; openapi.yaml#releasePurchase: "a purchase on hold becomes released"`;
const REFUND = `${ACTIONS}: "Refund a paid purchase", "Optional amount argument can be included in the request body to request a partial refund", "within refundable_amount"; openapi.yaml#refundPurchase: "Refunding all that is left makes the purchase refunded; less leaves it paid with refundable_amount lowered"`;
/** Where the platform's plugin reads a refused action: under __all__. */
const REFUSED_UNDER_ALL = `${ACTIONS}: "the plugin reads a refund's and a capture's refusal under __all__"`;
const MARK = `openapi.yaml#markPurchaseAsPaid: "becomes paid, with marked_as_paid true"; ${ACTIONS}`;

// Where a refused action's error may be: under `__all__` with the platform's code of the action,
// where its WooCommerce plugin reads it, or where billing-sim answered it before (`invalid_state`,
// or `max_value` on `amount`). The platform publishes the codes of an acquirer's refusal only, so both are right.
const notOnHold = (code: string): Placement[] => [['__all__', code], ['__all__', 'invalid_state']];
const CAPTURE_REFUSED = notOnHold('purchase_capture_error');
const RELEASE_REFUSED = notOnHold('purchase_release_error');
const REFUND_REFUSED = notOnHold('purchase_refund_error');
const CAPTURE_TOO_MUCH: Placement[] = [['__all__', 'purchase_capture_error'], ['amount', 'max_value']];
const REFUND_TOO_MUCH: Placement[] = [['__all__', 'purchase_refund_error'], ['amount', 'max_value']];

/** A purchase's money fields after a payment of `amount` of which `refunded` went back. */
const money = (amount: number, refunded = 0) => ({
  payment: expect.objectContaining({ amount, is_outgoing: false, payment_type: 'purchase' }),
  refundable_amount: amount - refunded,
  refund_availability: amount > refunded ? 'all' : 'none',
});

describe('purchases', () => {
  // ------------------------------------------------------------------------- before any action
  check(
    {
      id: 'PUR-PLATFORM-FIELDS',
      title: 'a new purchase has the platform\'s transaction_data (no attempts), refundable_amount 0, refund_availability none, marked_as_paid false',
      cites:
        'docs/fidelity.md#objects: "every field of the platform\'s published objects"; docs/fidelity.md#purchase-statuses: "0 while unpaid"; ' +
        'openapi.yaml#/components/schemas/PurchaseFields/properties/refundable_amount: "0 while unpaid"; openapi.yaml#/components/schemas/TransactionData',
    },
    async ({ api }) => {
      const { purchase } = await newPurchase(api);
      // Nothing tried yet: the platform's published purchase.created answers "" for the method, older answers null.
      expect([null, '']).toContain(purchase.transaction_data.payment_method);
      expect(purchase).toMatchObject({
        transaction_data: { attempts: [] },
        refundable_amount: 0,
        refund_availability: 'none',
        marked_as_paid: false,
      });
    },
  );

  // ----------------------------------------------------------------------------------- capture
  check(
    { id: 'PUR-CAPTURE-FULL', title: 'capture/ of a held purchase without an amount → 200 paid, the whole total captured', cites: CAPTURE, requires: ['payments'] },
    async ({ api }) => {
      const { account, purchase } = await heldPurchase(api);
      // The platform may answer pending_capture first (its asynchronous step); the purchase then becomes paid.
      const { purchase: captured } = await actedAndSettled(account, purchase.id, 'capture', {});
      expect(captured).toMatchObject({ id: purchase.id, status: 'paid', ...money(TOTAL) });
      expect(settledHistory(captured)).toEqual(['created', 'hold', 'paid']);
    },
  );

  check(
    {
      id: 'PUR-CAPTURE-PARTIAL',
      title: 'capture/ {amount} of part of a held purchase → 200 paid with that amount; more than the total → 400 __all__ purchase_capture_error (or amount max_value)',
      // The platform takes an amount; what it answers for a part, and for more than the total, it does not publish.
      cites: `${CAPTURE}; openapi.yaml#capturePurchase: "More than the total → 400 purchase_capture_error under __all__"`,
      level: 'informative',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, purchase } = await heldPurchase(api);
      expectErrorAt(await act(account, purchase.id, 'capture', { amount: TOTAL + 1 }), CAPTURE_TOO_MUCH, { alone: true });
      await expectUnchanged(account, purchase);
      const { purchase: captured } = await actedAndSettled(account, purchase.id, 'capture', { amount: 500 });
      expect(captured).toMatchObject({ status: 'paid', ...money(500) });
    },
  );

  check(
    {
      id: 'PUR-CAPTURE-ONLY-HOLD',
      title: 'capture/ and release/ of a purchase that is not on hold (a new one) → 400 under __all__ (purchase_capture_error / purchase_release_error, or invalid_state); it stays created',
      cites: `${CAPTURE}; ${RELEASE}; ${REFUSED_UNDER_ALL}`,
    },
    async ({ api }) => {
      const { account, purchase } = await newPurchase(api);
      for (const action of ['capture', 'release'] as const) {
        expectErrorAt(await act(account, purchase.id, action, action === 'capture' ? {} : undefined), action === 'capture' ? CAPTURE_REFUSED : RELEASE_REFUSED, { alone: true });
      }
      await expectUnchanged(account, purchase);
    },
  );

  check(
    {
      id: 'PUR-CAPTURE-EVENTS',
      title: 'a capture records purchase.captured, then purchase.paid (after purchase.pending_capture, if the target sends it)',
      cites: `${ACTIONS}: "events purchase.captured and purchase.paid"; openapi.yaml#capturePurchase: "Events purchase.captured, then purchase.paid"`,
      requires: ['payments', 'events'],
    },
    async ({ api }) => {
      const { account, purchase } = await heldPurchase(api);
      await actedAndSettled(account, purchase.id, 'capture', {});
      expect(await platformEventsOf(account, purchase.id)).toEqual(['purchase.created', 'purchase.hold', 'purchase.captured', 'purchase.paid']);
    },
  );

  // ----------------------------------------------------------------------------------- release
  check(
    { id: 'PUR-RELEASE', title: 'release/ of a held purchase → 200 released, nothing paid; it can no longer be captured', cites: `${RELEASE}; ${REFUSED_UNDER_ALL}`, requires: ['payments'] },
    async ({ api }) => {
      const { account, purchase } = await heldPurchase(api);
      const { purchase: released } = await actedAndSettled(account, purchase.id, 'release');
      expect(released).toMatchObject({ id: purchase.id, status: 'released', refundable_amount: 0 });
      expect(settledHistory(released)).toEqual(['created', 'hold', 'released']);
      expectErrorAt(await act(account, purchase.id, 'capture', {}), CAPTURE_REFUSED, { alone: true });
      expect(await getPurchase(account, purchase.id)).toEqual(released);
    },
  );

  check(
    {
      id: 'PUR-RELEASE-EVENT',
      title: 'a release records purchase.released (after purchase.pending_release, if the target sends it)',
      cites: `${RELEASE}; ${ACTIONS}: "event purchase.released"`,
      requires: ['payments', 'events'],
    },
    async ({ api }) => {
      const { account, purchase } = await heldPurchase(api);
      await actedAndSettled(account, purchase.id, 'release');
      expect(await platformEventsOf(account, purchase.id)).toEqual(['purchase.created', 'purchase.hold', 'purchase.released']);
    },
  );

  // ------------------------------------------------------------------------------------ refund
  check(
    {
      id: 'PUR-REFUND-FULL',
      title: 'refund/ without an amount → 200 a Payment (refund, outgoing, related_to the purchase); the purchase is refunded',
      cites: `${REFUND}; ${ACTIONS}: "Will generate a Payment object and return it"; openapi.yaml#refundPurchase: "Answers the Payment the refund made"; openapi.yaml#/components/schemas/Payment`,
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, purchase } = await paidPurchase(api);
      const { answer: refund, purchase: after } = await actedAndSettled(account, purchase.id, 'refund', {});
      expect(refund).toMatchObject({
        type: 'payment',
        brand_id: purchase.brand_id,
        payment: { is_outgoing: true, payment_type: 'refund', amount: TOTAL, currency: 'EUR' },
        related_to: { type: 'purchase', id: purchase.id },
      });
      expect(refund.id).not.toBe(purchase.id);
      expect(after).toMatchObject({ status: 'refunded', refundable_amount: 0, refund_availability: 'none' });
      expectErrorAt(await act(account, purchase.id, 'refund', {}), REFUND_REFUSED, { alone: true });
    },
  );

  check(
    {
      id: 'PUR-REFUND-PARTIAL',
      title: 'refund/ {amount} of part → the purchase stays paid with refundable_amount lowered; more than is left → 400 __all__ purchase_refund_error (or amount max_value), nothing changes; the rest → refunded',
      cites: `${REFUND}; ${REFUSED_UNDER_ALL}; openapi.yaml#refundPurchase: "more → 400 purchase_refund_error under __all__"`,
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, purchase } = await paidPurchase(api);
      const { answer: refund, purchase: partly } = await actedAndSettled(account, purchase.id, 'refund', { amount: 500 });
      expect(refund.payment).toMatchObject({ is_outgoing: true, payment_type: 'refund', amount: 500 });
      expect(partly).toMatchObject({ status: 'paid', ...money(TOTAL, 500) });
      expectErrorAt(await act(account, purchase.id, 'refund', { amount: TOTAL - 500 + 1 }), REFUND_TOO_MUCH, { alone: true });
      await expectUnchanged(account, partly);
      expect((await actedAndSettled(account, purchase.id, 'refund', { amount: TOTAL - 500 })).purchase).toMatchObject({ status: 'refunded', refundable_amount: 0 });
    },
  );

  check(
    {
      id: 'PUR-REFUND-ABOVE-PAID',
      title: 'refund/ {amount} above the amount paid → 400 under __all__ (purchase_refund_error, or amount max_value); the purchase stays paid with all of it refundable, and no refund is recorded',
      cites: `${REFUND}; ${REFUSED_UNDER_ALL}`,
      requires: ['payments'],
    },
    async ({ api, target }) => {
      const { account, purchase } = await paidPurchase(api);
      expectErrorAt(await act(account, purchase.id, 'refund', { amount: TOTAL + 1 }), REFUND_TOO_MUCH, { alone: true });
      await expectUnchanged(account, purchase);
      if (target.capabilities.events) expect(await platformEventsOf(account, purchase.id), 'the events of the purchase').toEqual(['purchase.created', 'purchase.paid']);
    },
  );

  check(
    {
      id: 'PUR-REFUND-UNPAID',
      title: 'refund/ of an unpaid purchase → 400 under __all__ (purchase_refund_error, or invalid_state); it stays created',
      cites: `${ACTIONS}: "Refund a paid purchase"; ${REFUSED_UNDER_ALL}; openapi.yaml#refundPurchase: "Only a paid purchase can be refunded (else 400 purchase_refund_error)"`,
    },
    async ({ api }) => {
      const { account, purchase } = await newPurchase(api);
      expectErrorAt(await act(account, purchase.id, 'refund', {}), REFUND_REFUSED, { alone: true });
      await expectUnchanged(account, purchase);
    },
  );

  check(
    {
      id: 'PUR-REFUND-EVENT',
      title: 'a refund is recorded as payment.refunded of the Payment it made',
      cites: `${ACTIONS}: "event payment.refunded, whose payload is a Payment"; openapi.yaml#refundPurchase: "sends it as the event payment.refunded"`,
      requires: ['payments', 'events'],
    },
    async ({ api }) => {
      const { account, purchase } = await paidPurchase(api);
      const { answer: refund } = await actedAndSettled(account, purchase.id, 'refund', {});
      expect(await eventsOf(account, refund.id)).toEqual(['payment.refunded']);
    },
  );

  // ------------------------------------------------------------------------------ mark_as_paid
  check(
    {
      id: 'PUR-MARK-AS-PAID',
      title: 'mark_as_paid/ {paid_on} of an unpaid purchase → 200 paid, marked_as_paid true, paid_on kept, nothing refundable',
      // The platform publishes the action and its paid_on; that nothing is refundable, and the second call's refusal, are billing-sim's.
      cites: `${MARK}; openapi.yaml#markPurchaseAsPaid: "Nothing can be refunded (refundable_amount 0)"`,
      level: 'informative',
    },
    async (ctx) => {
      const { account, purchase } = await newPurchase(ctx.api);
      const paidOn = (await nowSeconds(ctx)) - 3_600;
      const marked = (await acted(account, purchase.id, 'mark_as_paid', { paid_on: paidOn })) as Purchase;
      expect(marked).toMatchObject({ id: purchase.id, status: 'paid', marked_as_paid: true, refundable_amount: 0, refund_availability: 'none' });
      expect(marked.payment).toMatchObject({ amount: TOTAL, paid_on: paidOn });
      expect(await getPurchase(account, purchase.id)).toEqual(marked);
      expectErrorAt(await act(account, purchase.id, 'refund', {}), REFUND_REFUSED, { alone: true });
      expectError(await act(account, purchase.id, 'mark_as_paid', {}), '__all__', 'invalid_state', { alone: true });
      await expectUnchanged(account, marked);
    },
  );

  check(
    {
      id: 'PUR-MARK-AS-PAID-FUTURE',
      title: 'mark_as_paid/ with paid_on after now → 400 paid_on max_value; the purchase stays unpaid',
      cites: 'openapi.yaml#markPurchaseAsPaid: "not after now on the sandbox clock, else 400 max_value"',
      level: 'informative',
    },
    async (ctx) => {
      const { account, purchase } = await newPurchase(ctx.api);
      expectError(await act(account, purchase.id, 'mark_as_paid', { paid_on: (await nowSeconds(ctx)) + 86_400 }), 'paid_on', 'max_value', { alone: true });
      await expectUnchanged(account, purchase);
    },
  );
});
