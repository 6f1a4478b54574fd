// The spec's BillingTemplate rules as pure domain functions: no HTTP, no wall clock.

import { describe, expect, it } from 'vitest';
import { createTemplate, updateTemplate } from '../../src/domain/billing-templates.ts';
import { ApiError } from '../../src/domain/errors.ts';
import { createIds } from '../../src/engine/ids.ts';
import type { BillingTemplate } from '../../src/domain/types.ts';
import { oneTimeBody, subscriptionBody } from '../builders/templates.ts';

const BRAND = '6b042125-686a-43e0-8a68-23cf5bee102e';
const scope = { brandIds: [BRAND], companyId: '00000000-0000-4000-8000-000000000001' };
const ctx = { clock: { now: () => Date.parse('2026-01-30T12:00:00Z') }, ids: createIds(3) };

function rejection(action: () => unknown): Record<string, { code: string }[]> {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).fields;
  }
  throw new Error('expected the rule to reject the input');
}

const codes = (fields: Record<string, { code: string }[]>) =>
  Object.fromEntries(Object.entries(fields).map(([field, details]) => [field, details.map((d) => d.code)]));

const launched = (template: BillingTemplate): BillingTemplate => ({ ...template, subscription_has_active_clients: true });

describe('BillingTemplate: is_subscription', () => {
  it('"Cannot be changed when editing"', () => {
    const template = createTemplate(subscriptionBody(BRAND), scope, ctx);
    expect(codes(rejection(() => updateTemplate('patch', template, { is_subscription: false }, scope, ctx)))).toEqual({
      is_subscription: ['read_only'],
    });
    expect(updateTemplate('patch', template, { is_subscription: true }, scope, ctx).is_subscription).toBe(true);
  });

  it('"When true, subscription_* fields apply and the invoice fields below are read-only"', () => {
    const fields = rejection(() =>
      createTemplate(subscriptionBody(BRAND, { issued: '2026-02-01', due: 1_771_027_200, skip_capture: true, send_receipt: true }), scope, ctx),
    );
    expect(codes(fields)).toEqual({ issued: ['read_only'], due: ['read_only'], skip_capture: ['read_only'], send_receipt: ['read_only'] });
  });

  it('"When false, the reverse": subscription_* fields are read-only on a one-time template', () => {
    const fields = rejection(() =>
      createTemplate(oneTimeBody(BRAND, { subscription_period: 3, subscription_paused: true, subscription_trial_periods: 1 }), scope, ctx),
    );
    expect(codes(fields)).toEqual({
      subscription_period: ['read_only'],
      subscription_paused: ['read_only'],
      subscription_trial_periods: ['read_only'],
    });
  });

  it('a read-only field sent with its stored value is accepted', () => {
    const template = createTemplate(oneTimeBody(BRAND, { subscription_period: 1, subscription_paused: false }), scope, ctx);
    expect(template.subscription_period).toBe(1);
  });
});

describe('BillingTemplate: required-when rules', () => {
  it('due is "required if is_subscription is false"', () => {
    const { due: _due, ...body } = oneTimeBody(BRAND);
    expect(codes(rejection(() => createTemplate(body, scope, ctx)))).toEqual({ due: ['required'] });
    expect(codes(rejection(() => createTemplate({ ...body, due: null }, scope, ctx)))).toEqual({ due: ['null'] });
  });

  it('rule 1: the four fields "are required when creating a template with is_subscription true"', () => {
    const body: Record<string, unknown> = subscriptionBody(BRAND);
    for (const field of ['subscription_period', 'subscription_period_units', 'subscription_charge_period_end', 'subscription_trial_periods']) {
      delete body[field];
    }
    expect(codes(rejection(() => createTemplate(body, scope, ctx)))).toEqual({
      subscription_period: ['required'],
      subscription_period_units: ['required'],
      subscription_charge_period_end: ['required'],
      subscription_trial_periods: ['required'],
    });
  });

  it('subscription_due_period is "required if is_subscription is true"', () => {
    const { subscription_due_period: _p, subscription_due_period_units: _u, ...body } = subscriptionBody(BRAND);
    expect(codes(rejection(() => createTemplate(body, scope, ctx)))).toEqual({
      subscription_due_period: ['required'],
      subscription_due_period_units: ['required'],
    });
  });

  it('rule 2: "The same four fields are required when editing such a template, as long as no subscriber has been launched"', () => {
    const template = createTemplate(subscriptionBody(BRAND), scope, ctx);
    const { subscription_trial_periods: _t, ...body } = subscriptionBody(BRAND);
    expect(codes(rejection(() => updateTemplate('put', template, body, scope, ctx)))).toEqual({ subscription_trial_periods: ['required'] });
    // PATCH sends a subset.
    expect(updateTemplate('patch', template, { title: 'Renamed' }, scope, ctx).title).toBe('Renamed');
  });

  it('rule 3: "Once any client is activated … these four fields are read-only"', () => {
    const template = launched(createTemplate(subscriptionBody(BRAND), scope, ctx));
    const fields = rejection(() =>
      updateTemplate('patch', template, { subscription_period: 2, subscription_period_units: 'weeks', subscription_charge_period_end: true, subscription_trial_periods: 1 }, scope, ctx),
    );
    expect(codes(fields)).toEqual({
      subscription_period: ['read_only'],
      subscription_period_units: ['read_only'],
      subscription_charge_period_end: ['read_only'],
      subscription_trial_periods: ['read_only'],
    });
    // Once launched they are no longer required on PUT, and the stored cycle is kept.
    const { subscription_period: _p, subscription_period_units: _u, subscription_charge_period_end: _c, subscription_trial_periods: _t, ...body } =
      subscriptionBody(BRAND, { title: 'Renamed' });
    const replaced = updateTemplate('put', { ...template, subscription_period: 3 }, body, scope, ctx);
    expect(replaced).toMatchObject({ title: 'Renamed', subscription_period: 3, subscription_has_active_clients: true });
    // subscription_due_period is not one of the four: still editable.
    expect(updateTemplate('patch', template, { subscription_due_period: 14 }, scope, ctx).subscription_due_period).toBe(14);
  });
});

describe('BillingTemplate: defaults and computed fields', () => {
  it('takes the defaults of the spec table, send_receipt false (DESIGN.md §4.11)', () => {
    const template = createTemplate(oneTimeBody(BRAND), scope, ctx);
    expect(template).toMatchObject({
      issued: null,
      skip_capture: false,
      send_receipt: false,
      force_recurring: false,
      subscription_period: 1,
      subscription_period_units: 'months',
      subscription_due_period: 7,
      subscription_due_period_units: 'days',
      subscription_charge_period_end: false,
      subscription_trial_periods: 0,
      subscription_paused: false,
      subscription_has_active_clients: false,
      is_test: true,
    });
    expect(template.purchase).toMatchObject({ timezone: 'UTC', total: 4900 });
  });

  it('PUT is a full replacement: omitted optional fields return to their defaults', () => {
    const template = createTemplate(oneTimeBody(BRAND, { title: 'Kept?', skip_capture: true }), scope, ctx);
    const { title: _title, ...body } = oneTimeBody(BRAND);
    const replaced = updateTemplate('put', template, body, scope, ctx);
    expect(replaced).toMatchObject({ title: '', skip_capture: false, id: template.id, created_on: template.created_on });
  });

  it('brand_id must be a brand of the sandbox', () => {
    const other = '11111111-1111-4111-8111-111111111111';
    expect(codes(rejection(() => createTemplate(subscriptionBody(other), scope, ctx)))).toEqual({ brand_id: ['does_not_exist'] });
  });

  it('server fields are read-only: id, created_on, subscription_has_active_clients', () => {
    const template = createTemplate(subscriptionBody(BRAND), scope, ctx);
    expect(codes(rejection(() => updateTemplate('patch', template, { id: '11111111-1111-4111-8111-111111111111', subscription_has_active_clients: true }, scope, ctx)))).toEqual({
      id: ['read_only'],
      subscription_has_active_clients: ['read_only'],
    });
    // A GET-then-PUT round trip sends them back unchanged and passes.
    expect(updateTemplate('put', template, { ...template }, scope, ctx).id).toBe(template.id);
  });
});
