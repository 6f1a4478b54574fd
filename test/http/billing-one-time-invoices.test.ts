// POST /api/v1/billing/, the platform's one-time invoices without a template (PHP SDK createBilling;
// Revio's reference: "Provide all data of a BillingTemplate … and, additionally, an array of one or
// more BillingTemplateClients in clients. Purchases will be created and invoices sent, one for every
// Client you have specified. A BillingTemplate won't be created"). Bodies are written from the PHP
// SDK's BillingTemplate and BillingTemplateClient field lists: it sends every field not null.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { expectRejected, makeClient, outbox, purchases, sandboxAt, tokenBox, type Box, type Errors, type Purchase } from '../builders/engine.ts';

const h = useHarness();

const DUE = 1_771_027_200; // 2026-02-14T00:00:00Z

/** What the PHP SDK's createBilling sends for a BillingTemplate with brand_id, title, invoice_due, purchase and clients set. */
const billingBody = (box: Box, clientIds: string[], overrides: Record<string, unknown> = {}) => ({
  brand_id: box.brandId,
  title: 'Workshop, March',
  invoice_due: DUE,
  purchase: { currency: 'EUR', products: [{ name: 'Workshop ticket', price: 15000 }] },
  clients: clientIds.map((client_id) => ({ client_id })),
  ...overrides,
});

const send = (box: Box, body: unknown) => box.req('POST', '/api/v1/billing/', body);

describe('POST /billing/', () => {
  it('POST /billing/ sends one invoice per client without storing a template', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const ada = await makeClient(box, { email: 'ada@example.com' });
    const bob = await makeClient(box, { email: 'bob@example.com' });
    const res = await send(box, billingBody(box, [ada.id, bob.id]));
    expect(res.status, res.text).toBe(201);
    const sent = res.body as Purchase[];
    expect(sent.map((p) => p.client_id)).toEqual([ada.id, bob.id]);
    for (const purchase of sent) {
      expect(purchase).toMatchObject({
        status: 'sent',
        billing_template_id: null,
        brand_id: box.brandId,
        due: DUE,
        // Spec: issued "When omitted, generated from the current day in purchase.timezone."
        issued: '2026-01-30',
        send_receipt: false,
        skip_capture: false,
      });
      expect(purchase.purchase).toMatchObject({ currency: 'EUR', total: 15000 });
    }
    expect((await outbox(box)).map((mail) => [mail.kind, mail.to, mail.purchase_id]).reverse()).toEqual([
      ['invoice', 'ada@example.com', sent[0]!.id],
      ['invoice', 'bob@example.com', sent[1]!.id],
    ]);
    expect(((await box.req('GET', '/api/v1/billing_templates/')).body as { results: unknown[] }).results).toEqual([]);
    expect((await purchases(box)).map((p) => p.id).sort()).toEqual(sent.map((p) => p.id).sort());
  });

  it('makes each purchase as send_invoice of a one-time template with the same fields makes it', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const client = await makeClient(box);
    const fields = { issued: '2026-02-01', due: DUE, skip_capture: true, send_receipt: true, force_recurring: true };
    const purchase = { currency: 'EUR', timezone: 'Europe/Berlin', products: [{ name: 'Seat', price: 1000, quantity: 3, tax_percent: 20 }] };
    const template = (await box.req('POST', '/api/v1/billing_templates/', { brand_id: box.brandId, is_subscription: false, purchase, ...fields })).body as { id: string };
    const viaTemplate = (await box.req('POST', `/api/v1/billing_templates/${template.id}/send_invoice/`, { client_id: client.id, payment_method_whitelist: ['visa'] })).body as Purchase;
    const res = await send(box, { brand_id: box.brandId, purchase, ...fields, clients: [{ client_id: client.id, payment_method_whitelist: ['visa'] }] });
    expect(res.status, res.text).toBe(201);
    const [viaBilling] = res.body as Purchase[];
    // reference_generated is made from the id.
    const differs = ['id', 'reference_generated', 'billing_template_id', 'checkout_url', 'direct_post_url'];
    const without = (p: Purchase) => Object.fromEntries(Object.entries(p).filter(([name]) => !differs.includes(name)));
    expect(without(viaBilling!)).toEqual(without(viaTemplate));
    expect(viaBilling!.billing_template_id).toBeNull();
  });

  it('the same client listed twice gets two invoices; the spec names (due) work as the invoice_* names do', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const client = await makeClient(box);
    const { invoice_due: _due, ...body } = billingBody(box, [client.id, client.id]);
    const res = await send(box, { ...body, due: DUE });
    expect(res.status, res.text).toBe(201);
    expect((res.body as Purchase[]).map((p) => [p.client_id, p.due])).toEqual([
      [client.id, DUE],
      [client.id, DUE],
    ]);
  });

  it('a rejected request changes nothing: one unknown client among several → 400 at clients.1.client_id, no purchase, no e-mail', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const client = await makeClient(box);
    const res = await send(box, billingBody(box, [client.id, '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', client.id]));
    expectRejected(res, 'clients.1.client_id', 'does_not_exist');
    expect(await purchases(box)).toEqual([]);
    expect(await outbox(box)).toEqual([]);
  });

  it('the template fields are under the one-time template rules: due required, subscription_* read-only, brand of the sandbox', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const client = await makeClient(box);
    const { invoice_due: _due, ...withoutDue } = billingBody(box, [client.id]);
    expectRejected(await send(box, withoutDue), 'due', 'required');
    expectRejected(await send(box, billingBody(box, [client.id], { subscription_period: 3 })), 'subscription_period', 'read_only');
    expectRejected(await send(box, billingBody(box, [client.id], { brand_id: '0b6c2d3e-8f41-4a5b-9c6d-7e8f9a0b1c2d' })), 'brand_id', 'does_not_exist');
    expectRejected(await send(box, billingBody(box, [client.id], { due: DUE + 1 })), 'invoice_due', 'invalid');
    expect(await purchases(box)).toEqual([]);
  });

  it('"title and is_subscription are read-only for POST /billing/": a title is taken, is_subscription true is refused', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const client = await makeClient(box);
    expect((await send(box, billingBody(box, [client.id], { title: 'Anything', is_subscription: false }))).status).toBe(201);
    expectRejected(await send(box, billingBody(box, [client.id], { is_subscription: true })), 'is_subscription', 'read_only');
    expect(await purchases(box)).toHaveLength(1);
  });

  it('clients: at least one BillingTemplateClient with a client_id; a field it does not define is unknown_field (strict)', async () => {
    const strict = await h.newSandbox({ now: '2026-01-30T12:00:00Z', strict: true });
    const box = tokenBox(h, strict.token, strict.brandId);
    const client = await makeClient(box);
    expectRejected(await send(box, billingBody(box, [])), 'clients', 'min_items');
    const { clients: _clients, ...withoutClients } = billingBody(box, []);
    expectRejected(await send(box, withoutClients), 'clients', 'required');
    expectRejected(await send(box, billingBody(box, [], { clients: [{}] })), 'clients.0.client_id', 'required');
    const misspelt = await send(box, billingBody(box, [], { clients: [{ client_id: client.id, clientid: client.id }] }));
    expectRejected(misspelt, 'clients.0.clientid', 'unknown_field');
    expect(Object.keys(misspelt.body as Errors)).toEqual(['clients.0.clientid']);
  });

  it('outside a strict sandbox a field of clients[] it does not define is ignored and named', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const client = await makeClient(box);
    const res = await send(box, billingBody(box, [], { clients: [{ client_id: client.id, clientid: client.id }] }));
    expect(res.status, res.text).toBe(201);
    expect(res.headers['billing-sim-ignored']).toBe('clients.0.clientid');
    expect(await purchases(box)).toHaveLength(1);
  });

  it('another sandbox\'s client is an unknown client', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const other = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const foreign = await makeClient(other);
    expectRejected(await send(box, billingBody(box, [foreign.id])), 'clients.0.client_id', 'does_not_exist');
  });
});
