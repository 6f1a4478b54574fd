// BillingTemplateClient.send_invoice_on_add_subscriber (DESIGN.md §9; the platform's field, default
// false): the first purchase that add_subscriber creates for a pending subscriber is e-mailed
// (an `invoice` in the outbox) and becomes `sent`. Without it, or for an active subscriber, no e-mail.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  ACTIVE_AT_ONCE,
  eventTypesOf,
  getPurchase,
  getSubscriber,
  outbox,
  patchSubscriber,
  purchases,
  sandboxWithTemplate,
  subscribe,
  subscriberBody,
} from '../builders/engine.ts';

const h = useHarness();

const NOW = '2026-01-30T12:00:00Z';

describe('send_invoice_on_add_subscriber', () => {
  it('true: the pending subscriber\'s first purchase is e-mailed (one invoice in the outbox) and becomes sent', async () => {
    const { box, client, template } = await sandboxWithTemplate(h, NOW);
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10', { send_invoice_on_add_subscriber: true }));
    expect(subscriber).toMatchObject({ status: 'pending', send_invoice_on_add_subscriber: true });
    expect(purchase).toMatchObject({ status: 'sent' });
    expect(purchase!.status_history.map((s) => s.status)).toEqual(['created', 'sent']);
    expect(await getPurchase(box, purchase!.id)).toEqual(purchase);
    const emails = await outbox(box);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ kind: 'invoice', to: client.email, purchase_id: purchase!.id });
    expect(await eventTypesOf(box, purchase!.id)).toEqual(['purchase.sent', 'purchase.created']);
  });

  it('default false: the first purchase stays created and no e-mail is sent', async () => {
    const { box, client, template } = await sandboxWithTemplate(h, NOW);
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
    expect(subscriber.send_invoice_on_add_subscriber).toBe(false);
    expect(purchase).toMatchObject({ status: 'created' });
    expect(await outbox(box)).toEqual([]);
    expect(await eventTypesOf(box, purchase!.id)).toEqual(['purchase.created']);
  });

  it('an active subscriber (trial, or charged at period end) gets no purchase and no e-mail, even with it true', async () => {
    for (const fields of [{ subscription_trial_periods: 1 }, ACTIVE_AT_ONCE]) {
      const { box, client, template } = await sandboxWithTemplate(h, NOW, fields);
      const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10', { send_invoice_on_add_subscriber: true }));
      expect(subscriber, JSON.stringify(fields)).toMatchObject({ status: 'active', send_invoice_on_add_subscriber: true });
      expect(purchase).toBeNull();
      expect(await purchases(box)).toEqual([]);
      expect(await outbox(box)).toEqual([]);
    }
  });

  it('can be changed by PATCH, like send_receipt; a non-boolean is refused, DRF\'s spellings of one are read', async () => {
    const { box, client, template } = await sandboxWithTemplate(h, NOW, ACTIVE_AT_ONCE);
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
    const patched = await patchSubscriber(box, template.id, subscriber.id, { send_invoice_on_add_subscriber: true });
    expect(patched.status, patched.text).toBe(200);
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({ send_invoice_on_add_subscriber: true });
    const refused = await patchSubscriber(box, template.id, subscriber.id, { send_invoice_on_add_subscriber: 'maybe' });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body as object)).toEqual(['send_invoice_on_add_subscriber']);
    // "no" is one of Django REST framework's spellings of false, as the platform reads a boolean field.
    expect((await patchSubscriber(box, template.id, subscriber.id, { send_invoice_on_add_subscriber: 'no' })).status).toBe(200);
    expect(await getSubscriber(box, template.id, subscriber.id)).toMatchObject({ send_invoice_on_add_subscriber: false });
  });
});
