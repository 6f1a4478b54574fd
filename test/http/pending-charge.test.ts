// Issue 42: `pending_charge`, the platform's answer to a charge with a token that the acquirer has
// not finished (docs/fidelity.md: "slow → 200 `pending_charge`" [CS PurchasesApi]; Revio's debit
// orders: `pending_charge`, then `pending_execute` [RV:docs/tokenised-debit-order-payments]). The
// sandbox's processing `delay` (PUT /sim/v1/processing) is how long the acquirer takes, as for the
// other pending steps; with no delay (the default) a charge ends within its request, as before. The
// billing engine's automatic charges are never pending (DESIGN.md §4.4: the billing charges at once).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { Receiver } from '../support/receiver.ts';
import {
  ACTIVE_AT_ONCE,
  advance,
  createPurchase,
  eventTypesOf,
  expectRejected,
  getPurchase,
  makeTemplate,
  sandboxWithClient,
  saveToken,
  subscribe,
  subscriberBody,
  type Box,
  type Purchase,
} from '../builders/engine.ts';

const NOW = '2026-01-30T12:00:00Z';
const h = useHarness({ now: NOW });
const receiver = new Receiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

const statuses = (purchase: Purchase) => purchase.status_history.map((entry) => entry.status);
const charge = (box: Box, id: string, token: string) => box.req('POST', `/api/v1/purchases/${id}/charge/`, { recurring_token: token });

async function delayed(delay: string) {
  const made = await sandboxWithClient(h, NOW);
  expect((await made.box.req('PUT', '/sim/v1/processing', { delay })).status).toBe(200);
  return made;
}

describe('purchase.pending_charge: a charge with a token while the sandbox\'s processing takes time', () => {
  it('with delay PT1H a charge answers 200 pending_charge and sends purchase.pending_charge; when the hour has passed it is paid, and a webhook has received pending_charge then paid', async () => {
    const { box, client } = await delayed('PT1H');
    const hook = await box.req('POST', '/api/v1/webhooks/', { callback: `${receiver.url}/slow`, events: ['purchase.pending_charge', 'purchase.paid'] });
    expect(hook.status).toBe(201);
    const token = await saveToken(box, client.id);
    const purchase = await createPurchase(box, client.id);
    const answered = await charge(box, purchase.id, token);
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body).toMatchObject({ id: purchase.id, status: 'pending_charge', payment: null });
    expect((await getPurchase(box, purchase.id)).status).toBe('pending_charge');
    await advance(box, { by: 'PT59M' });
    expect((await getPurchase(box, purchase.id)).status).toBe('pending_charge');
    await advance(box, { by: 'PT1M' });
    const paid = await getPurchase(box, purchase.id);
    expect(paid).toMatchObject({ status: 'paid', recurring_token: token, payment: { amount: 1200 } });
    expect(statuses(paid)).toEqual(['created', 'pending_charge', 'paid']);
    expect(paid.transaction_data.attempts[0]).toMatchObject({ type: 'recurring_execute', successful: true });
    expect((await eventTypesOf(box, purchase.id)).reverse()).toEqual(['purchase.created', 'purchase.pending_charge', 'purchase.paid']);
    const received = await receiver.waitFor('/slow', 3);
    // The saving purchase's purchase.paid, then this one's two events in order.
    expect(received.filter((r) => r.body.id === purchase.id).map((r) => [r.body.event_type, r.body.status])).toEqual([
      ['purchase.pending_charge', 'pending_charge'],
      ['purchase.paid', 'paid'],
    ]);
  });

  it('declined when the acquirer answers: back in the status it had, with the failed attempt and purchase.payment_failure (no request is left to answer 400)', async () => {
    const { box, client } = await delayed('PT10M');
    const token = await saveToken(box, client.id, { tokenOutcomes: ['expired_card', 'success'] });
    const purchase = await createPurchase(box, client.id);
    expect((await charge(box, purchase.id, token)).body).toMatchObject({ status: 'pending_charge' });
    await advance(box, { by: 'PT10M' });
    const back = await getPurchase(box, purchase.id);
    expect(back.status).toBe('created');
    expect(statuses(back)).toEqual(['created', 'pending_charge', 'created']);
    expect(back.transaction_data.attempts[0]).toMatchObject({ type: 'recurring_execute', successful: false, error: { code: 'expired_card' } });
    expect((await eventTypesOf(box, purchase.id)).reverse()).toEqual(['purchase.created', 'purchase.pending_charge', 'purchase.payment_failure']);
    // The token's next outcome accepts: charged again, pending, then paid.
    expect((await charge(box, purchase.id, token)).body).toMatchObject({ status: 'pending_charge' });
    await advance(box, { by: 'PT10M' });
    expect((await getPurchase(box, purchase.id)).status).toBe('paid');
  });

  it('while pending_charge the purchase is not payable: another charge → 400 purchase_charge_error, a cancel → 400 under __all__, and neither changes it', async () => {
    const { box, client } = await delayed('PT1H');
    const token = await saveToken(box, client.id);
    const purchase = await createPurchase(box, client.id);
    const pending = (await charge(box, purchase.id, token)).body as Purchase;
    expectRejected(await charge(box, purchase.id, token), '__all__', 'purchase_charge_error');
    const cancel = await box.req('POST', `/api/v1/purchases/${purchase.id}/cancel/`);
    expect(cancel.status).toBe(400);
    expect(Object.keys(cancel.body as object)).toEqual(['__all__']);
    expect(await getPurchase(box, purchase.id)).toEqual(pending);
  });

  it('a ONEDAY token: pending_charge for the delay, then pending_execute for the bank\'s day, then paid (Revio: pending_charge, then pending_execute)', async () => {
    const { box, client } = await delayed('PT1H');
    const token = await saveToken(box, client.id, { serviceType: 'ONEDAY' });
    const purchase = await createPurchase(box, client.id, { force_recurring: true, service_type: 'ONEDAY', due: 4_102_444_800 });
    expect((await charge(box, purchase.id, token)).body).toMatchObject({ status: 'pending_charge' });
    await advance(box, { by: 'PT1H' });
    expect((await getPurchase(box, purchase.id)).status).toBe('pending_execute');
    await advance(box, { by: 'P1D' });
    const paid = await getPurchase(box, purchase.id);
    expect(statuses(paid)).toEqual(['created', 'pending_charge', 'pending_execute', 'paid']);
    expect((await eventTypesOf(box, purchase.id)).reverse()).toEqual(['purchase.created', 'purchase.pending_charge', 'purchase.pending_execute', 'purchase.paid']);
  });

  it('with no delay (the default) nothing changes: a charge is paid within its request, a declined one answered 400, and no pending_charge anywhere', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const token = await saveToken(box, client.id, { tokenOutcomes: ['failure', 'success'] });
    const purchase = await createPurchase(box, client.id);
    expectRejected(await charge(box, purchase.id, token), '__all__', 'purchase_charge_error');
    const paid = (await charge(box, purchase.id, token)).body as Purchase;
    expect(paid.status).toBe('paid');
    expect(statuses(paid)).toEqual(['created', 'paid']);
    expect(await eventTypesOf(box, purchase.id)).not.toContain('purchase.pending_charge');
  });

  it('the billing engine\'s automatic charges are never pending: with delay PT1H a billing charges the saved token at once', async () => {
    const { box, client } = await delayed('PT1H');
    await saveToken(box, client.id);
    const template = await makeTemplate(box, ACTIVE_AT_ONCE);
    await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
    await advance(box, { to: '2026-03-10T00:00:00Z' });
    const billed = ((await box.req('GET', `/api/v1/purchases/?billing_template_id=${template.id}`)).body as { results: Purchase[] }).results;
    expect(billed).toHaveLength(1);
    expect(statuses(billed[0]!)).toEqual(['created', 'paid']);
  });
});
