// Instants of a write: `updated_on` moves on every write once the clock has moved, and `created_on`
// never changes, for PUT and PATCH of every resource that takes them (clients, billing templates,
// subscribers, webhooks). The platform's own objects show it: `updated_on` is the instant of the last
// change (docs/fidelity.md#objects). Each case works in a frozen sandbox of its own and moves its
// clock a day before writing, so a write that kept the stored `updated_on` shows.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { clientBody, subscriptionBody } from '../builders/templates.ts';

const h = useHarness();

const DAY = 86_400;

interface Stamped {
  id: string;
  created_on: number;
  updated_on: number;
}

/** A frozen sandbox of its own, a request in it that must answer `status`, and its clock moved a day. */
async function ownSandbox() {
  const { token, brandId } = await h.newSandbox({ frozen: true });
  const send = async (method: string, path: string, body: unknown, status: number): Promise<Stamped> => {
    const res = await h.request(method, path, { token, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
    return res.body as Stamped;
  };
  const advanceDay = async () => expect((await h.request('POST', '/sim/v1/clock/advance', { token, body: { by: 'P1D' } })).status).toBe(200);
  return { token, brandId, send, advanceDay };
}

/** The write answered `written` a day after `created`: created_on kept, updated_on the new instant. */
function expectMoved(created: Stamped, written: Stamped): void {
  expect(written.created_on, 'created_on never changes').toBe(created.created_on);
  expect(written.updated_on, 'updated_on is the instant of the write, a day later').toBe(created.created_on + DAY);
}

describe('updated_on moves on every write once the clock has moved', () => {
  for (const method of ['PUT', 'PATCH']) {
    it(`a client, by ${method}`, async () => {
      const box = await ownSandbox();
      const created = await box.send('POST', '/api/v1/clients/', clientBody(), 201);
      await box.advanceDay();
      const written = await box.send(method, `/api/v1/clients/${created.id}/`, method === 'PUT' ? clientBody({ full_name: 'Grace' }) : { full_name: 'Grace' }, 200);
      expectMoved(created, written);
      expectMoved(created, await box.send('GET', `/api/v1/clients/${created.id}/`, undefined, 200));
    });

    it(`a billing template, by ${method}`, async () => {
      const box = await ownSandbox();
      const created = await box.send('POST', '/api/v1/billing_templates/', subscriptionBody(box.brandId), 201);
      await box.advanceDay();
      const body = method === 'PUT' ? subscriptionBody(box.brandId, { title: 'Renamed' }) : { title: 'Renamed' };
      expectMoved(created, await box.send(method, `/api/v1/billing_templates/${created.id}/`, body, 200));
      expectMoved(created, await box.send('GET', `/api/v1/billing_templates/${created.id}/`, undefined, 200));
    });
  }

  it('a subscriber, by PATCH', async () => {
    const box = await ownSandbox();
    const template = await box.send('POST', '/api/v1/billing_templates/', subscriptionBody(box.brandId, { subscription_charge_period_end: true }), 201);
    const client = await box.send('POST', '/api/v1/clients/', clientBody(), 201);
    const added = (await box.send(
      'POST',
      `/api/v1/billing_templates/${template.id}/add_subscriber/`,
      { client_id: client.id, subscription_deduction_date: '2026-02-10', mandate_expiry_date: '2028-02-10' },
      201,
    )) as unknown as { billing_template_client: Stamped };
    const subscriber = added.billing_template_client;
    await box.advanceDay();
    const path = `/api/v1/billing_templates/${template.id}/clients/${subscriber.id}/`;
    expectMoved(subscriber, await box.send('PATCH', path, { send_receipt: false }, 200));
    expectMoved(subscriber, await box.send('GET', path, undefined, 200));
  });

  it('a webhook, by PUT', async () => {
    const box = await ownSandbox();
    const body = { callback: 'https://example.com/hook', events: ['purchase.paid'] };
    const created = await box.send('POST', '/api/v1/webhooks/', body, 201);
    await box.advanceDay();
    expectMoved(created, await box.send('PUT', `/api/v1/webhooks/${created.id}/`, { ...body, title: 'Renamed' }, 200));
  });
});
