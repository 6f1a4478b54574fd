// Lists: the filters of GET /clients/ and GET /purchases/ and the pages of GET /purchases/ (the client
// list's envelope and pages are checked with the clients, clients.test.ts). Every check reads a set of
// objects it made itself, narrowed by a filter (one e-mail address, one client's or template's
// purchases), so that what other checks create meanwhile never shifts its pages or its answer.
//
// Levels. The envelope, following `next` to the end and `q` are the platform's (docs/fidelity.md
// #objects, #request-fields): normative. GET /purchases/ is the simulator's own (x-simulator-only), so
// its filters are checked only against a target that shows the simulator control API (`requires:
// ['simulator']`); a filter the document offers is no choice among right answers: a list that ignores
// it answers objects it was asked to leave out. What only billing-sim decides — newest first, a page past
// the end, case and whole-address matching of `q` — is informative.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import type { ApiClient } from '../lib/client.ts';
import { CLIENTS_Q as Q, expectEachOnce, expectPreviousLeadsBack, LIST_PAGES as PAGES, NEWEST_FIRST, walkPages } from '../lib/list-pages.ts';
import { expectStatus, expectSuccess } from '../lib/primitives.ts';
import { createPurchase, mainAccount, makeClient, makeOneTimeTemplate, sendInvoice, type Account } from '../lib/scenario.ts';

type Node = Record<string, any>;

const PURCHASE_FILTERS =
  'openapi.yaml#listPurchases: "Optional filters … narrow the list, and next / previous keep them"; ' +
  'docs/behaviour.md#lists: "A filter narrows the list to exactly the objects that match it; several narrow it together"';

/** GET of a list that must answer 200; the ids of its one page. */
async function idsOf(api: ApiClient, path: string): Promise<string[]> {
  return (expectStatus(await api.get(path), 200, `GET ${path}`).results as Node[]).map((item) => item.id as string);
}

/** The list at `path` holds exactly the objects `expected` (ids, any order). */
async function expectExactly(api: ApiClient, path: string, expected: string[], what: string): Promise<void> {
  expect((await idsOf(api, path)).sort(), `GET ${path}: ${what}, and nothing else`).toEqual([...expected].sort());
}

/** A new client of the account with `count` purchases, oldest first. */
async function clientWithPurchases(account: Account, count: number) {
  const client = await makeClient(account);
  const purchases = [];
  for (let i = 0; i < count; i += 1) purchases.push(await createPurchase(account, client.id));
  return { client, purchases };
}

describe('lists', () => {
  // ------------------------------------------------------------------------------- clients

  check(
    {
      id: 'LIST-CLIENTS-Q',
      title: 'GET /clients/?q=EMAIL answers exactly the clients with that e-mail address',
      cites: `${Q}; docs/behaviour.md#lists: "and GET /api/v1/clients/ by q, the e-mail address"`,
    },
    async ({ api }) => {
      const a = await makeClient(api);
      const b = await makeClient(api);
      for (const client of [a, b]) {
        const list = expectStatus(await api.get(`/clients/?q=${encodeURIComponent(client.email)}`), 200, 'GET /clients/?q=');
        expect(list.results, `?q=${client.email}: that client, and no other`).toEqual([client]);
      }
    },
  );

  check(
    {
      id: 'LIST-CLIENTS-Q-WHOLE-ADDRESS',
      title: 'q matches the whole address, ignoring case: the address in capitals finds the client, a part of it finds nothing',
      cites: 'openapi.yaml#listClients: "Only the clients whose email equals this, ignoring case", "never a part of an address"; docs/fidelity.md#request-fields: "clients whose e-mail is q, exactly, case-insensitively"',
      level: 'informative',
    },
    async ({ api }) => {
      const client = await makeClient(api);
      await expectExactly(api, `/clients/?q=${encodeURIComponent(client.email.toUpperCase())}`, [client.id], 'the address in capitals finds the client');
      await expectExactly(api, `/clients/?q=${encodeURIComponent(client.email.split('@')[0]!)}`, [], 'a part of the address finds nothing');
    },
  );

  // ----------------------------------------------------------------------------- purchases

  check(
    {
      id: 'LIST-PURCHASES-CLIENT-ID',
      title: "GET /purchases/?client_id= answers exactly that client's purchases",
      cites: `${PURCHASE_FILTERS}; openapi.yaml#listPurchases: "Only the purchases of this client."`,
      requires: ['simulator'],
    },
    async ({ api }) => {
      const account = await mainAccount(api);
      const a = await clientWithPurchases(account, 2);
      const b = await clientWithPurchases(account, 1);
      for (const { client, purchases } of [a, b]) {
        await expectExactly(api, `/purchases/?client_id=${client.id}`, purchases.map((p) => p.id), "that client's purchases");
      }
    },
  );

  check(
    {
      id: 'LIST-PURCHASES-STATUS',
      title: 'GET /purchases/?status= answers only purchases in that status (a cancelled one and a created one of one client)',
      cites: `${PURCHASE_FILTERS}; openapi.yaml#listPurchases: "Only purchases in this status."`,
      requires: ['simulator'],
    },
    async ({ api }) => {
      const account = await mainAccount(api);
      const { client, purchases } = await clientWithPurchases(account, 2);
      const [created, cancelled] = purchases;
      expectSuccess(await api.post(`/purchases/${cancelled!.id}/cancel/`), 'cancel/');
      await expectExactly(api, `/purchases/?client_id=${client.id}&status=cancelled`, [cancelled!.id], 'the cancelled purchase of the client');
      await expectExactly(api, `/purchases/?client_id=${client.id}&status=created`, [created!.id], 'the created purchase of the client');
    },
  );

  check(
    {
      id: 'LIST-PURCHASES-TEMPLATE-ID',
      title: 'GET /purchases/?billing_template_id= answers only the purchases that template generated',
      cites: `${PURCHASE_FILTERS}; openapi.yaml#listPurchases: "Only the purchases this template generated"`,
      requires: ['simulator'],
    },
    async ({ api }) => {
      const account = await mainAccount(api);
      const client = await makeClient(account);
      const direct = await createPurchase(account, client.id);
      const sent = [];
      for (const template of [await makeOneTimeTemplate(account), await makeOneTimeTemplate(account)]) {
        sent.push({ template, purchase: expectSuccess(await sendInvoice(account, template.id, { client_id: client.id }), 'send_invoice/') as Node });
      }
      const [one, two] = sent;
      await expectExactly(api, `/purchases/?billing_template_id=${one!.template.id}`, [one!.purchase.id], "the first template's invoice");
      await expectExactly(api, `/purchases/?client_id=${client.id}&billing_template_id=${two!.template.id}`, [two!.purchase.id], `the second template's invoice, not ${direct.id}, made without a template`);
    },
  );

  check(
    {
      id: 'LIST-PURCHASES-PAGES',
      title: "Read with page_size=2 by following next, a client's purchases are each on exactly one page; next keeps client_id and page_size; the last page has no next; previous leads back",
      cites: `${PAGES}; ${PURCHASE_FILTERS}`,
      requires: ['simulator'],
    },
    async ({ api, target }) => {
      const account = await mainAccount(api);
      const { client, purchases } = await clientWithPurchases(account, 4);
      const filters = { client_id: client.id };
      const walk = await walkPages(api, target, '/purchases/', filters, 2);
      expectEachOnce(walk, purchases.map((p) => p.id), `the purchases of client ${client.id}`);
      await expectPreviousLeadsBack(api, target, walk, filters, 2);
    },
  );

  check(
    {
      id: 'LIST-PURCHASES-NEWEST-FIRST',
      title: "A client's purchases are listed newest first",
      cites: `${NEWEST_FIRST}; openapi.yaml#listPurchases: "Newest first."`,
      level: 'informative',
      requires: ['simulator'],
    },
    async ({ api }) => {
      const { client, purchases } = await clientWithPurchases(await mainAccount(api), 3);
      expect(await idsOf(api, `/purchases/?client_id=${client.id}`)).toEqual(purchases.map((p) => p.id).reverse());
    },
  );
});
