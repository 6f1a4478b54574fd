// A webhook's own signing key (DESIGN.md §9) is part of the sandbox's state (DESIGN.md §6): it
// survives a restart with --data and a snapshot's export and import, so a receiver that took the
// webhook's public_key keeps verifying; deleting the webhook deletes its key. A snapshot without
// `webhookKeys` (written before webhooks had keys) still imports: its webhooks are signed with the
// sandbox's key, which they must then show. A key that cannot sign, or belongs to no webhook, is a
// 400 naming its path.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.ts';
import { useHarness, type Harness } from '../support/harness.ts';
import { Receiver, verifies } from '../support/receiver.ts';
import { send } from '../support/spawn-sim.ts';
import { createPurchase, expectRejected, makeClient, purchaseBody, sandboxAt, type Box } from '../builders/engine.ts';

interface Webhook {
  id: string;
  public_key: string;
}

type Document = { billing_sim_snapshot: number; sandbox: Record<string, any> };

const h = useHarness({ now: '2026-01-30T12:00:00Z' });
/** Another server: a snapshot restored where none of its ids is taken keeps them. */
const other = useHarness({ now: '2026-01-30T12:00:00Z', seed: 8 });
const receiver = new Receiver();
const dir = mkdtempSync(join(tmpdir(), 'billing-sim-hooks-'));
beforeAll(() => receiver.start());
afterAll(async () => {
  await receiver.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function register(box: Box, path: string): Promise<Webhook> {
  const res = await box.req('POST', '/api/v1/webhooks/', { callback: receiver.url + path, events: ['purchase.created'] });
  expect(res.status, res.text).toBe(201);
  return res.body as Webhook;
}

async function exportOf(box: Box): Promise<Document> {
  const exported = await box.req('GET', '/sim/v1/snapshot');
  expect(exported.status, exported.text.slice(0, 500)).toBe(200);
  return exported.body as Document;
}

async function importOf(document: unknown, into: Harness): Promise<Box> {
  const created = await into.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: document } });
  expect(created.status, created.text.slice(0, 500)).toBe(201);
  const { token, brand_id } = created.body as { token: string; brand_id: string };
  return { h: into, token, brandId: brand_id, req: (method, path, body) => into.request(method, path, { token, body }) };
}

describe('a webhook keeps its key', () => {
  it('across a restart with --data: the webhook answers the same public_key, and deliveries after the restart verify with it', async () => {
    const file = join(dir, 'hooks.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const hook = await send(first.url, 'POST', '/api/v1/webhooks/', first.token, { callback: `${receiver.url}/restart`, events: ['purchase.created'] });
    expect(hook.status).toBe(201);
    const webhook = hook.body as Webhook;
    await first.stop();

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      expect((await send(second.url, 'GET', `/api/v1/webhooks/${webhook.id}/`, second.token)).body).toEqual(webhook);
      const client = await send(second.url, 'POST', '/api/v1/clients/', second.token, { email: 'restart@example.com' });
      const box = { brandId: second.brandId } as Box;
      const purchase = await send(second.url, 'POST', '/api/v1/purchases/', second.token, purchaseBody(box, (client.body as { id: string }).id));
      expect(purchase.status).toBe(201);
      const [delivery] = await receiver.waitFor('/restart', 1);
      expect(delivery!.body.id).toBe((purchase.body as { id: string }).id);
      expect(verifies(webhook.public_key, delivery!)).toBe(true);
    } finally {
      await second.stop();
    }
  });

  it('in a snapshot (webhookKeys) and in its import on another server, whose deliveries verify with the same public_key', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const webhook = await register(box, '/copy');
    const document = await exportOf(box);
    expect(document.sandbox.webhookKeys).toEqual([[webhook.id, { publicKey: webhook.public_key, privateKey: expect.stringMatching(/^-----BEGIN PRIVATE KEY-----\n/) }]]);
    const copy = await importOf(document, other);
    expect((await copy.req('GET', `/api/v1/webhooks/${webhook.id}/`)).body).toEqual(webhook);
    const purchase = await createPurchase(copy, (await makeClient(copy)).id);
    const [delivery] = await receiver.waitFor('/copy', 1);
    expect(delivery!.body.id).toBe(purchase.id);
    expect(verifies(webhook.public_key, delivery!)).toBe(true);
  });

  it('until it is deleted: its key goes with it', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const kept = await register(box, '/kept');
    const deleted = await register(box, '/deleted');
    expect((await box.req('DELETE', `/api/v1/webhooks/${deleted.id}/`)).status).toBe(204);
    expect((await exportOf(box)).sandbox.webhookKeys.map(([id]: [string]) => id)).toEqual([kept.id]);
  });
});

describe('snapshots without webhookKeys, and bad keys', () => {
  /** A sandbox with one webhook and the account key made, exported. */
  async function exported() {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const webhook = await register(box, '/legacy');
    expect((await box.req('GET', '/api/v1/public_key/')).status).toBe(200);
    return { webhook, document: await exportOf(box) };
  }

  it('a document without webhookKeys imports; a webhook without a key of its own is signed with the sandbox\'s key, which it shows', async () => {
    const { document } = await exported();
    const legacy = structuredClone(document);
    delete legacy.sandbox.webhookKeys;
    const accountKey = legacy.sandbox.signingKey.publicKey as string;
    legacy.sandbox.webhooks[0][1].public_key = accountKey;
    const copy = await importOf(legacy, other);
    const [webhook] = ((await copy.req('GET', '/api/v1/webhooks/')).body as { results: Webhook[] }).results;
    expect(webhook!.public_key).toBe(accountKey);
    expect((await copy.req('GET', '/api/v1/public_key/')).body).toBe(accountKey);
    const purchase = await createPurchase(copy, (await makeClient(copy)).id);
    const delivery = (await receiver.waitFor('/legacy', 1)).find((r) => r.body.id === purchase.id);
    expect(verifies(accountKey, delivery!)).toBe(true);
  });

  const OTHER_ID = '0e5f8c1a-4b2d-4c3e-9f1a-2b3c4d5e6f70';
  const cases: [string, (s: Record<string, any>) => void, string, string][] = [
    ['a webhook whose public_key is not that of the key that signs it', (s) => delete s.webhookKeys, 'sandbox.webhooks.0.1.public_key', 'invalid'],
    ['a key of a webhook that does not exist', (s) => s.webhookKeys.push([OTHER_ID, s.webhookKeys[0][1]]), 'sandbox.webhookKeys.1.0', 'does_not_exist'],
    ['a key pair that is not one', (s) => (s.webhookKeys[0][1].privateKey = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n'), 'sandbox.webhookKeys.0.1.privateKey', 'invalid'],
    ['a key whose halves do not match', (s) => (s.webhookKeys[0][1].publicKey = s.signingKey.publicKey), 'sandbox.webhookKeys.0.1.publicKey', 'invalid'],
  ];

  it.each(cases)('%s → 400 naming its path', async (_name, spoil, path, code) => {
    const { document } = await exported();
    spoil(document.sandbox);
    expectRejected(await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: document } }), `snapshot.${path}`, code);
  });
});
