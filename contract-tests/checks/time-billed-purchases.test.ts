// What the billings of the spec's time scenarios make: the Purchase a billing generates (details,
// due, service type), automatic charges and the e-mails they send, and (billing-sim's: docs/behaviour.md
// #billing, #service-types, #sandbox-clock) the hour of a due, the execution of ONEDAY/TWODAY collections
// and each sandbox's own clock. A declined charge's consequences are in time-charge-failures, a due
// passing in time-overdue-and-expiry. Each check runs in a simulator sandbox of its own, frozen at a
// chosen instant and moved with POST /sim/v1/clock/advance.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import type { ApiClient } from '../lib/client.ts';
import { ACTIVE_AT_ONCE, at, DAY, expectStatus, subscriberBody, zoned } from '../lib/primitives.ts';
import {
  advanceTo,
  charge,
  createPurchase,
  generated,
  getPurchase,
  issuedBy,
  makeClient,
  makeTemplate,
  outbox,
  pay,
  sandbox,
  sandboxSubscriber as subscribed,
  sandboxTemplate as setup,
  saveToken,
  subscribe,
  typed,
  type Purchase,
} from '../lib/scenario.ts';
import { eventsOf } from '../lib/purchase-actions.ts';

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

describe('time', () => {
  // ---------------------------------------------------------------- what a billing generates
  check(
    {
      id: 'TIME-BILLING-COPIES',
      title: 'a subscription Purchase has the template\'s purchase details copied 1:1, the subscriber\'s client and payment_method_whitelist',
      cites:
        `docs/behaviour.md#billing: "the template's purchase object copied 1:1", "the subscriber's client_id and payment_method_whitelist"; ` +
        'docs/behaviour.md#template-fields: "Copied 1:1 to every generated purchase, including subscription purchases"; ' +
        'docs/behaviour.md#subscriber-fields: "Copied 1:1 to the payment_method_whitelist of generated purchases"',
      requires: ['clock'],
    },
    async ({ api }) => {
      const purchase = { currency: 'GBP', notes: 'Thank you', products: [{ name: 'Seat', price: 1000, quantity: 3, discount: 500, tax_percent: 20 }, { name: 'Support', price: 250, quantity: 1.5 }] };
      const { account, client, template } = await subscribed(api, '2026-02-01T12:00:00Z', { ...ACTIVE_AT_ONCE, purchase }, '2026-02-05', { payment_method_whitelist: ['visa', 'mastercard'] });
      await advanceTo(account, '2026-03-05T23:59:59Z');
      const [billed] = await generated(account, template.id, client.id);
      expect(billed!.purchase).toMatchObject(template.purchase); // and the platform's own fields a template has not (shipping_options, …)
      expect(billed).toMatchObject({ client_id: client.id, billing_template_id: template.id, payment_method_whitelist: ['visa', 'mastercard'] });
    },
  );

  check(
    {
      id: 'TIME-DUE-WEEK',
      title: 'subscription_due_period 1 week: "1 week means due a week after generation": a Purchase generated on Jan 30 is due on Feb 6',
      cites: 'docs/behaviour.md#template-fields: "1 week means due a week after generation or invoice sending"',
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
      cites: `docs/behaviour.md#billing: "due = 00:00 of d + the template's due period, in its time zone" (billing-sim's hour: the spec gives the due period, the platform's sources no hour)`,
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
      cites: `docs/behaviour.md#billing-dates: "A billing runs at 00:00 of its date in the template's purchase.timezone" (billing-sim's hour: neither the spec nor the platform's sources say at what hour a billing runs)`,
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
      cites: `docs/behaviour.md#billing: "service_type = the subscriber's default_service_type when the template has force_recurring, else null" (a purchase's service_type is billing-sim's field: no public object of the platform shows it)`,
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
      cites: `docs/behaviour.md#automatic-charges: "A purchase created by a billing or a first deduction is charged at once with the client's newest usable recurring token"`,
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
      cites: 'docs/behaviour.md#subscriber-fields: "when true, a receipt is sent when the subscription charge succeeds"; docs/behaviour.md#automatic-charges: "receipt e-mail when send_receipt"',
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
      cites:
        'docs/behaviour.md#subscriber-fields: "when true, an invoice is sent when the subscription charge fails"; ' +
        `docs/behaviour.md#automatic-charges: "→ status sent, event purchase.subscription_charge_failure, and an invoice e-mail when the subscriber's send_invoice_on_charge_failure is true"; ` +
        'docs/fidelity.md#charge-errors: "the purchase stays sent"',
      requires: ['clock', 'payments', 'events'],
    },
    async ({ api }) => {
      const { client, billed: failed, unsent, mail } = await billedPair(api, 'failure', 'send_invoice_on_charge_failure');
      expect([failed.status, unsent.status], 'a declined charge leaves the purchase sent, e-mailed or not').toEqual(['sent', 'sent']);
      expect(mail.filter((m) => m.purchase_id === failed.id).map((m) => [m.kind, m.to])).toEqual([['invoice', client.email]]);
      expect(mail.filter((m) => m.purchase_id === unsent.id)).toEqual([]);
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
        cites:
          'docs/behaviour.md#service-types: "ONEDAY and TWODAY are collection instruments at the bank: their execution time is 1 and 2 days", ' +
          '"A successful collection with a service type makes the purchase pending_execute; it becomes paid when the execution time has passed on the sandbox clock" ' +
          "(billing-sim's model: the spec names no execution time, and the platform's slow charge is pending_charge, docs/fidelity.md#not-simulated)",
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
      id: 'TIME-PENDING-CHARGE',
      title: 'with the sandbox\'s processing delay PT1H a charge with a token answers 200 pending_charge and records purchase.pending_charge, then is paid once the hour has passed',
      cites:
        'docs/behaviour.md#charges-with-a-token: "when it is more than PT0S, a charge that passes the checks above answers 200 pending_charge, event purchase.pending_charge"; ' +
        'docs/fidelity.md#charge-errors: "A slow charge | answers 200 with status pending_charge" (the delay is billing-sim\'s: PUT /sim/v1/processing)',
      level: 'informative',
      requires: ['clock', 'payments', 'events'],
    },
    async ({ api, skip }) => {
      const { account, client } = await setup(api, '2026-01-30T12:00:00Z');
      const set = await account.api.sim.put('/processing', { delay: 'PT1H' });
      if (set.status === 404) skip('the target has no PUT /sim/v1/processing, so no processing delay can be set');
      expectStatus(set, 200, 'PUT /sim/v1/processing');
      const token = await saveToken(account, client.id);
      const purchase = await createPurchase(account, client.id);
      const charged = expectStatus(await charge(account, purchase.id, token), 200, 'charge') as Purchase;
      expect(charged.status, 'a charge while the acquirer takes an hour').toBe('pending_charge');
      await advanceTo(account, '2026-01-30T12:59:59Z');
      expect((await getPurchase(account, purchase.id)).status).toBe('pending_charge');
      await advanceTo(account, '2026-01-30T13:00:00Z');
      const paid = await getPurchase(account, purchase.id);
      expect(paid).toMatchObject({ status: 'paid', recurring_token: token });
      expect(paid.status_history.map((s) => [s.status, s.timestamp])).toEqual([
        ['created', at('2026-01-30T12:00:00Z')],
        ['pending_charge', at('2026-01-30T12:00:00Z')],
        ['paid', at('2026-01-30T13:00:00Z')],
      ]);
      expect(await eventsOf(account, purchase.id)).toEqual(['purchase.created', 'purchase.pending_charge', 'purchase.paid']);
    },
  );

  check(
    {
      id: 'TIME-ONEDAY-BILLING-EXECUTION',
      title: 'a ONEDAY subscription Purchase charged automatically with the client\'s ONEDAY token is pending_execute on its billing day, paid the next day',
      cites:
        'docs/behaviour.md#automatic-charges: "or pending_execute when the purchase has a service type"; ' +
        `docs/behaviour.md#service-types: "A billed purchase takes the subscriber's default_service_type when its template has force_recurring" (billing-sim's model of the execution time)`,
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
      cites: 'docs/behaviour.md#sandbox-clock: "Each sandbox has its own clock"; docs/behaviour.md#sandboxes: "A sandbox is one isolated merchant account" (the simulator control API is billing-sim\'s own)',
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
});
