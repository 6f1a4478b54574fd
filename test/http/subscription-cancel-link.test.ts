// Issue 42: the platform's "Subscriber cancels via the e-mail link → emits
// `billing_template_client.subscription_billing_cancelled`, status → subscription_paused" [CS Event]
// (docs/fidelity.md). The e-mails of a subscription's purchases carry the link (GET /sim/v1/outbox
// `cancel_url`, and in the e-mail's `body`); GET shows what cancelling does, POST cancels: the
// subscriber is paused as a PATCH pauses it (DESIGN.md §4.5: billing dates pass without purchases,
// never shifted), and the event is recorded and delivered.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { Receiver } from '../support/receiver.ts';
import {
  ACTIVE_AT_ONCE,
  advance,
  createPurchase,
  events,
  getSubscriber,
  makeOneTimeTemplate,
  makeTemplate,
  outbox,
  purchases,
  sandboxWithClient,
  subscribe,
  subscriberBody,
  type Box,
  type Email,
} from '../builders/engine.ts';

const NOW = '2026-01-30T12:00:00Z';
const h = useHarness({ now: NOW });
const receiver = new Receiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

const CANCELLED = 'billing_template_client.subscription_billing_cancelled';
type Outboxed = Email & { cancel_url: string | null; body: string };

/** An active subscriber (charged at period end) without a token: its first billing, on Mar 10, e-mails an invoice. */
async function invoicedSubscriber() {
  const { box, client } = await sandboxWithClient(h, NOW);
  const template = await makeTemplate(box, { ...ACTIVE_AT_ONCE, title: 'Gym membership' });
  const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
  expect(subscriber.status).toBe('active');
  await advance(box, { to: '2026-03-10T00:00:00Z' });
  const [email] = (await outbox(box)) as Outboxed[];
  expect(email).toMatchObject({ kind: 'invoice' });
  return { box, client, template, subscriber, email: email! };
}

const open = (url: string) => fetch(url, { redirect: 'manual' });
const post = (url: string) => fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
const cancellations = async (box: Box) => (await events(box)).filter((event) => event.event_type === CANCELLED);

describe('the cancel link of a subscription\'s e-mails (billing_template_client.subscription_billing_cancelled)', () => {
  it('an invoice of a subscription carries the cancel link, in cancel_url and in its body beside the checkout link', async () => {
    const { box, email } = await invoicedSubscriber();
    expect(email.cancel_url).toBe(`${h.origin}/subscription_cancel/${email.purchase_id}/`);
    expect(email.body).toContain(`To cancel your subscription: ${email.cancel_url}`);
    expect(email.body).toContain(`Pay it here: ${h.origin}/checkout/${email.purchase_id}/`);
    expect(email.body.startsWith(email.subject)).toBe(true);
    // A snapshot keeps the e-mail as it was sent: the link is made when the outbox is read.
    const snapshot = (await box.req('GET', '/sim/v1/snapshot')).body as { sandbox: { outbox: Record<string, unknown>[] } };
    expect(snapshot.sandbox.outbox[0]).not.toHaveProperty('cancel_url');
  });

  it('GET shows what cancelling does with a button; POST pauses the subscriber, sends the event to a subscribed webhook and answers 303 back to the page, which says it is cancelled', async () => {
    const { box, template, subscriber, email } = await invoicedSubscriber();
    const hook = await box.req('POST', '/api/v1/webhooks/', { callback: `${receiver.url}/cancelled`, events: [CANCELLED] });
    expect(hook.status).toBe(201);
    const before = await getSubscriber(box, template.id, subscriber.id);
    const page = await open(email.cancel_url!);
    expect(page.status).toBe(200);
    const shown = await page.text();
    expect(shown).toContain('Gym membership');
    expect(shown).toContain(`<form method="post" action="/subscription_cancel/${email.purchase_id}/">`);
    expect(shown).toContain('Cancel subscription');
    // Looking changes nothing.
    expect((await getSubscriber(box, template.id, subscriber.id)).status).toBe('active');

    const cancelled = await post(email.cancel_url!);
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toBe(`/subscription_cancel/${email.purchase_id}/`);
    const after = await getSubscriber(box, template.id, subscriber.id);
    expect(after.status).toBe('subscription_paused');
    // Paused, not moved: the schedule stays, and billing dates pass without purchases.
    expect(after.subscription_billing_scheduled_on).toBe(before.subscription_billing_scheduled_on);
    const [event] = await cancellations(box);
    expect(event).toMatchObject({ object_type: 'billing_template_client', object_id: subscriber.id, payload: { status: 'subscription_paused' } });
    const [delivered] = await receiver.waitFor('/cancelled', 1);
    expect(delivered!.body).toMatchObject({ id: subscriber.id, event_type: CANCELLED, status: 'subscription_paused' });
    const again = await (await open(email.cancel_url!)).text();
    expect(again).toContain('This subscription is cancelled');
    expect(again).not.toContain('<form');

    await advance(box, { to: '2026-05-11T00:00:00Z' });
    expect((await purchases(box)).filter((purchase) => purchase.billing_template_id === template.id)).toHaveLength(1);
  });

  it('a second POST is harmless: the same 303 back to the page, no second event, the subscriber still paused; the merchant may make it active again', async () => {
    const { box, template, subscriber, email } = await invoicedSubscriber();
    expect((await post(email.cancel_url!)).status).toBe(303);
    const second = await post(email.cancel_url!);
    expect(second.status).toBe(303);
    expect(second.headers.get('location')).toBe(`/subscription_cancel/${email.purchase_id}/`);
    expect(await cancellations(box)).toHaveLength(1);
    expect((await getSubscriber(box, template.id, subscriber.id)).status).toBe('subscription_paused');
    const resumed = await box.req('PATCH', `/api/v1/billing_templates/${template.id}/clients/${subscriber.id}/`, { status: 'active' });
    expect(resumed.status, resumed.text).toBe(200);
    expect((resumed.body as { status: string }).status).toBe('active');
  });

  it('an unknown link is a 404 page, for GET and POST; an e-mail about a one-time purchase has no link (cancel_url null), and its purchase\'s link is a 404 too', async () => {
    expect((await open(`${h.origin}/subscription_cancel/7d4b1c8e-1111-4222-8333-444455556666/`)).status).toBe(404);
    expect((await post(`${h.origin}/subscription_cancel/7d4b1c8e-1111-4222-8333-444455556666/`)).status).toBe(404);
    const { box, client } = await sandboxWithClient(h, NOW);
    const oneTime = await makeOneTimeTemplate(box);
    const sent = await box.req('POST', `/api/v1/billing_templates/${oneTime.id}/send_invoice/`, { client_id: client.id });
    expect(sent.status, sent.text).toBe(201);
    const [email] = (await outbox(box)) as Outboxed[];
    expect(email).toMatchObject({ kind: 'invoice', cancel_url: null });
    expect(email!.body).not.toContain('cancel');
    const plain = await createPurchase(box, client.id);
    expect((await open(`${h.origin}/subscription_cancel/${plain.id}/`)).status).toBe(404);
    expect((await post(`${h.origin}/subscription_cancel/${email!.purchase_id}/`)).status).toBe(404);
  });
});
