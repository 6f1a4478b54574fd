// Engine behaviour around the clock and the store: running clocks catch up without an advance,
// a persisted sandbox resumes its schedule, and due_strict refuses late payment.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { advance, createPurchase, events, generated, getPurchase, getSubscriber, launchSubscriber, makeClient, makeTemplate, payPurchase, sandboxAt, subscribe, subscriberBody, type Box, type Subscriber } from '../builders/engine.ts';
import { createTemplate } from '../../src/domain/billing-templates.ts';
import { writeClient } from '../../src/domain/clients.ts';
import { addSubscriber } from '../../src/engine/billing.ts';
import { sandboxClock } from '../../src/domain/sandbox-clock.ts';
import { createIds } from '../../src/engine/ids.ts';
import { createSandbox } from '../../src/engine/sandboxes.ts';
import { advance as advanceSandbox } from '../../src/engine/time.ts';
import { fromSnapshot, toSnapshot } from '../../src/store/store.ts';
import { subscriptionBody } from '../builders/templates.ts';

const h = useHarness({ now: '2026-01-30T12:00:00Z' });

describe('running clocks', () => {
  it('a billing falls due as wall time passes and has run before the next request sees the sandbox', async () => {
    const { token, brandId } = await h.newSandbox({ now: '2026-01-30T12:00:00Z', frozen: false });
    const box: Box = { h, token, brandId, req: (method, path, body) => h.request(method, path, { token, body }) };
    const template = await makeTemplate(box, { subscription_trial_periods: 1 });
    const client = await makeClient(box);
    const { subscriber } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-03'));
    // One trial period: the first purchase is two periods after launch, 2026-04-03.
    expect(subscriber.subscription_billing_scheduled_on).toBe('2026-04-03');
    h.wall.ms = Date.parse('2026-04-03T00:00:01Z');
    const after = await getSubscriber(box, template.id, subscriber.id);
    expect(after.number_of_billing_cycles_passed).toBe(3);
    expect(after.subscription_billing_scheduled_on).toBe('2026-05-03');
    expect((await generated(box, template.id)).map((p) => p.issued)).toEqual(['2026-04-03']);
    h.wall.ms = Date.parse('2026-01-30T12:00:00Z');
  });
});

describe('records kept by events', () => {
  it('billing_template_client.activated keeps the subscriber as it was activated, while its billings move the record on', async () => {
    // Launched on Jan 31: its dates are the last days of the months that follow (Feb 28, Mar 31, Apr 30).
    const { box, template, subscriber } = await launchSubscriber(h, '2027-01-31T10:00:00Z');
    await advance(box, { to: '2027-04-30T12:00:00Z' });
    const now = await getSubscriber(box, template.id, subscriber.id);
    expect(now).toMatchObject({ number_of_billing_cycles_passed: 4, subscription_billing_scheduled_on: '2027-05-31' });
    const activated = (await events(box)).filter((e) => e.event_type === 'billing_template_client.activated' && e.object_id === subscriber.id);
    expect(activated).toHaveLength(1);
    const kept = activated[0]!.payload as Subscriber;
    expect(kept).toMatchObject({ status: 'active', number_of_billing_cycles_passed: 1, subscription_billing_scheduled_on: '2027-02-28', updated_on: activated[0]!.created_on });
    expect(now.updated_on).toBe(Date.parse('2027-04-30T00:00:00Z') / 1000);
  });
});

describe('due_strict', () => {
  it('"the checkout page refuses payment after due" when due_strict (the purchase is expired), and accepts it otherwise (overdue)', async () => {
    const box = await sandboxAt(h, '2026-12-30T10:00:00Z');
    const client = await makeClient(box);
    const due = Date.parse('2027-01-01T00:00:00Z') / 1000;
    const strict = await createPurchase(box, client.id, { due, purchase: { currency: 'EUR', due_strict: true, products: [{ name: 'A', price: 100 }] } });
    const lenient = await createPurchase(box, client.id, { due });
    await advance(box, { to: '2027-01-02T00:00:00Z' });
    const refused = await box.req('POST', `/sim/v1/purchases/${strict.id}/pay`, {});
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body as object)).toEqual(['__all__']);
    expect((await getPurchase(box, strict.id)).status).toBe('expired');
    expect((await getPurchase(box, lenient.id)).status).toBe('overdue');
    expect((await payPurchase(box, lenient.id)).status).toBe('paid');
  });
});

describe('persistence of the schedule', () => {
  it('a sandbox saved to JSON and loaded again bills on the same dates', async () => {
    const wall = { now: () => Date.parse('2026-01-25T12:00:00Z') };
    const ids = createIds(11);
    const sandbox = createSandbox({ nowMs: wall.now(), frozen: true, fixtures: false, seed: 1 }, wall, ids);
    const ctx = { clock: sandboxClock(sandbox.clock, wall), ids };
    const template = createTemplate(subscriptionBody(sandbox.brands[0]!.id, { subscription_charge_period_end: true }), { brandIds: sandbox.brands.map((b) => b.id), companyId: sandbox.companyId }, ctx);
    sandbox.templates.set(template.id, template);
    const client = writeClient('create', undefined, { email: 'persist@example.com' }, ctx);
    sandbox.clients.set(client.id, client);
    addSubscriber(sandbox, template, { client_id: client.id, subscription_deduction_date: '2026-01-31', mandate_expiry_date: '2027-01-01' }, ctx);

    const restored = fromSnapshot(JSON.parse(JSON.stringify(toSnapshot(sandbox))));
    await advanceSandbox(restored, { to: '2026-04-01T00:00:00Z' }, wall, ids);
    const issued = [...restored.purchases.values()].map((p) => p.issued);
    // Charged at period end from a January 31 launch: the end of February, then March 31.
    expect(issued).toEqual(['2026-02-28', '2026-03-31']);
  });
});

describe('advance bounds', () => {
  it('into the past → 400 naming `to`; more than 100 years in one call → 400 naming `by`; the clock stays', async () => {
    const box = await sandboxAt(h, '2028-02-29T12:00:00Z');
    const past = await box.req('POST', '/sim/v1/clock/advance', { to: '2028-02-28T23:59:59Z' });
    expect(past.status).toBe(400);
    expect((past.body as Record<string, { code: string }[]>).to?.[0]?.code).toBe('min_value');
    const century = await box.req('POST', '/sim/v1/clock/advance', { by: 'P101Y' });
    expect(century.status).toBe(400);
    expect((century.body as Record<string, { code: string }[]>).by?.[0]?.code).toBe('max_value');
    expect((await box.req('GET', '/sim/v1/clock')).body).toEqual({ now: '2028-02-29T12:00:00.000Z', frozen: true });
  });
});

describe('GET /purchases/ filters', () => {
  it('narrows by client_id, billing_template_id and status, and its next link keeps the filters', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const template = await makeTemplate(box);
    const ada = await makeClient(box);
    const bob = await makeClient(box, { email: 'bob@example.com' });
    const { purchase: first } = await subscribe(box, template.id, subscriberBody(ada.id, '2026-02-03'));
    await payPurchase(box, first!.id);
    await createPurchase(box, ada.id);
    await createPurchase(box, ada.id);
    await createPurchase(box, bob.id);
    const ids = async (query: string) => ((await box.req('GET', `/api/v1/purchases/?${query}`)).body as { results: { id: string }[] }).results.length;
    expect(await ids(`client_id=${ada.id}`)).toBe(3);
    expect(await ids(`client_id=${bob.id}`)).toBe(1);
    expect(await ids(`billing_template_id=${template.id}`)).toBe(1);
    expect(await ids(`status=paid`)).toBe(1);
    expect(await ids(`client_id=${ada.id}&status=created`)).toBe(2);
    const page = (await box.req('GET', `/api/v1/purchases/?client_id=${ada.id}&page_size=2`)).body as { next: string };
    expect(page.next).toBe(`${h.origin}/api/v1/purchases/?client_id=${ada.id}&page=2&page_size=2`);
    const bad = await box.req('GET', '/api/v1/purchases/?status=lost');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body as object)).toEqual(['status']);
  });
});
