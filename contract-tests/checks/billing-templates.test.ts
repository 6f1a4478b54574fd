// Billing templates: every rule of the spec's BillingTemplate table and its "Rules on the subscription
// fields", on create, PUT, PATCH and DELETE, and GET /payment_methods/.
//
// Read-only fields. The spec says a field is "read-only" or "cannot be changed" but not what the server
// does with a request that sends it: the normative check is that the stored value never changes (the
// request is rejected, or accepted without applying it); DESIGN.md §4.10 decides "400 with code
// read_only", checked by the informative `…-CODE` twin. Missing required fields must be rejected
// (normative) and nothing created or changed; the exact 400 and code are informative too.

import { describe, expect } from 'vitest';
import { check, type CheckContext } from '../lib/check.ts';
import type { ApiClient, Reply } from '../lib/client.ts';
import {
  addDays,
  brandId,
  dayIn,
  expectError,
  expectNotListed,
  expectRejected,
  expectSuccess,
  futureDue,
  is2xx,
  later,
  monthlyTemplate,
  nowSeconds,
  oneTimeTemplate,
  paymentMethods,
  subscriberBody,
  today,
  unique,
  UNKNOWN_ID,
} from '../lib/primitives.ts';
import {
  makeClient,
  makeOneTimeTemplate,
  makeTemplate,
  subscribe,
} from '../lib/scenario.ts';

type Node = Record<string, any>;

const TABLE = 'Spec, BillingTemplate table';
const RULES = 'Spec, Rules on the subscription fields';
const READ_ONLY_CODE = 'DESIGN.md §4.10: "Sending a read-only field with a value different from the stored one → 400 with code read_only"';
const ERRORS = 'DESIGN.md §3 Errors';

/** The four cycle fields of the spec's rules 1–3, with a value other than the monthly body's. */
const CYCLE: Record<string, unknown> = {
  subscription_period: 3,
  subscription_period_units: 'weeks',
  subscription_charge_period_end: true,
  subscription_trial_periods: 2,
};
/** Required like the cycle fields on a subscription template ("required if is_subscription is true"). */
const DUE_PERIOD: Record<string, unknown> = { subscription_due_period: 14, subscription_due_period_units: 'weeks' };
/** Every subscription_* field the request may send, with a value other than its spec default. */
const SUBSCRIPTION_FIELDS: Record<string, unknown> = { ...CYCLE, ...DUE_PERIOD, subscription_paused: true };
/** Spec defaults of the subscription_* fields (Default column). */
const SUBSCRIPTION_DEFAULTS: Record<string, unknown> = {
  subscription_period: 1,
  subscription_period_units: 'months',
  subscription_due_period: 7,
  subscription_due_period_units: 'days',
  subscription_charge_period_end: false,
  subscription_trial_periods: 0,
  subscription_paused: false,
};
const INVOICE_FIELDS = ['issued', 'due', 'skip_capture', 'send_receipt'] as const;

const path = (id: string) => `/billing_templates/${id}/`;

async function read(api: ApiClient, id: string): Promise<Node> {
  const res = await api.get(path(id));
  expect(res.status, `GET ${path(id)}`).toBe(200);
  return res.body as Node;
}

const withoutUpdatedOn = ({ updated_on, ...rest }: Node) => rest;

/** A rejected request changed nothing: the template reads back exactly as before. */
async function expectUnchanged(api: ApiClient, before: Node): Promise<void> {
  const after = await read(api, before.id);
  expect(withoutUpdatedOn(after), 'a rejected request must change nothing').toEqual(withoutUpdatedOn(before));
}

/**
 * A read-only field was not changed by an edit: the request was rejected and nothing changed, or it
 * succeeded and neither its answer nor the stored template carries the sent value.
 */
async function expectNotApplied(api: ApiClient, before: Node, res: Reply, fields: string[]): Promise<void> {
  if (!is2xx(res)) {
    expectRejected(res);
    return expectUnchanged(api, before);
  }
  const after = await read(api, before.id);
  for (const field of fields) {
    expect(res.body[field], `the answer must not show a changed ${field}`).toEqual(before[field]);
    expect(after[field], `the stored ${field} must not change`).toEqual(before[field]);
  }
}

/**
 * A create that sent a read-only field did not store it: either rejected and nothing created, or
 * created with the field's default.
 */
async function expectCreatedWithout(api: ApiClient, res: Reply, marker: string, field: string, fallback: unknown): Promise<void> {
  if (!is2xx(res)) {
    expectRejected(res);
    return expectNotListed(api, '/billing_templates/', 'title', marker);
  }
  expect(res.body[field], `the created template must not take the read-only ${field}`).toEqual(fallback);
  expect((await read(api, res.body.id))[field], `the stored ${field}`).toEqual(fallback);
}

/** A subscription template with a launched (active) subscriber: a trial makes add_subscriber activate it. */
async function launched(ctx: CheckContext): Promise<Node> {
  const template = await makeTemplate(ctx.api, { subscription_trial_periods: 1 });
  const client = await makeClient(ctx.api);
  const added = await subscribe(ctx.api, template.id, subscriberBody(client.id, later()));
  expect(added.subscriber.status, 'setup: a subscriber added to a template with a trial is active').toBe('active');
  return read(ctx.api, template.id);
}

/** The template's send_receipt default, read from a template created without it. */
async function sendReceiptDefault(ctx: CheckContext): Promise<boolean> {
  return (await makeTemplate(ctx.api)).send_receipt as boolean;
}

/** A non-default value for an invoice field. */
async function invoiceValue(ctx: CheckContext, field: (typeof INVOICE_FIELDS)[number]): Promise<unknown> {
  switch (field) {
    case 'issued':
      return addDays(await today(ctx), 2);
    case 'due':
      return futureDue(ctx);
    case 'skip_capture':
      return true;
    case 'send_receipt':
      return !(await sendReceiptDefault(ctx));
  }
}

/** The default stored for an invoice field that a subscription template may not take. */
async function invoiceDefault(ctx: CheckContext, field: (typeof INVOICE_FIELDS)[number]): Promise<unknown> {
  return field === 'send_receipt' ? sendReceiptDefault(ctx) : field === 'skip_capture' ? false : null;
}

describe('billing templates', () => {
  // ------------------------------------------------------------------ create, read, list

  check(
    {
      id: 'BT-CREATE-SUBSCRIPTION',
      title: 'A subscription template (is_subscription true) is created with the fields sent, and reads back the same',
      cites: `${TABLE}; ${RULES} 1; openapi.yaml createBillingTemplate, getBillingTemplate`,
    },
    async ({ api }) => {
      const body = monthlyTemplate(await brandId(api), { title: `Monthly ${unique()}`, subscription_trial_periods: 1, subscription_due_period: 10 });
      const res = await api.post('/billing_templates/', body);
      expectSuccess(res, 'POST /billing_templates/');
      const { purchase, ...fields } = body;
      expect(res.body).toMatchObject(fields);
      expect(res.body.purchase).toMatchObject({ currency: 'EUR', products: [{ name: 'Pro plan', price: 2900 }] });
      expect(await read(api, res.body.id)).toEqual(res.body);
    },
  );

  check(
    {
      id: 'BT-CREATE-ONE-TIME',
      title: 'A one-time template (is_subscription false) is created with its invoice fields: issued, due, skip_capture, send_receipt',
      cites: `${TABLE}: issued, due ("required if is_subscription is false"), skip_capture, send_receipt`,
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
    { id: 'BT-CREATE-STATUS', title: 'Creating a template answers 201', cites: `${ERRORS}: "201 create"; openapi.yaml createBillingTemplate`, level: 'informative' },
    async ({ api }) => {
      const res = await api.post('/billing_templates/', monthlyTemplate(await brandId(api)));
      expect(res.status).toBe(201);
    },
  );

  check(
    {
      id: 'BT-DEFAULTS-SUBSCRIPTION',
      title: 'Omitted fields of a subscription template take the spec defaults: issued null, due null, skip_capture false, subscription_paused false, force_recurring false',
      cites: `${TABLE}, Default column; Spec: "a boolean (default false) that forces saving"; send_receipt either (DESIGN.md §4.11)`,
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
      cites: `${TABLE}, Default column: subscription_period 1, months, 7, days, false, 0, false`,
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
      cites: 'DESIGN.md §4.11; Spec, BillingTemplate table: send_receipt "The two statements conflict"',
      level: 'informative',
    },
    async (ctx) => {
      expect((await makeTemplate(ctx.api)).send_receipt).toBe(false);
      expect((await makeOneTimeTemplate(ctx.api)).send_receipt).toBe(false);
    },
  );

  check(
    { id: 'BT-LIST', title: 'GET /billing_templates/ lists a created template', cites: 'openapi.yaml listBillingTemplates; Spec: "the collection path /billing_templates/"' },
    async ({ api }) => {
      const template = await makeTemplate(api);
      const res = await api.get('/billing_templates/?page_size=25');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['next', 'previous', 'results']);
      expect((res.body.results as Node[]).find((t) => t.id === template.id)).toEqual(template);
    },
  );

  check(
    { id: 'BT-LIST-NEWEST-FIRST', title: 'Templates are listed newest first', cites: 'DESIGN.md §3 Formats: Lists "newest first"', level: 'informative' },
    async ({ api }) => {
      const first = await makeTemplate(api);
      const second = await makeTemplate(api);
      const ids = ((await api.get('/billing_templates/?page_size=25')).body.results as Node[]).map((t) => t.id);
      expect(ids.indexOf(second.id), 'the newer template').toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(second.id), 'the newer template comes before the older one').toBeLessThan(ids.indexOf(first.id));
    },
  );

  // ------------------------------------------------------------------------ is_subscription

  check(
    {
      id: 'BT-ISSUB-IMMUTABLE',
      title: 'is_subscription "Cannot be changed when editing" (PATCH, both ways)',
      cites: `${TABLE}: is_subscription "Cannot be changed when editing"`,
    },
    async (ctx) => {
      const { api } = ctx;
      const subscription = await makeTemplate(api);
      await expectNotApplied(api, subscription, await api.patch(path(subscription.id), { is_subscription: false }), ['is_subscription']);
      const oneTime = await read(api, (await makeOneTimeTemplate(ctx.api)).id);
      await expectNotApplied(api, oneTime, await api.patch(path(oneTime.id), { is_subscription: true }), ['is_subscription']);
    },
  );

  check(
    {
      id: 'BT-ISSUB-IMMUTABLE-PUT',
      title: 'is_subscription "Cannot be changed when editing" (PUT of a one-time body on a subscription template)',
      cites: `${TABLE}: is_subscription "Cannot be changed when editing"`,
    },
    async (ctx) => {
      const { api } = ctx;
      const template = await makeTemplate(api);
      const body = oneTimeTemplate(template.brand_id, await futureDue(ctx));
      await expectNotApplied(api, template, await api.put(path(template.id), body), ['is_subscription', 'due']);
    },
  );

  check(
    {
      id: 'BT-ISSUB-IMMUTABLE-CODE',
      title: 'Changing is_subscription → 400, "is_subscription": read_only',
      cites: READ_ONLY_CODE,
      level: 'informative',
    },
    async ({ api }) => {
      const template = await makeTemplate(api);
      expectError(await api.patch(path(template.id), { is_subscription: false }), 'is_subscription', 'read_only');
    },
  );

  // ----------------------------------------------- invoice fields on subscription templates

  for (const field of INVOICE_FIELDS) {
    const cites = `${TABLE}: ${field} "Read-only if is_subscription is true"; is_subscription: "When true, … the invoice fields below are read-only"`;
    check(
      { id: `BT-INVOICE-READONLY-ON-SUBSCRIPTION-CREATE-${field}`, title: `${field} is read-only on a subscription template: a create that sends it does not set it`, cites },
      async (ctx) => {
        const { api } = ctx;
        const marker = unique();
        const fallback = await invoiceDefault(ctx, field);
        const body = monthlyTemplate(await brandId(api), { title: marker, [field]: await invoiceValue(ctx, field) });
        await expectCreatedWithout(api, await api.post('/billing_templates/', body), marker, field, fallback);
      },
    );
    check(
      { id: `BT-INVOICE-READONLY-ON-SUBSCRIPTION-PATCH-${field}`, title: `${field} is read-only on a subscription template: PATCH does not change it`, cites },
      async (ctx) => {
        const template = await makeTemplate(ctx.api);
        const res = await ctx.api.patch(path(template.id), { [field]: await invoiceValue(ctx, field) });
        await expectNotApplied(ctx.api, template, res, [field]);
      },
    );
    check(
      {
        id: `BT-INVOICE-READONLY-ON-SUBSCRIPTION-${field}-CODE`,
        title: `${field} sent on a subscription template (create and PATCH) → 400, "${field}": read_only`,
        cites: READ_ONLY_CODE,
        level: 'informative',
      },
      async (ctx) => {
        const { api } = ctx;
        const value = await invoiceValue(ctx, field);
        expectError(await api.post('/billing_templates/', monthlyTemplate(await brandId(api), { [field]: value })), field, 'read_only');
        const template = await makeTemplate(api);
        expectError(await api.patch(path(template.id), { [field]: value }), field, 'read_only');
      },
    );
  }

  // ------------------------------------------------ subscription fields on one-time templates

  for (const [field, value] of Object.entries(SUBSCRIPTION_FIELDS)) {
    const cites =
      field === 'subscription_paused'
        ? `${TABLE}: subscription_paused "Ignored (read-only) if is_subscription is false"`
        : `${TABLE}: is_subscription "When false, the reverse"; ${RULES} 3: "when is_subscription is false, these four fields are read-only"; subscription_due_period "read-only otherwise"`;
    check(
      { id: `BT-SUBSCRIPTION-READONLY-ON-ONE-TIME-CREATE-${field}`, title: `${field} is read-only on a one-time template: a create that sends it does not set it`, cites },
      async (ctx) => {
        const { api } = ctx;
        const marker = unique();
        const body = oneTimeTemplate(await brandId(api), await futureDue(ctx), { title: marker, [field]: value });
        await expectCreatedWithout(api, await api.post('/billing_templates/', body), marker, field, SUBSCRIPTION_DEFAULTS[field]);
      },
    );
    check(
      { id: `BT-SUBSCRIPTION-READONLY-ON-ONE-TIME-PATCH-${field}`, title: `${field} is read-only on a one-time template: PATCH does not change it`, cites },
      async (ctx) => {
        const template = await read(ctx.api, (await makeOneTimeTemplate(ctx.api)).id);
        await expectNotApplied(ctx.api, template, await ctx.api.patch(path(template.id), { [field]: value }), [field]);
      },
    );
    check(
      {
        id: `BT-SUBSCRIPTION-READONLY-ON-ONE-TIME-${field}-CODE`,
        title: `${field} sent on a one-time template (create and PATCH) → 400, "${field}": read_only`,
        cites: READ_ONLY_CODE,
        level: 'informative',
      },
      async (ctx) => {
        const { api } = ctx;
        expectError(await api.post('/billing_templates/', oneTimeTemplate(await brandId(api), await futureDue(ctx), { [field]: value })), field, 'read_only');
        const template = await makeOneTimeTemplate(ctx.api);
        expectError(await api.patch(path(template.id), { [field]: value }), field, 'read_only');
      },
    );
  }

  // ------------------------------------------------------------------ due on one-time templates

  const DUE_REQUIRED = `${TABLE}: due "required if is_subscription is false"`;

  check(
    { id: 'BT-DUE-REQUIRED-ONE-TIME-CREATE', title: 'due is "required if is_subscription is false": a one-time template without due is rejected and not created', cites: DUE_REQUIRED },
    async (ctx) => {
      const { api } = ctx;
      const marker = unique();
      const { due, ...body } = oneTimeTemplate(await brandId(api), 0, { title: marker });
      expectRejected(await api.post('/billing_templates/', body));
      await expectNotListed(api, '/billing_templates/', 'title', marker);
    },
  );

  check(
    { id: 'BT-DUE-REQUIRED-ONE-TIME-CREATE-CODE', title: 'A one-time template without due → 400, "due": required', cites: ERRORS, level: 'informative' },
    async ({ api }) => {
      const { due, ...body } = oneTimeTemplate(await brandId(api), 0);
      expectError(await api.post('/billing_templates/', body), 'due', 'required');
    },
  );

  check(
    { id: 'BT-DUE-REQUIRED-ONE-TIME-PUT', title: 'due is required on PUT of a one-time template: a PUT without it is rejected and changes nothing', cites: `${DUE_REQUIRED}; openapi.yaml updateBillingTemplate` },
    async (ctx) => {
      const template = await read(ctx.api, (await makeOneTimeTemplate(ctx.api)).id);
      const { due, ...body } = oneTimeTemplate(template.brand_id, 0, { title: 'Changed' });
      expectRejected(await ctx.api.put(path(template.id), body));
      await expectUnchanged(ctx.api, template);
    },
  );

  check(
    { id: 'BT-DUE-REQUIRED-ONE-TIME-PUT-CODE', title: 'PUT of a one-time template without due → 400, "due": required', cites: ERRORS, level: 'informative' },
    async (ctx) => {
      const template = await makeOneTimeTemplate(ctx.api);
      const { due, ...body } = oneTimeTemplate(template.brand_id, 0);
      expectError(await ctx.api.put(path(template.id), body), 'due', 'required');
    },
  );

  check(
    {
      id: 'BT-DUE-NULL-ONE-TIME',
      title: 'due null on a one-time template (create, PATCH) → 400, "due": null, and nothing changes',
      cites: 'openapi.yaml patchBillingTemplate: "a required field may not be set to null"; Error code "null"; DESIGN.md §4.12',
      level: 'informative',
    },
    async (ctx) => {
      const { api } = ctx;
      expectError(await api.post('/billing_templates/', oneTimeTemplate(await brandId(api), 0, { due: null })), 'due', 'null');
      const template = await read(api, (await makeOneTimeTemplate(ctx.api)).id);
      expectError(await api.patch(path(template.id), { due: null }), 'due', 'null');
      await expectUnchanged(api, template);
    },
  );

  // ------------------------------------------------------------ cycle fields: rules 1 and 2

  for (const field of [...Object.keys(CYCLE), ...Object.keys(DUE_PERIOD)]) {
    const cycle = field in CYCLE;
    const createCite = cycle
      ? `${RULES} 1: "${field} … required when creating a template with is_subscription true"`
      : `${TABLE}: ${field} "required if is_subscription is true"`;
    const putCite = cycle
      ? `${RULES} 2: "The same four fields are required when editing such a template, as long as no subscriber has been launched"`
      : `${TABLE}: ${field} "required if is_subscription is true"; openapi.yaml updateBillingTemplate`;

    check(
      { id: `BT-CYCLE-REQUIRED-ON-CREATE-${field}`, title: `A subscription template without ${field} is rejected and not created`, cites: createCite },
      async ({ api }) => {
        const marker = unique();
        const { [field]: omitted, ...body } = monthlyTemplate(await brandId(api), { title: marker });
        expectRejected(await api.post('/billing_templates/', body), `a subscription template without ${field}`);
        await expectNotListed(api, '/billing_templates/', 'title', marker);
      },
    );
    check(
      { id: `BT-CYCLE-REQUIRED-ON-CREATE-${field}-CODE`, title: `A subscription template without ${field} → 400, "${field}": required`, cites: ERRORS, level: 'informative' },
      async ({ api }) => {
        const { [field]: omitted, ...body } = monthlyTemplate(await brandId(api));
        expectError(await api.post('/billing_templates/', body), field, 'required');
      },
    );
    check(
      { id: `BT-CYCLE-REQUIRED-ON-PUT-${field}`, title: `PUT without ${field}, no subscriber launched, is rejected and changes nothing`, cites: putCite },
      async ({ api }) => {
        const template = await read(api, (await makeTemplate(api)).id);
        const { [field]: omitted, ...body } = monthlyTemplate(template.brand_id, { title: 'Changed' });
        expectRejected(await api.put(path(template.id), body), `PUT without ${field}`);
        await expectUnchanged(api, template);
      },
    );
    check(
      { id: `BT-CYCLE-REQUIRED-ON-PUT-${field}-CODE`, title: `PUT without ${field}, no subscriber launched → 400, "${field}": required`, cites: ERRORS, level: 'informative' },
      async ({ api }) => {
        const template = await makeTemplate(api);
        const { [field]: omitted, ...body } = monthlyTemplate(template.brand_id);
        expectError(await api.put(path(template.id), body), field, 'required');
      },
    );
  }

  check(
    {
      id: 'BT-CYCLE-EDITABLE-BEFORE-LAUNCH',
      title: 'While no subscriber has been launched, PUT and PATCH change the four cycle fields',
      cites: `${RULES} 2: "required when editing such a template, as long as no subscriber has been launched"`,
    },
    async ({ api }) => {
      const template = await makeTemplate(api);
      const put = await api.put(path(template.id), monthlyTemplate(template.brand_id, CYCLE));
      expectSuccess(put, 'PUT with new cycle fields');
      expect(await read(api, template.id)).toMatchObject(CYCLE);
      const patch = await api.patch(path(template.id), { subscription_period: 5, subscription_trial_periods: 0 });
      expectSuccess(patch, 'PATCH of cycle fields');
      expect(await read(api, template.id)).toMatchObject({ ...CYCLE, subscription_period: 5, subscription_trial_periods: 0 });
    },
  );

  check(
    {
      id: 'BT-CYCLE-EDITABLE-WHILE-PENDING',
      title: 'A pending subscriber is not launched: the cycle fields stay editable',
      cites: `${RULES} 3: "Once any client is activated … these four fields are read-only"; BillingTemplateClient status table: pending → active "the created Purchase is paid"`,
    },
    async (ctx) => {
      const { api } = ctx;
      const template = await makeTemplate(api);
      const added = await subscribe(ctx.api, template.id, subscriberBody((await makeClient(api)).id, later()));
      expect(added.subscriber.status, 'setup: without trial and charge at period end the subscriber is pending').toBe('pending');
      expectSuccess(await api.patch(path(template.id), { subscription_period: 2 }), 'PATCH subscription_period with only a pending subscriber');
      expect((await read(api, template.id)).subscription_period).toBe(2);
    },
  );

  // --------------------------------------------------------------- cycle fields: rule 3

  for (const [field, value] of Object.entries(CYCLE)) {
    check(
      {
        id: `BT-CYCLE-READONLY-AFTER-LAUNCH-${field}`,
        title: `Once a client is activated, ${field} is read-only: PATCH does not change it`,
        cites: `${RULES} 3: "Once any client is activated … these four fields are read-only"`,
      },
      async (ctx) => {
        const template = await launched(ctx);
        // The launched template has a trial of 1; the other values differ from the monthly body's anyway.
        const changed = field === 'subscription_trial_periods' ? 4 : value;
        await expectNotApplied(ctx.api, template, await ctx.api.patch(path(template.id), { [field]: changed }), [field]);
      },
    );
  }

  check(
    {
      id: 'BT-CYCLE-READONLY-AFTER-LAUNCH-PUT',
      title: 'Once a client is activated, a PUT with other cycle values does not change them',
      cites: `${RULES} 3: "Once any client is activated … these four fields are read-only"`,
    },
    async (ctx) => {
      const template = await launched(ctx);
      const res = await ctx.api.put(path(template.id), monthlyTemplate(template.brand_id, { ...CYCLE, subscription_trial_periods: 4 }));
      await expectNotApplied(ctx.api, template, res, Object.keys(CYCLE));
    },
  );

  check(
    {
      id: 'BT-CYCLE-READONLY-AFTER-LAUNCH-CODE',
      title: 'Once a client is activated, PATCH of each cycle field → 400 read_only',
      cites: READ_ONLY_CODE,
      level: 'informative',
    },
    async (ctx) => {
      const template = await launched(ctx);
      for (const [field, value] of Object.entries(CYCLE)) {
        expectError(await ctx.api.patch(path(template.id), { [field]: field === 'subscription_trial_periods' ? 4 : value }), field, 'read_only');
      }
    },
  );

  check(
    {
      id: 'BT-CYCLE-NOT-REQUIRED-AFTER-LAUNCH',
      title: 'Once a client is activated, the four fields are no longer required: a PUT without them succeeds and keeps them',
      cites: `${RULES} 2: required "as long as no subscriber has been launched"; 3: read-only once any client is activated`,
    },
    async (ctx) => {
      const template = await launched(ctx);
      const body = monthlyTemplate(template.brand_id, { title: 'Renamed after launch' });
      for (const field of Object.keys(CYCLE)) delete body[field];
      expectSuccess(await ctx.api.put(path(template.id), body), 'PUT without the four cycle fields after launch');
      const stored = await read(ctx.api, template.id);
      expect(stored.title).toBe('Renamed after launch');
      for (const field of Object.keys(CYCLE)) expect(stored[field], field).toEqual(template[field]);
    },
  );

  check(
    {
      id: 'BT-HAS-ACTIVE-CLIENTS',
      title: 'subscription_has_active_clients turns true once a subscriber is launched',
      cites: 'openapi.yaml BillingTemplateFields.subscription_has_active_clients; DESIGN.md §3 read-only extras',
      level: 'informative',
    },
    async (ctx) => {
      expect((await makeTemplate(ctx.api)).subscription_has_active_clients).toBe(false);
      expect((await launched(ctx)).subscription_has_active_clients).toBe(true);
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
      cites: `${TABLE}: purchase "Copied 1:1 to every generated Purchase, including subscription Purchases"; What the service does 2`,
    },
    async (ctx) => {
      const template = await makeTemplate(ctx.api, { purchase: RICH_PURCHASE });
      const added = await subscribe(ctx.api, template.id, subscriberBody((await makeClient(ctx.api)).id, later()));
      expect(added.purchase, 'a pending subscriber comes with its purchase').not.toBeNull();
      expect(added.purchase!.purchase).toEqual(template.purchase);
      expect(added.purchase!.billing_template_id).toBe(template.id);
    },
  );

  check(
    {
      id: 'BT-PURCHASE-COPIED-ONE-TIME',
      title: 'send_invoice: the purchase object is copied 1:1, and due, skip_capture, send_receipt and issued are set from the template',
      cites: `${TABLE}: purchase "Copied 1:1 to every generated Purchase"; issued, due, skip_capture, send_receipt "Sets … on generated Purchases"; Spec, Send invoices`,
    },
    async (ctx) => {
      const { api } = ctx;
      const issued = addDays(await today(ctx, 'Europe/Berlin'), 1);
      const template = await makeOneTimeTemplate(ctx.api, { purchase: RICH_PURCHASE, issued, skip_capture: true, send_receipt: true });
      const client = await makeClient(api);
      const sent = expectSuccess(await api.post(`${path(template.id)}send_invoice/`, { client_id: client.id }), 'a one-time invoice');
      expect(sent.purchase).toEqual(template.purchase);
      expect(sent).toMatchObject({ issued, due: template.due, skip_capture: true, send_receipt: true, client_id: client.id, billing_template_id: template.id });
    },
  );

  check(
    {
      id: 'BT-ISSUED-DEFAULT-TODAY',
      title: 'issued omitted: generated Purchases are issued on "the current day in purchase.timezone" (UTC+14 and UTC−11)',
      cites: `${TABLE}: issued "When omitted, generated from the current day in purchase.timezone"`,
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
      title: 'purchase.total is computed from the products: 3 × 1000 + 2 × 250 = 3500',
      cites: `${TABLE}: purchase "Core Purchase information: products, total, currency"; openapi.yaml PurchaseDetails.total (computed, read-only)`,
    },
    async ({ api }) => {
      const products = [
        { name: 'Seat', price: 1000, quantity: 3 },
        { name: 'Add-on', price: 250, quantity: 2 },
      ];
      const template = await makeTemplate(api, { purchase: { currency: 'EUR', products } });
      expect(template.purchase.total).toBe(3500);
      expect((await read(api, template.id)).purchase.total).toBe(3500);
    },
  );

  check(
    {
      id: 'BT-TOTAL-FORMULA',
      title: 'purchase.total = Σ (round(price × quantity) − discount) + round(line × tax_percent / 100), recomputed on edit',
      cites: 'openapi.yaml PurchaseDetails.total',
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
      title: 'purchase.total is read-only: an equal value is accepted, a different one → 400, "purchase.total": read_only',
      cites: `openapi.yaml PurchaseDetails.total "a sent value must equal the stored total"; ${READ_ONLY_CODE}`,
      level: 'informative',
    },
    async ({ api }) => {
      const brand = await brandId(api);
      const products = [{ name: 'Seat', price: 1000, quantity: 3 }];
      expectError(await api.post('/billing_templates/', monthlyTemplate(brand, { purchase: { currency: 'EUR', products, total: 1 } })), 'purchase.total', 'read_only');
      const res = await api.post('/billing_templates/', monthlyTemplate(brand, { purchase: { currency: 'EUR', products, total: 3000 } }));
      expect(res.status).toBe(201);
      expect(res.body.purchase.total).toBe(3000);
    },
  );

  // ------------------------------------------------------------------ PUT, PATCH, DELETE

  check(
    { id: 'BT-PUT', title: 'PUT replaces a template: the new title, purchase and cycle fields are stored', cites: `openapi.yaml updateBillingTemplate; ${RULES} 2` },
    async ({ api }) => {
      const template = await makeTemplate(api);
      const body = monthlyTemplate(template.brand_id, {
        ...CYCLE,
        ...DUE_PERIOD,
        title: 'Team plan, every 3 weeks',
        purchase: { currency: 'USD', products: [{ name: 'Team plan', price: 9900 }] },
      });
      const res = await api.put(path(template.id), body);
      expectSuccess(res, 'PUT');
      const { purchase, ...fields } = body;
      const stored = await read(api, template.id);
      expect(stored).toMatchObject({ ...fields, id: template.id, created_on: template.created_on });
      expect(stored.purchase).toMatchObject({ currency: 'USD', products: [{ name: 'Team plan', price: 9900 }], total: 9900 });
      expect(res.body).toEqual(stored);
    },
  );

  check(
    {
      id: 'BT-PUT-RESETS-OMITTED',
      title: 'PUT is a full replacement: omitted optional fields return to their defaults',
      cites: 'openapi.yaml updateBillingTemplate: "A full replacement"',
      level: 'informative',
    },
    async ({ api }) => {
      const template = await makeTemplate(api, { title: 'Named', force_recurring: true, subscription_paused: true });
      const { title, ...body } = monthlyTemplate(template.brand_id);
      expect((await api.put(path(template.id), body)).status).toBe(200);
      expect(await read(api, template.id)).toMatchObject({ title: '', force_recurring: false, subscription_paused: false });
    },
  );

  check(
    {
      id: 'BT-PUT-ROUNDTRIP',
      title: 'A template read with GET can be PUT back unchanged (read-only fields with their stored values are accepted)',
      cites: 'openapi.yaml info, Requests: "a client can GET an object and PUT it back"',
      level: 'informative',
    },
    async ({ api }) => {
      const template = await read(api, (await makeTemplate(api)).id);
      const res = await api.put(path(template.id), template);
      expect(res.status).toBe(200);
      expect(withoutUpdatedOn(res.body)).toEqual(withoutUpdatedOn(template));
    },
  );

  check(
    { id: 'BT-PATCH', title: 'PATCH changes only the fields sent', cites: 'openapi.yaml patchBillingTemplate' },
    async ({ api }) => {
      const template = await read(api, (await makeTemplate(api, { subscription_trial_periods: 2 })).id);
      const res = await api.patch(path(template.id), { title: 'Renamed' });
      expectSuccess(res, 'PATCH');
      const stored = await read(api, template.id);
      expect(withoutUpdatedOn(stored)).toEqual(withoutUpdatedOn({ ...template, title: 'Renamed' }));
      expect(stored.updated_on).toBeGreaterThanOrEqual(template.updated_on);
    },
  );

  check(
    {
      id: 'BT-PATCH-PAUSED',
      title: 'subscription_paused "Pauses the whole subscription": PATCH sets and clears it',
      cites: `${TABLE}: subscription_paused "Pauses the whole subscription"; Spec, States: "Setting subscription_paused true on the template"`,
    },
    async ({ api }) => {
      const template = await makeTemplate(api);
      expectSuccess(await api.patch(path(template.id), { subscription_paused: true }), 'PATCH subscription_paused true');
      expect((await read(api, template.id)).subscription_paused).toBe(true);
      expectSuccess(await api.patch(path(template.id), { subscription_paused: false }), 'PATCH subscription_paused false');
      expect((await read(api, template.id)).subscription_paused).toBe(false);
    },
  );

  check(
    { id: 'BT-DELETE', title: 'DELETE removes a template: it can no longer be read nor is it listed', cites: 'openapi.yaml deleteBillingTemplate' },
    async ({ api }) => {
      const template = await makeTemplate(api);
      expectSuccess(await api.delete(path(template.id)), 'DELETE');
      expectRejected(await api.get(path(template.id)), 'GET of the deleted template');
      const listed = (await api.get('/billing_templates/?page_size=25')).body.results as Node[];
      expect(listed.map((t) => t.id)).not.toContain(template.id);
    },
  );

  check(
    { id: 'BT-DELETE-STATUS', title: 'DELETE answers 204 with no body; the template then answers 404', cites: `${ERRORS}: "204 delete", "404 unknown or foreign id"`, level: 'informative' },
    async ({ api }) => {
      const template = await makeTemplate(api);
      const res = await api.delete(path(template.id));
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await api.get(path(template.id))).status).toBe(404);
      expect((await api.delete(path(template.id))).status).toBe(404);
    },
  );

  check(
    { id: 'BT-UNKNOWN-ID', title: 'GET, PUT, PATCH and DELETE of an unknown template id fail, and PUT creates nothing', cites: 'openapi.yaml Id parameter: "unknown … → 404"' },
    async ({ api }) => {
      const target = path(UNKNOWN_ID);
      expectRejected(await api.get(target), 'GET');
      expectRejected(await api.put(target, monthlyTemplate(await brandId(api))), 'PUT');
      expectRejected(await api.patch(target, { title: 'x' }), 'PATCH');
      expectRejected(await api.delete(target), 'DELETE');
      expectRejected(await api.get(target), 'GET after PUT');
    },
  );

  check(
    { id: 'BT-UNKNOWN-ID-404', title: 'An unknown template id → 404 with __all__: not_found', cites: `${ERRORS}: "404 unknown or foreign id"`, level: 'informative' },
    async ({ api }) => {
      const target = path(UNKNOWN_ID);
      for (const res of [await api.get(target), await api.put(target, monthlyTemplate(await brandId(api))), await api.patch(target, { title: 'x' }), await api.delete(target)]) {
        expectError(res, '__all__', 'not_found', { status: 404 });
      }
    },
  );

  check(
    {
      id: 'BT-BRAND-UNKNOWN',
      title: 'A brand_id that is not a brand of the account is rejected and nothing is created',
      cites: 'Spec, BillingTemplate: "a brand reference (uuid, the brand the template belongs to)"',
    },
    async ({ api }) => {
      const marker = unique();
      expectRejected(await api.post('/billing_templates/', monthlyTemplate(UNKNOWN_ID, { title: marker })));
      await expectNotListed(api, '/billing_templates/', 'title', marker);
    },
  );

  check(
    { id: 'BT-BRAND-UNKNOWN-CODE', title: 'An unknown brand_id → 400, "brand_id": does_not_exist', cites: `${ERRORS}; openapi.yaml Error code "does_not_exist"`, level: 'informative' },
    async ({ api }) => {
      expectError(await api.post('/billing_templates/', monthlyTemplate(UNKNOWN_ID)), 'brand_id', 'does_not_exist');
    },
  );

  // ------------------------------------------------------------------ payment methods

  const WHITELIST = 'Spec, BillingTemplateClient table: payment_method_whitelist "Payment method names as returned by GET /payment_methods/"';

  check(
    { id: 'BT-PAYMENT-METHODS-LIST', title: 'GET /payment_methods/ returns the payment method names', cites: `${WHITELIST}; openapi.yaml listPaymentMethods` },
    async ({ api }) => {
      const res = await api.get('/payment_methods/');
      expect(res.status).toBe(200);
      const names = res.body.available_payment_methods as string[];
      expect(names.length, 'at least one payment method').toBeGreaterThan(0);
      for (const name of names) expect(name.length, 'a non-empty name').toBeGreaterThan(0);
      expect(new Set(names).size, 'names are unique').toBe(names.length);
    },
  );

  check(
    {
      id: 'BT-PAYMENT-METHODS-WHITELIST',
      title: 'The names of GET /payment_methods/ are accepted in payment_method_whitelist and "Copied 1:1 to Purchase.payment_method_whitelist"',
      cites: `${WHITELIST}; "Copied 1:1 to Purchase.payment_method_whitelist of generated Purchases"`,
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
      cites: `${ERRORS}; openapi.yaml Error code "invalid_choice" ("or not an offered payment method")`,
      level: 'informative',
    },
    async (ctx) => {
      const template = await makeTemplate(ctx.api, { subscription_trial_periods: 1 });
      const body = subscriberBody((await makeClient(ctx.api)).id, later(), { payment_method_whitelist: ['no_such_method'] });
      expectError(await ctx.api.post(`${path(template.id)}add_subscriber/`, body), 'payment_method_whitelist.0', 'invalid_choice');
    },
  );
});

