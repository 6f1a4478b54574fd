// Capability discovery: what the target can do beyond the spec (a simulator's clock, payments and
// events), each capability tried in a sandbox of the target's own making and enabled only when its
// effect is seen. GET /sim/v1/capabilities alone proves nothing: `prism mock` serving this very
// openapi.yaml answers it from the document's example ({"clock": true, …}) and has no clock. So every
// proof looks for a value the suite chose — an instant, an e-mail address, a product name — which no
// canned answer holds. The proofs work in a new sandbox, never in the accounts the suite checks, which
// is deleted afterwards, and cost about a dozen requests.

import type { Capabilities } from './config.ts';
import { call, is2xx, marker, type Answer } from './plain-http.ts';

export const NO_CAPABILITIES: Capabilities = { clock: false, payments: false, events: false };

export interface Discovery {
  capabilities: Capabilities;
  /** The capabilities /sim/v1/capabilities claims but the target did not show, each with what came instead. */
  unproven: string[];
}

type Node = Record<string, any>;

/** A sandbox's token and brand, and calls in it. */
interface Probe {
  api(method: string, path: string, body?: unknown): Promise<Answer>;
  sim(method: string, path: string, body?: unknown): Promise<Answer>;
  brandId: string;
  /** The instant its clock was frozen at, in ms. */
  frozenAt: number;
}

const DAY_MS = 86_400_000;

export async function discoverCapabilities(baseUrl: string, token: string, signal?: AbortSignal): Promise<Discovery> {
  const origin = new URL(baseUrl).origin;
  const claimed = await call(`${origin}/sim/v1/capabilities`, { token, signal }).catch(() => undefined);
  // A real server has no /sim/v1 (404): nothing to try.
  if (!claimed || claimed.status !== 200 || typeof claimed.body !== 'object' || claimed.body === null) return { capabilities: NO_CAPABILITIES, unproven: [] };
  const claims = (Object.keys(NO_CAPABILITIES) as (keyof Capabilities)[]).filter((name) => claimed.body[name] === true);
  if (claims.length === 0) return { capabilities: NO_CAPABILITIES, unproven: [] };

  // Why each claimed capability is not shown; undefined once it is proven.
  const NOT_TRIED = 'not tried';
  const found: Record<keyof Capabilities, string | undefined> = { clock: NOT_TRIED, payments: NOT_TRIED, events: NOT_TRIED };
  try {
    const probe = await newProbe(baseUrl, origin, signal);
    if (typeof probe === 'string') {
      for (const name of claims) found[name] = probe;
    } else {
      if (claims.includes('clock')) found.clock = await proveClock(probe);
      const client = claims.includes('payments') || claims.includes('events') ? await newClient(probe) : undefined;
      if (claims.includes('payments')) found.payments = typeof client === 'string' ? client : await provePayments(probe, client!);
      if (claims.includes('events')) found.events = typeof client === 'string' ? client : await proveEvents(probe, client!);
      // The proofs' sandbox is of no use afterwards: gone, it leaves nothing behind on the target.
      await probe.sim('DELETE', '/sandbox').catch(() => undefined);
    }
  } catch (error) {
    for (const name of claims) if (found[name] === NOT_TRIED) found[name] = (error as Error).message;
  }
  const capabilities = { ...NO_CAPABILITIES };
  for (const name of claims) capabilities[name] = found[name] === undefined;
  return { capabilities, unproven: claims.filter((name) => found[name] !== undefined).map((name) => `${name}: ${found[name]}`) };
}

/** A new sandbox frozen at an instant no example names; a string says why there is none. */
async function newProbe(baseUrl: string, origin: string, signal?: AbortSignal): Promise<Probe | string> {
  // Some second in 2031, different on every run.
  const frozenAt = Date.parse('2031-03-01T00:00:00Z') + Math.floor(Math.random() * 30 * 86_400) * 1000;
  const created = await call(`${origin}/sim/v1/sandboxes`, { method: 'POST', body: { now: new Date(frozenAt).toISOString(), frozen: true }, signal });
  const { token, brand_id: brandId } = (created.body ?? {}) as Node;
  if (created.status !== 201 || typeof token !== 'string' || typeof brandId !== 'string') {
    return `POST /sim/v1/sandboxes answered ${created.status} without a token and brand_id`;
  }
  const apiPath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return {
    api: (method, path, body) => call(`${origin}${apiPath}${path}`, { method, token, body, signal }),
    sim: (method, path, body) => call(`${origin}/sim/v1${path}`, { method, token, body, signal }),
    brandId,
    frozenAt,
  };
}

/** The sandbox's clock reads the instant it was frozen at, and a day later after advancing by P1D. */
async function proveClock(probe: Probe): Promise<string | undefined> {
  const before = await probe.sim('GET', '/clock');
  if (before.status !== 200 || Date.parse(before.body?.now) !== probe.frozenAt || before.body?.frozen !== true) {
    return `a sandbox frozen at ${new Date(probe.frozenAt).toISOString()} reads its clock (GET /sim/v1/clock) as ${before.status} ${before.text.slice(0, 80)}`;
  }
  const advanced = await probe.sim('POST', '/clock/advance', { by: 'P1D' });
  const after = await probe.sim('GET', '/clock');
  if (advanced.status !== 200 || after.status !== 200 || Date.parse(after.body?.now) !== probe.frozenAt + DAY_MS) {
    return `advancing a sandbox's clock by P1D (POST /sim/v1/clock/advance → ${advanced.status}) reads back as ${after.status} ${after.text.slice(0, 80)}`;
  }
  return undefined;
}

interface ProbeClient {
  id: string;
  email: string;
}

/** A client of the sandbox that answers with the address it was given; a string says why there is none. */
async function newClient(probe: Probe): Promise<ProbeClient | string> {
  const email = `${marker('capability')}@example.com`;
  const created = await probe.api('POST', '/clients/', { email });
  if (!is2xx(created) || created.body?.email !== email || typeof created.body?.id !== 'string') {
    return `a client created in a new sandbox does not answer with its e-mail address (POST /clients/ → ${created.status})`;
  }
  return { id: created.body.id, email };
}

/** A purchase paid at the simulated checkout with the card saved is paid, and its token is the client's. */
async function provePayments(probe: Probe, client: ProbeClient): Promise<string | undefined> {
  const product = marker('Capability ');
  const created = await probe.api('POST', '/purchases/', {
    brand_id: probe.brandId,
    client_id: client.id,
    purchase: { currency: 'EUR', products: [{ name: product, price: 1234 }] },
  });
  const id = created.body?.id;
  if (!is2xx(created) || created.body?.purchase?.products?.[0]?.name !== product || typeof id !== 'string' || created.body.status === 'paid') {
    return `a purchase created in a new sandbox does not answer with its product (POST /purchases/ → ${created.status})`;
  }
  const paid = await probe.sim('POST', `/purchases/${id}/pay`, { save_token: true });
  const read = await probe.api('GET', `/purchases/${id}/`);
  if (paid.status !== 200 || read.body?.status !== 'paid' || read.body?.purchase?.products?.[0]?.name !== product) {
    return `a purchase paid with POST /sim/v1/purchases/{id}/pay (→ ${paid.status}) does not read back as paid (GET → ${read.status} ${String(read.body?.status)})`;
  }
  const tokens = await probe.api('GET', `/clients/${client.id}/recurring_tokens/`);
  if (!((tokens.body?.results ?? []) as Node[]).some((token) => token.id === id)) {
    return `the card saved by a simulated payment is not among the client's recurring tokens (GET → ${tokens.status})`;
  }
  return undefined;
}

/** An invoice sent from a one-time template is an event of its purchase and an e-mail to the client. */
async function proveEvents(probe: Probe, client: ProbeClient): Promise<string | undefined> {
  const template = await probe.api('POST', '/billing_templates/', {
    brand_id: probe.brandId,
    title: marker('Capability '),
    is_subscription: false,
    due: Math.floor((probe.frozenAt + 30 * DAY_MS) / 1000),
    purchase: { currency: 'EUR', products: [{ name: 'Capability check', price: 1234 }] },
  });
  if (!is2xx(template) || typeof template.body?.id !== 'string') return `a one-time template could not be created in a new sandbox (→ ${template.status})`;
  const invoice = await probe.api('POST', `/billing_templates/${template.body.id}/send_invoice/`, { client_id: client.id });
  const purchaseId = invoice.body?.id;
  if (!is2xx(invoice) || invoice.body?.client_id !== client.id || typeof purchaseId !== 'string') {
    return `send_invoice in a new sandbox does not answer with a purchase of the client (→ ${invoice.status})`;
  }
  const events = await probe.sim('GET', '/events?page_size=1000');
  if (!((events.body?.results ?? []) as Node[]).some((event) => event.object_id === purchaseId)) {
    return `GET /sim/v1/events (→ ${events.status}) holds no event of a purchase just created`;
  }
  const outbox = await probe.sim('GET', '/outbox?page_size=1000');
  if (!((outbox.body?.results ?? []) as Node[]).some((mail) => mail.purchase_id === purchaseId && mail.to === client.email)) {
    return `GET /sim/v1/outbox (→ ${outbox.status}) holds no e-mail of an invoice just sent`;
  }
  return undefined;
}
