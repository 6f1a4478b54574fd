// Clients: create, list, get, PUT, PATCH, DELETE (the list's `q` filter is in lists.test.ts). The spec
// shows no Client endpoint or field (only "ID of an existing Client"); the platform's own code and
// objects do (docs/fidelity.md): what the operations do with valid input, the fields a client leaves
// unset, the instants of every write, the list's pages and the e-mail rule are normative. The exact
// statuses, PUT's reset of what it leaves out, the list's order and the codes of refusals are
// billing-sim's decisions (docs/behaviour.md), checked by informative checks.
//
// Each list check reads the clients of one e-mail address it made (`?q=`), which no other check's
// clients join, so checks running meanwhile shift none of its pages. `updated_on` can only be seen to
// move once the clock has: the checks of a write's instants work in a sandbox of their own
// (`requires: ['clock']`), frozen, its clock moved a day before the write.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { NOT_FOUND } from '../lib/citations.ts';
import type { ApiClient, Reply } from '../lib/client.ts';
import { CLIENTS_Q, clientsOfOneAddress, expectEachOnce, expectPreviousLeadsBack, LIST_ENVELOPE, LIST_PAGES, NEWEST_FIRST, walkPages } from '../lib/list-pages.ts';
import {
  clientBody,
  expectError,
  expectInstants,
  expectStatus,
  expectSuccess,
  expectWrittenAt,
  INSTANT_RULE,
  later,
  nowSeconds,
  subscriberBody,
  unique,
  withoutUpdatedOn,
  UNKNOWN_ID,
  WRITE_INSTANT_RULE,
} from '../lib/primitives.ts';
import { advanceADay, makeClient, makeTemplate, refusal, sandboxClient, subscribe } from '../lib/scenario.ts';

type Node = Record<string, any>;

const FULL: Node = {
  full_name: 'Jane Doe',
  phone: '+49301234567',
  street_address: 'Hauptstraße 1',
  city: 'Berlin',
  zip_code: '10115',
  state: 'Berlin',
  country: 'DE',
  legal_name: 'Doe GmbH',
  registration_number: 'HRB 12345',
  tax_number: 'DE123456789',
  cc: ['accounts@example.com'],
  bcc: ['audit@example.com'],
};
const DEFAULTS: Node = {
  full_name: '',
  phone: '',
  street_address: '',
  city: '',
  zip_code: '',
  state: '',
  country: '',
  legal_name: '',
  registration_number: '',
  tax_number: '',
  cc: [],
  bcc: [],
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const path = (id: string) => `/clients/${id}/`;

async function read(api: ApiClient, id: string): Promise<Node> {
  const res = await api.get(path(id));
  expect(res.status, `GET ${path(id)}`).toBe(200);
  return res.body as Node;
}

describe('clients', () => {
  check(
    {
      id: 'CLI-CREATE',
      title: 'POST /clients/ creates a client with the fields sent, an id, type "client", and created_on ≤ updated_on in Unix seconds of now',
      cites: `openapi.yaml#createClient; ${INSTANT_RULE}`,
    },
    async (ctx) => {
      const body = clientBody(FULL);
      const res = await ctx.api.post('/clients/', body);
      expectSuccess(res, 'POST /clients/');
      expect(res.body).toMatchObject({ ...body, type: 'client' });
      expect(res.body.id).toMatch(UUID);
      expectInstants(res.body, await nowSeconds(ctx), 'the client created');
    },
  );

  check(
    {
      id: 'CLI-CREATE-STATUS',
      title: 'Creating a client answers 201',
      cites: 'docs/behaviour.md#status-codes: "201 | a create"; docs/fidelity.md#not-simulated: "Status codes of creates other than purchases | not documented"',
      level: 'informative',
    },
    async ({ api }) => {
      expect((await api.post('/clients/', clientBody())).status).toBe(201);
    },
  );

  check(
    {
      id: 'CLI-CREATE-DEFAULTS',
      title: 'Omitted client fields are answered as the platform answers them: empty strings and empty cc/bcc lists',
      cites: `openapi.yaml#/components/schemas/ClientFields; docs/fidelity.md#objects: "A client's unset fields", "for each text field", "[] for cc and bcc"`,
    },
    async ({ api }) => {
      const email = `${unique()}@example.com`;
      const res = await api.post('/clients/', { email });
      expectSuccess(res, 'POST /clients/');
      expect(res.body).toMatchObject({ email, ...DEFAULTS });
    },
  );

  check(
    { id: 'CLI-GET', title: 'GET /clients/{id}/ returns the client as created', cites: 'openapi.yaml#getClient' },
    async ({ api }) => {
      const client = await makeClient(api, FULL);
      expect(await read(api, client.id)).toEqual(client);
    },
  );

  check(
    {
      id: 'CLI-LIST',
      title: 'GET /clients/ answers {results, next, previous} and lists a created client; page_size limits the page',
      cites: `openapi.yaml#listClients; openapi.yaml#/components/schemas/ClientList; ${LIST_ENVELOPE}; docs/behaviour.md#lists: "page_size (default 100, at most 1000)"`,
    },
    async ({ api }) => {
      const { email, clients } = await clientsOfOneAddress(api, 2);
      const res = await api.get(`/clients/?q=${encodeURIComponent(email)}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['next', 'previous', 'results']);
      expect((res.body.results as Node[]).find((c) => c.id === clients[0]!.id)).toEqual(clients[0]);
      const one = await api.get(`/clients/?q=${encodeURIComponent(email)}&page_size=1`);
      expect(one.status).toBe(200);
      expect(one.body.results).toHaveLength(1);
      expect(one.body.next, 'with more clients than page_size, next links the next page').not.toBeNull();
      expect(one.body.previous, 'the first page has no previous page').toBeNull();
    },
  );

  check(
    { id: 'CLI-LIST-NEWEST-FIRST', title: 'Clients are listed newest first', cites: `${NEWEST_FIRST}; openapi.yaml#listClients: "newest first"`, level: 'informative' },
    async ({ api }) => {
      const { email, clients } = await clientsOfOneAddress(api, 3);
      const listed = expectStatus(await api.get(`/clients/?q=${encodeURIComponent(email)}`), 200, 'GET /clients/?q=').results as Node[];
      const positions = clients.map((c) => listed.findIndex((l) => l.id === c.id));
      expect(positions.every((p) => p >= 0), 'the three clients of the address are listed').toBe(true);
      expect(positions[2]).toBeLessThan(positions[1]!);
      expect(positions[1]).toBeLessThan(positions[0]!);
    },
  );

  check(
    {
      id: 'CLI-LIST-PAGINATION',
      title: 'Read with page_size=2 by following next, the clients of one address are each on exactly one page; next keeps q and page_size; the last page has no next; previous leads back',
      cites: `${LIST_PAGES}; ${CLIENTS_Q}`,
    },
    async ({ api, target }) => {
      const { email, clients } = await clientsOfOneAddress(api, 4);
      const filters = { q: email };
      const walk = await walkPages(api, target, '/clients/', filters, 2);
      expectEachOnce(walk, clients.map((c) => c.id), `the clients of ${email}`);
      await expectPreviousLeadsBack(api, target, walk, filters, 2);
    },
  );

  check(
    {
      id: 'CLI-LIST-PAGE-PAST-END',
      title: 'A page past the last is an empty page with no next, not an error',
      cites: 'docs/behaviour.md#lists: "A page past the end is an empty page, not an error"; openapi.yaml#/components/parameters/Page: "A page past the last answers an empty results"',
      level: 'informative',
    },
    async ({ api }) => {
      const beyond = await api.get('/clients/?page=100000&page_size=1000');
      expect(beyond.status).toBe(200);
      expect(beyond.body).toMatchObject({ results: [], next: null });
    },
  );

  check(
    {
      id: 'CLI-PUT',
      title: 'PUT /clients/{id}/ stores the new values; created_on stays, updated_on is not before it',
      cites: `openapi.yaml#updateClient; ${WRITE_INSTANT_RULE}`,
    },
    async (ctx) => {
      const { api } = ctx;
      const client = await makeClient(api);
      const body = clientBody(FULL);
      const res = await api.put(path(client.id), body);
      expectSuccess(res, 'PUT');
      const stored = await read(api, client.id);
      expect(stored).toMatchObject({ ...body, id: client.id, created_on: client.created_on });
      expect(stored.updated_on, 'updated_on after a PUT').toBeGreaterThanOrEqual(client.updated_on);
      expectInstants(stored, await nowSeconds(ctx), 'the client read back');
      expect(res.body).toEqual(stored);
    },
  );

  check(
    {
      id: 'CLI-PUT-INSTANTS',
      title: 'A PUT a day after the create keeps created_on and moves updated_on to the instant of the write',
      cites: WRITE_INSTANT_RULE,
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client } = await sandboxClient(api);
      const now = await advanceADay(account);
      const answer = expectSuccess(await account.api.put(path(client.id), clientBody({ full_name: 'Grace Hopper' })), 'PUT');
      expectWrittenAt(client, answer, now, 'the PUT answer');
      expectWrittenAt(client, await read(account.api, client.id), now, 'the client read back');
    },
  );

  check(
    {
      id: 'CLI-PUT-RESETS-OMITTED',
      title: 'PUT is a full replacement: omitted optional fields return to their defaults',
      cites:
        'openapi.yaml#updateClient: "omitted optional fields return to their defaults"; docs/behaviour.md#put-and-patch: "optional fields it leaves out return to their defaults"; ' +
        'docs/fidelity.md#not-simulated: "Client PUT, PATCH, DELETE | not confirmed" (billing-sim\'s decision)',
      level: 'informative',
    },
    async ({ api }) => {
      const client = await makeClient(api, FULL);
      expect((await api.put(path(client.id), { email: client.email })).status).toBe(200);
      expect(await read(api, client.id)).toMatchObject({ email: client.email, ...DEFAULTS });
    },
  );

  refusal(
    {
      id: 'CLI-PUT-EMAIL-REQUIRED',
      title: 'PUT without email (and without bank_account and bank_code) is rejected, and nothing changes',
      cites: 'docs/behaviour.md#field-names: "Either an email or (bank_account and bank_code)"; docs/fidelity.md#request-fields: "A client\'s e-mail", "Either an email or (bank_account and bank_code)"',
      field: 'email',
      code: 'required',
      // The platform's rule spans three fields: a Django REST framework serializer may answer it as one
      // error of the whole object (`__all__`, DRF's default code `invalid`) rather than on `email`.
      also: [
        ['__all__', 'required'],
        ['__all__', 'invalid'],
      ],
      codeCites: 'docs/behaviour.md#error-codes: "required | 400 | a required field is missing"; docs/fidelity.md#request-fields: "400 required on email otherwise"',
    },
    async ({ api }) => {
      const client = await makeClient(api, FULL);
      return { attempt: () => api.put(path(client.id), { full_name: 'No Email' }), state: () => read(api, client.id) };
    },
  );

  check(
    {
      id: 'CLI-PATCH',
      title: 'PATCH /clients/{id}/ changes only the fields sent',
      cites: `openapi.yaml#patchClient; docs/fidelity.md#request-fields: "WPFunnels Pro looks its customer up, then patches the client", "changes the fields sent and keeps the others"; ${WRITE_INSTANT_RULE}`,
    },
    async ({ api }) => {
      const client = await makeClient(api, FULL);
      const res = await api.patch(path(client.id), { phone: '+60123456789', cc: [] });
      expectSuccess(res, 'PATCH');
      const stored = await read(api, client.id);
      expect(withoutUpdatedOn(stored)).toEqual(withoutUpdatedOn({ ...client, phone: '+60123456789', cc: [] }));
      expect(stored.updated_on).toBeGreaterThanOrEqual(client.updated_on);
      expect(res.body).toEqual(stored);
    },
  );

  check(
    {
      id: 'CLI-PATCH-INSTANTS',
      title: 'A PATCH a day after the create keeps created_on and moves updated_on to the instant of the write',
      cites: WRITE_INSTANT_RULE,
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client } = await sandboxClient(api);
      const now = await advanceADay(account);
      const answer = expectSuccess(await account.api.patch(path(client.id), { full_name: 'Grace Hopper' }), 'PATCH');
      expectWrittenAt(client, answer, now, 'the PATCH answer');
      expectWrittenAt(client, await read(account.api, client.id), now, 'the client read back');
    },
  );

  check(
    { id: 'CLI-DELETE', title: 'DELETE /clients/{id}/ removes the client: it can no longer be read nor is it listed', cites: 'openapi.yaml#deleteClient' },
    async ({ api }) => {
      const client = await makeClient(api);
      expectSuccess(await api.delete(path(client.id)), 'DELETE');
      expect((await api.get(path(client.id))).status, 'GET of the deleted client').toBe(404);
      const listed = expectStatus(await api.get(`/clients/?q=${encodeURIComponent(client.email)}`), 200, 'GET /clients/?q=').results as Node[];
      expect(listed.map((c) => c.id)).not.toContain(client.id);
    },
  );

  check(
    {
      id: 'CLI-DELETE-STATUS',
      title: 'DELETE answers 204 with no body; a second DELETE answers 404',
      cites: 'docs/behaviour.md#status-codes: "204 | a delete; no body", "404 | an unknown path, an unknown id"; docs/fidelity.md#not-simulated: "Client PUT, PATCH, DELETE | not confirmed"',
      level: 'informative',
    },
    async ({ api }) => {
      const client = await makeClient(api);
      const res = await api.delete(path(client.id));
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await api.delete(path(client.id))).status).toBe(404);
    },
  );

  check(
    {
      id: 'CLI-DELETE-SUBSCRIBER-PROTECTED',
      title: 'A client that is still a subscriber cannot be deleted: 400, __all__: protected, and the client stays',
      cites:
        'openapi.yaml#deleteClient: "A client that is still a subscriber … cannot be deleted: 400 with code protected"; docs/behaviour.md#deleting: "A client that still has subscribers → 400 protected"; ' +
        'docs/fidelity.md#not-simulated: "Client PUT, PATCH, DELETE | not confirmed" (billing-sim\'s decision)',
      level: 'informative',
    },
    async (ctx) => {
      const { api } = ctx;
      const client = await makeClient(api);
      await subscribe(ctx.api, (await makeTemplate(api, { subscription_trial_periods: 1 })).id, subscriberBody(client.id, later()));
      expectError(await api.delete(path(client.id)), '__all__', 'protected');
      expect(await read(api, client.id)).toEqual(client);
    },
  );

  check(
    {
      id: 'CLI-UNKNOWN-ID',
      title: 'GET, PUT, PATCH and DELETE of an unknown client id answer 404, and PUT creates nothing',
      cites: `openapi.yaml#/components/parameters/Id: "unknown, or of another sandbox → 404"; ${NOT_FOUND}`,
    },
    async ({ api }) => {
      const target = path(UNKNOWN_ID);
      const replies: Array<[string, Reply]> = [
        ['GET', await api.get(target)],
        ['PUT', await api.put(target, clientBody())],
        ['PATCH', await api.patch(target, { full_name: 'x' })],
        ['DELETE', await api.delete(target)],
        ['GET after PUT', await api.get(target)],
      ];
      for (const [what, res] of replies) expect(res.status, `${what} of an unknown client: ${res.text.slice(0, 300)}`).toBe(404);
    },
  );

  check(
    {
      id: 'CLI-UNKNOWN-ID-404',
      title: 'An unknown client id → 404 with __all__: not_found',
      cites: `${NOT_FOUND}; docs/behaviour.md#error-codes: "not_found | 404"`,
      level: 'informative',
    },
    async ({ api }) => {
      const target = path(UNKNOWN_ID);
      for (const res of [await api.get(target), await api.put(target, clientBody()), await api.patch(target, { full_name: 'x' }), await api.delete(target)]) {
        expectError(res, '__all__', 'not_found', { status: 404 });
      }
    },
  );
});
