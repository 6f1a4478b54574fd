// What happens when a purchase's due passes unpaid, as the platform's list of purchase statuses
// defines it: `overdue` ("past its due, but payment for it is still possible"), or `expired` with
// `purchase.due_strict` ("payment for it isn't possible anymore"), for a purchase made by POST /purchases/
// and for one a billing made and invoiced. Each check runs in a simulator sandbox of its own, frozen at
// a chosen instant and moved with POST /sim/v1/clock/advance, to a second either side of the `due` the
// target answered (lib/time-scenes.ts): the hour a billing's due falls on is billing-sim's decision.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { ACTIVE_AT_ONCE, at, expectRejected, zoned } from '../lib/primitives.ts';
import {
  advanceTo,
  createPurchase,
  generated,
  getPurchase,
  pay,
  sandboxClient,
  sandboxSubscriber as subscribed,
} from '../lib/scenario.ts';
import { aroundDue } from '../lib/time-scenes.ts';

describe('time', () => {
  check(
    {
      id: 'TIME-OVERDUE',
      title: 'an unpaid Purchase whose due passes becomes overdue, and can still be paid (due Feb 1, 00:00 UTC)',
      cites:
        'docs/behaviour.md#overdue: "when due passes on the sandbox clock becomes overdue", "An overdue purchase can still be paid", "past its due, but payment for it is still possible"; ' +
        'openapi.yaml#/components/schemas/PurchaseFields/properties/status: "overdue (due passed unpaid, still payable)"',
      requires: ['clock', 'payments'],
    },
    async ({ api }) => {
      const { account, client } = await sandboxClient(api, '2026-01-30T12:00:00Z');
      const purchase = await createPurchase(account, client.id, { due: at('2026-02-01T00:00:00Z') });
      const { before, after } = await aroundDue(account, purchase);
      expect(before.status, 'a second before its due').toBe('created');
      expect(after.status, 'a second after its due').toBe('overdue');
      expect((await pay(account, purchase.id)).status, 'an overdue purchase can still be paid').toBe('paid');
    },
  );

  check(
    {
      id: 'TIME-OVERDUE-BILLED',
      title:
        'a billed Purchase invoiced and left sent becomes overdue when its due passes, and can still be paid ' +
        '(Asia/Kolkata, weekly from Dec 25, 2026: billed Jan 1, 2027, due a week later)',
      cites:
        'docs/behaviour.md#automatic-charges: "no usable token → status sent and an invoice e-mail"; ' +
        'docs/behaviour.md#overdue: "a subscription purchase left sent after its billing is one like any other", "past its due, but payment for it is still possible"; ' +
        'docs/behaviour.md#template-fields: "1 week means due a week after generation or invoice sending"',
      requires: ['clock', 'payments'],
    },
    async ({ api }) => {
      const weekly = { subscription_period: 1, subscription_period_units: 'weeks', subscription_due_period: 1, subscription_due_period_units: 'weeks' };
      const { account, client, template } = await subscribed(api, '2026-12-20T00:00:00Z', { ...ACTIVE_AT_ONCE, ...weekly, ...zoned('INR', 'Asia/Kolkata') }, '2026-12-25');
      // 23:30 of Jan 1 in Kolkata: the billing of that day has run, whatever its hour.
      await advanceTo(account, '2027-01-01T18:00:00Z');
      const [billed] = await generated(account, template.id, client.id);
      expect(billed, 'the billing of Jan 1 made a purchase').toBeDefined();
      expect([billed!.issued, billed!.status]).toEqual(['2027-01-01', 'sent']);
      const { before, after } = await aroundDue(account, billed!);
      expect(before.status, 'a second before its due').toBe('sent');
      expect(after.status, 'a second after its due').toBe('overdue');
      expect((await pay(account, billed!.id)).status, 'an overdue purchase can still be paid').toBe('paid');
    },
  );

  check(
    {
      id: 'TIME-EXPIRED',
      title:
        'a billed Purchase whose template has purchase.due_strict expires when its due passes unpaid, and can no longer be paid ' +
        '(Pacific/Auckland, monthly from Jan 31, 2028: billed Feb 29)',
      cites:
        'docs/behaviour.md#expired: "When due passes on such a purchase unpaid, it becomes expired instead of overdue", ' +
        '"past its due and payment for it isn\'t possible anymore (as a result of purchase.due_strict having been set to true)", ' +
        '"A template\'s purchase.due_strict is copied to the purchases it bills"; ' +
        'docs/behaviour.md#template-fields: "Month lengths are respected"',
      requires: ['clock', 'payments'],
    },
    async ({ api }) => {
      const strict = { purchase: { currency: 'NZD', timezone: 'Pacific/Auckland', due_strict: true, products: [{ name: 'Plan', price: 2990 }] } };
      const dueIn2Days = { subscription_due_period: 2, subscription_due_period_units: 'days' };
      const { account, client, template } = await subscribed(api, '2028-01-20T12:00:00Z', { ...ACTIVE_AT_ONCE, ...dueIn2Days, ...strict }, '2028-01-31');
      // 23:30 of Feb 29 in Auckland (UTC+13 in summer).
      await advanceTo(account, '2028-02-29T10:30:00Z');
      const [billed] = await generated(account, template.id, client.id);
      expect(billed, 'the billing of Feb 29 made a purchase').toBeDefined();
      expect([billed!.issued, billed!.status, billed!.purchase.due_strict]).toEqual(['2028-02-29', 'sent', true]);
      const { before, after } = await aroundDue(account, billed!);
      expect(before.status, 'a second before its due').toBe('sent');
      expect(after.status, 'a second after its due').toBe('expired');
      expectRejected(await account.api.sim.post(`/purchases/${billed!.id}/pay`, {}), 'paying an expired purchase');
      expect((await getPurchase(account, billed!.id)).status, 'a refused payment changes nothing').toBe('expired');
    },
  );
});
