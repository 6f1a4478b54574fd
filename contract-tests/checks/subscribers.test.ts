// Subscribers: POST /billing_templates/{id}/add_subscriber/ and the BillingTemplateClient resource.
// Spec, "BillingTemplateClient (request body shape)", "States and transitions" and "Limits".
// Checks that need no clock work in the main account with dates far ahead of the wall clock; the
// "today plus 4 days" minimums use a sandbox frozen at a known instant.

import { describe, expect } from 'vitest';
import { check, type CheckContext } from '../lib/check.ts';
import type { ApiClient } from '../lib/client.ts';
import {
  ACTIVE_AT_ONCE,
  addDays,
  expectAbsoluteUrl,
  expectError,
  expectRejected,
  expectStatus,
  later,
  paymentMethods,
  subscriberBody,
  UNKNOWN_ID,
  wallDay,
} from '../lib/primitives.ts';
import {
  addSubscriber,
  getPurchase,
  getSubscriber,
  getTemplate,
  mainAccount,
  makeClient,
  makeOneTimeTemplate,
  makeTemplate,
  patchSubscriber,
  pay,
  purchasesOf,
  refusal,
  sandbox,
  subscribe,
  subscribersOf,
  type Account,
  type Attempt,
} from '../lib/scenario.ts';

const TABLE = 'Spec, BillingTemplateClient (request body shape)';
const STATES = 'Spec, States and transitions: BillingTemplateClient status';

/** The main account with one new client and one new subscription template. */
async function setup(api: ApiClient, templateOverrides: Record<string, unknown> = {}) {
  const account = await mainAccount(api);
  const client = await makeClient(account);
  const template = await makeTemplate(account, templateOverrides);
  return { account, client, template };
}

/** A sandbox frozen at 2026-01-30T12:00:00Z (today is Jan 30 in UTC: the earliest deduction date is Feb 3). */
const NOW = '2026-01-30T12:00:00Z';
async function setupAt(api: ApiClient, templateOverrides: Record<string, unknown> = {}) {
  const account = await sandbox(api, NOW);
  const client = await makeClient(account);
  const template = await makeTemplate(account, templateOverrides);
  return { account, client, template };
}

/** setup(), and the client subscribed with its cycle starting on `deduction`. */
async function subscribed(api: ApiClient, templateOverrides: Record<string, unknown> = {}, deduction = later()) {
  const scene = await setup(api, templateOverrides);
  const { subscriber, purchase } = await subscribe(scene.account, scene.template.id, subscriberBody(scene.client.id, deduction));
  return { ...scene, subscriber, purchase };
}

/** What a rejected add_subscriber must leave unchanged: the template's subscribers and the client's purchases. */
const subscriberState = (account: Account, templateId: string, clientId: string) => async () => ({
  subscribers: await subscribersOf(account, templateId),
  purchases: await purchasesOf(account, clientId),
});

/**
 * For refusal(): an add_subscriber to a new template (charged at period end) whose body, with its
 * cycle starting on later(), has the fields `fields` answers; and the state it must leave unchanged.
 */
function refusedAdd(fields: (deduction: string, account: Account) => Record<string, unknown> | Promise<Record<string, unknown>>) {
  return async ({ api }: CheckContext): Promise<Attempt> => {
    const { account, client, template } = await setup(api, ACTIVE_AT_ONCE);
    const deduction = later();
    const body = subscriberBody(client.id, deduction, await fields(deduction, account));
    return { attempt: () => addSubscriber(account, template.id, body), state: subscriberState(account, template.id, client.id) };
  };
}

/** setup() charged at period end, a second such template, and two subscriptions of the client to the first (a, then b). */
async function twoSubscriptions(api: ApiClient) {
  const { account, client, template } = await setup(api, ACTIVE_AT_ONCE);
  const otherTemplate = await makeTemplate(account, ACTIVE_AT_ONCE);
  const a = await subscribe(account, template.id, subscriberBody(client.id, later()));
  const b = await subscribe(account, template.id, subscriberBody(client.id, wallDay(31)));
  return { account, client, template, otherTemplate, a, b };
}

describe('subscribers', () => {
  // ------------------------------------------------------------------------ the status table
  const activeRows = [
    { id: 'SUB-STATE-ACTIVE-AT-ONCE', condition: 'subscription_charge_period_end true', fields: { subscription_charge_period_end: true, subscription_trial_periods: 0 } },
    { id: 'SUB-STATE-ACTIVE-AT-ONCE-TRIALS', condition: 'subscription_trial_periods > 0', fields: { subscription_charge_period_end: false, subscription_trial_periods: 1 } },
    { id: 'SUB-STATE-ACTIVE-AT-ONCE-BOTH', condition: 'charge period end and trials', fields: { subscription_charge_period_end: true, subscription_trial_periods: 2 } },
  ];
  for (const row of activeRows) {
    check(
      {
        id: row.id,
        title: `add_subscriber with ${row.condition} → active; "No Purchase is created; response purchase is null"`,
        cites: `${STATES}: none → active when "subscription_charge_period_end is true and/or subscription_trial_periods > 0"; Spec, Add-subscriber response`,
      },
      async ({ api }) => {
        const { account, client, template } = await setup(api, row.fields);
        const deduction = later();
        const { subscriber, purchase } = await subscribe(account, template.id, subscriberBody(client.id, deduction));
        expect(purchase).toBeNull();
        expect(subscriber).toMatchObject({
          billing_template_id: template.id,
          client_id: client.id,
          status: 'active',
          subscription_deduction_date: deduction,
          mandate_expiry_date: addDays(deduction, 730),
        });
        expect(await getSubscriber(account, template.id, subscriber.id)).toEqual(subscriber);
        expect(await purchasesOf(account, client.id)).toEqual([]);
      },
    );
  }

  check(
    {
      id: 'SUB-STATE-PENDING',
      title: 'add_subscriber with charge at period start and no trials → pending; "A Purchase is created and returned" with a checkout_url',
      cites: `${STATES}: none → pending when "subscription_charge_period_end is false and subscription_trial_periods is 0": "A Purchase is created and returned. The caller redirects the client to purchase.checkout_url to pay."`,
    },
    async ({ api }) => {
      const { account, client, template, subscriber, purchase } = await subscribed(api);
      expect(subscriber).toMatchObject({ billing_template_id: template.id, client_id: client.id, status: 'pending' });
      expect(purchase).not.toBeNull();
      expect(purchase).toMatchObject({ client_id: client.id, billing_template_id: template.id });
      expectAbsoluteUrl(purchase!.checkout_url);
      expect(await getPurchase(account, purchase!.id)).toEqual(purchase);
      expect((await purchasesOf(account, client.id)).map((p) => p.id)).toEqual([purchase!.id]);
      expect((await getSubscriber(account, template.id, subscriber.id)).status).toBe('pending');
    },
  );

  check(
    {
      id: 'SUB-STATE-PENDING-COPIES-TEMPLATE',
      title: 'the pending subscriber\'s Purchase has the template\'s purchase details "Copied 1:1" and the subscriber\'s payment_method_whitelist',
      cites:
        'Spec, What the service does 2 ("copies the template\'s purchase details (copied 1:1)"); Spec, BillingTemplate table, purchase: "Copied 1:1 to every generated Purchase, including subscription Purchases"; ' +
        `${TABLE}, payment_method_whitelist: "Copied 1:1 to Purchase.payment_method_whitelist of generated Purchases"`,
    },
    async ({ api }) => {
      const account = await mainAccount(api);
      const client = await makeClient(account);
      const template = await makeTemplate(account, {
        purchase: { currency: 'EUR', products: [{ name: 'Seat', price: 1000, quantity: 3, discount: 500, tax_percent: 20 }], notes: 'Thank you' },
      });
      const methods = (await paymentMethods(account.api)).slice(0, 2).reverse();
      expect(methods.length).toBeGreaterThan(0);
      const { subscriber, purchase } = await subscribe(account, template.id, subscriberBody(client.id, later(), { payment_method_whitelist: methods }));
      expect(subscriber.payment_method_whitelist).toEqual(methods);
      expect(purchase!.purchase).toEqual(template.purchase);
      expect(purchase!.payment_method_whitelist).toEqual(methods);
    },
  );

  check(
    {
      id: 'SUB-STATE-PENDING-PAID',
      title: 'pending → active when "the created Purchase is paid"',
      cites: `${STATES}: pending → active, trigger "the created Purchase is paid"`,
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, template, subscriber, purchase } = await subscribed(api);
      expect(subscriber.status).toBe('pending');
      const paid = await pay(account, purchase!.id);
      expect(paid.status).toBe('paid');
      expect((await getSubscriber(account, template.id, subscriber.id)).status).toBe('active');
    },
  );

  check(
    {
      id: 'SUB-STATE-PENDING-UNPAID',
      title: 'a failed payment leaves the subscriber pending',
      cites: `${STATES}: pending → active only when "the created Purchase is paid"`,
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, template, subscriber, purchase } = await subscribed(api);
      await pay(account, purchase!.id, { outcome: 'failure' });
      expect((await getSubscriber(account, template.id, subscriber.id)).status).toBe('pending');
    },
  );

  check(
    {
      id: 'SUB-ADD-201',
      title: 'add_subscriber answers 201 with {billing_template_client, purchase}',
      cites: 'DESIGN.md §3 Endpoints ("POST /billing_templates/{id}/add_subscriber/ → 201 {billing_template_client, purchase|null}")',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api, ACTIVE_AT_ONCE);
      const res = await addSubscriber(account, template.id, subscriberBody(client.id, later()));
      expectStatus(res, 201, 'add_subscriber');
      expect(Object.keys(res.body).sort()).toEqual(['billing_template_client', 'purchase']);
    },
  );

  check(
    {
      id: 'SUB-ADD-DEFAULTS',
      title: 'defaults: send receipt on success true, send invoice on failure true, default_service_type TWODAY',
      cites: `${TABLE}: "send receipt on success … Default true", "send invoice on failure … Default true", default_service_type "Default TWODAY"; names of DESIGN.md §3`,
    },
    async ({ api }) => {
      const { subscriber } = await subscribed(api, ACTIVE_AT_ONCE);
      expect(subscriber).toMatchObject({ send_receipt: true, send_invoice_on_charge_failure: true, default_service_type: 'TWODAY' });
    },
  );

  check(
    {
      id: 'SUB-ADD-FIELDS-STORED',
      title: 'the fields sent are stored: both flags false, ONEDAY, a first deduction, a whitelist',
      cites: `${TABLE}`,
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api, ACTIVE_AT_ONCE);
      const deduction = later();
      const [method] = await paymentMethods(account.api);
      const body = subscriberBody(client.id, deduction, {
        send_receipt: false,
        send_invoice_on_charge_failure: false,
        default_service_type: 'ONEDAY',
        subscription_first_deduction_date: addDays(deduction, -3),
        subscription_first_deduction_amount: 1500,
        payment_method_whitelist: [method],
      });
      const { subscriber } = await subscribe(account, template.id, body);
      expect(subscriber).toMatchObject(body);
      expect(await getSubscriber(account, template.id, subscriber.id)).toEqual(subscriber);
    },
  );

  // ------------------------------------------------------------------------ add_subscriber rules
  refusal(
    {
      id: 'SUB-ADD-ONE-TIME-TEMPLATE',
      title: 'add_subscriber on a template with is_subscription false is rejected; nothing is stored',
      cites: 'Spec, Add a subscriber: "The template must have is_subscription true"; Spec, What the service does 4',
      field: '__all__',
      code: 'invalid_state',
    },
    async ({ api }) => {
      const account = await mainAccount(api);
      const client = await makeClient(account);
      const template = await makeOneTimeTemplate(account);
      return {
        attempt: () => addSubscriber(account, template.id, subscriberBody(client.id, later())),
        state: async () => ({ purchases: await purchasesOf(account, client.id), template: await getTemplate(account, template.id) }),
      };
    },
  );

  refusal(
    {
      id: 'SUB-ADD-CLIENT-UNKNOWN',
      title: 'client reference: "ID of an existing Client": an unknown id is rejected',
      cites: `${TABLE}, client reference: "ID of an existing Client"`,
      field: 'client_id',
      code: 'does_not_exist',
    },
    async ({ api }) => {
      const { account, template } = await setup(api, ACTIVE_AT_ONCE);
      return {
        attempt: () => addSubscriber(account, template.id, subscriberBody(UNKNOWN_ID, later())),
        state: () => subscribersOf(account, template.id),
      };
    },
  );

  check(
    {
      id: 'SUB-ADD-SAME-CLIENT-TWICE',
      title: '"The same Client may be added to one template several times"',
      cites: `${TABLE}, client reference: "The same Client may be added to one template several times."`,
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api, ACTIVE_AT_ONCE);
      const first = await subscribe(account, template.id, subscriberBody(client.id, later()));
      const second = await subscribe(account, template.id, subscriberBody(client.id, wallDay(40)));
      expect(second.subscriber.id).not.toBe(first.subscriber.id);
      const listed = await subscribersOf(account, template.id);
      expect(listed.map((s) => s.id).sort()).toEqual([first.subscriber.id, second.subscriber.id].sort());
      expect(listed.map((s) => s.client_id)).toEqual([client.id, client.id]);
    },
  );

  refusal(
    {
      id: 'SUB-ADD-DEDUCTION-MIN',
      title: 'subscription_deduction_date "Minimum: today plus 4 days": today + 3 is rejected, today + 4 accepted',
      cites: `${TABLE}, subscription_deduction_date: "Minimum: today plus 4 days"; Spec, Limits`,
      requires: ['clock'],
      field: 'subscription_deduction_date',
      code: 'min_value',
    },
    async ({ api }) => {
      const { account, client, template } = await setupAt(api, ACTIVE_AT_ONCE);
      return {
        attempt: () => addSubscriber(account, template.id, subscriberBody(client.id, '2026-02-02')),
        state: subscriberState(account, template.id, client.id),
        after: async () => {
          const { subscriber } = await subscribe(account, template.id, subscriberBody(client.id, '2026-02-03'));
          expect(subscriber.subscription_deduction_date).toBe('2026-02-03');
        },
      };
    },
  );

  refusal(
    {
      id: 'SUB-ADD-FIRST-DATE-NEEDS-AMOUNT',
      title: 'subscription_first_deduction_date "Requires subscription_first_deduction_amount when set"',
      cites: `${TABLE}, subscription_first_deduction_date: "Requires subscription_first_deduction_amount when set."`,
      field: 'subscription_first_deduction_amount',
      code: 'required',
    },
    refusedAdd((deduction) => ({ subscription_first_deduction_date: addDays(deduction, -5) })),
  );

  refusal(
    {
      id: 'SUB-ADD-FIRST-AMOUNT-NEEDS-DATE',
      title: 'subscription_first_deduction_amount "Requires subscription_first_deduction_date when set"',
      cites: `${TABLE}, subscription_first_deduction_amount: "Requires subscription_first_deduction_date when set."`,
      field: 'subscription_first_deduction_date',
      code: 'required',
    },
    refusedAdd(() => ({ subscription_first_deduction_amount: 1500 })),
  );

  for (const [suffix, offset, label] of [
    ['SAME-DAY', 0, 'on'],
    ['AFTER', 1, 'after'],
  ] as const) {
    refusal(
      {
        id: `SUB-ADD-FIRST-${suffix}`,
        title: `subscription_first_deduction_date "Must be earlier than subscription_deduction_date": a date ${label} it is rejected`,
        cites: `${TABLE}, subscription_first_deduction_date: "Must be earlier than subscription_deduction_date"; Spec, Limits`,
        field: 'subscription_first_deduction_date',
        code: 'max_value',
      },
      refusedAdd((deduction) => ({ subscription_first_deduction_date: addDays(deduction, offset), subscription_first_deduction_amount: 1500 })),
    );
  }

  check(
    {
      id: 'SUB-ADD-FIRST-DAY-BEFORE',
      title: 'a first deduction one day before subscription_deduction_date is accepted and stored with its amount',
      cites: `${TABLE}, subscription_first_deduction_date: "Ad-hoc first collection … Must be earlier than subscription_deduction_date"`,
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api, ACTIVE_AT_ONCE);
      const deduction = later();
      const first = addDays(deduction, -1);
      const { subscriber } = await subscribe(
        account,
        template.id,
        subscriberBody(client.id, deduction, { subscription_first_deduction_date: first, subscription_first_deduction_amount: 1 }),
      );
      expect(subscriber).toMatchObject({ subscription_first_deduction_date: first, subscription_first_deduction_amount: 1 });
    },
  );

  refusal(
    {
      id: 'SUB-ADD-FIRST-MIN',
      title: 'subscription_first_deduction_date "Minimum: today plus 4 days": today + 3 is rejected, today + 4 accepted',
      cites: `${TABLE}, subscription_first_deduction_date: "Minimum: today plus 4 days"; Spec, Limits`,
      requires: ['clock'],
      field: 'subscription_first_deduction_date',
      code: 'min_value',
    },
    async ({ api }) => {
      const { account, client, template } = await setupAt(api, ACTIVE_AT_ONCE);
      const first = (date: string) => subscriberBody(client.id, '2026-02-20', { subscription_first_deduction_date: date, subscription_first_deduction_amount: 1500 });
      return {
        attempt: () => addSubscriber(account, template.id, first('2026-02-02')),
        state: subscriberState(account, template.id, client.id),
        after: async () => {
          const { subscriber } = await subscribe(account, template.id, first('2026-02-03'));
          expect(subscriber.subscription_first_deduction_date).toBe('2026-02-03');
        },
      };
    },
  );

  refusal(
    {
      id: 'SUB-ADD-FIRST-AMOUNT-MIN',
      title: 'subscription_first_deduction_amount "at least 1": 0 is rejected',
      cites: `${TABLE}, subscription_first_deduction_amount: "integer, at least 1"; Spec, Limits`,
      field: 'subscription_first_deduction_amount',
      code: 'min_value',
    },
    refusedAdd((deduction) => ({ subscription_first_deduction_date: addDays(deduction, -2), subscription_first_deduction_amount: 0 })),
  );

  for (const [suffix, offset, label] of [
    ['SAME-DAY', 0, 'equal to'],
    ['BEFORE', -1, 'before'],
  ] as const) {
    refusal(
      {
        id: `SUB-ADD-MANDATE-${suffix}`,
        title: `mandate_expiry_date ${label} subscription_deduction_date is rejected`,
        cites: 'DESIGN.md §4.7 ("mandate_expiry_date must be later than subscription_deduction_date"); the spec gives no rule beyond "Date on which the bank should expire the mandate"',
        level: 'informative',
        field: 'mandate_expiry_date',
        code: 'min_value',
      },
      refusedAdd((deduction) => ({ mandate_expiry_date: addDays(deduction, offset) })),
    );
  }

  check(
    {
      id: 'SUB-ADD-MANDATE-DAY-AFTER',
      title: 'a mandate_expiry_date one day after subscription_deduction_date is accepted',
      cites: `${TABLE}, mandate expiry date: "Date on which the bank should expire the mandate"; DESIGN.md §4.7`,
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api, ACTIVE_AT_ONCE);
      const deduction = later();
      const { subscriber } = await subscribe(account, template.id, subscriberBody(client.id, deduction, { mandate_expiry_date: addDays(deduction, 1) }));
      expect(subscriber.mandate_expiry_date).toBe(addDays(deduction, 1));
    },
  );

  refusal(
    {
      id: 'SUB-ADD-WHITELIST-EMPTY',
      title: 'payment_method_whitelist "at least 1 item": an empty list is rejected',
      cites: `${TABLE}, payment_method_whitelist: "array of strings, at least 1 item"; Spec, Limits`,
      field: 'payment_method_whitelist',
      code: 'min_items',
    },
    refusedAdd(() => ({ payment_method_whitelist: [] })),
  );

  refusal(
    {
      id: 'SUB-ADD-WHITELIST-UNKNOWN',
      title: 'payment_method_whitelist: a name GET /payment_methods/ does not return is rejected',
      cites: `${TABLE}, payment_method_whitelist: "Payment method names as returned by GET /payment_methods/"; the rejection is openapi.yaml's (invalid_choice)`,
      level: 'informative',
      field: 'payment_method_whitelist.1',
      code: 'invalid_choice',
    },
    refusedAdd(async (_deduction, account) => {
      const [known] = await paymentMethods(account.api);
      const unknown = 'no-such-method';
      expect(await paymentMethods(account.api)).not.toContain(unknown);
      return { payment_method_whitelist: [known, unknown] };
    }),
  );

  refusal(
    {
      id: 'SUB-ADD-SERVICE-TYPE-ENUM',
      title: 'default_service_type outside the enum (TWODAY, ONEDAY) is rejected',
      cites: `${TABLE}, default_service_type: "string enum … TWODAY and ONEDAY are named"; openapi.yaml enum [ONEDAY, TWODAY]`,
      level: 'informative',
      field: 'default_service_type',
      code: 'invalid_choice',
    },
    refusedAdd(() => ({ default_service_type: 'SAMEDAY' })),
  );

  refusal(
    {
      id: 'SUB-ADD-SERVICE-TYPE-VS-DUE',
      title: 'TWODAY on a template whose due period is 1 day is rejected; ONEDAY is accepted, and TWODAY on a 2-day due period',
      cites:
        'Spec, Rules on default_service_type 1: "A Purchase due must be valid for at least the execution time of the service type used to collect it"; ' +
        'DESIGN.md §4.8 ("add_subscriber rejects a default_service_type whose execution time is longer than the template\'s due period")',
      level: 'informative',
      field: 'default_service_type',
      code: 'invalid',
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api, { ...ACTIVE_AT_ONCE, subscription_due_period: 1, subscription_due_period_units: 'days' });
      return {
        attempt: () => addSubscriber(account, template.id, subscriberBody(client.id, later(), { default_service_type: 'TWODAY' })),
        state: subscriberState(account, template.id, client.id),
        after: async () => {
          const { subscriber } = await subscribe(account, template.id, subscriberBody(client.id, later(), { default_service_type: 'ONEDAY' }));
          expect(subscriber.default_service_type).toBe('ONEDAY');
          const twoDays = await makeTemplate(account, { ...ACTIVE_AT_ONCE, subscription_due_period: 2, subscription_due_period_units: 'days' });
          expect((await subscribe(account, twoDays.id, subscriberBody(client.id, later(), { default_service_type: 'TWODAY' }))).subscriber.default_service_type).toBe('TWODAY');
        },
      };
    },
  );

  // ------------------------------------------------------------------------ editing a subscriber
  check(
    {
      id: 'SUB-PATCH-PAUSE-RESUME',
      title: 'PATCH status: active → subscription_paused → active',
      cites: `${STATES}: active → subscription_paused and subscription_paused → active by PATCH /billing_templates/{id}/clients/{id}/; ${TABLE}, status: "Editable between active and subscription_paused only"`,
    },
    async ({ api }) => {
      const { account, template, subscriber } = await subscribed(api, ACTIVE_AT_ONCE);
      const paused = expectStatus(await patchSubscriber(account, template.id, subscriber.id, { status: 'subscription_paused' }), 200, 'pause');
      expect(paused).toMatchObject({ id: subscriber.id, status: 'subscription_paused' });
      expect((await getSubscriber(account, template.id, subscriber.id)).status).toBe('subscription_paused');
      const resumed = expectStatus(await patchSubscriber(account, template.id, subscriber.id, { status: 'active' }), 200, 'resume');
      expect(resumed).toMatchObject({ id: subscriber.id, status: 'active' });
      expect((await getSubscriber(account, template.id, subscriber.id)).status).toBe('active');
    },
  );

  for (const status of ['pending', 'inactive']) {
    refusal(
      {
        id: `SUB-PATCH-ACTIVE-TO-${status.toUpperCase()}`,
        title: `PATCH status ${status} on an active subscriber is rejected ("Editable between active and subscription_paused only")`,
        cites: `${TABLE}, status: "Editable between active and subscription_paused only."`,
        field: '__all__',
        code: 'invalid_state',
      },
      async ({ api }) => {
        const { account, template, subscriber } = await subscribed(api, ACTIVE_AT_ONCE);
        return {
          attempt: () => patchSubscriber(account, template.id, subscriber.id, { status }),
          state: () => getSubscriber(account, template.id, subscriber.id),
        };
      },
    );
  }

  for (const status of ['subscription_paused', 'active']) {
    refusal(
      {
        id: `SUB-PATCH-PENDING-TO-${status === 'active' ? 'ACTIVE' : 'PAUSED'}`,
        title: `PATCH status ${status} on a pending subscriber is rejected ("Read-only while the record is … pending")`,
        cites: `${TABLE}, status: "Read-only while the record is inactive (internal status) or pending."`,
        field: '__all__',
        code: 'invalid_state',
      },
      async ({ api }) => {
        const { account, client, template, subscriber } = await subscribed(api);
        expect(subscriber.status).toBe('pending');
        return {
          attempt: () => patchSubscriber(account, template.id, subscriber.id, { status }),
          state: async () => ({ subscriber: await getSubscriber(account, template.id, subscriber.id), purchases: await purchasesOf(account, client.id) }),
        };
      },
    );
  }

  check(
    {
      id: 'SUB-PATCH-CLIENT-READ-ONLY',
      title: 'client reference "Read-only after creation": a PATCH with another client_id does not change it',
      cites: `${TABLE}, client reference: "Read-only after creation."`,
    },
    async ({ api }) => {
      const { account, template, subscriber } = await subscribed(api, ACTIVE_AT_ONCE);
      const other = await makeClient(account);
      await patchSubscriber(account, template.id, subscriber.id, { client_id: other.id });
      expect(await getSubscriber(account, template.id, subscriber.id)).toEqual(subscriber);
    },
  );

  check(
    {
      id: 'SUB-PATCH-CLIENT-READ-ONLY-CODE',
      title: 'a PATCH with another client_id → 400 client_id read_only; the same client_id is accepted',
      cites: 'DESIGN.md §4.10 and openapi.yaml, Requests ("a different value → 400 read_only"; a value equal to the stored one is accepted)',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client, template, subscriber } = await subscribed(api, ACTIVE_AT_ONCE);
      const other = await makeClient(account);
      expectError(await patchSubscriber(account, template.id, subscriber.id, { client_id: other.id }), 'client_id', 'read_only', { alone: true });
      expectStatus(await patchSubscriber(account, template.id, subscriber.id, { client_id: client.id }), 200, 'PATCH the same client_id');
      expect((await getSubscriber(account, template.id, subscriber.id)).client_id).toBe(client.id);
    },
  );

  check(
    {
      id: 'SUB-PATCH-OTHER-FIELDS',
      title: 'PATCH of the other fields follows the rules of add: mandate_expiry_date not after the deduction date → 400 min_value, an empty whitelist → 400 min_items; valid values are stored',
      cites: 'openapi.yaml patchSubscriber ("Other writable fields … may be changed under the same rules as on add"); DESIGN.md §4.7',
      level: 'informative',
    },
    async ({ api }) => {
      const deduction = later();
      const { account, template, subscriber } = await subscribed(api, ACTIVE_AT_ONCE, deduction);
      expectError(await patchSubscriber(account, template.id, subscriber.id, { mandate_expiry_date: deduction }), 'mandate_expiry_date', 'min_value', { alone: true });
      expectError(await patchSubscriber(account, template.id, subscriber.id, { payment_method_whitelist: [] }), 'payment_method_whitelist', 'min_items', { alone: true });
      expect(await getSubscriber(account, template.id, subscriber.id)).toEqual(subscriber);
      const [method] = await paymentMethods(account.api);
      const changes = { mandate_expiry_date: addDays(deduction, 1), payment_method_whitelist: [method], default_service_type: 'ONEDAY', send_receipt: false };
      expect(expectStatus(await patchSubscriber(account, template.id, subscriber.id, changes), 200, 'PATCH')).toMatchObject(changes);
      expect(await getSubscriber(account, template.id, subscriber.id)).toMatchObject(changes);
    },
  );

  check(
    {
      id: 'SUB-ADD-STATUS-SET-BY-SERVER',
      title: 'status on add_subscriber is the server\'s: a value other than the resulting one → 400 status read_only; the resulting one is accepted',
      cites: `${TABLE}, status: "Read-only while the record is inactive (internal status) or pending"; openapi.yaml BillingTemplateClientFields.status ("a value sent there that differs from the resulting status → 400 read_only")`,
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api);
      const before = await subscribersOf(account, template.id);
      for (const status of ['active', 'subscription_paused']) {
        expectError(await addSubscriber(account, template.id, subscriberBody(client.id, later(), { status })), 'status', 'read_only', { alone: true });
      }
      expect(await subscribersOf(account, template.id)).toEqual(before);
      expect((await subscribe(account, template.id, subscriberBody(client.id, later(), { status: 'pending' }))).subscriber.status).toBe('pending');
    },
  );

  // ------------------------------------------------------------------------ list and get
  check(
    {
      id: 'SUB-LIST-GET',
      title: 'GET /billing_templates/{id}/clients/ lists that template\'s subscribers only; GET …/clients/{id}/ returns one',
      cites: 'Spec, BillingTemplateClient: "Connects a Client to a subscription template and stores one subscriber"; the list and get endpoints are DESIGN.md §3 Endpoints',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client, template, otherTemplate, a, b } = await twoSubscriptions(api);
      const c = await subscribe(account, otherTemplate.id, subscriberBody(client.id, later()));
      const listed = await subscribersOf(account, template.id);
      expect(listed.map((s) => s.id).sort()).toEqual([a.subscriber.id, b.subscriber.id].sort());
      expect(listed.find((s) => s.id === a.subscriber.id)).toEqual(await getSubscriber(account, template.id, a.subscriber.id));
      expect((await subscribersOf(account, otherTemplate.id)).map((s) => s.id)).toEqual([c.subscriber.id]);
    },
  );

  check(
    {
      id: 'SUB-LIST-ORDER-AND-404',
      title: 'subscribers are listed newest first; a subscriber addressed through another template, or an unknown id → 404',
      cites: 'DESIGN.md §3 Formats ("Lists … newest first") and Errors (404 unknown id); openapi.yaml BtcId ("of another template … → 404")',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, template, otherTemplate, a, b } = await twoSubscriptions(api);
      expect((await subscribersOf(account, template.id)).map((s) => s.id)).toEqual([b.subscriber.id, a.subscriber.id]);
      expectStatus(await account.api.get(`/billing_templates/${otherTemplate.id}/clients/${a.subscriber.id}/`), 404, 'through another template');
      expectStatus(await account.api.get(`/billing_templates/${template.id}/clients/${UNKNOWN_ID}/`), 404, 'unknown id');
      expectRejected(await patchSubscriber(account, otherTemplate.id, a.subscriber.id, { status: 'subscription_paused' }), 'PATCH through another template');
      expect((await getSubscriber(account, template.id, a.subscriber.id)).status).toBe('active');
    },
  );
});
