// Limits of POST /billing_templates/ (BillingTemplateCreate) and of add_subscriber
// (BillingTemplateClientCreate), derived from openapi.yaml by limits-cases.ts, normative where the
// spec's BillingTemplate and BillingTemplateClient tables or its Limits state the rule, or the platform
// refuses the value too (a wrong JSON type). Plus the
// spec's date limits, which are rules rather than schema keywords: subscription_deduction_date at
// least today plus 4 days; subscription_first_deduction_date at least today plus 4 days and earlier
// than subscription_deduction_date.

import { describe, expect } from 'vitest';
import {
  addDays,
  brandId,
  expectNotListed,
  futureDue,
  monthlyTemplate,
  oneTimeTemplate,
  setPath,
  subscriberBody,
  unique,
} from '../lib/primitives.ts';
import { makeClient, makeTemplate } from '../lib/scenario.ts';
import { casesOf, checks, feasible, type Case } from '../lib/limits-cases.ts';
import { readBack, related, type Subject } from '../lib/limits-schema.ts';

const INVOICE_FIELDS = ['issued', 'due', 'skip_capture', 'send_receipt'];

/**
 * The platform's names of the invoice fields (openapi.yaml#/components/schemas/BillingTemplatePlatformNames):
 * a case on one of them sends it in place of the spec's name, on a one-time template.
 */
const PLATFORM_NAMES: Record<string, string> = {
  invoice_issued: 'issued',
  invoice_due: 'due',
  invoice_skip_capture: 'skip_capture',
  invoice_send_receipt: 'send_receipt',
};

const billingTemplate: Subject = {
  schema: 'BillingTemplateCreate',
  async prepare(g, path) {
    const { api } = g.ctx;
    const brand = await brandId(api);
    // The invoice fields are read-only on a subscription template, the subscription_* ones on a one-time template.
    const invoiceField = PLATFORM_NAMES[path[0]!] ?? path[0]!;
    const body = INVOICE_FIELDS.includes(invoiceField) ? oneTimeTemplate(brand, await futureDue(g.ctx)) : monthlyTemplate(brand);
    if (invoiceField !== path[0]) delete body[invoiceField];
    const marker = unique();
    const slot = related(path, 'title') ? 'purchase.notes' : 'title';
    setPath(body, slot.split('.'), marker);
    return {
      body,
      send: (b) => api.post('/billing_templates/', b),
      read: (reply) => readBack(g, `/billing_templates/${reply.body.id}/`),
      nothingCreated: () => expectNotListed(api, '/billing_templates/', slot, marker),
    };
  },
};

const subscriber: Subject = {
  schema: 'BillingTemplateClientCreate',
  async prepare(g, path, value) {
    const { api } = g.ctx;
    const clientId = (await makeClient(api)).id as string;
    // A trial makes the subscriber active at once; status "pending" needs a template without one.
    const pending = path[0] === 'status' && value === 'pending';
    const template = await makeTemplate(api, pending ? {} : { subscription_trial_periods: 1 });
    const day = await g.day();
    const body = subscriberBody(clientId, addDays(day, 10));
    // Each of the first-deduction pair "requires" the other.
    if (path[0] === 'subscription_first_deduction_amount') body.subscription_first_deduction_date = addDays(day, 5);
    if (path[0] === 'subscription_first_deduction_date') body.subscription_first_deduction_amount = 1500;
    const base = `/billing_templates/${template.id}`;
    return {
      body,
      send: (b) => api.post(`${base}/add_subscriber/`, b),
      read: (reply) => readBack(g, `${base}/clients/${reply.body.billing_template_client.id}/`),
      async nothingCreated() {
        const res = await api.get(`${base}/clients/`);
        expect(res.status, `GET ${base}/clients/`).toBe(200);
        expect(res.body.results, 'a rejected add_subscriber must store no subscriber').toEqual([]);
      },
    };
  },
};

/** The spec's date limits for subscribers: rules of the spec, not keywords of the schema. */
function dateCases(): Case[] {
  const name = 'BillingTemplateClientCreate';
  const deduction = ['subscription_deduction_date'];
  const first = ['subscription_first_deduction_date'];
  const minCite = 'docs/behaviour.md#subscriber-fields: "the start date of the billing cycle. Minimum: today plus 4 days (400 min_value)"';
  const beforeCite = 'docs/behaviour.md#subscriber-fields: "Must be earlier than subscription_deduction_date. Minimum: today plus 4 days"';
  // The subject's body starts the cycle on today + 10 and, with a first deduction, collects it on today + 5.
  return [
    {
      id: `LIM-${name}-subscription_deduction_date-min`,
      title: 'subscription_deduction_date = today + 4 days (the minimum) is accepted and stored',
      level: 'normative',
      cites: minCite,
      path: deduction,
      outcome: 'accepted',
      value: async (g) => addDays(await g.day(), 4),
    },
    {
      id: `LIM-${name}-subscription_deduction_date-min-1`,
      title: 'subscription_deduction_date = today + 3 days (minimum − 1 day) is rejected',
      level: 'normative',
      cites: minCite,
      path: deduction,
      outcome: 'rejected',
      code: 'min_value',
      value: async (g) => addDays(await g.day(), 3),
    },
    {
      id: `LIM-${name}-subscription_first_deduction_date-min`,
      title: 'subscription_first_deduction_date = today + 4 days (the minimum) is accepted and stored',
      level: 'normative',
      cites: beforeCite,
      path: first,
      outcome: 'accepted',
      value: async (g) => addDays(await g.day(), 4),
    },
    {
      id: `LIM-${name}-subscription_first_deduction_date-min-1`,
      title: 'subscription_first_deduction_date = today + 3 days (minimum − 1 day) is rejected',
      level: 'normative',
      cites: beforeCite,
      path: first,
      outcome: 'rejected',
      code: 'min_value',
      value: async (g) => addDays(await g.day(), 3),
    },
    {
      id: `LIM-${name}-subscription_first_deduction_date-max`,
      title: 'subscription_first_deduction_date one day before subscription_deduction_date is accepted and stored',
      level: 'normative',
      cites: beforeCite,
      path: first,
      outcome: 'accepted',
      value: async (g) => addDays(await g.day(), 9),
    },
    {
      id: `LIM-${name}-subscription_first_deduction_date-max+1`,
      title: 'subscription_first_deduction_date equal to subscription_deduction_date (not earlier) is rejected',
      level: 'normative',
      cites: beforeCite,
      path: first,
      outcome: 'rejected',
      code: 'max_value',
      value: async (g) => addDays(await g.day(), 10),
    },
  ];
}

describe('limits', () => {
  checks(billingTemplate, casesOf(billingTemplate).filter(feasible));
  checks(subscriber, [...casesOf(subscriber).filter(feasible), ...dateCases()]);
});
