// DESIGN.md §10: "Ids of a sandbox created with a `seed` are the same on every run." The same requests
// give the same ids in every sandbox of that seed, on this server or another, across a restart with
// a data file and after a reset; since ids then repeat across sandboxes, a seeded sandbox's checkout
// links name the sandbox (`/checkout/{sandbox_id}/{purchase_id}/`).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.ts';
import { useHarness, type Harness } from '../support/harness.ts';
import { send } from '../support/spawn-sim.ts';
import {
  advance,
  createPurchase,
  events,
  generated,
  getPurchase,
  makeClient,
  makeTemplate,
  outbox,
  payPurchase,
  subscribe,
  subscriberBody,
  type Box,
  type Client,
  type List,
  type Purchase,
} from '../builders/engine.ts';

const NOW = '2026-01-31T09:00:00Z';
const h = useHarness({ now: NOW });
/** Another server, whose own ids come from another seed: a seeded sandbox there must not care. */
const elsewhere = useHarness({ now: NOW, seed: 99 });
const dir = mkdtempSync(join(tmpdir(), 'billing-sim-seeded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Seeded extends Box {
  id: string;
}

async function seeded(harness: Harness, body: Record<string, unknown>): Promise<Seeded> {
  const { token, brandId, id } = await harness.newSandbox({ now: NOW, frozen: true, ...body });
  return { h: harness, id, token, brandId, req: (method, path, body) => harness.request(method, path, { token, body }) };
}

/**
 * The same requests each time: a client, a monthly template, a subscriber launched Jan 31 by paying
 * its first purchase with a saved card, and two months of billings (Feb 28, Mar 31). Returns every id
 * the sandbox made, in the order the API lists them.
 */
async function story(box: Box) {
  const client = await makeClient(box);
  const template = await makeTemplate(box);
  const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10', { send_receipt: true }));
  await payPurchase(box, purchase!.id, { save_token: true });
  await advance(box, { to: '2026-03-31T00:00:00Z' });
  return {
    brand: box.brandId,
    client: client.id,
    template: template.id,
    subscriber: subscriber.id,
    purchases: (await generated(box, template.id)).map((p) => p.id),
    events: (await events(box)).map((e) => e.id),
    emails: (await outbox(box)).map((m) => m.id),
  };
}

describe('POST /sim/v1/sandboxes {"seed"}: the same ids', () => {
  it('two sandboxes with seed 42 on one server, and one on another server, give the same ids to the same requests; the sandbox id and token differ', async () => {
    const [a, b, c] = [await seeded(h, { seed: 42 }), await seeded(h, { seed: 42 }), await seeded(elsewhere, { seed: 42 })];
    const first = await story(a);
    expect(first.purchases).toHaveLength(3);
    expect(await story(b)).toEqual(first);
    expect(await story(c)).toEqual(first);
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
    expect(a.token).not.toBe(b.token);
  });

  it('another seed gives other ids, and a sandbox without a seed draws from the server as before', async () => {
    const first = await story(await seeded(h, { seed: 42 }));
    const other = await story(await seeded(h, { seed: 43 }));
    const [plain1, plain2] = [await story(await seeded(h, {})), await story(await seeded(h, {}))];
    for (const ids of [other, plain1, plain2]) expect(ids.client).not.toBe(first.client);
    expect(plain1.client).not.toBe(plain2.client);
  });

  it('with fixtures, the fixtures get the same ids and data in each sandbox of the seed', async () => {
    const clients = async (box: Box) => ((await box.req('GET', '/api/v1/clients/')).body as List<Client>).results;
    const [a, b] = [await seeded(h, { seed: 7, fixtures: true }), await seeded(h, { seed: 7, fixtures: true })];
    expect(await clients(a)).toHaveLength(5);
    expect(await clients(b)).toEqual(await clients(a));
  });

  it('a reset starts the sequence again: the same requests give the same ids as the first time', async () => {
    const box = await seeded(h, { seed: 5 });
    const first = await story(box);
    const reset = await box.req('POST', '/sim/v1/reset');
    expect(reset.status).toBe(200);
    expect((reset.body as { id: string; brand_id: string })).toMatchObject({ id: box.id, brand_id: box.brandId });
    // Brand and company keep their ids, drawn first; the next object is the first one again.
    expect((await makeClient(box)).id).toBe(first.client);
  });

  it('a data file keeps the sequence\'s place: after a restart the sandbox goes on, and never repeats an id', async () => {
    const file = join(dir, 'seeded.db');
    const start = async () => startSimulator({ port: 0, quiet: true, dataFile: file });
    const first = await start();
    const created = (await send(first.url, 'POST', '/sim/v1/sandboxes', null, { now: NOW, seed: 42 })).body as { token: string; brand_id: string };
    const on = (url: string): Box => ({ h, token: created.token, brandId: created.brand_id, req: (method, path, body) => send(url, method, path, created.token, body) });
    const before = await makeClient(on(first.url));
    await first.stop();
    const second = await start();
    let after: Client;
    try {
      after = await makeClient(on(second.url));
    } finally {
      await second.stop();
    }
    const reference = await seeded(h, { seed: 42 });
    expect([before.id, after.id]).toEqual([(await makeClient(reference)).id, (await makeClient(reference)).id]);
  });
});

describe('checkout links of seeded sandboxes', () => {
  const form = (url: string, fields: Record<string, string>) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });

  it('name the sandbox, so the same purchase id in two sandboxes opens and pays each one on its own; the short form answers only while one sandbox has the id', async () => {
    const [a, b] = [await seeded(h, { seed: 11 }), await seeded(h, { seed: 11 })];
    const [pa, pb] = [await createPurchase(a, (await makeClient(a)).id), await createPurchase(b, (await makeClient(b)).id)];
    expect(pa.id).toBe(pb.id);
    expect(pa.checkout_url).toBe(`${h.origin}/checkout/${a.id}/${pa.id}/`);
    expect(pb.checkout_url).toBe(`${h.origin}/checkout/${b.id}/${pb.id}/`);

    // The short form is ambiguous here: no page.
    expect((await fetch(`${h.origin}/checkout/${pa.id}/`)).status).toBe(404);
    // A's link opens A's purchase only; its form pays A's purchase only.
    expect((await fetch(pa.checkout_url)).status).toBe(200);
    expect([(await getPurchase(a, pa.id)).status, (await getPurchase(b, pb.id)).status]).toEqual(['viewed', 'created']);
    const paid = await form(pa.checkout_url, { pay_with: 'method:visa', outcome: 'approve' });
    expect([paid.status, paid.headers.get('location')]).toEqual([303, `/checkout/${a.id}/${pa.id}/`]);
    expect([(await getPurchase(a, pa.id)).status, (await getPurchase(b, pb.id)).status]).toEqual(['paid', 'created']);
    // A link naming another sandbox (or none that exists) finds nothing.
    expect((await fetch(`${h.origin}/checkout/${h.sandboxId}/${pa.id}/`)).status).toBe(404);

    // With A gone, the short form is unambiguous again and opens B's purchase.
    expect((await a.req('DELETE', '/sim/v1/sandbox')).status).toBe(204);
    expect((await fetch(`${h.origin}/checkout/${pb.id}/`)).status).toBe(200);
    expect((await getPurchase(b, pb.id)).status).toBe('viewed');
  });

  it('a sandbox without a seed keeps the short link /checkout/{id}/', async () => {
    const box = await seeded(h, {});
    const purchase = await createPurchase(box, (await makeClient(box)).id);
    expect(purchase.checkout_url).toBe(`${h.origin}/checkout/${purchase.id}/`);
  });

  it('a snapshot copy on another server keeps the ids (none is taken there), and its links name the copy', async () => {
    const original = await seeded(h, { seed: 31 });
    const purchase = await createPurchase(original, (await makeClient(original)).id);
    const snapshot = (await original.req('GET', '/sim/v1/snapshot')).body;
    const created = await elsewhere.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot } });
    expect(created.status, created.text).toBe(201);
    const { id, token } = created.body as { id: string; token: string };
    const copied = (await elsewhere.request('GET', `/api/v1/purchases/${purchase.id}/`, { token })).body as Purchase;
    expect(copied.checkout_url).toBe(`${elsewhere.origin}/checkout/${id}/${purchase.id}/`);
    expect((await fetch(copied.checkout_url)).status).toBe(200);
  });

  it('a snapshot copy next to its original: its ids are renamed (they are taken), its links name the copy, and it goes on with the original\'s sequence', async () => {
    const original = await seeded(h, { seed: 21 });
    const client = await makeClient(original);
    const purchase = await createPurchase(original, client.id);
    const snapshot = (await original.req('GET', '/sim/v1/snapshot')).body;
    const created = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot } });
    expect(created.status, created.text).toBe(201);
    const { id, token, brand_id } = created.body as { id: string; token: string; brand_id: string };
    const copy: Seeded = { h, id, token, brandId: brand_id, req: (method, path, body) => h.request(method, path, { token, body }) };

    const [copied] = ((await copy.req('GET', '/api/v1/purchases/')).body as List<Purchase>).results;
    expect(copied!.id).not.toBe(purchase.id);
    expect(copied!.checkout_url).toBe(`${h.origin}/checkout/${copy.id}/${copied!.id}/`);
    // The next id of each is the sequence's next: the same.
    expect((await makeClient(copy)).id).toBe((await makeClient(original)).id);
    expect((await fetch(copied!.checkout_url)).status).toBe(200);
    expect((await getPurchase(copy, copied!.id)).status).toBe('viewed');
    expect((await getPurchase(original, purchase.id)).status).toBe('created');
  });
});
