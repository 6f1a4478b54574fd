// Clients: create, list, get, PUT, PATCH, DELETE. The spec shows no Client endpoint or field (only
// "ID of an existing Client"), so this group checks the document's operations: what they do with
// valid input is normative; the exact statuses, defaults, list order and pagination links are
// billing-sim's decisions (docs/behaviour.md), checked by informative checks.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import type { ApiClient, Reply } from '../lib/client.ts';
import type { TargetConfig } from '../lib/config.ts';
import {
  clientBody,
  expectError,
  expectRejected,
  expectSuccess,
  later,
  subscriberBody,
  unique,
  withoutUpdatedOn,
  UNKNOWN_ID,
} from '../lib/primitives.ts';
import {
  makeClient,
  makeTemplate,
  subscribe,
} from '../lib/scenario.ts';

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

/** A list page link as a path under the API base, for the client. */
function relative(target: TargetConfig, link: string): string {
  expect(link.startsWith(`${target.baseUrl}/`), `the link ${link} must be an absolute URL under the API base ${target.baseUrl}`).toBe(true);
  return link.slice(target.baseUrl.length);
}

/**
 * Reads a list of the account in several requests. Other check files add clients meanwhile, which
 * shifts the pages: an attempt during which the newest client changed is repeated (3 attempts).
 */
async function stableRead(api: ApiClient, read: () => Promise<void>): Promise<void> {
  const newest = async () => (await api.get('/clients/?page_size=1')).body.results[0]?.id as string | undefined;
  for (let attempt = 1; ; attempt += 1) {
    const before = await newest();
    let failure: unknown;
    try {
      await read();
    } catch (error) {
      failure = error;
    }
    if ((await newest()) === before || attempt === 3) {
      if (failure) throw failure;
      return;
    }
  }
}

describe('clients', () => {
  check(
    { id: 'CLI-CREATE', title: 'POST /clients/ creates a client with the fields sent, an id and type "client"', cites: 'openapi.yaml#createClient' },
    async ({ api }) => {
      const body = clientBody(FULL);
      const res = await api.post('/clients/', body);
      expectSuccess(res, 'POST /clients/');
      expect(res.body).toMatchObject({ ...body, type: 'client' });
      expect(res.body.id).toMatch(UUID);
      expect(res.body.updated_on).toBeGreaterThanOrEqual(res.body.created_on);
    },
  );

  check(
    { id: 'CLI-CREATE-STATUS', title: 'Creating a client answers 201', cites: 'docs/behaviour.md#status-codes: "201 | a create"', level: 'informative' },
    async ({ api }) => {
      expect((await api.post('/clients/', clientBody())).status).toBe(201);
    },
  );

  check(
    {
      id: 'CLI-CREATE-DEFAULTS',
      title: 'Omitted client fields take the document defaults: empty strings and empty cc/bcc lists',
      cites: 'openapi.yaml#/components/schemas/ClientFields (the x-default of each field)',
      level: 'informative',
    },
    async ({ api }) => {
      const email = `${unique()}@example.com`;
      const res = await api.post('/clients/', { email });
      expect(res.status).toBe(201);
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
      cites: 'openapi.yaml#listClients; openapi.yaml#/components/schemas/ClientList; docs/behaviour.md#lists: "page_size (default 100, at most 1000)"',
    },
    async ({ api }) => {
      const client = await makeClient(api);
      await makeClient(api);
      const res = await api.get('/clients/?page_size=25');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['next', 'previous', 'results']);
      expect((res.body.results as Node[]).find((c) => c.id === client.id)).toEqual(client);
      const one = await api.get('/clients/?page_size=1');
      expect(one.status).toBe(200);
      expect(one.body.results).toHaveLength(1);
      expect(one.body.next, 'with more clients than page_size, next links the next page').not.toBeNull();
      expect(one.body.previous, 'the first page has no previous page').toBeNull();
    },
  );

  check(
    { id: 'CLI-LIST-NEWEST-FIRST', title: 'Clients are listed newest first', cites: 'docs/behaviour.md#lists: "newest first"; openapi.yaml#listClients: "newest first"', level: 'informative' },
    async ({ api }) => {
      const made = [await makeClient(api), await makeClient(api), await makeClient(api)];
      const ids = ((await api.get('/clients/?page_size=25')).body.results as Node[]).map((c) => c.id);
      const positions = made.map((c) => ids.indexOf(c.id));
      expect(positions.every((p) => p >= 0), 'the three new clients are on the first page').toBe(true);
      expect(positions[2]).toBeLessThan(positions[1]!);
      expect(positions[1]).toBeLessThan(positions[0]!);
    },
  );

  check(
    {
      id: 'CLI-LIST-PAGINATION',
      title: 'next and previous are absolute URLs of the neighbouring pages; pages do not overlap; a page past the last is empty',
      cites: `docs/behaviour.md#lists: "next and previous are absolute URLs that keep the request's other parameters. A page past the end is an empty page"`,
      level: 'informative',
    },
    async ({ api, target }) => {
      await makeClient(api);
      await makeClient(api);
      await makeClient(api);
      await stableRead(api, async () => {
        const first = await api.get('/clients/?page_size=2');
        expect(first.body.results).toHaveLength(2);
        expect(first.body.previous).toBeNull();
        const second = await api.get(relative(target, first.body.next));
        expect(second.status).toBe(200);
        expect(second.body.results.length).toBeGreaterThanOrEqual(1);
        const firstIds = (first.body.results as Node[]).map((c) => c.id);
        for (const c of second.body.results as Node[]) expect(firstIds, 'page 2 repeats nothing of page 1').not.toContain(c.id);
        expect(second.body.previous, 'page 2 links back to page 1').not.toBeNull();
        const back = await api.get(relative(target, second.body.previous));
        expect((back.body.results as Node[]).map((c) => c.id)).toEqual(firstIds);
      });
      const beyond = await api.get('/clients/?page=100000&page_size=1000');
      expect(beyond.status).toBe(200);
      expect(beyond.body).toMatchObject({ results: [], next: null });
    },
  );

  check(
    { id: 'CLI-PUT', title: 'PUT /clients/{id}/ stores the new values', cites: 'openapi.yaml#updateClient' },
    async ({ api }) => {
      const client = await makeClient(api);
      const body = clientBody(FULL);
      const res = await api.put(path(client.id), body);
      expectSuccess(res, 'PUT');
      const stored = await read(api, client.id);
      expect(stored).toMatchObject({ ...body, id: client.id, created_on: client.created_on });
      expect(res.body).toEqual(stored);
    },
  );

  check(
    {
      id: 'CLI-PUT-RESETS-OMITTED',
      title: 'PUT is a full replacement: omitted optional fields return to their defaults',
      cites: 'openapi.yaml#updateClient: "omitted optional fields return to their defaults"; docs/behaviour.md#put-and-patch: "optional fields it leaves out return to their defaults"',
      level: 'informative',
    },
    async ({ api }) => {
      const client = await makeClient(api, FULL);
      expect((await api.put(path(client.id), { email: client.email })).status).toBe(200);
      expect(await read(api, client.id)).toMatchObject({ email: client.email, ...DEFAULTS });
    },
  );

  check(
    {
      id: 'CLI-PUT-EMAIL-REQUIRED',
      title: 'PUT without email (and without bank_account and bank_code) → 400, "email": required, and nothing changes',
      cites: 'docs/behaviour.md#field-names: "Either an email or (bank_account and bank_code)"; docs/behaviour.md#error-codes: "required | 400 | a required field is missing"',
      level: 'informative',
    },
    async ({ api }) => {
      const client = await makeClient(api, FULL);
      expectError(await api.put(path(client.id), { full_name: 'No Email' }), 'email', 'required');
      expect(await read(api, client.id)).toEqual(client);
    },
  );

  check(
    { id: 'CLI-PATCH', title: 'PATCH /clients/{id}/ changes only the fields sent', cites: 'openapi.yaml#patchClient' },
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
    { id: 'CLI-DELETE', title: 'DELETE /clients/{id}/ removes the client: it can no longer be read nor is it listed', cites: 'openapi.yaml#deleteClient' },
    async ({ api }) => {
      const client = await makeClient(api);
      expectSuccess(await api.delete(path(client.id)), 'DELETE');
      expectRejected(await api.get(path(client.id)), 'GET of the deleted client');
      const listed = (await api.get('/clients/?page_size=25')).body.results as Node[];
      expect(listed.map((c) => c.id)).not.toContain(client.id);
    },
  );

  check(
    { id: 'CLI-DELETE-STATUS', title: 'DELETE answers 204 with no body; the client then answers 404', cites: 'docs/behaviour.md#status-codes: "204 | a delete; no body", "404 | an unknown path, an unknown id"', level: 'informative' },
    async ({ api }) => {
      const client = await makeClient(api);
      const res = await api.delete(path(client.id));
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await api.get(path(client.id))).status).toBe(404);
      expect((await api.delete(path(client.id))).status).toBe(404);
    },
  );

  check(
    {
      id: 'CLI-DELETE-SUBSCRIBER-PROTECTED',
      title: 'A client that is still a subscriber cannot be deleted: 400, __all__: protected, and the client stays',
      cites: 'openapi.yaml#deleteClient: "A client that is still a subscriber … cannot be deleted: 400 with code protected"; docs/behaviour.md#deleting: "A client that still has subscribers → 400 protected"',
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
    { id: 'CLI-UNKNOWN-ID', title: 'GET, PUT, PATCH and DELETE of an unknown client id fail, and PUT creates nothing', cites: 'openapi.yaml#/components/parameters/Id: "unknown, or of another sandbox → 404"' },
    async ({ api }) => {
      const target = path(UNKNOWN_ID);
      const replies: Array<[string, Reply]> = [
        ['GET', await api.get(target)],
        ['PUT', await api.put(target, clientBody())],
        ['PATCH', await api.patch(target, { full_name: 'x' })],
        ['DELETE', await api.delete(target)],
        ['GET after PUT', await api.get(target)],
      ];
      for (const [what, res] of replies) expectRejected(res, what);
    },
  );

  check(
    { id: 'CLI-UNKNOWN-ID-404', title: 'An unknown client id → 404 with __all__: not_found', cites: 'docs/behaviour.md#status-codes: "404 | an unknown path, an unknown id, an id of another sandbox"; docs/behaviour.md#error-codes: "not_found | 404"', level: 'informative' },
    async ({ api }) => {
      const target = path(UNKNOWN_ID);
      for (const res of [await api.get(target), await api.put(target, clientBody()), await api.patch(target, { full_name: 'x' }), await api.delete(target)]) {
        expectError(res, '__all__', 'not_found', { status: 404 });
      }
    },
  );
});
