// Money and time as a purchase answers them. The total: the platform publishes what each product
// field means — "Quantity of these products in invoice", "Total discount per this product in
// invoice" (the line's), "Percent of tax added to the price of this product" (docs/fidelity.md#decimal-strings)
// — so a total that only those rules decide is normative, and so is a fraction of a cent that is no
// half going to the nearest cent (money is whole minor units; truncating is a bug); which way an exact
// half goes it does not publish, so that is informative (billing-sim rounds each line, a half up).
// The instants: "Object creation time" and "Object last modification time" in Unix seconds, and on
// the platform's deliveries of one purchase `created_on` stays while `updated_on` and `paid_on` follow
// each step (docs/fidelity.md#purchase-statuses): checked against the target's own clock, exactly on a
// simulator sandbox frozen and moved by the check.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { at, DAY, expectStatus, nowSeconds, wallInstant } from '../lib/primitives.ts';
import { acted } from '../lib/purchase-actions.ts';
import { advanceTo, createPurchase, getPurchase, mainClient, pay, sandboxClient, type Purchase } from '../lib/scenario.ts';

const TOTALS = 'docs/fidelity.md#decimal-strings: "Quantity of these products in invoice", "Total discount per this product in invoice", "of the line, not of each unit", "Percent of tax added to the price of this product"';
const INSTANTS =
  'docs/fidelity.md#purchase-statuses: "Object creation time", "Object last modification time", "integer Unix seconds", ' +
  '"created_on never changes as it is paid, captured, refunded or cancelled, updated_on is the instant of its last change, and payment.paid_on that of its paid entry in status_history"; ' +
  'docs/behaviour.md#formats: "Instants (created_on, updated_on, due, paid_on, timestamp, an event\'s created_on, an e-mail\'s sent_on): integer Unix seconds"';

/**
 * How far a target's instants may stray from the clock the suite reads: none beyond a second from
 * the simulator's own clock, which the suite reads before and after; against a server without one,
 * the machines' clocks may differ by minutes, never by the factor of a thousand that milliseconds make.
 */
const skew = (hasClock: boolean) => (hasClock ? 1 : 900);

/** `value` is an integer Unix-seconds instant between `from` and `to` (inclusive, give or take `slack`). */
function expectInstant(value: unknown, from: number, to: number, slack: number, what: string): void {
  expect(Number.isInteger(value), `${what} must be an integer (Unix seconds): ${String(value)}`).toBe(true);
  expect(value as number, `${what}: Unix seconds near the target's clock (${from}…${to})`).toBeGreaterThanOrEqual(from - slack);
  expect(value as number, `${what}: Unix seconds near the target's clock (${from}…${to})`).toBeLessThanOrEqual(to + slack);
}

describe('purchases', () => {
  // ------------------------------------------------------------------------------------ totals
  check(
    {
      id: 'PUR-TOTAL-LINES',
      title: 'total is the products\' sum: price × quantity, less the line\'s discount (not one per unit), plus tax_percent of the price',
      cites: `${TOTALS}; openapi.yaml#/components/schemas/PurchaseDetailsFields/properties/total`,
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      // Whole cents throughout, and the taxed line has no discount: no rounding, nor the order of the two, decides the total.
      const products = [
        { name: 'Seats', price: 1000, quantity: 3 },
        { name: 'Licences', price: 1000, quantity: 3, discount: 500 },
        { name: 'Support', price: 1000, tax_percent: 20 },
      ];
      const purchase = await createPurchase(account, client.id, { purchase: { currency: 'EUR', products } });
      // 3 × 1000 = 3000; 3000 − 500 = 2500 (500 off each unit would leave 1500); 1000 + 20 % = 1200 (tax ignored: 1000).
      expect(purchase.purchase.total, 'the total of 3000 + 2500 + 1200').toBe(6700);
      expect((await getPurchase(account, purchase.id)).purchase.total, 'the total read back').toBe(6700);
    },
  );

  check(
    {
      id: 'PUR-TOTAL-NEAREST-CENT',
      title: 'a fraction of a cent from a quantity or a tax makes a total in whole cents, the nearest (not truncated, floored or raised)',
      // Which way an exact half goes, and whether lines are rounded one by one, the platform does not
      // publish (PUR-TOTAL-ROUNDING); these fractions are no halves, and rounding each line or only the
      // sum gives the same total. Truncating, flooring or raising any of them does not.
      cites: `${TOTALS}; docs/fidelity.md#decimal-strings: "amounts are integer minor units", "a fraction of a minor unit that is not a half goes to the nearest minor unit"`,
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const products = [
        { name: 'Hours', price: 999, quantity: 1.25 }, // 1248.75 → 1249 (floored: 1248)
        { name: 'Seats', price: 1001, quantity: 3, tax_percent: 6 }, // 3003 + 180.18 → 3183 (raised: 3184)
        { name: 'Fee', price: 999, tax_percent: 7.5 }, // 999 + 74.925 → 1074 (tax floored: 1073)
      ];
      const purchase = await createPurchase(account, client.id, { purchase: { currency: 'EUR', products } });
      // 5505.855 in all: 5506 whether each line is rounded or only the sum.
      expect(purchase.purchase.total, 'the total of 1248.75 + 3183.18 + 1073.925, in whole cents').toBe(5506);
    },
  );

  check(
    {
      id: 'PUR-TOTAL-ROUNDING',
      title: 'a fraction of a cent, from a quantity or a tax, is rounded per line to the nearest cent, a half up',
      // The platform publishes no rounding rule (a Django service's Decimal would round a half to even): billing-sim's choice.
      cites:
        'docs/fidelity.md#decimal-strings: "which way an exact half of a minor unit goes", "each line rounded to the nearest minor unit, a half up"; ' +
        'docs/behaviour.md#formats: "each line plus round(that line × tax_percent / 100)"',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const products = [
        { name: 'Hours', price: 999, quantity: 1.25 }, // 1248.75 → 1249 (truncated: 1248)
        { name: 'Seats', price: 1001, quantity: 3, tax_percent: 6 }, // 3003 + 180.18 → 3183 (rounded up: 3184)
        { name: 'Half', price: 333, quantity: 0.5 }, // 166.5 → 167 (a half to even: 166)
        { name: 'Levy', price: 1000, tax_percent: 2.25 }, // 1000 + 22.5 → 1023 (a half to even: 1022)
        { name: 'Fee', price: 999, tax_percent: 7.5 }, // 999 + 74.925 → 1074
      ];
      const purchase = await createPurchase(account, client.id, { purchase: { currency: 'EUR', products } });
      expect(purchase.purchase.total).toBe(1249 + 3183 + 167 + 1023 + 1074);
    },
  );

  // ---------------------------------------------------------------------------------- instants
  check(
    {
      id: 'PUR-INSTANTS-UNIX-SECONDS',
      title: 'created_on, updated_on, status_history timestamps and, once paid, payment.paid_on are Unix seconds on the target\'s clock; created_on ≤ updated_on, and created_on stays',
      cites: INSTANTS,
    },
    async (ctx) => {
      const slack = skew(ctx.target.capabilities.clock);
      const { account, client } = await mainClient(ctx.api);
      const before = await nowSeconds(ctx);
      const purchase = await createPurchase(account, client.id);
      const after = await nowSeconds(ctx);
      const created = purchase.created_on as number;
      expectInstant(created, before, after, slack, 'created_on');
      expectInstant(purchase.updated_on, created, after, slack, 'updated_on (not before created_on)');
      expectInstant(purchase.status_history[0]!.timestamp, before, after, slack, 'status_history[0].timestamp');
      if (!ctx.target.capabilities.payments) return;
      const paid = await pay(account, purchase.id);
      const end = await nowSeconds(ctx);
      expect(paid.created_on, 'created_on once paid').toBe(created);
      expectInstant(paid.updated_on, purchase.updated_on as number, end, slack, 'updated_on once paid (not before the last)');
      expectInstant(paid.payment!.paid_on, created, end, slack, 'payment.paid_on');
    },
  );

  check(
    {
      id: 'PUR-INSTANTS-ON-ACTIONS',
      title: 'on a frozen clock moved a day at a time: created_on stays, updated_on is the instant of each payment, refund or cancel, paid_on that of the payment, issued today in purchase.timezone',
      cites: `${INSTANTS}; docs/fidelity.md#purchase-statuses: "If not provided, will be generated as the current date in purchase.timezone at the moment of Purchase's creation"`,
      requires: ['clock', 'payments'],
    },
    async ({ api }) => {
      // 11:30 UTC on Jan 30 is already Jan 31 in Auckland.
      const start = '2026-01-30T11:30:00Z';
      const [t0, t1, t2] = [at(start), at(start) + DAY, at(start) + 2 * DAY];
      const { account, client } = await sandboxClient(api, start);
      const fields = { due: t0 + 30 * DAY, purchase: { currency: 'NZD', timezone: 'Pacific/Auckland', products: [{ name: 'Plan', price: 1200 }] } };
      const purchase = await createPurchase(account, client.id, fields);
      const other = await createPurchase(account, client.id, fields);
      expect(purchase).toMatchObject({ created_on: t0, updated_on: t0, issued: '2026-01-31', due: t0 + 30 * DAY });
      await advanceTo(account, new Date(t1 * 1000).toISOString());
      const paid = await pay(account, purchase.id);
      expect(paid).toMatchObject({ created_on: t0, updated_on: t1, payment: { paid_on: t1 }, issued: '2026-01-31', due: t0 + 30 * DAY });
      expect(paid.status_history.map((entry) => entry.timestamp)).toEqual(paid.status_history.map((_, i) => (i === 0 ? t0 : t1)));
      const cancelled = expectStatus(await account.api.post(`/purchases/${other.id}/cancel/`), 200, 'cancel') as Purchase;
      expect(cancelled, 'the cancelled purchase').toMatchObject({ created_on: t0, updated_on: t1 });
      await advanceTo(account, new Date(t2 * 1000).toISOString());
      await acted(account, purchase.id, 'refund', { amount: 200 });
      expect(await getPurchase(account, purchase.id), 'after a refund a day later').toMatchObject({ created_on: t0, updated_on: t2, payment: { paid_on: t1 } });
    },
  );

  check(
    {
      id: 'PUR-DUE-ISSUED-AS-GIVEN',
      title: 'due (Unix seconds) and issued (a date) sent with a purchase are answered as sent, and read back so',
      cites: `docs/fidelity.md#purchase-statuses: "When the payment is due for this Purchase", "kept as sent"; docs/behaviour.md#field-names`,
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const due = wallInstant(45);
      const purchase = await createPurchase(account, client.id, { due, issued: '2030-05-17' });
      expect(purchase).toMatchObject({ due, issued: '2030-05-17' });
      expect(await getPurchase(account, purchase.id)).toMatchObject({ due, issued: '2030-05-17' });
    },
  );
});
