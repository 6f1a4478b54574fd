// Billing templates: what is_subscription fixes, on create, PUT and PATCH. It "Cannot be changed when
// editing"; the invoice fields are read-only on a subscription template and the subscription_* fields
// on a one-time template, whose due is required.
//
// Read-only fields. The spec says a field is "read-only" or "cannot be changed" but not what the server
// does with a request that sends it: the normative check is that the stored value never changes (the
// request is rejected, or accepted without applying it); billing-sim decides "400 read_only"
// (docs/behaviour.md#read-only-fields), checked by the informative `…-CODE` twin: the platform, a
// Django REST framework service, may as well ignore such a field. Missing required fields must be
// rejected and nothing created or changed; the `…-CODE` twin of a required field is normative too: 400
// naming the field with Django REST framework's own code, `required` (docs/behaviour.md#error-body).

import { describe, expect } from 'vitest';
import { check, type CheckContext } from '../lib/check.ts';
import { refusalCode } from '../lib/refusal.ts';
import { READ_ONLY_CODE } from '../lib/citations.ts';
import type { ApiClient, Reply } from '../lib/client.ts';
import {
  addDays,
  brandId,
  CYCLE,
  DUE_PERIOD,
  expectError,
  expectNotListed,
  expectRejected,
  futureDue,
  is2xx,
  monthlyTemplate,
  oneTimeTemplate,
  SUBSCRIPTION_DEFAULTS,
  today,
  unique,
} from '../lib/primitives.ts';
import {
  expectNotApplied,
  expectTemplateUnchanged as expectUnchanged,
  makeOneTimeTemplate,
  makeTemplate,
  readTemplate as read,
  templatePath as path,
} from '../lib/scenario.ts';

/** Every subscription_* field the request may send, with a value other than its spec default. */
const SUBSCRIPTION_FIELDS: Record<string, unknown> = { ...CYCLE, ...DUE_PERIOD, subscription_paused: true };

const INVOICE_FIELDS = ['issued', 'due', 'skip_capture', 'send_receipt'] as const;

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
  // ------------------------------------------------------------------------ is_subscription

  check(
    {
      id: 'BT-ISSUB-IMMUTABLE',
      title: 'is_subscription "Cannot be changed when editing" (PATCH, both ways)',
      cites: 'docs/behaviour.md#template-fields: "is_subscription | … Cannot be changed when editing"; docs/behaviour.md#templates: "is_subscription is set on create and never changes"',
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
      cites: 'docs/behaviour.md#template-fields: "is_subscription | … Cannot be changed when editing"; docs/behaviour.md#templates: "is_subscription is set on create and never changes"',
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
    const cites = `docs/behaviour.md#template-fields: "${field} | … Read-only if is_subscription is true"; docs/behaviour.md#templates: "On a subscription template, issued, due, skip_capture and send_receipt do not apply and are read-only"`;
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
        ? 'docs/behaviour.md#template-fields: "subscription_paused | … Ignored (read-only) if is_subscription is false"'
        : 'docs/behaviour.md#template-fields: "When is_subscription is false, every subscription_* field is read-only"; docs/behaviour.md#templates: "on a one-time template every subscription_* field is"';
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

  const DUE_REQUIRED = 'docs/behaviour.md#template-fields: "due | integer (Unix seconds) or null | if is_subscription is false"; docs/behaviour.md#one-time-templates: "due is required on a one-time template"';

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
    { id: 'BT-DUE-REQUIRED-ONE-TIME-CREATE-CODE', title: 'A one-time template without due → 400, "due": required', cites: refusalCode('required') },
    async ({ api }) => {
      const { due, ...body } = oneTimeTemplate(await brandId(api), 0);
      expectError(await api.post('/billing_templates/', body), 'due', 'required');
    },
  );

  check(
    { id: 'BT-DUE-REQUIRED-ONE-TIME-PUT', title: 'due is required on PUT of a one-time template: a PUT without it is rejected and changes nothing', cites: `${DUE_REQUIRED}; openapi.yaml#updateBillingTemplate` },
    async (ctx) => {
      const template = await read(ctx.api, (await makeOneTimeTemplate(ctx.api)).id);
      const { due, ...body } = oneTimeTemplate(template.brand_id, 0, { title: 'Changed' });
      expectRejected(await ctx.api.put(path(template.id), body));
      await expectUnchanged(ctx.api, template);
    },
  );

  check(
    { id: 'BT-DUE-REQUIRED-ONE-TIME-PUT-CODE', title: 'PUT of a one-time template without due → 400, "due": required', cites: refusalCode('required') },
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
      cites: `docs/behaviour.md#put-and-patch: "Sending null for a required field → 400 null"; openapi.yaml#patchBillingTemplate: "a required field may not be set to null"; ${refusalCode('null')}`,
    },
    async (ctx) => {
      const { api } = ctx;
      expectError(await api.post('/billing_templates/', oneTimeTemplate(await brandId(api), 0, { due: null })), 'due', 'null');
      const template = await read(api, (await makeOneTimeTemplate(ctx.api)).id);
      expectError(await api.patch(path(template.id), { due: null }), 'due', 'null');
      await expectUnchanged(api, template);
    },
  );
});
