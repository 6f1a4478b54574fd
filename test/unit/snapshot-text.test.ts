// GET /sim/v1/snapshot answers its document in pieces (store/snapshot.ts snapshotText), so that a
// sandbox of some gigabytes of JSON is answered at all and holds no other sandbox while it goes out.
// The pieces must be the very text of the whole document, and the document the sandbox as it was
// when asked for, whatever its later turns change before the last piece is made.

import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/domain/context.ts';
import { writeClient } from '../../src/domain/clients.ts';
import { addSubscriber } from '../../src/engine/billing.ts';
import { sandboxClock } from '../../src/domain/sandbox-clock.ts';
import { createIds } from '../../src/engine/ids.ts';
import { payAtCheckout } from '../../src/engine/payments.ts';
import { advance } from '../../src/engine/time.ts';
import { queueDelivery } from '../../src/engine/webhooks.ts';
import { exportSnapshot, snapshotText } from '../../src/store/snapshot.ts';
import type { Sandbox } from '../../src/store/store.ts';
import { busySandbox } from '../builders/busy-sandbox.ts';

const wall = { now: () => Date.parse('2026-01-30T09:00:00Z') };

/**
 * 30 monthly subscribers a year into their billing, one whose token declines every charge after its first,
 * one subscriber still pending (its unpaid first purchase, awaited by an overdue job), and a
 * webhook delivery waiting for its first attempt: every collection but webhooks and their keys holds something.
 */
async function billingSandbox(): Promise<Sandbox> {
  const ids = createIds(3);
  const sandbox = busySandbox(30, wall, ids);
  const ctx: Context = { clock: sandboxClock(sandbox.clock, wall), ids };
  const template = [...sandbox.templates.values()][0]!;
  const client = writeClient('create', undefined, { email: 'late@example.com' }, ctx);
  sandbox.clients.set(client.id, client);
  const declining = writeClient('create', undefined, { email: 'declined@example.com' }, ctx);
  sandbox.clients.set(declining.id, declining);
  const dates = { subscription_deduction_date: '2026-02-05', mandate_expiry_date: '2200-01-01' };
  addSubscriber(sandbox, template, { client_id: client.id, ...dates }, ctx);
  const { purchase } = addSubscriber(sandbox, template, { client_id: declining.id, ...dates }, ctx);
  payAtCheckout(sandbox, purchase!, { method: 'visa', save_token: true, token_outcomes: ['success', 'failure'] }, ctx);
  queueDelivery(sandbox, { webhookId: 'b5e6f7a8-0000-4000-8000-000000000001', objectId: purchase!.id, body: '{}', eventId: 'e', eventType: 'purchase.paid', url: 'http://127.0.0.1:9/hook' }, ctx);
  await advance(sandbox, { by: 'P1Y' }, wall, ids);
  return sandbox;
}

describe('the snapshot in pieces (GET /sim/v1/snapshot)', () => {
  it('is the very text of the whole document, in more than one piece', async () => {
    const sandbox = await billingSandbox();
    const pieces = [...snapshotText(sandbox, wall)];
    expect(sandbox.purchases.size).toBeGreaterThan(360);
    expect(sandbox.tokenOutcomes.size + sandbox.firstPurchases.size + sandbox.deliveries.size).toBe(3);
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(JSON.stringify(exportSnapshot(sandbox, wall)));
  });

  it('is the sandbox as it was when asked for, though billings change its subscribers, schedules, jobs and logs before the last piece', async () => {
    const sandbox = await billingSandbox();
    const before = JSON.stringify(exportSnapshot(sandbox, wall));
    // Asked for, and no piece made yet.
    const text = snapshotText(sandbox, wall);
    // Another turn: a month of billings (subscribers and schedules changed in place, jobs moved to
    // their next date, a token's outcome used up), with events and e-mails trimmed to the newest 50.
    await advance(sandbox, { by: 'P1M' }, wall, createIds(4), { maxEvents: 50 });
    expect(JSON.stringify(exportSnapshot(sandbox, wall))).not.toBe(before);
    expect([...text].join('')).toBe(before);
  });
});
