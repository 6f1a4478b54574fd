// The spec's time scenarios, run in simulator sandboxes frozen at a chosen instant and moved with
// POST /sim/v1/clock/advance: trials, month ends, pauses, first deductions, automatic charges,
// "today plus 4 days" across time zones, and (DESIGN.md §4) mandate expiry, overdue marking and
// the execution of ONEDAY/TWODAY collections. Each check has a sandbox of its own.
//
// A normative check pins the day a billing happens, not the hour: it advances to the last second
// of the day before (nothing yet) and to the last second of the day itself (the Purchase, issued
// that day). That a billing runs at 00:00 in the template's time zone is DESIGN.md §4.4's decision,
// checked by informative checks.

import { describe, expect } from 'vitest';
import { check, type CheckSpec } from '../lib/check.ts';
import type { ApiClient } from '../lib/client.ts';
import {
  ACTIVE_AT_ONCE,
  addDays,
  at,
  DAY,
  expectStatus,
  expectSuccess,
  subscriberBody,
} from '../lib/primitives.ts';
import {
  addSubscriber,
  advanceTo,
  charge,
  createPurchase,
  generated,
  getPurchase,
  getSubscriber,
  makeClient,
  makeTemplate,
  outbox,
  patchSubscriber,
  patchTemplate,
  pay,
  purchasesOf,
  refusal,
  sandbox,
  saveToken,
  subscribe,
  subscribersOf,
  typed,
  type Account,
  type Purchase,
} from '../lib/scenario.ts';

const SUBSCRIPTION_FIELDS = 'Spec, BillingTemplate (request body shape)';
const STATES = 'Spec, States and transitions: BillingTemplateClient status';

/** A sandbox frozen at `now` with one client and one subscription template built from `overrides`. */
async function setup(api: ApiClient, now: string, overrides: Record<string, unknown> = {}) {
  const account = await sandbox(api, now);
  const client = await makeClient(account);
  const template = await makeTemplate(account, overrides);
  return { account, client, template };
}

/** Advances to `iso`, then answers the `issued` days of the template's purchases for the client, oldest first. */
async function issuedBy(account: Account, templateId: string, clientId: string, iso: string): Promise<string[]> {
  await advanceTo(account, iso);
  return (await generated(account, templateId, clientId)).map((p) => p.issued!);
}

/** setup(), and the client subscribed with its cycle starting on `deduction` (`fields` added to the body). */
async function subscribed(api: ApiClient, now: string, overrides: Record<string, unknown>, deduction: string, fields: Record<string, unknown> = {}) {
  const scene = await setup(api, now, overrides);
  const { subscriber, purchase } = await subscribe(scene.account, scene.template.id, subscriberBody(scene.client.id, deduction, fields));
  return { ...scene, subscriber, purchase };
}

/**
 * The pin of a billing day (see the file comment): by the last second of the day before `day` the
 * client's purchases of the template were issued on the days `earlier`, by the last second of `day`
 * on those and `day`.
 */
async function expectBilledOn(account: Account, templateId: string, clientId: string, day: string, earlier: string[] = []): Promise<void> {
  expect(await issuedBy(account, templateId, clientId, `${addDays(day, -1)}T23:59:59Z`)).toEqual(earlier);
  expect(await issuedBy(account, templateId, clientId, `${day}T23:59:59Z`)).toEqual([...earlier, day]);
}

/** Template fields for purchases in another currency and time zone. */
const zoned = (currency: string, timezone: string) => ({ purchase: { currency, timezone, products: [{ name: 'Plan', price: 2990 }] } });

/** A sandbox frozen at `now` with one client, a UTC template and one in `timezone`, both charged at period end. */
async function twoZones(api: ApiClient, now: string, currency: string, timezone: string) {
  const { account, client, template: utc } = await setup(api, now, ACTIVE_AT_ONCE);
  const zone = await makeTemplate(account, { ...ACTIVE_AT_ONCE, ...zoned(currency, timezone) });
  return { account, client, utc, zone };
}

/**
 * Two subscribers of one template, charged at period end, each client with a saved card whose
 * charges end in `tokenOutcome`; the second subscriber has `quietField` false. Answers the two
 * Purchases of the Mar 5 billing and the outbox after it.
 */
async function billedPair(api: ApiClient, tokenOutcome: 'success' | 'failure', quietField: 'send_receipt' | 'send_invoice_on_charge_failure') {
  const { account, client, template } = await setup(api, '2026-02-01T12:00:00Z', ACTIVE_AT_ONCE);
  const quiet = await makeClient(account);
  await saveToken(account, client.id, { tokenOutcome });
  await saveToken(account, quiet.id, { tokenOutcome });
  await subscribe(account, template.id, subscriberBody(client.id, '2026-02-05'));
  await subscribe(account, template.id, subscriberBody(quiet.id, '2026-02-05', { [quietField]: false }));
  await advanceTo(account, '2026-03-05T23:59:59Z');
  const [billed] = await generated(account, template.id, client.id);
  const [unsent] = await generated(account, template.id, quiet.id);
  return { client, billed: billed!, unsent: unsent!, mail: await outbox(account) };
}

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
  // ----------------------------------------------------------------------------------- trials
  for (const { id, title, chargePeriodEnd, day } of [
    {
      id: 'TIME-TRIAL-EXAMPLE-START',
      title: '"With period 1 month and value 2, the client pays for the 3rd month. That charge falls 3 months after launch if subscription_charge_period_end is false"',
      chargePeriodEnd: false,
      day: '2026-05-05',
    },
    {
      id: 'TIME-TRIAL-EXAMPLE-END',
      title: '"With period 1 month and value 2 … That charge falls … 4 months after [launch] if [subscription_charge_period_end is] true"',
      chargePeriodEnd: true,
      day: '2026-06-05',
    },
  ]) {
    check(
      { id, title, cites: `${SUBSCRIPTION_FIELDS}, subscription_trial_periods; subscription_deduction_date "Start date of the billing cycle"`, requires: ['clock'] },
      async ({ api }) => {
        const trial = { subscription_trial_periods: 2, subscription_charge_period_end: chargePeriodEnd };
        const { account, client, template, subscriber, purchase } = await subscribed(api, '2026-02-01T12:00:00Z', trial, '2026-02-05');
        expect([subscriber.status, purchase]).toEqual(['active', null]);
        await expectBilledOn(account, template.id, client.id, day);
      },
    );
  }

  check(
    {
      id: 'TIME-TRIAL-SCHEDULED-ON',
      title: 'subscription_billing_scheduled_on names the first charged date: launch + 3 months (period start), + 4 months (period end); cycles passed count trial dates',
      cites: 'DESIGN.md §4.3 (first charged billing date) and §3 Field names (subscription_billing_scheduled_on, number_of_billing_cycles_passed)',
      level: 'informative',
      requires: ['clock'],
    },
    async ({ api }) => {
      const start = await subscribed(api, '2026-02-01T12:00:00Z', { subscription_trial_periods: 2 }, '2026-02-05');
      expect(start.subscriber).toMatchObject({ subscription_billing_scheduled_on: '2026-05-05', number_of_billing_cycles_passed: 0 });
      const end = await subscribed(api, '2026-02-01T12:00:00Z', { subscription_trial_periods: 2, subscription_charge_period_end: true }, '2026-02-05');
      expect(end.subscriber.subscription_billing_scheduled_on).toBe('2026-06-05');
      await advanceTo(end.account, '2026-04-05T00:00:00Z');
      // Feb 5 (launch), Mar 5 and Apr 5 have passed; none was charged.
      expect(await getSubscriber(end.account, end.template.id, end.subscriber.id)).toMatchObject({ number_of_billing_cycles_passed: 3, subscription_billing_scheduled_on: '2026-06-05' });
    },
  );

  // -------------------------------------------------------------- charge at period start / end
  check(
    {
      id: 'TIME-PERIOD-START-SAME-DAY',
      title: '"false: a newly added subscriber receives the first invoice the same day": issued today in purchase.timezone (Jan 30 in UTC, Jan 31 in Pacific/Auckland at 2026-01-30T11:30Z)',
      cites: `${SUBSCRIPTION_FIELDS}, subscription_charge_period_end ("false: a newly added subscriber receives the first invoice the same day") and issued ("When omitted, generated from the current day in purchase.timezone")`,
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api, '2026-01-30T11:30:00Z');
      const auckland = await makeTemplate(account, zoned('NZD', 'Pacific/Auckland'));
      const utc = await subscribe(account, template.id, subscriberBody(client.id, '2026-02-10'));
      const nz = await subscribe(account, auckland.id, subscriberBody(client.id, '2026-02-10'));
      expect([utc.purchase?.issued, nz.purchase?.issued]).toEqual(['2026-01-30', '2026-01-31']);
    },
  );

  check(
    {
      id: 'TIME-PERIOD-END-FIRST-INVOICE',
      title: '"true: clients are charged at the end of billing periods, so the first invoice comes after one billing period"',
      cites: `${SUBSCRIPTION_FIELDS}, subscription_charge_period_end`,
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client, template } = await subscribed(api, '2026-02-01T12:00:00Z', { ...ACTIVE_AT_ONCE, subscription_period: 2, subscription_period_units: 'weeks' }, '2026-02-05');
      await expectBilledOn(account, template.id, client.id, '2026-02-19');
      expect(await issuedBy(account, template.id, client.id, '2026-03-05T23:59:59Z')).toEqual(['2026-02-19', '2026-03-05']);
    },
  );

  check(
    {
      id: 'TIME-PENDING-STARTS-ON-PAYMENT',
      title: 'pending → active: "Subscription starts from the day of payment": paid Feb 2, the next monthly billing is Mar 2',
      cites: `${STATES}: pending → active when "the created Purchase is paid": "Subscription starts from the day of payment."`,
      requires: ['clock', 'payments'],
    },
    async ({ api }) => {
      const { account, client, template, subscriber, purchase } = await subscribed(api, '2026-01-30T12:00:00Z', {}, '2026-02-10');
      await advanceTo(account, '2026-02-02T09:00:00Z');
      await pay(account, purchase!.id);
      expect((await getSubscriber(account, template.id, subscriber.id)).status).toBe('active');
      await expectBilledOn(account, template.id, client.id, '2026-03-02', ['2026-01-30']);
    },
  );

  check(
    {
      id: 'TIME-PENDING-NOT-BILLED',
      title: 'a pending subscriber (its Purchase unpaid) is not billed again',
      cites: `${STATES}: billing is scheduled once the subscriber is active ("pending → active … Subscription starts from the day of payment")`,
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client, template, purchase } = await subscribed(api, '2026-01-30T12:00:00Z', {}, '2026-02-10');
      await advanceTo(account, '2026-04-15T00:00:00Z');
      expect((await generated(account, template.id, client.id)).map((p) => p.id)).toEqual([purchase!.id]);
    },
  );

  // ------------------------------------------------------------------------------- month ends
  for (const { id, title, now, launch, day } of [
    {
      id: 'TIME-MONTH-END-FEB-28',
      title: '"with period 1 month and a cycle activated on January 30, the February billing happens on the 28th when February has 28 days"',
      now: '2026-01-26T12:00:00Z',
      launch: '2026-01-30',
      day: '2026-02-28',
    },
    {
      id: 'TIME-MONTH-END-FEB-29',
      title: 'a cycle activated on January 30, 2028 (a leap year): the February billing happens on the 29th',
      now: '2028-01-26T12:00:00Z',
      launch: '2028-01-30',
      day: '2028-02-29',
    },
  ]) {
    check({ id, title, cites: 'Spec, Rules on the subscription fields 5: "Month lengths are respected"', requires: ['clock'] }, async ({ api }) => {
      const { account, client, template } = await subscribed(api, now, ACTIVE_AT_ONCE, launch);
      await expectBilledOn(account, template.id, client.id, day);
    });
  }

  check(
    {
      id: 'TIME-MONTH-END-MAR-30',
      title: 'billing dates count from the launch date: January 30 → February 28 → March 30 → April 30',
      cites: 'DESIGN.md §4.2 ("each computed from L (not from the previous date)… L = Jan 30 → Feb 28 (or 29) → Mar 30 → Apr 30")',
      level: 'informative',
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client, template, subscriber } = await subscribed(api, '2026-01-26T12:00:00Z', ACTIVE_AT_ONCE, '2026-01-30');
      expect(await issuedBy(account, template.id, client.id, '2026-03-29T23:59:59Z')).toEqual(['2026-02-28']);
      expect(await issuedBy(account, template.id, client.id, '2026-04-30T00:00:00Z')).toEqual(['2026-02-28', '2026-03-30', '2026-04-30']);
      expect(await getSubscriber(account, template.id, subscriber.id)).toMatchObject({ subscription_billing_scheduled_on: '2026-05-30', number_of_billing_cycles_passed: 4 });
    },
  );

  check(
    {
      id: 'TIME-ADVANCE-PROCESSED',
      title: 'clock advance reports the work it ran: one billing on Feb 28, nothing the day before',
      cites: 'DESIGN.md §3 Simulator control ("→ 200 {now, frozen, processed: {counts of what ran}}"); openapi.yaml ClockAdvanceResult',
      level: 'informative',
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account } = await subscribed(api, '2026-01-26T12:00:00Z', ACTIVE_AT_ONCE, '2026-01-30');
      const quiet = { billings: 0, first_deductions: 0, charges: 0, executions: 0, overdue: 0 };
      await advanceTo(account, '2026-01-30T00:00:00Z');
      const before = await advanceTo(account, '2026-02-27T23:59:59Z');
      expect(before.processed).toMatchObject(quiet);
      const billed = await advanceTo(account, '2026-02-28T00:00:00Z');
      expect(billed).toMatchObject({ frozen: true, processed: { ...quiet, billings: 1 } });
      expect(Date.parse(billed.now)).toBe(Date.parse('2026-02-28T00:00:00Z'));
    },
  );

  // ---------------------------------------------------------------- what a billing generates
  check(
    {
      id: 'TIME-BILLING-COPIES',
      title: 'a subscription Purchase has the template\'s purchase details copied 1:1, the subscriber\'s client and payment_method_whitelist',
      cites:
        'Spec, What the service does 2; Spec, BillingTemplate table, purchase: "Copied 1:1 to every generated Purchase, including subscription Purchases"; Spec, BillingTemplateClient table, payment_method_whitelist: "Copied 1:1 to Purchase.payment_method_whitelist of generated Purchases"',
      requires: ['clock'],
    },
    async ({ api }) => {
      const purchase = { currency: 'GBP', notes: 'Thank you', products: [{ name: 'Seat', price: 1000, quantity: 3, discount: 500, tax_percent: 20 }, { name: 'Support', price: 250, quantity: 1.5 }] };
      const { account, client, template } = await subscribed(api, '2026-02-01T12:00:00Z', { ...ACTIVE_AT_ONCE, purchase }, '2026-02-05', { payment_method_whitelist: ['visa', 'mastercard'] });
      await advanceTo(account, '2026-03-05T23:59:59Z');
      const [billed] = await generated(account, template.id, client.id);
      expect(billed!.purchase).toEqual(template.purchase);
      expect(billed).toMatchObject({ client_id: client.id, billing_template_id: template.id, payment_method_whitelist: ['visa', 'mastercard'] });
    },
  );

  check(
    {
      id: 'TIME-DUE-WEEK',
      title: 'subscription_due_period 1 week: "1 week means due a week after generation": a Purchase generated on Jan 30 is due on Feb 6',
      cites: `${SUBSCRIPTION_FIELDS}, subscription_due_period_units: "1 week means due a week after generation or invoice sending"`,
      requires: ['clock'],
    },
    async ({ api }) => {
      const { purchase } = await subscribed(api, '2026-01-30T12:00:00Z', { subscription_due_period: 1, subscription_due_period_units: 'weeks' }, '2026-02-10');
      expect(purchase!.due).toBeGreaterThanOrEqual(at('2026-02-06T00:00:00Z'));
      expect(purchase!.due).toBeLessThan(at('2026-02-07T00:00:00Z'));
    },
  );

  check(
    {
      id: 'TIME-DUE-START-OF-DAY',
      title: 'due = 00:00 in the template\'s time zone of the issue day plus the due period (pending Purchase of Jan 30, 2 weeks → Feb 13; billing of Mar 5 → Mar 19)',
      cites: 'DESIGN.md §4.4 ("due = start of (d + due period) in the time zone")',
      level: 'informative',
      requires: ['clock', 'payments'],
    },
    async ({ api }) => {
      const { account, client, template, purchase } = await subscribed(api, '2026-01-30T12:00:00Z', { subscription_due_period: 2, subscription_due_period_units: 'weeks' }, '2026-02-10');
      expect(purchase).toMatchObject({ issued: '2026-01-30', due: at('2026-02-13T00:00:00Z') });
      await advanceTo(account, '2026-02-05T09:00:00Z');
      await pay(account, purchase!.id);
      await advanceTo(account, '2026-03-05T00:00:00Z');
      expect((await generated(account, template.id, client.id)).map((p) => [p.issued, p.due])).toEqual([
        ['2026-01-30', at('2026-02-13T00:00:00Z')],
        ['2026-03-05', at('2026-03-19T00:00:00Z')],
      ]);
    },
  );

  check(
    {
      id: 'TIME-BILLING-AT-MIDNIGHT-TZ',
      title: 'a billing runs at 00:00 of its date in the template\'s time zone: Apr 4 in Pacific/Auckland starts at 2026-04-03T11:00Z',
      cites: 'DESIGN.md §4.4 ("A billing on date d runs at 00:00 of d in the template\'s time zone")',
      level: 'informative',
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client, template } = await subscribed(api, '2026-01-30T12:00:00Z', { ...ACTIVE_AT_ONCE, ...zoned('NZD', 'Pacific/Auckland') }, '2026-03-04');
      expect(await issuedBy(account, template.id, client.id, '2026-04-03T10:59:59Z')).toEqual([]);
      expect(await issuedBy(account, template.id, client.id, '2026-04-03T11:00:00Z')).toEqual(['2026-04-04']);
    },
  );

  check(
    {
      id: 'TIME-BILLING-SERVICE-TYPE',
      title: 'with force_recurring on the template, a subscription Purchase takes the subscriber\'s default_service_type; without it, none',
      cites: 'Spec, Rules on default_service_type 4 ("force_recurring must be true to use the default_service_type"); DESIGN.md §4.8',
      level: 'informative',
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api, '2026-02-01T12:00:00Z', { ...ACTIVE_AT_ONCE, force_recurring: true });
      const plain = await makeTemplate(account, ACTIVE_AT_ONCE);
      await subscribe(account, template.id, subscriberBody(client.id, '2026-02-05', { default_service_type: 'ONEDAY' }));
      await subscribe(account, plain.id, subscriberBody(client.id, '2026-02-05', { default_service_type: 'ONEDAY' }));
      await advanceTo(account, '2026-03-05T00:00:00Z');
      expect((await generated(account, template.id, client.id)).map((p) => [p.force_recurring, p.service_type])).toEqual([[true, 'ONEDAY']]);
      expect((await generated(account, plain.id, client.id)).map((p) => [p.force_recurring, p.service_type])).toEqual([[false, null]]);
    },
  );

  // ------------------------------------------------------------------- automatic charges, mail
  check(
    {
      id: 'TIME-AUTO-CHARGE',
      title: '"Invoices are paid automatically when the client has saved a card"',
      cites: 'Spec, What the service does 3: "Invoices are paid automatically when the client has saved a card."',
      requires: ['clock', 'payments'],
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api, '2026-02-01T12:00:00Z', ACTIVE_AT_ONCE);
      await saveToken(account, client.id);
      await subscribe(account, template.id, subscriberBody(client.id, '2026-02-05'));
      await advanceTo(account, '2026-03-05T23:59:59Z');
      const [billed] = await generated(account, template.id, client.id);
      expect(billed).toMatchObject({ issued: '2026-03-05', status: 'paid' });
    },
  );

  check(
    {
      id: 'TIME-RECEIPT-ON-SUCCESS',
      title: 'send receipt on success: "When true, a receipt is sent when the subscription charge succeeds"; when false, none',
      cites: 'Spec, BillingTemplateClient table, send receipt on success: "When true, a receipt is sent when the subscription charge succeeds."',
      requires: ['clock', 'payments', 'events'],
    },
    async ({ api }) => {
      const { client, billed, unsent, mail } = await billedPair(api, 'success', 'send_receipt');
      expect([billed.status, unsent.status]).toEqual(['paid', 'paid']);
      expect(mail.filter((m) => m.purchase_id === billed.id).map((m) => [m.kind, m.to])).toEqual([['receipt', client.email]]);
      expect(mail.filter((m) => m.purchase_id === unsent.id)).toEqual([]);
    },
  );

  check(
    {
      id: 'TIME-INVOICE-ON-FAILURE',
      title: 'send invoice on failure: "When true, an invoice is sent when the subscription charge fails"; when false, none',
      cites: 'Spec, BillingTemplateClient table, send invoice on failure: "When true, an invoice is sent when the subscription charge fails."',
      requires: ['clock', 'payments', 'events'],
    },
    async ({ api }) => {
      const { client, billed: failed, unsent, mail } = await billedPair(api, 'failure', 'send_invoice_on_charge_failure');
      expect([failed.status, unsent.status]).not.toContain('paid');
      expect(mail.filter((m) => m.purchase_id === failed.id).map((m) => [m.kind, m.to])).toEqual([['invoice', client.email]]);
      expect(mail.filter((m) => m.purchase_id === unsent.id)).toEqual([]);
    },
  );

  // ------------------------------------------------------------------------------------ pauses
  check(
    {
      id: 'TIME-PAUSE-EXAMPLE',
      title: '"paused a day before the billing date and unpaused a day after it; the next billing, a month minus one day later, happens as usual"',
      cites: `${STATES}: active → subscription_paused ("Cycle runs as normal, but no Purchases are created … while paused") and back ("Billing follows the normal schedule. Example: …")`,
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
      cites: `${STATES}: active → subscription_paused: "Cycle runs as normal, but no Purchases are created and no invoices sent while paused."`,
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
      cites: `${SUBSCRIPTION_FIELDS}, subscription_paused: "Pauses the whole subscription. Same effect as setting status subscription_paused on every launched BillingTemplateClient."`,
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
      cites: 'DESIGN.md §4.5 ("The template flag does not rewrite subscribers\' status")',
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
        'Spec, BillingTemplateClient table, subscription_first_deduction_date ("Ad-hoc first collection") and subscription_first_deduction_amount ("It is the exact amount collected and is not changed by template modifiers such as tax_percent")',
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
      cites: 'Spec, What the service does 3 ("Invoices are paid automatically when the client has saved a card"); DESIGN.md §4.6',
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
      title: 'no billing after mandate_expiry_date (a billing on the date itself still happens); subscription_billing_scheduled_on becomes null',
      cites: 'DESIGN.md §4.7 ("no billing happens after it, and subscription_billing_scheduled_on becomes null"); Spec: "Date on which the bank should expire the mandate"',
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

  // ----------------------------------------------------------------------------------- overdue
  check(
    {
      id: 'TIME-OVERDUE',
      title: 'an unpaid Purchase whose due passes becomes overdue, and can still be paid',
      cites: 'DESIGN.md §3 Field names (Purchase statuses: overdue) and §4.13 (overdue marking); openapi.yaml Purchase.status ("overdue (due passed unpaid)")',
      level: 'informative',
      requires: ['clock', 'payments'],
    },
    async ({ api }) => {
      const { account, client } = await setup(api, '2026-01-30T12:00:00Z');
      const purchase = await createPurchase(account, client.id, { due: at('2026-02-01T00:00:00Z') });
      await advanceTo(account, '2026-01-31T23:59:59Z');
      expect((await getPurchase(account, purchase.id)).status).toBe('created');
      await advanceTo(account, '2026-02-01T00:00:01Z');
      const overdue = await getPurchase(account, purchase.id);
      expect(overdue.status).toBe('overdue');
      expect(overdue.status_history.map((s) => s.status)).toEqual(['created', 'overdue']);
      expect((await pay(account, purchase.id)).status).toBe('paid');
    },
  );

  // ------------------------------------------------------------------- ONEDAY / TWODAY execution
  for (const [serviceType, days, paidAt] of [
    ['ONEDAY', 1, '2026-01-31T12:00:00Z'],
    ['TWODAY', 2, '2026-02-01T12:00:00Z'],
  ] as const) {
    check(
      {
        id: `TIME-${serviceType}-EXECUTION`,
        title: `a charge with a ${serviceType} token is pending_execute, then paid ${days} day${days > 1 ? 's' : ''} later`,
        cites: `Spec, BillingTemplateClient table, default_service_type: "Collection instrument at the bank; it differs in the days taken to execute"; DESIGN.md §4.8 (ONEDAY 1 day, TWODAY 2 days; "goes to pending_execute and becomes paid when the execution time has passed")`,
        level: 'informative',
        requires: ['clock', 'payments'],
      },
      async ({ api }) => {
        const { account, client } = await setup(api, '2026-01-30T12:00:00Z');
        const token = await saveToken(account, client.id, { serviceType });
        const purchase = await createPurchase(account, client.id, typed(serviceType, at('2026-01-30T12:00:00Z') + 6 * DAY));
        const charged = expectStatus(await charge(account, purchase.id, token), 200, 'charge') as Purchase;
        expect(charged).toMatchObject({ status: 'pending_execute', recurring_token: token, service_type: serviceType });
        await advanceTo(account, new Date(Date.parse(paidAt) - 1000).toISOString());
        expect((await getPurchase(account, purchase.id)).status).toBe('pending_execute');
        await advanceTo(account, paidAt);
        const paid = await getPurchase(account, purchase.id);
        expect(paid.status).toBe('paid');
        expect(paid.status_history.map((s) => [s.status, s.timestamp])).toEqual([
          ['created', at('2026-01-30T12:00:00Z')],
          ['pending_execute', at('2026-01-30T12:00:00Z')],
          ['paid', at(paidAt)],
        ]);
      },
    );
  }

  check(
    {
      id: 'TIME-ONEDAY-BILLING-EXECUTION',
      title: 'a ONEDAY subscription Purchase charged automatically with the client\'s ONEDAY token is pending_execute on its billing day, paid the next day',
      cites: 'Spec, Rules on default_service_type 2–4; Spec, What the service does 3 ("paid automatically"); DESIGN.md §4.4 and §4.8',
      level: 'informative',
      requires: ['clock', 'payments'],
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api, '2026-02-01T12:00:00Z', { ...ACTIVE_AT_ONCE, force_recurring: true });
      const token = await saveToken(account, client.id, { serviceType: 'ONEDAY' });
      await subscribe(account, template.id, subscriberBody(client.id, '2026-02-05', { default_service_type: 'ONEDAY' }));
      await advanceTo(account, '2026-03-05T23:59:59Z');
      const [billed] = await generated(account, template.id, client.id);
      expect(billed).toMatchObject({ issued: '2026-03-05', service_type: 'ONEDAY', status: 'pending_execute', recurring_token: token });
      await advanceTo(account, '2026-03-06T00:00:00Z');
      expect((await getPurchase(account, billed!.id)).status).toBe('paid');
    },
  );

  check(
    {
      id: 'TIME-SANDBOX-CLOCKS',
      title: 'each sandbox has its own clock: advancing one moves no other',
      cites: 'DESIGN.md §4.13 ("Each sandbox has its own clock") and §3 Authentication and sandboxes',
      level: 'informative',
      requires: ['clock'],
    },
    async ({ api }) => {
      const moved = await sandbox(api, '2026-01-30T12:00:00Z');
      const still = await sandbox(api, '2026-01-30T12:00:00Z');
      await advanceTo(moved, '2026-03-01T00:00:00Z');
      const clock = expectStatus(await still.api.sim.get('/clock'), 200, 'GET /sim/v1/clock') as { now: string; frozen: boolean };
      expect([Date.parse(clock.now), clock.frozen]).toEqual([Date.parse('2026-01-30T12:00:00Z'), true]);
    },
  );

  // ------------------------------------------------------------- "today" in the template's zone
  /** The rule of the two checks below. */
  const TODAY_PLUS_4: Pick<CheckSpec, 'cites' | 'level' | 'requires'> & { field: string; code: string } = {
    cites: 'Spec, BillingTemplateClient table, subscription_deduction_date: "Minimum: today plus 4 days"; DESIGN.md §3 Formats ("Today" is the sandbox clock\'s day in the template\'s purchase.timezone)',
    level: 'informative',
    requires: ['clock'],
    field: 'subscription_deduction_date',
    code: 'min_value',
  };

  refusal(
    {
      id: 'TIME-TODAY-PLUS-4-AUCKLAND',
      title: '"Minimum: today plus 4 days" with today in Pacific/Auckland: at 2026-01-30T23:30Z (Jan 31 there) Feb 3 is rejected, Feb 4 accepted; Feb 3 on a UTC template accepted',
      ...TODAY_PLUS_4,
    },
    async ({ api }) => {
      const { account, client, utc, zone: auckland } = await twoZones(api, '2026-01-30T23:30:00Z', 'NZD', 'Pacific/Auckland');
      return {
        attempt: () => addSubscriber(account, auckland.id, subscriberBody(client.id, '2026-02-03')),
        state: () => subscribersOf(account, auckland.id),
        after: async () => {
          expect((await subscribe(account, auckland.id, subscriberBody(client.id, '2026-02-04'))).subscriber.subscription_deduction_date).toBe('2026-02-04');
          expect((await subscribe(account, utc.id, subscriberBody(client.id, '2026-02-03'))).subscriber.subscription_deduction_date).toBe('2026-02-03');
        },
      };
    },
  );

  refusal(
    {
      id: 'TIME-TODAY-PLUS-4-LOS-ANGELES',
      title: '"Minimum: today plus 4 days" with today in America/Los_Angeles: at 2026-01-31T00:30Z (still Jan 30 there) Feb 3 is accepted, Feb 2 rejected; Feb 3 on a UTC template rejected',
      ...TODAY_PLUS_4,
    },
    async ({ api }) => {
      const { account, client, utc, zone: losAngeles } = await twoZones(api, '2026-01-31T00:30:00Z', 'USD', 'America/Los_Angeles');
      return {
        attempt: () => addSubscriber(account, losAngeles.id, subscriberBody(client.id, '2026-02-02')),
        state: () => subscribersOf(account, losAngeles.id),
        after: async () => {
          expect((await subscribe(account, losAngeles.id, subscriberBody(client.id, '2026-02-03'))).subscriber.subscription_deduction_date).toBe('2026-02-03');
          const before = await subscribersOf(account, utc.id);
          expect((await addSubscriber(account, utc.id, subscriberBody(client.id, '2026-02-03'))).status).toBeGreaterThanOrEqual(400);
          expect(await subscribersOf(account, utc.id)).toEqual(before);
        },
      };
    },
  );
});
