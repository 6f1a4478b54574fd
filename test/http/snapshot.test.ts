// DESIGN.md §6 "JSON snapshots": GET /sim/v1/snapshot exports the caller's sandbox, and
// POST /sim/v1/sandboxes {"snapshot"} makes a new sandbox of it; "a snapshot is validated before it
// is loaded: a bad one is a 400 naming the path of the first bad value".

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { assertDocumented } from '../../contract-tests/lib/document.ts';
import { loadSpec } from '../../src/contract/spec.ts';
import { createIds } from '../../src/engine/ids.ts';
import { createApp } from '../../src/http/app.ts';
import { MemoryStore } from '../../src/store/store.ts';
import { useHarness, type Harness } from '../support/harness.ts';
import {
  advance,
  createPurchase,
  events,
  expectRejected,
  generated,
  listSubscribers,
  makeClient,
  makeTemplate,
  outbox,
  payPurchase,
  sandboxAt,
  subscribe,
  subscriberBody,
  type Box,
} from '../builders/engine.ts';

const h = useHarness({ now: '2026-01-30T12:00:00Z' });
/** Another simulator: a snapshot restored where none of its ids is taken keeps them. */
const other = useHarness({ now: '2026-01-30T12:00:00Z', seed: 8 });

type Document = { billing_sim_snapshot: number; sandbox: Record<string, any> };

const boxOf = (harness: Harness, token: string, brandId: string): Box => ({
  h: harness,
  token,
  brandId,
  req: (method, path, body) => harness.request(method, path, { token, body }),
});

/**
 * A sandbox frozen on 2026-01-30 with two subscribers of a monthly template, both launched that day
 * by paying their first purchase with a saved card (B's card is declined later), an unpaid one-off
 * purchase, a webhook and a signing key; then advanced over the end of February.
 */
async function shop() {
  const box = await sandboxAt(h, '2026-01-30T10:00:00Z');
  const template = await makeTemplate(box);
  const clients = [await makeClient(box, { email: 'a@example.com' }), await makeClient(box, { email: 'b@example.com' })];
  for (const [index, client] of clients.entries()) {
    const { purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
    await payPurchase(box, purchase!.id, { method: 'visa', save_token: true, token_outcome: index === 0 ? 'success' : 'failure' });
  }
  await createPurchase(box, clients[0]!.id, { due: Date.parse('2026-02-05T00:00:00Z') / 1000 });
  await box.req('POST', '/api/v1/webhooks/', { callback: 'http://127.0.0.1:9/hook', events: ['purchase.cancelled'] });
  await box.req('GET', '/api/v1/public_key/');
  await advance(box, { to: '2026-03-01T00:00:00Z' });
  return { box, template, clients };
}

async function exportOf(box: Box): Promise<Document> {
  const exported = await box.req('GET', '/sim/v1/snapshot');
  expect(exported.status, exported.text.slice(0, 500)).toBe(200);
  return exported.body as Document;
}

async function importOf(document: unknown, into: Harness = h): Promise<Box & { id: string }> {
  const created = await into.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: document } });
  expect(created.status, created.text.slice(0, 500)).toBe(201);
  const { id, token, brand_id } = created.body as { id: string; token: string; brand_id: string };
  return { ...boxOf(into, token, brand_id), id };
}

/** A sandbox's answers with its server's origin (in checkout and pagination URLs) taken out. */
const sansOrigin = (box: Box, answers: unknown) => JSON.parse(JSON.stringify(answers).replaceAll(box.h.origin, 'ORIGIN'));

/** Every list the sandbox answers, as it answers them. */
async function everything(box: Box, templateId: string, clientIds: string[]) {
  const get = async (path: string) => (await box.req('GET', path)).body;
  return {
    clients: await get('/api/v1/clients/?page_size=1000'),
    templates: await get('/api/v1/billing_templates/?page_size=1000'),
    subscribers: await get(`/api/v1/billing_templates/${templateId}/clients/?page_size=1000`),
    purchases: await get('/api/v1/purchases/?page_size=1000'),
    tokens: await Promise.all(clientIds.map((id) => get(`/api/v1/clients/${id}/recurring_tokens/`))),
    webhooks: await get('/api/v1/webhooks/'),
    publicKey: await get('/api/v1/public_key/'),
    events: await get('/sim/v1/events?page_size=1000'),
    outbox: await get('/sim/v1/outbox?page_size=1000'),
    clock: await get('/sim/v1/clock'),
  };
}

/** What billing did, without the ids of the objects it created (a copy draws its own). */
async function billingHistory(box: Box, templateId: string) {
  return {
    purchases: (await generated(box, templateId)).map((p) => [p.client_id, p.issued, p.status, p.purchase.total]),
    subscribers: (await listSubscribers(box, templateId)).map((s) => [s.client_id, s.status, s.subscription_billing_scheduled_on, s.number_of_billing_cycles_passed]),
    events: (await events(box)).map((e) => [e.event_type, e.created_on]),
    outbox: (await outbox(box)).map((e) => [e.kind, e.to, e.sent_on]),
  };
}

describe('export and import', () => {
  it('a sandbox advanced over a month end, exported and imported, answers the same lists and then bills on the same dates', async () => {
    const { box, template, clients } = await shop();
    const clientIds = clients.map((c) => c.id);
    const copy = await importOf(await exportOf(box), other);
    expect(copy.brandId).toBe(box.brandId);
    expect(sansOrigin(copy, await everything(copy, template.id, clientIds))).toEqual(sansOrigin(box, await everything(box, template.id, clientIds)));

    await advance(box, { to: '2026-05-01T00:00:00Z' });
    await advance(copy, { to: '2026-05-01T00:00:00Z' });
    const history = await billingHistory(box, template.id);
    expect(await billingHistory(copy, template.id)).toEqual(history);
    // Launched on Jan 30: billed Feb 28, Mar 30 and Apr 30; B's saved card is declined every time.
    expect(history.purchases.filter(([client]) => client === clientIds[1]).map(([, issued, status]) => [issued, status])).toEqual([
      ['2026-01-30', 'paid'],
      ['2026-02-28', 'overdue'],
      ['2026-03-30', 'overdue'],
      ['2026-04-30', 'sent'],
    ]);
  });

  it('the snapshot is the document of openapi.yaml: format 2, absolute checkout URLs, the clock at export', async () => {
    const box = await sandboxAt(h, '2026-02-28T23:30:00Z');
    const client = await makeClient(box);
    const purchase = await createPurchase(box, client.id);
    const { billing_sim_snapshot, sandbox } = await exportOf(box);
    expect(billing_sim_snapshot).toBe(2);
    expect(sandbox.clock).toEqual({ now: '2026-02-28T23:30:00.000Z', frozen: true });
    // Records as stored: without what an answer makes from them (src/present/): transaction_data's extra
    // (the card that paid), the platform's constant and derived fields, "" for an unset URL.
    const answered = purchase as unknown as Record<string, unknown>;
    const made = ['company_id', 'user_id', 'order_id', 'product', 'viewed_on', 'issuer_details', 'reference_generated', 'invoice_url', 'direct_post_url', 'currency_conversion', 'can_retrieve', 'can_chargeback', 'referral_code', 'referral_code_details', 'referral_code_generated', 'retain_level_details'];
    const kept = Object.fromEntries(Object.entries(answered).filter(([name]) => !made.includes(name)));
    const { client_type: _type, delivery_methods: _methods, ...keptClient } = purchase.client as Record<string, unknown>;
    const { shipping_options: _options, has_upsell_products: _upsell, payment_method_details: _details, ...details } = purchase.purchase as Record<string, unknown>;
    const stored = { ...kept, client: keptClient, purchase: details, success_redirect: null, failure_redirect: null, cancel_redirect: null, success_callback: null, transaction_data: { payment_method: null, country: null, attempts: [] } };
    expect(made.every((name) => name in answered)).toBe(true);
    expect(sandbox.purchases).toEqual([[purchase.id, stored]]);
    expect(sandbox.purchases[0][1].checkout_url).toBe(`${h.origin}/checkout/${purchase.id}/`);
  });

  it('a running clock continues from the instant of export, not from the original clock', async () => {
    const saved = h.wall.ms;
    try {
      const { token, brandId } = await h.newSandbox({ now: '2027-06-01T00:00:00Z', frozen: false });
      const original = boxOf(h, token, brandId);
      const document = await exportOf(original);
      h.wall.ms += 3_600_000;
      const copy = await importOf(document);
      h.wall.ms += 3_600_000;
      expect((await copy.req('GET', '/sim/v1/clock')).body).toEqual({ now: '2027-06-01T01:00:00.000Z', frozen: false });
      expect((await original.req('GET', '/sim/v1/clock')).body).toEqual({ now: '2027-06-01T02:00:00.000Z', frozen: false });
    } finally {
      h.wall.ms = saved;
    }
  });

  it('the openapi.yaml example of a snapshot imports', async () => {
    const spec = loadSpec() as unknown as { components: { examples: Record<string, { value: Document }> } };
    const example = spec.components.examples.SandboxSnapshot!.value;
    const copy = await importOf(example);
    const [[clientId]] = example.sandbox.clients;
    expect((await copy.req('GET', `/api/v1/clients/${clientId}/`)).status).toBe(200);
  });
});

describe('an import never replaces a sandbox', () => {
  it('gets a new sandbox id, even when the snapshot names an existing sandbox; the original keeps its objects', async () => {
    const box = await sandboxAt(h, '2026-01-30T10:00:00Z');
    const client = await makeClient(box, { email: 'original@example.com' });
    const document = await exportOf(box);
    const empty = await exportOf(boxOf(h, h.token, h.brandId));
    // The harness's own sandbox, named by the snapshot of another one: it must stay as it was.
    const first = await importOf({ ...document, sandbox: { ...document.sandbox, id: h.sandboxId } });
    const second = await importOf(document);
    expect(new Set([first.id, second.id, h.sandboxId, document.sandbox.id]).size).toBe(4);
    expect(await exportOf(boxOf(h, h.token, h.brandId))).toEqual(empty);
    // Objects are copies: deleting one in a copy leaves the original's.
    const copied = ((await first.req('GET', '/api/v1/clients/')).body as { results: { id: string; email: string }[] }).results;
    expect(copied.map((c) => c.email)).toEqual(['original@example.com']);
    expect((await first.req('DELETE', `/api/v1/clients/${copied[0]!.id}/`)).status).toBe(204);
    expect((await box.req('GET', `/api/v1/clients/${client.id}/`)).status).toBe(200);
  });

  it('a copy on the server that holds the original gets fresh ids, consistently, so its checkout link opens its own purchase', async () => {
    const { box, template, clients } = await shop();
    const copy = await importOf(await exportOf(box));
    const ids = (answers: unknown) => new Set(JSON.stringify(answers).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g));
    const originalIds = ids(await everything(box, template.id, clients.map((c) => c.id)));
    const copyClients = ((await copy.req('GET', '/api/v1/clients/')).body as { results: { id: string }[] }).results;
    const copyTemplate = ((await copy.req('GET', '/api/v1/billing_templates/')).body as { results: { id: string }[] }).results[0]!;
    const copyAnswers = await everything(copy, copyTemplate.id, copyClients.map((c) => c.id));
    expect([...ids(copyAnswers)].filter((id) => originalIds.has(id))).toEqual([]);
    // The same sandbox under other names: every reference resolves within the copy.
    // A purchase's reference_generated is made from its id, so it is renamed with it.
    const rename = (answers: unknown) =>
      JSON.stringify(answers)
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID')
        .replace(/"reference_generated":"CH\d+"/g, '"reference_generated":"REF"');
    expect(rename(sansOrigin(copy, copyAnswers))).toBe(rename(sansOrigin(box, await everything(box, template.id, clients.map((c) => c.id)))));
    const unpaid = ((await copy.req('GET', '/api/v1/purchases/?status=sent')).body as { results: { id: string; checkout_url: string }[] }).results;
    expect(unpaid.length).toBeGreaterThan(0);
    const page = await fetch(unpaid[0]!.checkout_url);
    expect(page.status).toBe(200);
    expect(((await copy.req('GET', `/api/v1/purchases/${unpaid[0]!.id}/`)).body as { status: string }).status).toBe('viewed');
    const originals = ((await box.req('GET', '/api/v1/purchases/?status=viewed')).body as { results: unknown[] }).results;
    expect(originals).toEqual([]);
  });

  it('a copy of a sandbox with seeded ids does not draw them again: its reset keeps its own id', async () => {
    const box = await sandboxAt(h, '2026-01-30T10:00:00Z');
    const document = await exportOf(box);
    const copy = await importOf({ ...document, sandbox: { ...document.sandbox, origin: { ...document.sandbox.origin, seededIds: true } } });
    expect((await exportOf(copy)).sandbox.origin.seededIds).toBe(false);
    const reset = await copy.req('POST', '/sim/v1/reset');
    expect(reset.status).toBe(200);
    expect((reset.body as { id: string }).id).toBe(copy.id);
  });
});

/**
 * A document as billing-sim 0.1 wrote it (format 1), made from today's export: purchases without the
 * platform's fields and with the old payment, numbers for quantity and tax_percent, a subscriber
 * without send_invoice_on_add_subscriber, a webhook with a simulator-only event and no key of its own.
 */
function asFormatOne(document: Document): Document {
  const old = structuredClone(document);
  old.billing_sim_snapshot = 1;
  const sandbox = old.sandbox;
  const numbers = (details: { products: Record<string, unknown>[] }) => {
    for (const product of details.products) {
      product.quantity = Number(product.quantity);
      product.tax_percent = Number(product.tax_percent);
    }
  };
  for (const [, template] of sandbox.templates) numbers(template.purchase);
  for (const [, purchase] of sandbox.purchases) {
    numbers(purchase.purchase);
    for (const field of ['transaction_data', 'refundable_amount', 'refund_availability', 'marked_as_paid']) delete purchase[field];
    if (purchase.payment) purchase.payment = { amount: purchase.payment.amount, currency: purchase.payment.currency, payment_method: purchase.payment.payment_method, paid_on: purchase.payment.paid_on };
  }
  for (const [, subscriber] of sandbox.subscribers) delete subscriber.send_invoice_on_add_subscriber;
  for (const [, webhook] of sandbox.webhooks) {
    delete webhook.all_events;
    delete webhook.public_key;
    webhook.events = [...webhook.events, 'purchase.sent'];
  }
  delete sandbox.webhookKeys;
  return old;
}

describe('a snapshot of format 1 (billing-sim 0.1)', () => {
  it('imports, upgraded: the platform\'s purchase fields, decimal strings, the subscriber\'s new flag, the webhook signed with the sandbox key', async () => {
    const { box } = await shop();
    const today = await exportOf(box);
    const copy = await importOf(asFormatOne(today), other);
    const upgraded = await exportOf(copy);
    expect(upgraded.billing_sim_snapshot).toBe(2);
    const paid = upgraded.sandbox.purchases.map(([, p]: [string, any]) => p).find((p: any) => p.status === 'paid');
    expect(paid).toMatchObject({ refundable_amount: paid.purchase.total, refund_availability: 'all', marked_as_paid: false, transaction_data: { payment_method: 'visa', attempts: [] } });
    expect(paid.payment).toMatchObject({ is_outgoing: false, payment_type: 'purchase', amount: paid.purchase.total, payment_method: 'visa' });
    expect(paid.purchase.products[0]).toMatchObject({ quantity: '1.0000', tax_percent: expect.stringMatching(/^\d+\.\d\d$/) });
    expect(upgraded.sandbox.subscribers.map(([, s]: [string, any]) => s.send_invoice_on_add_subscriber)).toEqual([false, false]);
    const [[, webhook]] = upgraded.sandbox.webhooks;
    expect(webhook).toMatchObject({ all_events: false, events: ['purchase.cancelled'], public_key: today.sandbox.signingKey.publicKey });
    // The copy goes on billing as the original does.
    await advance(box, { to: '2026-04-01T00:00:00Z' });
    await advance(copy, { to: '2026-04-01T00:00:00Z' });
    const statuses = async (b: Box) => (await exportOf(b)).sandbox.purchases.map(([, p]: [string, any]) => [p.issued, p.status, p.purchase.total]);
    expect(await statuses(copy)).toEqual(await statuses(box));
  });

  it('an overdue purchase with due_strict, which 0.1 refused to take payment for, is expired', async () => {
    const box = await sandboxAt(h, '2026-01-30T10:00:00Z');
    const client = await makeClient(box);
    const purchase = await createPurchase(box, client.id, { due: Date.parse('2026-02-01T00:00:00Z') / 1000, purchase: { currency: 'EUR', due_strict: true, products: [{ name: 'A', price: 100 }] } });
    await advance(box, { to: '2026-02-02T00:00:00Z' });
    const old = asFormatOne(await exportOf(box));
    const [, stored] = old.sandbox.purchases.find(([id]: [string]) => id === purchase.id);
    stored.status = 'overdue';
    stored.status_history = stored.status_history.map((entry: { status: string }) => ({ ...entry, status: entry.status === 'expired' ? 'overdue' : entry.status }));
    const copy = await importOf(old, other);
    const after = (await copy.req('GET', `/api/v1/purchases/${purchase.id}/`)).body as { status: string; status_history: { status: string }[] };
    expect(after.status).toBe('expired');
    expect(after.status_history.map((entry) => entry.status)).toEqual(['created', 'overdue', 'expired']);
  });
});

describe('a bad snapshot is a 400 naming the path of the first bad value', () => {
  const KEY = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n';
  const OTHER_ID = '0e5f8c1a-4b2d-4c3e-9f1a-2b3c4d5e6f70';
  const cases: [string, (s: Record<string, any>, d: Document) => void, string, string][] = [
    ['a purchase status the API does not have', (s) => (s.purchases[3][1].status = 'lost'), 'sandbox.purchases.3.1.status', 'invalid_choice'],
    ['another format version', (_, d) => (d.billing_sim_snapshot = 3), 'billing_sim_snapshot', 'invalid_choice'],
    ['a missing collection', (s) => delete s.tokens, 'sandbox.tokens', 'required'],
    ['a field no record has', (s) => (s.clients[1][1].nickname = 'x'), 'sandbox.clients.1.1.nickname', 'unknown_field'],
    ['a leap second on the clock', (s) => (s.clock.now = '2026-06-30T23:59:60Z'), 'sandbox.clock.now', 'invalid'],
    ['a key that is not its record\'s id', (s) => (s.clients[0][0] = OTHER_ID), 'sandbox.clients.0.0', 'invalid'],
    ['a subscriber whose client does not exist', (s) => (s.subscribers[1][1].client_id = OTHER_ID), 'sandbox.subscribers.1.1.client_id', 'does_not_exist'],
    ['an unknown time zone', (s) => (s.templates[0][1].purchase.timezone = 'Mars/Olympus_Mons'), 'sandbox.templates.0.1.purchase.timezone', 'invalid'],
    ['a billing date past the calendar', (s) => ((s.templates[0][1].subscription_period = 256), (s.schedules[0][1].next = 1_000_000)), 'sandbox.schedules.0.1.next', 'invalid'],
    ['two jobs with one number', (s) => (s.jobs[1].seq = s.jobs[0].seq), 'sandbox.jobs.1.seq', 'invalid'],
    ['a signing key that is not one', (s) => (s.signingKey.privateKey = KEY), 'sandbox.signingKey.privateKey', 'invalid'],
  ];
  let document: Document;

  it.each(cases)('%s', async (_name, spoil, path, code) => {
    document ??= await exportOf((await shop()).box);
    const bad = structuredClone(document);
    spoil(bad.sandbox, bad);
    const rejected = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: bad } });
    expectRejected(rejected, `snapshot.${path}`, code);
  });

  it('a snapshot sent with other fields is refused: it brings its own clock', async () => {
    const document = await exportOf(await sandboxAt(h, '2026-01-30T10:00:00Z'));
    expectRejected(await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: document, frozen: false } }), 'frozen', 'invalid');
  });

  it('nothing is created by a rejected import', async () => {
    const store = new MemoryStore();
    const wall = { now: () => Date.parse('2026-01-30T12:00:00Z') };
    const server = createServer(createApp({ store, clock: wall, ids: createIds(5) }).express);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const post = async (body: unknown) => {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/sim/v1/sandboxes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const call = { status: response.status, headers: Object.fromEntries(response.headers.entries()), body: await response.json() };
      await assertDocumented('POST', '/sim/v1/sandboxes', call);
      return call;
    };
    try {
      const { sandbox } = await exportOf((await shop()).box);
      const schemaError = { ...sandbox, jobSeq: -1 };
      const consistencyError = { ...sandbox, tokens: sandbox.tokens.map(([id, token]: [string, object]) => [id, { ...token, client_id: OTHER_ID }]) };
      for (const spoilt of [schemaError, consistencyError]) expect((await post({ snapshot: { billing_sim_snapshot: 2, sandbox: spoilt } })).status).toBe(400);
      expect([...store.all()]).toHaveLength(0);
      expect((await post({ snapshot: { billing_sim_snapshot: 2, sandbox } })).status).toBe(201);
      expect([...store.all()]).toHaveLength(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
