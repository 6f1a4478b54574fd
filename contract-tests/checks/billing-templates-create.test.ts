// Billing templates created and read: the fields sent and the spec's defaults, the platform's names of
// the invoice fields, the list, what a template puts on the Purchases it generates, the computed
// purchase.total, and GET /payment_methods/ with the payment_method_whitelist that takes its names.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { errorCode, IGNORED_OR_REFUSED } from '../lib/citations.ts';
import { expectNotTaken, expectRefusedOrIgnored } from '../lib/ignored-fields.ts';
import {
  addDays,
  brandId,
  dayIn,
  expectError,
  expectInstants,
  expectRejected,
  expectSuccess,
  futureDue,
  INSTANT_RULE,
  later,
  monthlyTemplate,
  nowSeconds,
  oneTimeTemplate,
  paymentMethods,
  subscriberBody,
  SUBSCRIPTION_DEFAULTS,
  today,
  unique,
} from '../lib/primitives.ts';
import {
  makeClient,
  makeOneTimeTemplate,
  mainAccount,
  makeTemplate,
  readTemplate as read,
  sendInvoice,
  subscribe,
  templatePath as path,
} from '../lib/scenario.ts';

type Node = Record<string, any>;

describe('billing templates', () => {
  // ------------------------------------------------------------------ create, read, list

  check(
    {
      id: 'BT-CREATE-SUBSCRIPTION',
      title: 'A subscription template (is_subscription true) is created with the fields sent, and reads back the same',
      cites:
        `docs/behaviour.md#template-fields: "are required when creating a template with is_subscription true"; openapi.yaml#createBillingTemplate; openapi.yaml#getBillingTemplate; ${INSTANT_RULE}`,
    },
    async (ctx) => {
      const { api } = ctx;
      const body = monthlyTemplate(await brandId(api), { title: `Monthly ${unique()}`, subscription_trial_periods: 1, subscription_due_period: 10 });
      const res = await api.post('/billing_templates/', body);
      expectSuccess(res, 'POST /billing_templates/');
      const { purchase, ...fields } = body;
      expect(res.body).toMatchObject(fields);
      expect(res.body.purchase).toMatchObject({ currency: 'EUR', products: [{ name: 'Pro plan', price: 2900 }] });
      expectInstants(res.body, await nowSeconds(ctx), 'the template created');
      expect(await read(api, res.body.id)).toEqual(res.body);
    },
  );

  check(
    {
      id: 'BT-CREATE-ONE-TIME',
      title: 'A one-time template (is_subscription false) is created with its invoice fields: issued, due, skip_capture, send_receipt',
      cites: 'docs/behaviour.md#template-fields: "due | integer (Unix seconds) or null | if is_subscription is false"; openapi.yaml#createBillingTemplate',
    },
    async (ctx) => {
      const { api } = ctx;
      const due = await futureDue(ctx);
      const issued = addDays(await today(ctx), 1);
      const body = oneTimeTemplate(await brandId(api), due, { issued, skip_capture: true, send_receipt: true, title: `One-time ${unique()}` });
      const res = await api.post('/billing_templates/', body);
      expectSuccess(res, 'POST /billing_templates/');
      const { purchase, ...fields } = body;
      expect(res.body).toMatchObject(fields);
      expect(await read(api, res.body.id)).toEqual(res.body);
    },
  );

  check(
    {
      id: 'BT-CREATE-STATUS',
      title: 'Creating a template answers 201',
      cites: 'docs/behaviour.md#status-codes: "201 | a create"; openapi.yaml#createBillingTemplate; docs/fidelity.md#not-simulated: "Status codes of creates other than purchases | not documented"',
      level: 'informative',
    },
    async ({ api }) => {
      const res = await api.post('/billing_templates/', monthlyTemplate(await brandId(api)));
      expect(res.status).toBe(201);
    },
  );

  check(
    {
      id: 'BT-INVOICE-PLATFORM-NAMES',
      title: "A one-time template takes the platform's invoice_issued, invoice_due, invoice_skip_capture and invoice_send_receipt, answers them, and sets them on the invoices it sends",
      cites:
        'docs/fidelity.md#billing-templates: "Invoice fields\' names", "accepted on POST, PUT and PATCH as aliases", "every answer carries both names"; ' +
        'docs/behaviour.md#template-fields: "A create, PUT or PATCH may use either name of a field"',
    },
    async (ctx) => {
      const { api } = ctx;
      const terms = { issued: addDays(await today(ctx), 1), due: await futureDue(ctx), skip_capture: true, send_receipt: true };
      const { due, ...body } = oneTimeTemplate(await brandId(api), terms.due);
      for (const [field, value] of Object.entries(terms)) body[`invoice_${field}`] = value;
      const created = expectSuccess(await api.post('/billing_templates/', body), 'POST /billing_templates/ with the invoice_* names');
      const stored = await read(api, created.id);
      for (const [field, value] of Object.entries(terms)) {
        expect(stored[`invoice_${field}`], `invoice_${field} as stored`).toEqual(value);
        // The spec's name, where the target answers it too (billing-sim does; the platform has only its own).
        if (field in stored) expect(stored[field], `${field} as stored`).toEqual(value);
      }
      const sent = expectSuccess(await sendInvoice(await mainAccount(api), created.id, { client_id: (await makeClient(api)).id }), 'send_invoice/');
      expect(sent, "the invoice sent carries the template's terms").toMatchObject(terms);
    },
  );

  check(
    {
      id: 'BT-DEFAULTS-SUBSCRIPTION',
      title: 'Omitted fields of a subscription template take the spec defaults: issued null, due null, skip_capture false, subscription_paused false, force_recurring false',
      cites:
        'docs/behaviour.md#template-fields: "issued | date or null | no | null", "due | integer (Unix seconds) or null | if is_subscription is false | null", ' +
        '"skip_capture | boolean | no | false", "force_recurring | boolean | no | false", "subscription_paused | boolean | no | false"; ' +
        'docs/behaviour.md#send_receipt-default: "The contract suite accepts either"',
    },
    async ({ api }) => {
      const created = await makeTemplate(api);
      const stored = await read(api, created.id);
      expect(stored).toMatchObject({ issued: null, due: null, skip_capture: false, subscription_paused: false, force_recurring: false });
      // The spec's field definition says false and its prose true: either is conformant.
      expect(typeof stored.send_receipt).toBe('boolean');
    },
  );

  check(
    {
      id: 'BT-DEFAULTS-ONE-TIME',
      title: 'A one-time template holds the spec defaults of the subscription fields (period 1 months, due period 7 days, no charge at period end, 0 trials, not paused)',
      cites: 'docs/behaviour.md#template-fields: "When is_subscription is false, every subscription_* field is read-only and holds the value shown above for a one-time template"',
    },
    async (ctx) => {
      const created = await makeOneTimeTemplate(ctx.api);
      expect(await read(ctx.api, created.id)).toMatchObject({ ...SUBSCRIPTION_DEFAULTS, issued: null, skip_capture: false, force_recurring: false });
    },
  );

  check(
    {
      id: 'BT-SEND-RECEIPT-DEFAULT',
      title: 'send_receipt defaults to false (the simulator\'s choice; the spec says both false and true, and either is conformant)',
      cites: `docs/behaviour.md#send_receipt-default: "A template's send_receipt defaults to false: the API spec's field table says false, its prose true"`,
      level: 'informative',
    },
    async (ctx) => {
      expect((await makeTemplate(ctx.api)).send_receipt).toBe(false);
      expect((await makeOneTimeTemplate(ctx.api)).send_receipt).toBe(false);
    },
  );

  check(
    { id: 'BT-LIST', title: 'GET /billing_templates/ lists a created template', cites: 'openapi.yaml#listBillingTemplates; docs/behaviour.md#endpoints: "POST/GET /billing_templates/"' },
    async ({ api }) => {
      const template = await makeTemplate(api);
      // Other checks make templates meanwhile: the new one is among the newest hundred.
      const res = await api.get('/billing_templates/?page_size=100');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['next', 'previous', 'results']);
      expect((res.body.results as Node[]).find((t) => t.id === template.id)).toEqual(template);
    },
  );

  check(
    { id: 'BT-LIST-NEWEST-FIRST', title: 'Templates are listed newest first', cites: 'docs/behaviour.md#lists: "newest first"; openapi.yaml#listBillingTemplates; docs/fidelity.md#objects: "Its page parameters are not published"', level: 'informative' },
    async ({ api }) => {
      const first = await makeTemplate(api);
      const second = await makeTemplate(api);
      const ids = ((await api.get('/billing_templates/?page_size=100')).body.results as Node[]).map((t) => t.id);
      expect(ids.indexOf(second.id), 'the newer template').toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(second.id), 'the newer template comes before the older one').toBeLessThan(ids.indexOf(first.id));
    },
  );

  // ------------------------------------------------------------- generated purchases

  const RICH_PURCHASE = {
    currency: 'EUR',
    products: [
      { name: 'Pro plan', price: 2900, quantity: 2, discount: 300, tax_percent: 6, category: 'plans' },
      { name: 'Setup', price: 1000 },
    ],
    timezone: 'Europe/Berlin',
    language: 'de',
    notes: 'Thank you',
    due_strict: true,
    email_message: 'Your invoice',
  };

  check(
    {
      id: 'BT-PURCHASE-COPIED-SUBSCRIPTION',
      title: 'The purchase object is "Copied 1:1 to every generated Purchase, including subscription Purchases" (pending subscriber\'s purchase)',
      cites: 'docs/behaviour.md#template-fields: "Copied 1:1 to every generated purchase, including subscription purchases"',
    },
    async (ctx) => {
      const template = await makeTemplate(ctx.api, { purchase: RICH_PURCHASE });
      const added = await subscribe(ctx.api, template.id, subscriberBody((await makeClient(ctx.api)).id, later()));
      expect(added.purchase, 'a pending subscriber comes with its purchase').not.toBeNull();
      // Every field of the template's purchase, as it is; a Purchase's `purchase` carries more of the
      // platform's own (shipping_options, has_upsell_products, …) that a template has not.
      expect(added.purchase!.purchase).toMatchObject(template.purchase);
      expect(added.purchase!.billing_template_id).toBe(template.id);
    },
  );

  check(
    {
      id: 'BT-PURCHASE-COPIED-ONE-TIME',
      title: 'send_invoice: the purchase object is copied 1:1, and due, skip_capture, send_receipt and issued are set from the template',
      cites:
        `docs/behaviour.md#one-time-templates: "the template's purchase copied 1:1, issued the template's or today, due, skip_capture, send_receipt and force_recurring from the template"; ` +
        'docs/behaviour.md#template-fields: "sets skip_capture on generated purchases"',
    },
    async (ctx) => {
      const { api } = ctx;
      const issued = addDays(await today(ctx, 'Europe/Berlin'), 1);
      const template = await makeOneTimeTemplate(ctx.api, { purchase: RICH_PURCHASE, issued, skip_capture: true, send_receipt: true });
      const client = await makeClient(api);
      const sent = expectSuccess(await api.post(`${path(template.id)}send_invoice/`, { client_id: client.id }), 'a one-time invoice');
      expect(sent.purchase).toMatchObject(template.purchase);
      expect(sent).toMatchObject({ issued, due: template.due, skip_capture: true, send_receipt: true, client_id: client.id, billing_template_id: template.id });
    },
  );

  check(
    {
      id: 'BT-ISSUED-DEFAULT-TODAY',
      title: 'issued omitted: generated Purchases are issued on "the current day in purchase.timezone" (UTC+14 and UTC−11)',
      cites: 'docs/behaviour.md#template-fields: "issued | … when omitted, generated from the current day in purchase.timezone"',
    },
    async (ctx) => {
      const { api } = ctx;
      const client = await makeClient(api);
      for (const timezone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
        const template = await makeOneTimeTemplate(ctx.api, { purchase: { currency: 'EUR', timezone, products: [{ name: 'Ticket', price: 1500 }] } });
        const sent = expectSuccess(await api.post(`${path(template.id)}send_invoice/`, { client_id: client.id }), 'a one-time invoice');
        expect(sent.issued, `issued in ${timezone}`).toBe(dayIn(await nowSeconds(ctx), timezone));
      }
    },
  );

  // -------------------------------------------------------------------------- total

  check(
    {
      id: 'BT-TOTAL-COMPUTED',
      title: "purchase.total is computed from the products, a discount being the line's: 3 × 1000 − 500 + 2 × 250 = 3000",
      cites:
        'docs/behaviour.md#template-fields: "core purchase information: products, total, currency"; docs/behaviour.md#formats: "purchase.total is the sum over products"; ' +
        'docs/fidelity.md#decimal-strings: "the products\' sum", "Total discount per this product in invoice"',
    },
    async ({ api }) => {
      const products = [
        { name: 'Seat', price: 1000, quantity: 3, discount: 500 },
        { name: 'Add-on', price: 250, quantity: 2 },
      ];
      const template = await makeTemplate(api, { purchase: { currency: 'EUR', products } });
      expect(template.purchase.total).toBe(3000);
      expect((await read(api, template.id)).purchase.total).toBe(3000);
    },
  );

  check(
    {
      id: 'BT-TOTAL-FORMULA',
      title: 'purchase.total = Σ (round(price × quantity) − discount) + round(line × tax_percent / 100), recomputed on edit',
      cites:
        'docs/behaviour.md#formats: "purchase.total is the sum over products of (round(price × quantity) − discount), each line plus round(that line × tax_percent / 100)"; ' +
        'openapi.yaml#/components/schemas/PurchaseDetailsFields/properties/total; ' +
        'docs/fidelity.md#decimal-strings: "Not published: whether tax is reckoned on the line before or after its discount, and which way an exact half of a minor unit goes"',
      level: 'informative',
    },
    async ({ api }) => {
      const products = [
        { name: 'Hours', price: 999, quantity: 1.25, discount: 100, tax_percent: 7.5 }, // 1249 − 100 = 1149, + 86 = 1235
        { name: 'Pro plan', price: 2900, tax_percent: 6 }, // 2900 + 174 = 3074
      ];
      const template = await makeTemplate(api, { purchase: { currency: 'EUR', products } });
      expect(template.purchase.total).toBe(4309);
      const patched = await api.patch(path(template.id), { purchase: { currency: 'EUR', products: [{ name: 'Seat', price: 500, quantity: 2 }] } });
      expect(patched.status).toBe(200);
      expect(patched.body.purchase.total).toBe(1000);
    },
  );

  check(
    {
      id: 'BT-TOTAL-READONLY',
      title: 'purchase.total is read-only: a different value is never taken (refused, or ignored as the platform ignores it); an equal one is accepted',
      cites:
        `openapi.yaml#/components/schemas/PurchaseDetailsFields/properties/total: "a sent value must equal the stored total"; ${IGNORED_OR_REFUSED}; ` +
        'docs/fidelity.md#request-fields: "or that are always the server\'s", "purchase.total", "whose serializers drop unknown and read-only fields"',
    },
    async ({ api }) => {
      const brand = await brandId(api);
      const products = [{ name: 'Seat', price: 1000, quantity: 3 }];
      const wrong = await api.post('/billing_templates/', monthlyTemplate(brand, { purchase: { currency: 'EUR', products, total: 1 } }));
      if (expectRefusedOrIgnored(wrong, { 'purchase.total': 1 }) === 'ignored') {
        expect(wrong.body.purchase.total, 'the total of a template sent with total 1').toBe(3000);
        expectNotTaken((await api.get(`/billing_templates/${wrong.body.id}/`)).body, { 'purchase.total': 1 }, 'the template read back');
      }
      const res = await api.post('/billing_templates/', monthlyTemplate(brand, { purchase: { currency: 'EUR', products, total: 3000 } }));
      expectSuccess(res, 'a template sent with its own total');
      expect(res.body.purchase.total).toBe(3000);
    },
  );

  // ------------------------------------------------------------------ payment methods

  const WHITELIST = 'docs/behaviour.md#subscriber-fields: "payment method names as returned by GET /payment_methods/"';

  check(
    { id: 'BT-PAYMENT-METHODS-LIST', title: 'GET /payment_methods/ returns the payment method names', cites: `${WHITELIST}; openapi.yaml#listPaymentMethods; docs/behaviour.md#payment-methods` },
    async ({ api }) => {
      const names = await paymentMethods(api);
      expect(names.length, 'at least one payment method').toBeGreaterThan(0);
      for (const name of names) expect(name.length, 'a non-empty name').toBeGreaterThan(0);
      expect(new Set(names).size, 'names are unique').toBe(names.length);
    },
  );

  check(
    {
      id: 'BT-PAYMENT-METHODS-WHITELIST',
      title: 'The names of GET /payment_methods/ are accepted in payment_method_whitelist and "Copied 1:1 to Purchase.payment_method_whitelist"',
      cites: 'docs/behaviour.md#subscriber-fields: "payment method names as returned by GET /payment_methods/. Copied 1:1 to the payment_method_whitelist of generated purchases"',
    },
    async (ctx) => {
      const methods = await paymentMethods(ctx.api);
      const template = await makeTemplate(ctx.api);
      const added = await subscribe(ctx.api, template.id, subscriberBody((await makeClient(ctx.api)).id, later(), { payment_method_whitelist: methods }));
      expect(added.subscriber.payment_method_whitelist).toEqual(methods);
      expect(added.purchase?.payment_method_whitelist).toEqual(methods);
    },
  );

  check(
    {
      id: 'BT-PAYMENT-METHODS-UNKNOWN-REJECTED',
      title: 'A payment_method_whitelist name that GET /payment_methods/ does not return is rejected and no subscriber is stored',
      cites: WHITELIST,
    },
    async (ctx) => {
      const { api } = ctx;
      const template = await makeTemplate(api, { subscription_trial_periods: 1 });
      const body = subscriberBody((await makeClient(api)).id, later(), { payment_method_whitelist: ['no_such_method'] });
      expect((await paymentMethods(api)).includes('no_such_method'), 'setup: the name must not be a payment method').toBe(false);
      expectRejected(await api.post(`${path(template.id)}add_subscriber/`, body));
      expect((await api.get(`${path(template.id)}clients/`)).body.results).toEqual([]);
    },
  );

  check(
    {
      id: 'BT-PAYMENT-METHODS-UNKNOWN-REJECTED-CODE',
      title: 'An unknown payment method name → 400, "payment_method_whitelist.0": invalid_choice',
      cites: `${errorCode('invalid_choice')}; docs/behaviour.md#payment-methods: "take the name of any currency's method (else 400 invalid_choice)"`,
      level: 'informative',
    },
    async (ctx) => {
      const template = await makeTemplate(ctx.api, { subscription_trial_periods: 1 });
      const body = subscriberBody((await makeClient(ctx.api)).id, later(), { payment_method_whitelist: ['no_such_method'] });
      expectError(await ctx.api.post(`${path(template.id)}add_subscriber/`, body), 'payment_method_whitelist.0', 'invalid_choice');
    },
  );
});
