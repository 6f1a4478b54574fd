// Subscribers once added: PATCH /billing_templates/{id}/clients/{id}/ (status between active and
// subscription_paused only, the read-only client reference, the other fields under the rules of add),
// the status add_subscriber sets itself, and the list and get of a template's subscribers. The checks
// work in the main account with dates far ahead of the wall clock, but for the instants of a PATCH,
// which need a clock that moves (a sandbox of the check's own).

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { IGNORED_OR_REFUSED, SUBSCRIBER_FIELDS as TABLE } from '../lib/citations.ts';
import { expectNotTaken, expectRefusedOrIgnored } from '../lib/ignored-fields.ts';
import type { ApiClient } from '../lib/client.ts';
import { expectEachOnce, expectPreviousLeadsBack, walkPages } from '../lib/list-pages.ts';
import {
  ACTIVE_AT_ONCE,
  addDays,
  expectError,
  expectRejected,
  expectStatus,
  expectWrittenAt,
  later,
  paymentMethods,
  subscriberBody,
  UNKNOWN_ID,
  wallDay,
  WRITE_INSTANT_RULE,
} from '../lib/primitives.ts';
import {
  addSubscriber,
  advanceADay,
  getSubscriber,
  mainSubscriber as subscribed,
  mainTemplate as setup,
  makeClient,
  makeTemplate,
  patchSubscriber,
  purchasesIfListed,
  refusal,
  sandboxSubscriber,
  SANDBOX_NOW,
  subscribe,
  subscribersOf,
} from '../lib/scenario.ts';

/** setup() charged at period end, a second such template, and two subscriptions of the client to the first (a, then b). */
async function twoSubscriptions(api: ApiClient) {
  const { account, client, template } = await setup(api, ACTIVE_AT_ONCE);
  const otherTemplate = await makeTemplate(account, ACTIVE_AT_ONCE);
  const a = await subscribe(account, template.id, subscriberBody(client.id, later()));
  const b = await subscribe(account, template.id, subscriberBody(client.id, wallDay(31)));
  return { account, client, template, otherTemplate, a, b };
}

describe('subscribers', () => {
  // ------------------------------------------------------------------------ editing a subscriber
  check(
    {
      id: 'SUB-PATCH-PAUSE-RESUME',
      title: 'PATCH status: active → subscription_paused → active',
      cites: `${TABLE}: "editable between active and subscription_paused only"; docs/behaviour.md#subscribers: "status moves only between active and subscription_paused"; openapi.yaml#patchSubscriber`,
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
        cites: `${TABLE}: "editable between active and subscription_paused only"; docs/behaviour.md#subscribers: "status moves only between active and subscription_paused (else 400 invalid_state)"`,
        field: '__all__',
        code: 'invalid_state',
        // invalid_state is billing-sim's code; the platform publishes none for this refusal, and a Django
        // REST framework serializer would answer a status it refuses on `status` itself.
        also: [
          ['status', 'invalid'],
          ['status', 'invalid_choice'],
        ],
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
        cites: `${TABLE}: "read-only while the subscriber is inactive or pending"`,
        field: '__all__',
        code: 'invalid_state',
        // invalid_state is billing-sim's code; the platform publishes none for this refusal, and a Django
        // REST framework serializer would answer a status it refuses on `status` itself.
        also: [
          ['status', 'invalid'],
          ['status', 'invalid_choice'],
        ],
      },
      async ({ api }) => {
        const { account, client, template, subscriber } = await subscribed(api);
        expect(subscriber.status).toBe('pending');
        return {
          attempt: () => patchSubscriber(account, template.id, subscriber.id, { status }),
          state: async () => ({ subscriber: await getSubscriber(account, template.id, subscriber.id), purchases: await purchasesIfListed(account, client.id) }),
        };
      },
    );
  }

  check(
    {
      id: 'SUB-PATCH-CLIENT-READ-ONLY',
      title: 'client reference "Read-only after creation": a PATCH with another client_id does not change it',
      cites: `${TABLE}: "Read-only after creation"; docs/behaviour.md#subscribers: "client_id and the deduction dates and amount are fixed once the subscriber exists (read_only)"`,
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
      title: 'a PATCH with another client_id is refused naming client_id, or the field is ignored as the platform ignores a read-only field; the same client_id is accepted',
      cites:
        `${TABLE}: "Read-only after creation"; docs/behaviour.md#read-only-fields: "A read-only field may be sent back with its stored value"; ${IGNORED_OR_REFUSED}; ` +
        'docs/fidelity.md#request-fields: "whose serializers drop unknown and read-only fields"',
    },
    async ({ api }) => {
      const { account, client, template, subscriber } = await subscribed(api, ACTIVE_AT_ONCE);
      const other = await makeClient(account);
      const reply = await patchSubscriber(account, template.id, subscriber.id, { client_id: other.id });
      if (expectRefusedOrIgnored(reply, { client_id: other.id }) === 'ignored') {
        expectNotTaken(reply.body, { client_id: other.id }, 'the subscriber answered');
        expectNotTaken(await getSubscriber(account, template.id, subscriber.id), { client_id: other.id }, 'the subscriber read back');
      }
      expectStatus(await patchSubscriber(account, template.id, subscriber.id, { client_id: client.id }), 200, 'PATCH the same client_id');
      expect((await getSubscriber(account, template.id, subscriber.id)).client_id).toBe(client.id);
    },
  );

  check(
    {
      id: 'SUB-PATCH-OTHER-FIELDS',
      title: 'PATCH of the other fields follows the rules of add: mandate_expiry_date not after the deduction date → 400 min_value, an empty whitelist → 400 min_items; valid values are stored',
      cites:
        'openapi.yaml#patchSubscriber: "Other writable fields … may be changed under the same rules as on add"; docs/behaviour.md#subscribers: "A PATCH of a subscriber may change send_receipt"; ' +
        'docs/behaviour.md#mandate-expiry: "A PATCH may move it (still later than the deduction date)"',
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
      id: 'SUB-PATCH-INSTANTS',
      title: 'A PATCH a day after add_subscriber keeps created_on and moves updated_on to the instant of the write',
      cites: `${WRITE_INSTANT_RULE}; docs/fidelity.md#objects: "BillingTemplateClient"`,
      requires: ['clock'],
    },
    async ({ api }) => {
      // Today is 2026-01-30 in the sandbox: its cycle starts on 2026-02-10, so the day moved bills nothing.
      const { account, template, subscriber } = await sandboxSubscriber(api, SANDBOX_NOW, ACTIVE_AT_ONCE, '2026-02-10');
      const now = await advanceADay(account);
      const answer = expectStatus(await patchSubscriber(account, template.id, subscriber.id, { send_receipt: false }), 200, 'PATCH');
      expect(answer.send_receipt, 'the PATCH is applied').toBe(false);
      expectWrittenAt(subscriber, answer, now, 'the PATCH answer');
      expectWrittenAt(subscriber, await getSubscriber(account, template.id, subscriber.id), now, 'the subscriber read back');
    },
  );

  check(
    {
      id: 'SUB-ADD-STATUS-SET-BY-SERVER',
      title: "status on add_subscriber is the server's: a value other than the resulting one is refused, or ignored as the platform ignores it (the subscriber is pending); the resulting one is accepted",
      cites:
        `${TABLE}: "status | inactive, pending, active or subscription_paused | – | set by the server"; ` +
        'openapi.yaml#/components/schemas/BillingTemplateClientFields/properties/status: "a value sent there that differs from the resulting status → 400 read_only"; ' +
        `${IGNORED_OR_REFUSED}; docs/fidelity.md#request-fields: "or that are always the server's", "whose serializers drop unknown and read-only fields"`,
    },
    async ({ api }) => {
      const { account, client, template } = await setup(api);
      const before = await subscribersOf(account, template.id);
      const added: string[] = [];
      for (const status of ['active', 'subscription_paused']) {
        const reply = await addSubscriber(account, template.id, subscriberBody(client.id, later(), { status }));
        if (expectRefusedOrIgnored(reply, { status }) === 'refused') continue;
        // Ignored: the subscriber is what the same request without it makes, pending until its first purchase is paid.
        const made = reply.body.billing_template_client;
        expect(made.status, `add_subscriber with status "${status}"`).toBe('pending');
        expect((await getSubscriber(account, template.id, made.id)).status, `the subscriber read back, sent status "${status}"`).toBe('pending');
        added.push(made.id);
      }
      expect((await subscribersOf(account, template.id)).filter((s: { id: string }) => !added.includes(s.id))).toEqual(before);
      expect((await subscribe(account, template.id, subscriberBody(client.id, later(), { status: 'pending' }))).subscriber.status).toBe('pending');
    },
  );

  // ------------------------------------------------------------------------ list and get
  check(
    {
      id: 'SUB-LIST-GET',
      title: 'GET /billing_templates/{id}/clients/ lists that template\'s subscribers only; GET …/clients/{id}/ returns one',
      cites:
        'openapi.yaml#/components/schemas/BillingTemplateClientFields: "Connects a Client to a subscription template and stores one subscriber"; ' +
        'docs/behaviour.md#endpoints: "GET /billing_templates/{id}/clients/ GET/PATCH /billing_templates/{id}/clients/{btc_id}/"; openapi.yaml#listSubscribers: "The template\'s subscribers"; openapi.yaml#getSubscriber',
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
      cites:
        'docs/behaviour.md#lists: "newest first"; openapi.yaml#/components/parameters/BtcId: "of another template or of another sandbox → 404"; ' +
        'docs/fidelity.md#objects: "Its page parameters are not published"',
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

  check(
    {
      id: 'SUB-LIST-PAGES',
      title: "Read with page_size=2 by following next, a template's four subscribers are each on exactly one page; the last page has no next; previous leads back",
      cites:
        'docs/fidelity.md#objects: "a client reads a list by following next until it is null, so no object is on two pages and the last page\'s next is null"; ' +
        'docs/behaviour.md#lists: "the pages hold every object of the list once"; openapi.yaml#listSubscribers',
    },
    async ({ api, target }) => {
      const { account, client, template } = await setup(api, ACTIVE_AT_ONCE);
      // The same client may be added to a template several times (the platform's BillingTemplateClient).
      const ids: string[] = [];
      for (let i = 0; i < 4; i += 1) ids.push((await subscribe(account, template.id, subscriberBody(client.id, later()))).subscriber.id);
      const collection = `/billing_templates/${template.id}/clients/`;
      const walk = await walkPages(api, target, collection, {}, 2);
      expectEachOnce(walk, ids, `the subscribers of template ${template.id}`);
      await expectPreviousLeadsBack(api, target, walk, {}, 2);
    },
  );
});
