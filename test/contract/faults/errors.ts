// Behavioural faults of the errors, isolation, authentication, limits and webhooks checks: see
// index.ts. Each is a bug of the kind a real implementation of the platform's API has: an error body
// that names no field or the wrong code, a status of Django REST framework's defaults where the
// platform answers otherwise, a refusal that still wrote, a webhook key mixed up, an event spelt
// otherwise. Deliveries do not pass through the proxy (the target POSTs them to the suite's receiver),
// so the two faults of deliveries route a webhook's callback through a relay of their own, which
// changes what the receiver gets.

import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { everyObject, type Fault, type ProxiedRequest, type ProxiedResponse } from '../fault-proxy.ts';

type Node = Record<string, any>;
type Errors = Record<string, Array<{ message: string; code: string }>>;

const path = (request: ProxiedRequest) => request.path.split('?')[0]!;
const isObject = (body: unknown): body is Errors => Boolean(body) && typeof body === 'object' && !Array.isArray(body);

/** Every error of a body, whatever field named it. */
const allErrors = (body: Errors) => Object.values(body).flat();

/** A Django REST framework error body under `__all__`. */
const nonFieldError = (message: string, code: string): Errors => ({ __all__: [{ message, code }] });

const WEBHOOKS = /^\/api\/v1\/webhooks\/([0-9a-f-]{36}\/)?$/;

/** The webhooks of an answer of /webhooks/ (one, or a page of them). */
const webhooksOf = (body: unknown): Node[] => (isObject(body) ? (Array.isArray(body.results) ? (body.results as Node[]) : 'public_key' in body ? [body as Node] : []) : []);

// ------------------------------------------------------------------------------ the relay

/**
 * A relay for webhook deliveries: `/?to=URL` POSTs what it receives to URL, its body changed by
 * `rewrite`, and answers with URL's status. Started once, on first use; it never keeps a process alive.
 */
function relay(rewrite: (body: Node) => void): () => Promise<string> {
  let started: Promise<string> | undefined;
  return () =>
    (started ??= new Promise((resolve) => {
      const server: Server = createServer(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const to = new URL(req.url ?? '/', 'http://relay').searchParams.get('to') ?? '';
        let raw = Buffer.concat(chunks).toString('utf8');
        try {
          const body = JSON.parse(raw) as Node;
          rewrite(body);
          raw = JSON.stringify(body);
        } catch {
          // Not JSON: passed on as it came.
        }
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (req.headers['x-signature']) headers['X-Signature'] = String(req.headers['x-signature']);
        try {
          const answer = await fetch(to, { method: 'POST', headers, body: raw });
          res.writeHead(answer.status).end();
        } catch {
          res.writeHead(502).end();
        }
      });
      server.unref();
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`));
    }));
}

/**
 * A fault that routes every webhook created through `relayOf` and shows the callback as it was sent:
 * the receiver gets what the relay makes of each delivery.
 */
function relayed(name: string, catches: string[], rewrite: (body: Node) => void): Fault {
  const relayUrl = relay(rewrite);
  const originals = new Map<string, string>();
  return {
    name,
    catches,
    async request(request) {
      const body = request.body as Node | undefined;
      if (request.method !== 'POST' || !WEBHOOKS.test(path(request)) || typeof body?.callback !== 'string') return;
      const routed = `${await relayUrl()}?to=${encodeURIComponent(body.callback)}`;
      originals.set(routed, body.callback);
      body.callback = routed;
    },
    response(_request, response) {
      for (const webhook of webhooksOf(response.body)) if (originals.has(webhook.callback)) webhook.callback = originals.get(webhook.callback);
    },
  };
}

// ------------------------------------------------------------------------------ the faults

/** One PEM no target signs with: what a key rotated on one side only looks like. */
let strayKey: string | undefined;
const aStrayKey = () => (strayKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString());

export const FAULTS: Fault[] = [
  {
    name: "a refusal's errors all put under __all__ (the error body names no field)",
    catches: ['LIM-BillingTemplateCreate-subscription_trial_periods-max+1', 'ISO-REF-PURCHASE-CLIENT', 'WH-TITLE-LIMIT'],
    response(_request, response) {
      if (response.status !== 400 || !isObject(response.body) || Object.keys(response.body).every((key) => key === '__all__')) return;
      response.body = { __all__: allErrors(response.body) };
    },
  },
  {
    name: "the non-field key left at Django REST framework's default (non_field_errors, not __all__)",
    catches: ['ERR-NOT-AN-OBJECT', 'ERR-MALFORMED-JSON'],
    response(_request, response) {
      if (response.status < 400 || !isObject(response.body) || !('__all__' in response.body)) return;
      const { __all__: errors, ...fields } = response.body;
      response.body = { non_field_errors: errors, ...fields };
    },
  },
  {
    name: "a wrong error code: another account's object referenced in a body refused as invalid, not does_not_exist",
    catches: ['ISO-REF-TEMPLATE-BRAND', 'ISO-REF-INVOICE-CLIENT'],
    response(_request, response) {
      if (response.status !== 400 || !isObject(response.body)) return;
      for (const error of allErrors(response.body)) if (error.code === 'does_not_exist') Object.assign(error, { code: 'invalid', message: 'Must be a valid UUID.' });
    },
  },
  {
    name: "another account's object answered 403 permission_denied instead of 404",
    catches: ['ISO-TEMPLATE-GET', 'ISO-TEMPLATE-PATCH', 'ISO-PURCHASE-CANCEL', 'ISO-SAME-ID-OWN-ACCOUNT'],
    // In these checks only the second account's requests name an object they cannot reach.
    response(_request, response) {
      if (response.status !== 404) return;
      response.status = 403;
      response.body = nonFieldError('You do not have permission to perform this action.', 'permission_denied');
    },
  },
  {
    name: "another account's client named in a body looked up as a path id (404, not 400 does_not_exist)",
    catches: ['ISO-REF-SUBSCRIBER-CLIENT'],
    response(_request, response) {
      if (response.status !== 400 || !isObject(response.body) || !response.body.client_id?.some((e) => e.code === 'does_not_exist')) return;
      response.status = 404;
      response.body = nonFieldError('Not found.', 'not_found');
    },
  },
  {
    name: "401 answered as 403 (Django REST framework's answer when the authentication sends no WWW-Authenticate challenge)",
    catches: ['AUTH-NONE-listClients', 'AUTH-BAD-createPurchase', 'AUTH-NONE-getPublicKey', 'ERR-BODY-SHAPE'],
    response(_request, response) {
      if (response.status !== 401) return;
      response.status = 403;
      response.body = nonFieldError('Authentication credentials were not provided.', 'not_authenticated');
    },
  },
  {
    name: 'a refused request that wrote anyway: a title over 256 characters answered 400, the template stored without it',
    catches: ['LIM-BillingTemplateCreate-title-maxLength+1'],
    async request(request, upstream): Promise<ProxiedResponse | void> {
      const body = request.body as Node | undefined;
      if (request.method !== 'POST' || path(request) !== '/api/v1/billing_templates/' || typeof body?.title !== 'string' || body.title.length <= 256) return;
      const { title: _dropped, ...rest } = body;
      await upstream('POST', request.path, rest);
      return { status: 400, headers: { 'content-type': 'application/json' }, body: { title: [{ message: 'Ensure this field has no more than 256 characters.', code: 'max_length' }] } };
    },
  },
  {
    name: "an unknown field taken: a misspelt client field stored and answered back",
    catches: ['ERR-UNKNOWN-FIELD-createClient', 'ERR-UNKNOWN-FIELD-patchClient'],
    response(request, response) {
      const body = request.body as Node | undefined;
      if (!body || !isObject(response.body) || response.status >= 300 || !/^\/api\/v1\/clients\//.test(path(request))) return;
      for (const misspelt of ['fullname', 'phone_number', 'zipcode']) if (misspelt in body) (response.body as Node)[misspelt] = body[misspelt];
    },
  },
  {
    name: "webhooks signed with the account's key: a webhook's public_key is not the key that signs its deliveries",
    catches: ['WH-SIGNED-BY-OWN-KEY'],
    async response(request, response, upstream) {
      if (!WEBHOOKS.test(path(request))) return;
      const webhooks = webhooksOf(response.body);
      if (webhooks.length === 0) return;
      const account = (await upstream('GET', '/api/v1/public_key/')).body as string;
      for (const webhook of webhooks) webhook.public_key = account;
    },
  },
  (() => {
    // The first webhook's key, by account: every webhook of the account answers it.
    const first = new Map<string, string>();
    return {
      name: "one key for every webhook: each answers the first webhook's public_key, whatever signs its deliveries",
      catches: ['WH-OWN-PUBLIC-KEY'],
      response(request: ProxiedRequest, response: ProxiedResponse) {
        if (!WEBHOOKS.test(path(request))) return;
        const account = request.headers.authorization ?? '';
        for (const webhook of webhooksOf(response.body)) {
          if (!first.has(account)) first.set(account, webhook.public_key);
          webhook.public_key = first.get(account);
        }
      },
    } satisfies Fault;
  })(),
  {
    name: "GET /public_key/ answers a key other than the one that signs success_callback (a key rotated on one side)",
    catches: ['WH-SUCCESS-CALLBACK-SIGNED'],
    response(request, response) {
      if (request.method === 'GET' && path(request) === '/api/v1/public_key/' && response.status === 200) response.body = aStrayKey();
    },
  },
  relayed('an event type spelt otherwise: a cancel delivered as purchase.canceled', ['WH-EVENTS-CREATED-CANCELLED'], (body) => {
    if (body.event_type === 'purchase.cancelled') body.event_type = 'purchase.canceled';
  }),
  (() => {
    // The events each webhook was created with, by the id it was given: answered back as sent.
    const listed = new Map<string, unknown>();
    return {
      name: "a webhook's events ignored: every event delivered to it",
      catches: ['WH-EVENTS-CREATED-CANCELLED'],
      request(request: ProxiedRequest) {
        const body = request.body as Node | undefined;
        if (request.method !== 'POST' || path(request) !== '/api/v1/webhooks/' || !Array.isArray(body?.events)) return;
        (request as ProxiedRequest & { events?: unknown }).events = body.events;
        delete body.events;
        body.all_events = true;
      },
      response(request: ProxiedRequest, response: ProxiedResponse) {
        const sent = (request as ProxiedRequest & { events?: unknown }).events;
        const [webhook] = webhooksOf(response.body);
        if (sent !== undefined && webhook) listed.set(webhook.id, sent);
        everyObject(response.body, (object) => {
          if (object.type === 'webhook' && listed.has(object.id as string)) Object.assign(object, { events: listed.get(object.id as string), all_events: false });
        });
      },
    } satisfies Fault;
  })(),
];
