// DESIGN.md §11 "Dialect": the platform's template names `invoice_issued`, `invoice_due`,
// `invoice_skip_capture`, `invoice_send_receipt` are accepted as aliases of the spec's `issued`,
// `due`, `skip_capture`, `send_receipt` and answered beside them; and the PHP SDK's GET + PUT round
// trip of a template, whose bodies are written here from the SDK model's field list.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { oneTimeBody, subscriptionBody } from '../builders/templates.ts';
import { expectRejected, launchSubscriber, makeClient, sandboxAt, tokenBox, type Box, type Errors } from '../builders/engine.ts';

const h = useHarness();

type Template = Record<string, unknown> & { id: string };

/** The fields of the PHP SDK's BillingTemplate model (lib/Model/Billing/BillingTemplate.php). */
const PHP_TEMPLATE_FIELDS = [
  'type', 'id', 'created_on', 'updated_on', 'clients', 'purchase', 'company_id', 'number_of_billing_cycles', 'is_test',
  'user_id', 'brand_id', 'title', 'is_subscription', 'invoice_issued', 'invoice_due', 'invoice_skip_capture',
  'invoice_send_receipt', 'subscription_period', 'subscription_period_units', 'subscription_due_period',
  'subscription_due_period_units', 'subscription_charge_period_end', 'subscription_trial_periods', 'subscription_active',
  'subscription_has_active_clients', 'force_recurring',
];

/**
 * The body the PHP SDK's updateBillingTemplate sends for a template it read with getBillingTemplate:
 * the answer mapped onto the model (only the model's fields), every non-null one sent back.
 */
function asPhpSdkSendsBack(answer: Template, edits: Record<string, unknown> = {}): Record<string, unknown> {
  const model = Object.fromEntries(PHP_TEMPLATE_FIELDS.map((field) => [field, answer[field] ?? null]));
  return Object.fromEntries(Object.entries({ ...model, ...edits }).filter(([, value]) => value !== null));
}

const create = async (box: Box, body: Record<string, unknown>) => {
  const res = await box.req('POST', '/api/v1/billing_templates/', body);
  expect(res.status, res.text).toBe(201);
  return res.body as Template;
};

const get = async (box: Box, id: string) => (await box.req('GET', `/api/v1/billing_templates/${id}/`)).body as Template;

/** The platform's names with the values of the spec's names. */
const platformNamesOf = (template: Template) => ({
  invoice_issued: template.issued,
  invoice_due: template.due,
  invoice_skip_capture: template.skip_capture,
  invoice_send_receipt: template.send_receipt,
});

describe("the platform's invoice_* names of a template", () => {
  it("the platform's invoice_* names are accepted as aliases and answered beside the spec's", async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const { due: _due, ...spec } = oneTimeBody(box.brandId);
    const template = await create(box, {
      ...spec,
      invoice_issued: '2026-02-01',
      invoice_due: 1_771_027_200,
      invoice_skip_capture: true,
      invoice_send_receipt: true,
    });
    expect(template).toMatchObject({
      issued: '2026-02-01',
      due: 1_771_027_200,
      skip_capture: true,
      send_receipt: true,
      invoice_issued: '2026-02-01',
      invoice_due: 1_771_027_200,
      invoice_skip_capture: true,
      invoice_send_receipt: true,
    });
    // Every answer: read, list, PATCH under either name.
    expect(await get(box, template.id)).toEqual(template);
    const list = (await box.req('GET', '/api/v1/billing_templates/')).body as { results: Template[] };
    expect(list.results).toEqual([template]);
    const patched = (await box.req('PATCH', `/api/v1/billing_templates/${template.id}/`, { invoice_due: 1_772_000_000 })).body as Template;
    expect(patched).toMatchObject({ due: 1_772_000_000, invoice_due: 1_772_000_000 });
    const patchedBySpec = (await box.req('PATCH', `/api/v1/billing_templates/${template.id}/`, { send_receipt: false })).body as Template;
    expect(patchedBySpec).toMatchObject({ send_receipt: false, invoice_send_receipt: false });
  });

  it('a subscription template answers the invoice_* names with the spec fields\' values (null due, false flags)', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const template = await create(box, subscriptionBody(box.brandId));
    expect(platformNamesOf(template)).toEqual({ invoice_issued: null, invoice_due: null, invoice_skip_capture: false, invoice_send_receipt: false });
    expect(template).toMatchObject(platformNamesOf(template));
  });

  it('send_invoice of a template made with invoice_due and invoice_send_receipt sets due and send_receipt on the Purchase', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const client = await makeClient(box);
    const { due: _due, ...spec } = oneTimeBody(box.brandId);
    const template = await create(box, { ...spec, invoice_due: 1_771_027_200, invoice_send_receipt: true });
    const sent = await box.req('POST', `/api/v1/billing_templates/${template.id}/send_invoice/`, { client_id: client.id });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toMatchObject({ due: 1_771_027_200, send_receipt: true, status: 'sent' });
  });

  it('an alias and its spec name with the same value are one field; with different values → 400 naming the alias, nothing stored', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const same = await create(box, oneTimeBody(box.brandId, { invoice_due: 1_771_027_200 }));
    expect(same.due).toBe(1_771_027_200);
    const res = await box.req('POST', '/api/v1/billing_templates/', oneTimeBody(box.brandId, { title: 'Two dues', invoice_due: 1_772_000_000 }));
    expectRejected(res, 'invoice_due', 'invalid');
    const patch = await box.req('PATCH', `/api/v1/billing_templates/${same.id}/`, { skip_capture: true, invoice_skip_capture: false });
    expectRejected(patch, 'invoice_skip_capture', 'invalid');
    const list = (await box.req('GET', '/api/v1/billing_templates/')).body as { results: Template[] };
    expect(list.results).toEqual([same]);
  });

  it('"Read-only if is_subscription is true" holds for the invoice_* names, answered under the name sent', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const template = await create(box, subscriptionBody(box.brandId));
    const res = await box.req('PATCH', `/api/v1/billing_templates/${template.id}/`, { invoice_due: 1_800_000_000, invoice_send_receipt: true });
    expect(res.status, res.text).toBe(400);
    const errors = res.body as Errors;
    expect(Object.keys(errors).sort()).toEqual(['invoice_due', 'invoice_send_receipt']);
    expect(errors.invoice_due!.map((e) => e.code)).toEqual(['read_only']);
    expect(await get(box, template.id)).toEqual(template);
    // On create too: a subscription template with invoice_skip_capture true.
    expectRejected(await box.req('POST', '/api/v1/billing_templates/', subscriptionBody(box.brandId, { invoice_skip_capture: true })), 'invoice_skip_capture', 'read_only');
  });

  it('"due: required if is_subscription is false": neither due nor invoice_due → 400 required under the spec\'s name; invoice_due: null → null under the alias', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const { due: _due, ...body } = oneTimeBody(box.brandId);
    expectRejected(await box.req('POST', '/api/v1/billing_templates/', body), 'due', 'required');
    expectRejected(await box.req('POST', '/api/v1/billing_templates/', { ...body, invoice_due: null }), 'invoice_due', 'null');
  });

  it('a wrong type under an alias is refused by the schema under the alias', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const res = await box.req('POST', '/api/v1/billing_templates/', oneTimeBody(box.brandId, { invoice_due: 'tomorrow' }));
    expect(res.status).toBe(400);
    expect(Object.keys(res.body as Errors)).toEqual(['invoice_due']);
  });

  it('subscription_active stays undefined (no source settles what false means): refused (unknown_field) when strict, ignored and named otherwise', async () => {
    const strict = await h.newSandbox({ now: '2026-01-30T12:00:00Z', strict: true });
    const strictBox = tokenBox(h, strict.token, strict.brandId);
    expectRejected(await strictBox.req('POST', '/api/v1/billing_templates/', subscriptionBody(strictBox.brandId, { subscription_active: true })), 'subscription_active', 'unknown_field');
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const res = await box.req('POST', '/api/v1/billing_templates/', subscriptionBody(box.brandId, { subscription_active: false }));
    expect(res.status, res.text).toBe(201);
    expect(res.headers['billing-sim-ignored']).toBe('subscription_active');
    expect(res.body).not.toHaveProperty('subscription_active');
  });
});

describe("the PHP SDK's GET + PUT round trip (jsonSerialize drops only nulls)", () => {
  it('a GET + PUT round trip as the PHP SDK sends it succeeds on a one-time template', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const template = await create(box, oneTimeBody(box.brandId, { purchase: { currency: 'EUR', products: [{ name: 'Setup', price: 4900, quantity: 2, tax_percent: 6 }] } }));
    const body = asPhpSdkSendsBack(await get(box, template.id));
    // What it sends back: the read-only fields, the purchase with its total and decimal strings, the invoice_* names.
    expect(body).toMatchObject({ type: 'billing_template', id: template.id, company_id: template.company_id, invoice_due: template.due, invoice_send_receipt: false });
    expect(body.purchase).toMatchObject({ total: template.purchase && (template.purchase as { total: number }).total, products: [{ quantity: '2.0000', tax_percent: '6.00' }] });
    expect(body).not.toHaveProperty('due');

    const unchanged = await box.req('PUT', `/api/v1/billing_templates/${template.id}/`, body);
    expect(unchanged.status, unchanged.text).toBe(200);
    expect(unchanged.body).toEqual(template);

    const edited = await box.req('PUT', `/api/v1/billing_templates/${template.id}/`, asPhpSdkSendsBack(template, { title: 'Setup fee, 2027', invoice_due: 1_772_000_000 }));
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Setup fee, 2027', due: 1_772_000_000, invoice_due: 1_772_000_000 });
  });

  it('a GET + PUT round trip as the PHP SDK sends it succeeds on a subscription template, before and after a subscriber is launched', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const template = await create(box, subscriptionBody(box.brandId));
    const before = await box.req('PUT', `/api/v1/billing_templates/${template.id}/`, asPhpSdkSendsBack(await get(box, template.id)));
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual(template);

    const { box: shop, template: launched } = await launchSubscriber(h, '2026-01-30T12:00:00Z');
    const read = await get(shop, launched.id);
    expect(read.subscription_has_active_clients).toBe(true);
    const after = await shop.req('PUT', `/api/v1/billing_templates/${launched.id}/`, asPhpSdkSendsBack(read, { title: 'Gym, renamed' }));
    expect(after.status, after.text).toBe(200);
    expect(after.body).toEqual({ ...read, title: 'Gym, renamed' });
  });
});

describe('snapshots keep the spec\'s names only', () => {
  it('an exported snapshot holds no invoice_* name, imports, and the copy answers them again', async () => {
    const box = await sandboxAt(h, '2026-01-30T12:00:00Z');
    const template = await create(box, oneTimeBody(box.brandId, { invoice_send_receipt: true }));
    const exported = (await box.req('GET', '/sim/v1/snapshot')).body as { sandbox: { templates: [string, Template][] } };
    const stored = exported.sandbox.templates[0]![1];
    expect(Object.keys(stored).filter((name) => name.startsWith('invoice_'))).toEqual([]);
    expect(stored.send_receipt).toBe(true);

    const imported = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: exported } });
    expect(imported.status, imported.text.slice(0, 500)).toBe(201);
    // Imported beside the original, the copy's objects get new ids (openapi.yaml, SnapshotSandbox).
    const copy = await h.request('GET', '/api/v1/billing_templates/', { token: (imported.body as { token: string }).token });
    expect((copy.body as { results: Template[] }).results).toEqual([
      expect.objectContaining({ send_receipt: true, invoice_send_receipt: true, due: template.due, invoice_due: template.due }),
    ]);

    // A template of a snapshot carrying them is refused by name: a record keeps one name per field.
    stored.invoice_due = stored.due;
    const refused = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { snapshot: exported } });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body as Errors)).toEqual(['snapshot.sandbox.templates.0.1.invoice_due']);
  });
});
