// Records of billing-sim 0.1 brought to today's shape (src/store/upgrade.ts): the cases the HTTP
// tests (snapshot.test.ts, persistence.test.ts) do not reach, and what the upgrade must never do.

import { describe, expect, it } from 'vitest';
import { CLIENT_DEFAULTS } from '../../src/domain/clients.ts';
import { upgradeSandbox, upgradeSnapshotDocument } from '../../src/store/upgrade.ts';

const KEY = { publicKey: '-----BEGIN PUBLIC KEY-----\nSANDBOX\n-----END PUBLIC KEY-----\n', privateKey: 'private' };
const HOOK_A = '0a000000-0000-4000-8000-000000000001';
const HOOK_B = '0b000000-0000-4000-8000-000000000002';

const webhook = (id: string, events: string[]) => [id, { id, type: 'webhook', title: '', callback: 'http://127.0.0.1:9/', events }];

function oldSandbox() {
  return {
    signingKey: KEY,
    webhooks: [webhook(HOOK_A, ['purchase.paid', 'purchase.sent']), webhook(HOOK_B, ['purchase.sent', 'purchase.overdue'])],
    deliveries: [
      ['d1', { id: 'd1', webhookId: HOOK_A, objectId: 'p1', body: '{}', attempts: 1 }],
      ['d2', { id: 'd2', webhookId: HOOK_B, objectId: 'p1', body: '{}', attempts: 0 }],
      ['d3', { id: 'd3', webhookId: HOOK_B, objectId: 'p2', body: '{}', attempts: 0 }],
    ],
    deliveryQueues: [
      ['p1', ['d1', 'd2']],
      ['p2', ['d3']],
    ],
  };
}

describe('upgrading the webhooks of 0.1', () => {
  it('drops the simulator-only names, adds all_events false and the sandbox key that signed them', () => {
    const sandbox = oldSandbox();
    upgradeSandbox(sandbox);
    expect(sandbox.webhooks).toEqual([[HOOK_A, expect.objectContaining({ events: ['purchase.paid'], all_events: false, public_key: KEY.publicKey })]]);
  });

  it('a webhook that listened only to simulator-only events is removed, with its deliveries and their places in the queues', () => {
    const sandbox = oldSandbox();
    upgradeSandbox(sandbox);
    expect(sandbox.deliveries.map(([id]) => id)).toEqual(['d1']);
    expect(sandbox.deliveryQueues).toEqual([['p1', ['d1']]]);
  });

  it('a queued delivery of an earlier version gains the key of the queue that holds it (its object\'s, queues being per webhook and purchase since issue 42); one in no queue gains none', () => {
    const sandbox = oldSandbox();
    sandbox.webhooks.push(webhook('0c000000-0000-4000-8000-000000000003', ['purchase.paid']));
    sandbox.deliveries.push(['d4', { id: 'd4', webhookId: '0c000000-0000-4000-8000-000000000003', objectId: 'p3', body: '{}', attempts: 2 }]);
    upgradeSandbox(sandbox);
    const queues = Object.fromEntries(sandbox.deliveries.map(([id, delivery]) => [id, (delivery as { queue?: string }).queue]));
    expect(queues).toEqual({ d1: 'p1', d4: undefined });
  });

  it('a title longer than the platform\'s 100 characters is cut to 100', () => {
    const sandbox = { signingKey: KEY, webhooks: [[HOOK_A, { id: HOOK_A, title: 'x'.repeat(256), events: ['purchase.paid'] }]] };
    upgradeSandbox(sandbox);
    expect((sandbox.webhooks[0]![1] as { title: string }).title).toBe('x'.repeat(100));
  });

  it('is idempotent: a record already upgraded is left as it is', () => {
    const once = oldSandbox();
    upgradeSandbox(once);
    const twice = structuredClone(once);
    upgradeSandbox(twice);
    expect(twice).toEqual(once);
  });
});

describe('what the upgrade leaves to the schema', () => {
  it('values of the wrong kind stay as they were, for the schema to name', () => {
    const garbage = { purchases: [['x', 'not a purchase'], 42], templates: 'none', webhooks: [['w', { events: 'purchase.paid' }]], subscribers: null };
    const copy = structuredClone(garbage);
    upgradeSandbox(copy);
    expect(copy.purchases).toEqual(garbage.purchases);
    expect(copy.templates).toBe('none');
    expect(copy.subscribers).toBeNull();
    expect(copy.webhooks[0]![1]).toMatchObject({ events: 'purchase.paid', all_events: false });
  });

  it('a quantity with more places than allowed is left a number, for the schema to refuse with its path', () => {
    const sandbox = { purchases: [['p', { purchase: { products: [{ quantity: 1.123456, tax_percent: 7.5 }] } }]] };
    upgradeSandbox(sandbox);
    expect(sandbox.purchases[0]![1]).toMatchObject({ purchase: { products: [{ quantity: 1.123456, tax_percent: '7.50' }] } });
  });

  it('only a document of format 1 is upgraded; one of format 2 only gains the fields added within it; others are not touched', () => {
    for (const format of [3, '1']) {
      const document = { billing_sim_snapshot: format, sandbox: oldSandbox() };
      const before = structuredClone(document);
      upgradeSnapshotDocument(document);
      expect(document).toEqual(before);
    }
    const current = { billing_sim_snapshot: 2, sandbox: oldSandbox() };
    const before = structuredClone(current);
    upgradeSnapshotDocument(current);
    expect(current.sandbox.webhooks).toEqual(before.sandbox.webhooks);
    expect(current.sandbox.deliveries.map(([, delivery]) => delivery)).toEqual(before.sandbox.deliveries.map(([, delivery]) => expect.objectContaining({ ...(delivery as object), status: 'pending', tries: [] })));
    const old = { billing_sim_snapshot: 1, sandbox: oldSandbox() };
    upgradeSnapshotDocument(old);
    expect(old.billing_sim_snapshot).toBe(2);
    expect(old.sandbox.webhooks).toHaveLength(1);
  });
});

describe('records written before the platform\'s request fields (0.3)', () => {
  it('a client, a template\'s details and a purchase gain the platform\'s fields with their defaults; what they held stays', () => {
    const details = { products: [], currency: 'EUR', total: 0, timezone: 'UTC', language: 'en', notes: '', due_strict: false, email_message: '' };
    const client = { id: 'c1', type: 'client', email: 'a@example.com', full_name: 'Ada', cc: [], bcc: [] };
    const purchase = { id: 'p1', type: 'purchase', client: { email: 'a@example.com', full_name: 'Ada' }, purchase: { ...details }, success_redirect: null };
    const sandbox = { clients: [['c1', client]], templates: [['t1', { id: 't1', purchase: { ...details } }]], purchases: [['p1', purchase]] };
    upgradeSandbox(sandbox);
    expect(client).toMatchObject({ full_name: 'Ada', personal_code: '', shipping_street_address: '', brand_name: '', bank_account: '', bank_code: '', description: '' });
    expect(sandbox.templates[0]![1]).toMatchObject({ purchase: { currency: 'EUR', total_override: null, debt: 0, request_client_details: [] } });
    expect(purchase).toMatchObject({ success_callback: null, cancel_redirect: null, reference: '', creator_agent: '', platform: 'api', upsell_campaigns: [], referral_campaign_id: null });
    expect(purchase.client).toMatchObject({ full_name: 'Ada', shipping_city: '' });
    // Each record gets a list of its own, not the defaults' shared one.
    expect((purchase.client as Record<string, unknown>).cc).not.toBe(CLIENT_DEFAULTS.cc);
  });
});

describe('cards kept before the platform\'s integer expiry', () => {
  const card = Object.freeze({ card_brand: 'visa', masked_pan: '444433******1111', expiry_month: '07', expiry_year: '29', cardholder_name: 'Ada', card_issuer_country: 'MY', card_type: 'credit' });
  const tried = (extra: object) => ({ type: 'execute', successful: true, payment_method: 'visa', country: null, client_ip: null, processing_time: 0, extra, error: null });
  const purchase = (id: string) => [id, { id, type: 'purchase', transaction_data: { payment_method: 'visa', country: null, attempts: [tried(card), tried({})] } }];

  it('a card\'s two-digit strings become the integers the platform sends (`07` → 7); one card shared by two attempts stays one', () => {
    const document = { billing_sim_snapshot: 2, sandbox: { purchases: [purchase('p1'), purchase('p2')] } };
    upgradeSnapshotDocument(document);
    const attempts = document.sandbox.purchases.map(([, kept]) => (kept as { transaction_data: { attempts: { extra: Record<string, unknown> }[] } }).transaction_data.attempts);
    expect(attempts[0]![0]!.extra).toEqual({ ...card, expiry_month: 7, expiry_year: 29 });
    expect(attempts[0]![0]!.extra).toBe(attempts[1]![0]!.extra);
    expect(attempts[0]![1]!.extra).toEqual({});
    // Again: nothing left to change.
    const once = JSON.stringify(document);
    upgradeSnapshotDocument(document);
    expect(JSON.stringify(document)).toBe(once);
  });

  it('an expiry that is not two digits is left as it is, for the schema to name', () => {
    const document = { billing_sim_snapshot: 2, sandbox: { purchases: [['p1', { id: 'p1', type: 'purchase', transaction_data: { attempts: [tried({ ...card, expiry_month: 'July' })] } }]] } };
    upgradeSnapshotDocument(document);
    expect(JSON.stringify(document)).toContain('"expiry_month":"July"');
  });
});
