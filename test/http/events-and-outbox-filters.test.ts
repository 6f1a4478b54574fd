// DESIGN.md §10: "`/sim/v1/events` and `/sim/v1/outbox` filter by `type`, `object_id`, `since`", and
// every e-mail of the outbox has a subject. `next`/`previous` keep the filters; a value a filter
// cannot take is a 400 naming it, never an empty list that hides a typo.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SIMULATOR_EVENTS, PLATFORM_EVENTS } from '../../src/domain/events.ts';
import { loadSpec } from '../../src/contract/spec.ts';
import { startSimulator } from '../../src/index.ts';
import { useHarness } from '../support/harness.ts';
import { send } from '../support/spawn-sim.ts';
import {
  advance,
  createPurchase,
  makeClient,
  makeOneTimeTemplate,
  makeTemplate,
  payPurchase,
  sandboxAt,
  subscribe,
  subscriberBody,
  type Box,
  type Email,
  type Errors,
  type List,
  type SimEvent,
} from '../builders/engine.ts';

const h = useHarness({ now: '2026-01-31T23:59:59Z' });
const dir = mkdtempSync(join(tmpdir(), 'billing-sim-filters-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Mail = Email & { subject: string };

async function list<T>(box: Box, path: string): Promise<T[]> {
  const res = await box.req('GET', path);
  expect(res.status, res.text).toBe(200);
  return (res.body as List<T>).results;
}

/**
 * Purchase A created at 23:59:59 on Jan 31 and paid with a receipt; one second later, on Feb 1,
 * purchase B created and a one-time invoice sent.
 */
async function twoDays() {
  const box = await sandboxAt(h, '2026-01-31T23:59:59Z');
  const client = await makeClient(box);
  const a = await createPurchase(box, client.id, { send_receipt: true });
  await payPurchase(box, a.id);
  await advance(box, { by: 'PT1S' });
  const b = await createPurchase(box, client.id);
  const template = await makeOneTimeTemplate(box, { title: 'Setup fee' });
  const invoice = (await box.req('POST', `/api/v1/billing_templates/${template.id}/send_invoice/`, { client_id: client.id })).body as { id: string };
  return { box, a, b, invoice };
}

describe('GET /sim/v1/events?type=&object_id=&since=', () => {
  it('type, object_id and since narrow the list, all given at once; since is inclusive to the second (Feb 1 00:00:00 keeps what happened then)', async () => {
    const { box, a, b, invoice } = await twoDays();
    expect((await list<SimEvent>(box, '/sim/v1/events?type=purchase.created')).map((e) => e.object_id)).toEqual([invoice.id, b.id, a.id]);
    expect((await list<SimEvent>(box, `/sim/v1/events?object_id=${a.id}`)).map((e) => e.event_type)).toEqual(['purchase.paid', 'purchase.created']);
    expect((await list<SimEvent>(box, `/sim/v1/events?type=purchase.created&object_id=${a.id}`)).map((e) => e.object_id)).toEqual([a.id]);

    const feb = await list<SimEvent>(box, '/sim/v1/events?since=2026-02-01T00:00:00Z');
    expect(feb.map((e) => [e.event_type, e.object_id])).toEqual([
      ['purchase.sent', invoice.id],
      ['purchase.created', invoice.id],
      ['purchase.created', b.id],
    ]);
    // The same instant in another offset; a millisecond later leaves out what happened in that second.
    expect(await list<SimEvent>(box, `/sim/v1/events?since=${encodeURIComponent('2026-02-01T01:00:00+01:00')}`)).toEqual(feb);
    expect(await list<SimEvent>(box, '/sim/v1/events?since=2026-02-01T00:00:00.001Z')).toEqual([]);
    expect((await list<SimEvent>(box, '/sim/v1/events?since=2026-01-31T23:59:59Z&type=purchase.paid')).map((e) => e.object_id)).toEqual([a.id]);
  });

  it('next and previous keep the filters', async () => {
    const { box, a, b, invoice } = await twoDays();
    const first = (await box.req('GET', '/sim/v1/events?type=purchase.created&since=2026-01-31T00:00:00Z&page_size=2')).body as List<SimEvent>;
    expect(first.results.map((e) => e.object_id)).toEqual([invoice.id, b.id]);
    const next = new URL(first.next!);
    expect(Object.fromEntries(next.searchParams)).toEqual({ type: 'purchase.created', since: '2026-01-31T00:00:00Z', page: '2', page_size: '2' });
    const second = (await box.req('GET', next.pathname + next.search)).body as List<SimEvent>;
    expect(second.results.map((e) => e.object_id)).toEqual([a.id]);
    expect(second.next).toBeNull();
    expect(Object.fromEntries(new URL(second.previous!).searchParams)).toEqual({ type: 'purchase.created', since: '2026-01-31T00:00:00Z', page: '1', page_size: '2' });
  });

  it('a value the filter cannot take → 400 naming it: an event name never recorded, an object id that is not a UUID, an instant that is not one or is a leap second', async () => {
    const box = await sandboxAt(h, '2026-01-31T23:59:59Z');
    for (const [query, field] of [
      ['type=purchase.payed', 'type'],
      ['object_id=purchase-1', 'object_id'],
      ['since=yesterday', 'since'],
      ['since=2026-02-30T00:00:00Z', 'since'],
      ['since=2026-12-31T23:59:60Z', 'since'],
    ]) {
      const res = await box.req('GET', `/sim/v1/events?${query}`);
      expect(res.status, `${query}: ${res.text}`).toBe(400);
      expect(Object.keys(res.body as Errors), query).toEqual([field]);
    }
  });

  it('type takes every name the simulator records: the platform\'s and its own', () => {
    const listEvents = loadSpec().paths!['/sim/v1/events']!.get!;
    const type = listEvents.parameters!.find((p) => 'name' in p && p.name === 'type') as { schema: { enum: string[] } };
    expect(type.schema.enum).toEqual([...PLATFORM_EVENTS, ...SIMULATOR_EVENTS]);
  });
});

describe('GET /sim/v1/outbox?type=&object_id=&since=', () => {
  it('type is the kind, object_id the purchase, since the sending time; filters combine and pages keep them', async () => {
    const { box, a, invoice } = await twoDays();
    expect((await list<Mail>(box, '/sim/v1/outbox?type=receipt')).map((m) => m.purchase_id)).toEqual([a.id]);
    expect((await list<Mail>(box, '/sim/v1/outbox?type=invoice')).map((m) => m.purchase_id)).toEqual([invoice.id]);
    expect((await list<Mail>(box, `/sim/v1/outbox?object_id=${a.id}&type=invoice`))).toEqual([]);
    expect((await list<Mail>(box, '/sim/v1/outbox?since=2026-02-01T00:00:00Z')).map((m) => m.kind)).toEqual(['invoice']);
    const page = (await box.req('GET', '/sim/v1/outbox?since=2026-01-01T00:00:00Z&page_size=1')).body as List<Mail>;
    expect(new URL(page.next!).searchParams.get('since')).toBe('2026-01-01T00:00:00Z');
    for (const [query, field] of [['type=reminder', 'type'], ['object_id=x', 'object_id'], ['since=2026-02-01', 'since']]) {
      const res = await box.req('GET', `/sim/v1/outbox?${query}`);
      expect(res.status, res.text).toBe(400);
      expect(Object.keys(res.body as Errors)).toEqual([field]);
    }
  });
});

describe('the subject of every e-mail', () => {
  it('"Invoice for <template title or first product> — <total>" / "Receipt for … — <amount received>", in the currency\'s own notation', async () => {
    const box = await sandboxAt(h, '2026-01-31T09:00:00Z');
    const client = await makeClient(box);
    const subscription = await makeTemplate(box, { title: 'Gym membership' });
    const { purchase } = await subscribe(box, subscription.id, subscriberBody(client.id, '2026-02-10', { send_receipt: true }));
    await payPurchase(box, purchase!.id);
    const yen = await createPurchase(box, client.id, { send_receipt: true, purchase: { currency: 'JPY', products: [{ name: 'Matcha', price: 500 }] } });
    await payPurchase(box, yen.id);
    // A partial capture: the receipt says what was received.
    const held = await createPurchase(box, client.id, { skip_capture: true, send_receipt: true });
    await payPurchase(box, held.id);
    expect((await box.req('POST', `/api/v1/purchases/${held.id}/capture/`, { amount: 500 })).status).toBe(200);
    // No card saved: the Feb 28 billing e-mails its invoice.
    await advance(box, { to: '2026-02-28T00:00:00Z' });

    expect((await list<Mail>(box, '/sim/v1/outbox')).map((m) => [m.kind, m.subject])).toEqual([
      ['invoice', 'Invoice for Gym membership — €29.90'],
      ['receipt', 'Receipt for Consulting hour — €5.00'],
      ['receipt', 'Receipt for Matcha — ¥500'],
      ['receipt', 'Receipt for Gym membership — €29.90'],
    ]);
  });

  it('an e-mail saved without a subject (an earlier version) gets one when its sandbox is loaded: from a snapshot, and from a data file', async () => {
    const box = await sandboxAt(h, '2026-01-31T09:00:00Z');
    const client = await makeClient(box);
    const template = await makeOneTimeTemplate(box, { title: 'Setup fee' });
    const sent = (await box.req('POST', `/api/v1/billing_templates/${template.id}/send_invoice/`, { client_id: client.id })).body as { id: string };
    const snapshot = (await box.req('GET', '/sim/v1/snapshot')).body as { sandbox: { outbox: Record<string, unknown>[] } };
    delete snapshot.sandbox.outbox[0]!.subject;
    expect((await box.req('DELETE', '/sim/v1/sandbox')).status).toBe(204);
    const copy = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot } });
    expect(copy.status, copy.text).toBe(201);
    const mails = await list<Mail>({ ...box, req: (method, path, body) => h.request(method, path, { token: (copy.body as { token: string }).token, body }) }, '/sim/v1/outbox');
    expect(mails.map((m) => [m.purchase_id, m.subject])).toEqual([[sent.id, 'Invoice for Setup fee — €49.00']]);

    const file = join(dir, 'subjects.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const created = (await send(first.url, 'POST', '/sim/v1/sandboxes', null, { now: '2026-01-31T09:00:00Z' })).body as { token: string; brand_id: string };
    const other: Box = { h, token: created.token, brandId: created.brand_id, req: (method, path, body) => send(first.url, method, path, created.token, body) };
    const paid = await createPurchase(other, (await makeClient(other)).id, { send_receipt: true });
    await payPurchase(other, paid.id);
    await first.stop();
    const db = new Database(file);
    const row = db.prepare("SELECT rowid, data FROM log WHERE kind = 'outbox'").get() as { rowid: number; data: string };
    const { subject, ...older } = JSON.parse(row.data) as Mail;
    expect(subject).toBe('Receipt for Consulting hour — €12.00');
    db.prepare('UPDATE log SET data = ? WHERE rowid = ?').run(JSON.stringify(older), row.rowid);
    db.close();
    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      const res = await send(second.url, 'GET', '/sim/v1/outbox', created.token);
      expect((res.body as List<Mail>).results.map((m) => m.subject)).toEqual(['Receipt for Consulting hour — €12.00']);
    } finally {
      await second.stop();
    }
  });
});
