// Time scenarios that hold billing back or add to it: a paused subscriber or template, the ad-hoc
// first deduction, and the mandate's expiry (the spec's "date on which the bank should expire the
// mandate"; whether a billing on that very date happens is billing-sim's reading). Each check runs in a
// simulator sandbox of its own, frozen at a chosen instant and moved with POST /sim/v1/clock/advance; a
// normative check pins the day of a billing, not its hour (scenario.ts, `expectBilledOn`).

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { ACTIVE_AT_ONCE, expectStatus, expectSuccess, subscriberBody, zoned } from '../lib/primitives.ts';
import {
  advanceTo,
  expectBilledOn,
  generated,
  getSubscriber,
  issuedBy,
  makeClient,
  outbox,
  patchSubscriber,
  patchTemplate,
  purchasesOf,
  sandboxSubscriber as subscribed,
  sandboxTemplate as setup,
  saveToken,
  subscribe,
  subscribersOf,
} from '../lib/scenario.ts';

/** Products with tax and a discount: total (2990 + 598 tax) + (500 − 100) = 3988. */
const TAXED = {
  purchase: {
    currency: 'EUR',
    products: [
      { name: 'Monthly membership', price: 2990, tax_percent: 20 },
      { name: 'Locker', price: 500, discount: 100 },
    ],
  },
};

describe('time', () => {
  // ------------------------------------------------------------------------------------ pauses
  check(
    {
      id: 'TIME-PAUSE-EXAMPLE',
      title: '"paused a day before the billing date and unpaused a day after it; the next billing, a month minus one day later, happens as usual"',
      cites: 'docs/behaviour.md#pause: "Dates are never shifted: paused the day before a billing date and resumed the day after, that date is skipped and the next billing is one period after it"',
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client, template, subscriber } = await subscribed(api, '2026-02-01T12:00:00Z', ACTIVE_AT_ONCE, '2026-02-05');
      // Billing dates: Mar 5, Apr 5, …
      await advanceTo(account, '2026-03-04T12:00:00Z');
      expectSuccess(await patchSubscriber(account, template.id, subscriber.id, { status: 'subscription_paused' }), 'pause');
      expect(await issuedBy(account, template.id, client.id, '2026-03-06T12:00:00Z')).toEqual([]);
      expectSuccess(await patchSubscriber(account, template.id, subscriber.id, { status: 'active' }), 'resume');
      await expectBilledOn(account, template.id, client.id, '2026-04-05');
    },
  );

  check(
    {
      id: 'TIME-PAUSE-NO-INVOICES',
      title: 'while paused "no invoices sent"; after resuming, the next billing e-mails its invoice',
      cites: 'docs/behaviour.md#pause: "While a subscriber is subscription_paused", "its billing dates pass without purchases or e-mails"',
      requires: ['clock', 'events'],
    },
    async ({ api }) => {
      const { account, client, template, subscriber } = await subscribed(api, '2026-02-01T12:00:00Z', ACTIVE_AT_ONCE, '2026-02-05');
      expectSuccess(await patchSubscriber(account, template.id, subscriber.id, { status: 'subscription_paused' }), 'pause');
      await advanceTo(account, '2026-03-06T12:00:00Z');
      expect(await outbox(account)).toEqual([]);
      expectSuccess(await patchSubscriber(account, template.id, subscriber.id, { status: 'active' }), 'resume');
      await advanceTo(account, '2026-04-05T23:59:59Z');
      const [billed] = await generated(account, template.id, client.id);
      expect((await outbox(account)).map((m) => [m.kind, m.to, m.purchase_id])).toEqual([['invoice', client.email, billed!.id]]);
    },
  );

  check(
    {
      id: 'TIME-TEMPLATE-PAUSED',
      title: 'subscription_paused true on the template "Pauses the whole subscription": no subscriber is billed; unpaused, billing follows the normal schedule',
      cites:
        'docs/behaviour.md#template-fields: "pauses the whole subscription: the same effect as setting status subscription_paused on every launched subscriber"; ' +
        'docs/behaviour.md#pause: "or its template has subscription_paused: true"',
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api, '2026-02-01T12:00:00Z', ACTIVE_AT_ONCE);
      const other = await makeClient(account);
      await subscribe(account, template.id, subscriberBody(client.id, '2026-02-05'));
      await subscribe(account, template.id, subscriberBody(other.id, '2026-02-05'));
      await advanceTo(account, '2026-03-04T12:00:00Z');
      expectSuccess(await patchTemplate(account, template.id, { subscription_paused: true }), 'pause the template');
      await advanceTo(account, '2026-03-06T12:00:00Z');
      expect([...(await purchasesOf(account, client.id)), ...(await purchasesOf(account, other.id))]).toEqual([]);
      expectSuccess(await patchTemplate(account, template.id, { subscription_paused: false }), 'unpause the template');
      await advanceTo(account, '2026-04-05T23:59:59Z');
      expect((await generated(account, template.id, client.id)).map((p) => p.issued)).toEqual(['2026-04-05']);
      expect((await generated(account, template.id, other.id)).map((p) => p.issued)).toEqual(['2026-04-05']);
    },
  );

  check(
    {
      id: 'TIME-TEMPLATE-PAUSED-STATUS',
      title: 'pausing the template does not rewrite its subscribers\' status',
      cites:
        `docs/behaviour.md#pause: "The template flag does not change the subscribers' status" ` +
        "(billing-sim's reading: the spec gives the flag the effect of pausing every subscriber and says nothing of their status)",
      level: 'informative',
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, template } = await subscribed(api, '2026-02-01T12:00:00Z', ACTIVE_AT_ONCE, '2026-02-05');
      expect(expectStatus(await patchTemplate(account, template.id, { subscription_paused: true }), 200, 'pause the template')).toMatchObject({ subscription_paused: true });
      await advanceTo(account, '2026-03-06T00:00:00Z');
      expect((await subscribersOf(account, template.id)).map((s) => [s.status, s.number_of_billing_cycles_passed])).toEqual([['active', 2]]);
    },
  );

  // --------------------------------------------------------------------------- first deduction
  check(
    {
      id: 'TIME-FIRST-DEDUCTION',
      title: 'subscription_first_deduction_date: one collection on that date of exactly subscription_first_deduction_amount, "not changed by template modifiers such as tax_percent"; the cycle starts on subscription_deduction_date',
      cites:
        'docs/behaviour.md#subscriber-fields: "the exact amount collected, not changed by template modifiers such as tax_percent"; ' +
        'docs/behaviour.md#first-deduction: "one extra purchase is created at 00:00 of f", "with no tax or discount, so its total is exactly a"',
      requires: ['clock'],
    },
    async ({ api }) => {
      const firstDeduction = { subscription_first_deduction_date: '2026-02-03', subscription_first_deduction_amount: 1234 };
      const { account, client, template } = await subscribed(api, '2026-01-30T12:00:00Z', { ...ACTIVE_AT_ONCE, ...TAXED }, '2026-02-28', firstDeduction);
      expect(template.purchase.total).toBe(3988);
      expect(await issuedBy(account, template.id, client.id, '2026-02-02T23:59:59Z')).toEqual([]);
      await advanceTo(account, '2026-02-03T23:59:59Z');
      const [first] = await generated(account, template.id, client.id);
      expect([first!.issued, first!.purchase.total, first!.purchase.currency]).toEqual(['2026-02-03', 1234, 'EUR']);
      await advanceTo(account, '2026-03-28T23:59:59Z');
      expect((await generated(account, template.id, client.id)).map((p) => [p.issued, p.purchase.total])).toEqual([
        ['2026-02-03', 1234],
        ['2026-03-28', 3988],
      ]);
    },
  );

  check(
    {
      id: 'TIME-FIRST-DEDUCTION-CHARGED',
      title: 'the first deduction is charged like a billing: a saved card pays exactly the amount',
      cites: 'docs/behaviour.md#first-deduction: "It is charged like a billing"; docs/behaviour.md#automatic-charges: "A purchase created by a billing or a first deduction is charged at once"',
      requires: ['clock', 'payments'],
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api, '2026-01-30T12:00:00Z', { ...ACTIVE_AT_ONCE, ...TAXED });
      await saveToken(account, client.id);
      await subscribe(account, template.id, subscriberBody(client.id, '2026-02-28', { subscription_first_deduction_date: '2026-02-05', subscription_first_deduction_amount: 700 }));
      await advanceTo(account, '2026-02-05T23:59:59Z');
      const [first] = await generated(account, template.id, client.id);
      expect(first).toMatchObject({ issued: '2026-02-05', status: 'paid', payment: { amount: 700, currency: 'EUR' } });
    },
  );

  // ---------------------------------------------------------------------------- mandate expiry
  check(
    {
      id: 'TIME-MANDATE-EXPIRY',
      title:
        'no billing after mandate_expiry_date, and subscription_billing_scheduled_on becomes null once none is left ' +
        '(America/Los_Angeles, monthly from Nov 30, 2026, mandate to Feb 10, 2027: billed Dec 30 and Jan 30 only)',
      cites:
        'docs/behaviour.md#mandate-expiry: "the date on which the bank should expire the mandate", "No billing happens on a date after it, and subscription_billing_scheduled_on", "becomes null once none is left"; ' +
        'docs/fidelity.md#subscribers: "If not null, reports the date when the next billing is scheduled for this client"',
      requires: ['clock'],
    },
    async ({ api }) => {
      const zone = { ...ACTIVE_AT_ONCE, ...zoned('USD', 'America/Los_Angeles') };
      const { account, client, template, subscriber } = await subscribed(api, '2026-11-20T12:00:00Z', zone, '2026-11-30', { mandate_expiry_date: '2027-02-10' });
      expect(subscriber.subscription_billing_scheduled_on, 'charged at period end: the first billing is a period after the launch').toBe('2026-12-30');
      await expectBilledOn(account, template.id, client.id, '2027-01-30', ['2026-12-30']);
      // The next billing date, Feb 28, is after the mandate's expiry.
      expect((await getSubscriber(account, template.id, subscriber.id)).subscription_billing_scheduled_on, 'no billing is left before the mandate expires').toBeNull();
      expect(await issuedBy(account, template.id, client.id, '2027-04-01T00:00:00Z')).toEqual(['2026-12-30', '2027-01-30']);
    },
  );

  check(
    {
      id: 'TIME-MANDATE-EXPIRY-ON-DATE',
      title: 'a billing on mandate_expiry_date itself still happens; after it subscription_billing_scheduled_on is null',
      cites: `docs/behaviour.md#mandate-expiry: "A billing on the expiry date itself still happens: billing-sim's reading, since the spec does not say whether the mandate holds on its last day"`,
      level: 'informative',
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client, template, subscriber } = await subscribed(api, '2026-02-01T12:00:00Z', ACTIVE_AT_ONCE, '2026-02-05', { mandate_expiry_date: '2026-04-05' });
      expect(await issuedBy(account, template.id, client.id, '2026-04-04T12:00:00Z')).toEqual(['2026-03-05']);
      expect((await getSubscriber(account, template.id, subscriber.id)).subscription_billing_scheduled_on).toBe('2026-04-05');
      expect(await issuedBy(account, template.id, client.id, '2026-08-01T00:00:00Z')).toEqual(['2026-03-05', '2026-04-05']);
      expect((await getSubscriber(account, template.id, subscriber.id)).subscription_billing_scheduled_on).toBeNull();
    },
  );
});
