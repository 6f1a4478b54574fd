// A declined automatic charge of a subscription and what it leaves: the billed purchase stays `sent`
// with the platform's event `purchase.subscription_charge_failure` and an invoice for the client to pay;
// the subscriber stays active, its next billing scheduled and charged again (docs/behaviour.md#automatic-charges,
// docs/fidelity.md#subscribers). The client's card is saved at the simulated checkout with
// `token_outcome: "failure"`, so that every charge with it is declined. Each check runs in a simulator
// sandbox of its own, frozen at a chosen instant and moved with POST /sim/v1/clock/advance; the dates
// cross the turn of a year, in time zones east and west of UTC.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import type { ApiClient } from '../lib/client.ts';
import { ACTIVE_AT_ONCE, subscriberBody, zoned } from '../lib/primitives.ts';
import {
  advanceTo,
  generated,
  getSubscriber,
  issuedBy,
  outbox,
  sandboxTemplate as setup,
  saveToken,
  subscribe,
} from '../lib/scenario.ts';
import { eventTypesOf } from '../lib/time-scenes.ts';

/**
 * A monthly template charged at period end in `timezone`, and its client subscribed from `launch`
 * with a saved card whose every charge is declined.
 */
async function declinedCard(api: ApiClient, now: string, currency: string, timezone: string, launch: string) {
  const { account, client, template } = await setup(api, now, { ...ACTIVE_AT_ONCE, ...zoned(currency, timezone) });
  await saveToken(account, client.id, { tokenOutcome: 'failure' });
  const { subscriber } = await subscribe(account, template.id, subscriberBody(client.id, launch));
  return { account, client, template, subscriber };
}

describe('time', () => {
  check(
    {
      id: 'TIME-SUBSCRIPTION-CHARGE-FAILURE',
      title:
        'a declined automatic charge: the billed purchase stays sent, event purchase.subscription_charge_failure (no purchase.paid), an invoice e-mailed to the client ' +
        '(Australia/Sydney: cycle from Dec 31, 2027, billed Jan 31, 2028)',
      cites:
        'docs/behaviour.md#automatic-charges: "decline … → status sent, event purchase.subscription_charge_failure, and an invoice e-mail when the subscriber\'s send_invoice_on_charge_failure is true"; ' +
        'docs/fidelity.md#charge-errors: "A declined automatic charge of a subscription | the purchase stays sent; event purchase.subscription_charge_failure [CS Event]"; ' +
        'docs/fidelity.md#subscribers: "whenever a subscription payment fails, your customer will automatically receive an invoice he can pay"',
      requires: ['clock', 'payments', 'events'],
    },
    async ({ api }) => {
      const { account, client, template } = await declinedCard(api, '2027-12-20T12:00:00Z', 'AUD', 'Australia/Sydney', '2027-12-31');
      // 00:00 of Jan 31 in Sydney is 13:00 UTC the day before; by midnight UTC the billing has run.
      await advanceTo(account, '2028-01-31T00:00:00Z');
      const [billed] = await generated(account, template.id, client.id);
      expect(billed, 'the billing of Jan 31 made a purchase').toBeDefined();
      expect([billed!.issued, billed!.status]).toEqual(['2028-01-31', 'sent']);
      const events = await eventTypesOf(account, billed!.id);
      expect(events, "the purchase's events").toContain('purchase.subscription_charge_failure');
      expect(events, 'a declined charge pays nothing').not.toContain('purchase.paid');
      const mail = (await outbox(account)).filter((m) => m.purchase_id === billed!.id);
      expect(mail.map((m) => [m.kind, m.to])).toEqual([['invoice', client.email]]);
    },
  );

  check(
    {
      id: 'TIME-CHARGE-FAILURE-SUBSCRIBER',
      title:
        'after a declined automatic charge the subscriber stays active: subscription_billing_scheduled_on moves to the next billing date, ' +
        'number_of_billing_cycles_passed counts one more, and the next billing is charged again (America/New_York: billed Dec 30, 2026, next Jan 30, 2027)',
      cites:
        'docs/behaviour.md#automatic-charges: "A declined charge leaves the subscriber active", "subscription_billing_scheduled_on moves to the next billing date", ' +
        '"number_of_billing_cycles_passed counts the date", "the next billing date is charged again"; ' +
        `docs/behaviour.md#subscribers: "The new subscriber's status follows the API spec's state table"; ` +
        'docs/fidelity.md#subscribers: "store a new card for upcoming payments", "If not null, reports the date when the next billing is scheduled for this client"',
      requires: ['clock', 'payments'],
    },
    async ({ api }) => {
      const { account, client, template, subscriber } = await declinedCard(api, '2026-11-20T12:00:00Z', 'USD', 'America/New_York', '2026-11-30');
      // Charged at period end: the first charge is one period after the launch on Nov 30.
      await advanceTo(account, '2026-12-29T23:59:59Z');
      const before = await getSubscriber(account, template.id, subscriber.id);
      expect([before.status, before.subscription_billing_scheduled_on]).toEqual(['active', '2026-12-30']);
      expect(await issuedBy(account, template.id, client.id, '2026-12-30T23:59:59Z')).toEqual(['2026-12-30']);
      const [declined] = await generated(account, template.id, client.id);
      expect(declined!.status, 'the declined billing is left to pay').not.toBe('paid');
      const after = await getSubscriber(account, template.id, subscriber.id);
      expect({
        status: after.status,
        subscription_billing_scheduled_on: after.subscription_billing_scheduled_on,
        number_of_billing_cycles_passed: after.number_of_billing_cycles_passed,
      }).toEqual({ status: 'active', subscription_billing_scheduled_on: '2027-01-30', number_of_billing_cycles_passed: before.number_of_billing_cycles_passed + 1 });
      // The subscription goes on: the next billing date makes (and tries to charge) its purchase.
      expect(await issuedBy(account, template.id, client.id, '2027-01-30T23:59:59Z')).toEqual(['2026-12-30', '2027-01-30']);
    },
  );
});
