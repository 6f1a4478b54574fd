// Subscribers: the rules add_subscriber applies to a BillingTemplateClient body (spec,
// "BillingTemplateClient (request body shape)" and "Limits"): a subscription template, an existing
// client, the deduction and first-deduction dates and amount, the mandate, the whitelist and the
// service type. Checks that need no clock work in the main account with dates far ahead of the wall
// clock; the "today plus 4 days" minimums use a sandbox frozen at a known instant.

import { describe, expect } from 'vitest';
import { check, type CheckContext } from '../lib/check.ts';
import { SUBSCRIBER_FIELDS as TABLE } from '../lib/citations.ts';
import type { ApiClient } from '../lib/client.ts';
import {
  ACTIVE_AT_ONCE,
  addDays,
  later,
  paymentMethods,
  subscriberBody,
  UNKNOWN_ID,
  wallDay,
} from '../lib/primitives.ts';
import {
  addSubscriber,
  getTemplate,
  mainAccount,
  mainTemplate as setup,
  makeClient,
  makeOneTimeTemplate,
  makeTemplate,
  purchasesIfListed,
  refusal,
  SANDBOX_NOW,
  sandboxTemplate,
  subscribe,
  subscribersOf,
  type Account,
  type Attempt,
} from '../lib/scenario.ts';

/** A sandbox frozen at 2026-01-30T12:00:00Z (today is Jan 30 in UTC: the earliest deduction date is Feb 3). */
const setupAt = (api: ApiClient, templateOverrides: Record<string, unknown> = {}) => sandboxTemplate(api, SANDBOX_NOW, templateOverrides);

/** What a rejected add_subscriber must leave unchanged: the template's subscribers and the client's purchases. */
const subscriberState = (account: Account, templateId: string, clientId: string) => async () => ({
  subscribers: await subscribersOf(account, templateId),
  purchases: await purchasesIfListed(account, clientId),
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

describe('subscribers', () => {
  // ------------------------------------------------------------------------ add_subscriber rules
  refusal(
    {
      id: 'SUB-ADD-ONE-TIME-TEMPLATE',
      title: 'add_subscriber on a template with is_subscription false is rejected; nothing is stored',
      cites: 'docs/behaviour.md#subscribers: "The template must have is_subscription true (else 400 invalid_state)"',
      field: '__all__',
      code: 'invalid_state',
    },
    async ({ api }) => {
      const account = await mainAccount(api);
      const client = await makeClient(account);
      const template = await makeOneTimeTemplate(account);
      return {
        attempt: () => addSubscriber(account, template.id, subscriberBody(client.id, later())),
        state: async () => ({ purchases: await purchasesIfListed(account, client.id), template: await getTemplate(account, template.id) }),
      };
    },
  );

  refusal(
    {
      id: 'SUB-ADD-CLIENT-UNKNOWN',
      title: 'client reference: "ID of an existing Client": an unknown id is rejected',
      cites: `${TABLE}: "the id of an existing client of the sandbox (400 does_not_exist)"`,
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
      cites: `${TABLE}: "The same client may be added to one template several times"`,
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
      cites: `${TABLE}: "the start date of the billing cycle. Minimum: today plus 4 days (400 min_value)"`,
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
      cites: `${TABLE}: "Requires subscription_first_deduction_amount when set"`,
      field: 'subscription_first_deduction_amount',
      code: 'required',
    },
    refusedAdd((deduction) => ({ subscription_first_deduction_date: addDays(deduction, -5) })),
  );

  refusal(
    {
      id: 'SUB-ADD-FIRST-AMOUNT-NEEDS-DATE',
      title: 'subscription_first_deduction_amount "Requires subscription_first_deduction_date when set"',
      cites: `${TABLE}: "Requires subscription_first_deduction_date when set"`,
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
        cites: `${TABLE}: "subscription_first_deduction_date | … Must be earlier than subscription_deduction_date"`,
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
      cites: `${TABLE}: "an ad-hoc first collection, for example for a mid-cycle start … Must be earlier than subscription_deduction_date"`,
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
      cites: `${TABLE}: "Must be earlier than subscription_deduction_date. Minimum: today plus 4 days"`,
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
      cites: `${TABLE}: "subscription_first_deduction_amount | integer, at least 1, or null"`,
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
        cites:
          'docs/behaviour.md#mandate-expiry: "mandate_expiry_date must be later than subscription_deduction_date" (billing-sim\'s rule: the spec gives none beyond the date\'s meaning); ' +
          'docs/behaviour.md#subscribers: "a mandate_expiry_date not later than subscription_deduction_date (min_value)"',
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
      cites: `${TABLE}: "the date on which the bank should expire the mandate"; docs/behaviour.md#mandate-expiry: "No billing happens on a date after it"`,
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
      cites: `${TABLE}: "payment_method_whitelist | array of strings, at least 1 item, or null"`,
      field: 'payment_method_whitelist',
      code: 'min_items',
    },
    refusedAdd(() => ({ payment_method_whitelist: [] })),
  );

  refusal(
    {
      id: 'SUB-ADD-WHITELIST-UNKNOWN',
      title: 'payment_method_whitelist: a name GET /payment_methods/ does not return is rejected',
      cites: `${TABLE}: "payment method names as returned by GET /payment_methods/"; docs/behaviour.md#subscribers: "a payment method name that GET /payment_methods/ does not list (invalid_choice)"`,
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
      cites:
        `${TABLE}: "default_service_type | ONEDAY or TWODAY"; openapi.yaml#/components/schemas/BillingTemplateClientFields/properties/default_service_type/enum ` +
        "(billing-sim's enum: the spec names TWODAY and ONEDAY without saying there are no others, and the platform's sources show no such field)",
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
        'docs/behaviour.md#service-types: "A purchase whose due is sooner than its execution time cannot be created", ' +
        '"add_subscriber/ and a subscriber PATCH refuse a default_service_type whose execution time is longer than the template\'s due period" ' +
        "(billing-sim's place for the spec's rule, which is stated of a purchase and its charge, not of a subscriber)",
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
});
