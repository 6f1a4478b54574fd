// Behavioural faults of the resources checks (clients, billing templates, subscribers, lists,
// instants): see index.ts. Each is a bug a real implementation could have, emulated in the proxy:
// a query parameter the server never reads, a page offset off by one, a link built without the
// request's query, a write that stamps the wrong instant. A fault that stands for a stored state (an
// instant the server wrote wrong) keeps what it wrote, so that a later read of the object shows it too.

import type { Fault, ProxiedRequest, ProxiedResponse, Upstream } from '../fault-proxy.ts';
import { everyObject } from '../fault-proxy.ts';

type Node = Record<string, any>;

/** The request's path and query, read as a URL. */
const urlOf = (request: ProxiedRequest): URL => new URL(request.path, 'http://proxy');

/** A GET of a list of the API: `/api/v1/purchases/`, `/api/v1/billing_templates/{id}/clients/`, … */
const isList = (request: ProxiedRequest): boolean =>
  request.method === 'GET' && /^\/api\/v1\/(clients|purchases|billing_templates|webhooks)\/([0-9a-f-]{36}\/clients\/)?$/.test(urlOf(request).pathname);

/** A filter the server never reads: the query parameter `name` of GET `collection` dropped before it is answered. */
function ignoredFilter(collection: string, name: string, catches: string[]): Fault {
  return {
    name: `a list filter ignored: ${name} on GET ${collection} (the list answered as if unfiltered)`,
    catches,
    request: (request) => {
      const url = urlOf(request);
      if (request.method !== 'GET' || url.pathname !== `/api/v1${collection}` || !url.searchParams.has(name)) return;
      url.searchParams.delete(name);
      request.path = `${url.pathname}${url.search}`;
    },
  };
}

/** The object of a write's path (`/api/v1/clients/{id}/`), or undefined. */
const objectId = (request: ProxiedRequest): string | undefined => /\/([0-9a-f-]{36})\/$/.exec(urlOf(request).pathname)?.[1];

/**
 * Instants a faulty server stored for objects, by id: applied to every later answer that carries the
 * object, as a read of the faulty store would show them.
 */
function storedInstants(): { keep(id: string, fields: Node): void; apply(response: ProxiedResponse): void } {
  const kept = new Map<string, Node>();
  return {
    keep: (id, fields) => kept.set(id, { ...kept.get(id), ...fields }),
    apply: (response) =>
      everyObject(response.body, (object) => {
        const fields = typeof object.id === 'string' ? kept.get(object.id) : undefined;
        if (fields && typeof object.created_on === 'number') Object.assign(object, fields);
      }),
  };
}

/** A write (PUT or PATCH) of a client, template or subscriber that the server answered 200. */
const isEdit = (request: ProxiedRequest, response: ProxiedResponse, methods: string[]): boolean =>
  methods.includes(request.method) && response.status === 200 && /^\/api\/v1\/(clients|billing_templates)\//.test(urlOf(request).pathname) && objectId(request) !== undefined;

/** created_on stamped anew by every PUT: the writer sets both instants to now, as a create does. */
function createdOnRestamped(): Fault {
  const store = storedInstants();
  return {
    name: 'created_on changes on update (a PUT stamps it anew, as a create does)',
    catches: ['CLI-PUT-INSTANTS', 'BT-PUT-INSTANTS'],
    response: (request, response) => {
      if (isEdit(request, response, ['PUT'])) store.keep(objectId(request)!, { created_on: (response.body as Node).updated_on });
      store.apply(response);
    },
  };
}

/** updated_on left as it was by a PATCH: the merge of the stored object puts the old instant back (billing-sim's own bug before issue 41). */
function updatedOnKeptOnPatch(): Fault {
  const store = storedInstants();
  return {
    name: 'updated_on not moved by a PATCH (the stored instant merged back over the new one)',
    catches: ['CLI-PATCH-INSTANTS', 'BT-PATCH-INSTANTS', 'SUB-PATCH-INSTANTS'],
    request: async (request, upstream) => {
      if (request.method !== 'PATCH' || !objectId(request)) return;
      const before = await upstream('GET', urlOf(request).pathname);
      if (before.status === 200) store.keep(objectId(request)!, { updated_on: (before.body as Node).updated_on });
    },
    response: (_request, response) => store.apply(response),
  };
}

/** Page N read from one object too early: page 2 starts with the last object of page 1. */
async function offsetOffByOne(request: ProxiedRequest, response: ProxiedResponse, upstream: Upstream): Promise<void> {
  if (!isList(request) || response.status !== 200) return;
  const url = urlOf(request);
  const page = Number(url.searchParams.get('page') ?? '1');
  if (page < 2) return;
  url.searchParams.set('page', String(page - 1));
  const before = await upstream('GET', `${url.pathname}${url.search}`);
  const last = (before.body as { results?: Node[] }).results?.at(-1);
  if (!last) return;
  const size = Number(url.searchParams.get('page_size') ?? '100');
  const body = response.body as { results: Node[] };
  body.results = [last, ...body.results].slice(0, size);
}

export const FAULTS: Fault[] = [
  ignoredFilter('/purchases/', 'client_id', ['LIST-PURCHASES-CLIENT-ID']),
  ignoredFilter('/purchases/', 'status', ['LIST-PURCHASES-STATUS']),
  ignoredFilter('/purchases/', 'billing_template_id', ['LIST-PURCHASES-TEMPLATE-ID']),
  ignoredFilter('/clients/', 'q', ['LIST-CLIENTS-Q']),
  {
    name: 'pages that overlap (an offset off by one: page 2 repeats the last object of page 1)',
    catches: ['LIST-PURCHASES-PAGES'],
    response: offsetOffByOne,
  },
  {
    name: "a next link that drops the filters (built from page and page_size alone, not the request's query)",
    catches: ['CLI-LIST-PAGINATION'],
    response: (request, response) => {
      const body = response.body as { next?: string | null };
      if (!isList(request) || response.status !== 200 || typeof body.next !== 'string') return;
      const next = new URL(body.next);
      for (const name of [...next.searchParams.keys()]) if (name !== 'page' && name !== 'page_size') next.searchParams.delete(name);
      body.next = next.toString();
    },
  },
  {
    name: 'a last page that still has a next (a full page is taken to mean there are more)',
    catches: ['SUB-LIST-PAGES'],
    response: (request, response) => {
      const body = response.body as { results?: unknown[]; next?: string | null };
      if (!isList(request) || response.status !== 200 || body.next !== null || !body.results) return;
      const url = urlOf(request);
      const size = Number(url.searchParams.get('page_size') ?? '100');
      if (body.results.length !== size) return;
      url.searchParams.set('page', String(Number(url.searchParams.get('page') ?? '1') + 1));
      // An absolute URL as the server's own links are; the suite follows its path on the API base.
      body.next = `http://127.0.0.1${url.pathname}${url.search}`;
    },
  },
  createdOnRestamped(),
  updatedOnKeptOnPatch(),
  {
    name: 'timestamps in milliseconds (created_on and updated_on of clients and templates)',
    catches: ['CLI-CREATE', 'BT-CREATE-SUBSCRIPTION'],
    response: (_request, response) =>
      everyObject(response.body, (object) => {
        if (object.type !== 'client' && object.type !== 'billing_template') return;
        for (const field of ['created_on', 'updated_on']) if (typeof object[field] === 'number') object[field] = (object[field] as number) * 1000;
      }),
  },
  {
    name: 'a PATCH that clears the fields it does not send (handled as a PUT)',
    catches: ['CLI-PATCH', 'BT-PATCH'],
    request: async (request, upstream) => {
      const id = objectId(request);
      const path = urlOf(request).pathname;
      if (request.method !== 'PATCH' || !id || !/^\/api\/v1\/(clients|billing_templates)\/[0-9a-f-]{36}\/$/.test(path)) return;
      // A full replacement with what was sent, and the fields a PUT requires read back so that it succeeds.
      const stored = (await upstream('GET', path)).body as Node;
      const required = path.startsWith('/api/v1/clients/')
        ? { email: stored.email }
        : Object.fromEntries(
            ['brand_id', 'is_subscription', 'purchase', 'subscription_period', 'subscription_period_units', 'subscription_due_period', 'subscription_due_period_units', 'subscription_charge_period_end', 'subscription_trial_periods', 'due']
              .filter((field) => stored[field] !== null && stored[field] !== undefined && (stored.is_subscription ? field !== 'due' : !field.startsWith('subscription_')))
              .map((field) => [field, stored[field]]),
          );
      request.method = 'PUT';
      request.body = { ...required, ...(request.body as Node) };
    },
  },
  {
    name: 'a missing required field answered as an error of the whole object (__all__), not of the field',
    catches: ['BT-CYCLE-REQUIRED-ON-CREATE-subscription_period-CODE', 'BT-DUE-REQUIRED-ONE-TIME-CREATE-CODE'],
    response: (request, response) => {
      const errors = response.body as Record<string, Array<{ code?: string }>>;
      if (request.method !== 'POST' || response.status !== 400 || !errors || typeof errors !== 'object') return;
      const required = Object.entries(errors).filter(([, list]) => Array.isArray(list) && list.some((error) => error.code === 'required'));
      for (const [field, list] of required) {
        delete errors[field];
        errors.__all__ = [...(errors.__all__ ?? []), ...list];
      }
    },
  },
  {
    name: 'subscription_has_active_clients never set (the launch does not mark the template)',
    catches: ['BT-HAS-ACTIVE-CLIENTS'],
    response: (_request, response) =>
      everyObject(response.body, (object) => {
        if (object.type === 'billing_template') object.subscription_has_active_clients = false;
      }),
  },
  {
    name: 'a template read with GET cannot be PUT back (its read-only fields refused even with their stored values)',
    catches: ['BT-PUT-ROUNDTRIP'],
    request: (request) => {
      const body = request.body as Node | undefined;
      if (request.method !== 'PUT' || !/^\/api\/v1\/billing_templates\/[0-9a-f-]{36}\/$/.test(urlOf(request).pathname) || !body || !('id' in body)) return;
      return { status: 400, headers: { 'content-type': 'application/json' }, body: { id: [{ message: 'This field is read-only.', code: 'read_only' }] } };
    },
  },
  {
    name: "a statement naming another company than the account's purchases (company_uid not their company_id)",
    catches: ['CS-COMPANY-UID'],
    response: (_request, response) =>
      everyObject(response.body, (object) => {
        if (object.type === 'statement_request') object.company_uid = '00000000-0000-4000-8000-000000000042';
      }),
  },
  {
    name: "a template's subscriber list that lists the subscribers of the account's other templates too",
    catches: ['SUB-LIST-GET'],
    response: async (request, response, upstream) => {
      const match = /^\/api\/v1\/billing_templates\/([0-9a-f-]{36})\/clients\/$/.exec(urlOf(request).pathname);
      if (request.method !== 'GET' || !match || response.status !== 200) return;
      // The newest templates: the check's other template is among them.
      const templates = ((await upstream('GET', '/api/v1/billing_templates/?page_size=10')).body as { results: Node[] }).results;
      const body = response.body as { results: Node[] };
      for (const template of templates.filter((t) => t.id !== match[1])) {
        const others = (await upstream('GET', `/api/v1/billing_templates/${template.id}/clients/`)).body as { results?: Node[] };
        body.results.push(...(others.results ?? []));
      }
    },
  },
];
