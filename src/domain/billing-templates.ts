// The rules of the spec's BillingTemplate table, "Rules on the subscription fields" and Limits
// that JSON Schema cannot state: required-when, read-only-when, the sandbox's brands.
// Bounds, types and enums are checked before this by the operation's schema. The rules run on the
// spec's names: a request's platform names (`invoice_due`) are folded into them first
// (billing-template-names.ts). The same rules check the template fields of POST /billing/.

import { ErrorCollector, errors } from './errors.ts';
import { mergeWritable, rejectChanges, rejectNulls, requireFields, SERVER_FIELDS, type WriteMode } from './fields.ts';
import { withSpecNames } from './billing-template-names.ts';
import { buildPurchaseDetails } from './purchase-details.ts';
import type { Context } from './context.ts';
import { unixSeconds } from './context.ts';
import type { BillingTemplate, Input } from './types.ts';

/** Spec, rules on the subscription fields 1–3: "these four fields". */
export const CYCLE_FIELDS = [
  'subscription_period',
  'subscription_period_units',
  'subscription_charge_period_end',
  'subscription_trial_periods',
] as const;

const DUE_PERIOD_FIELDS = ['subscription_due_period', 'subscription_due_period_units'] as const;

/** Spec: "When true, subscription_* fields apply and the invoice fields below are read-only." */
export const INVOICE_FIELDS = ['issued', 'due', 'skip_capture', 'send_receipt'] as const;

export const SUBSCRIPTION_FIELDS = [...CYCLE_FIELDS, ...DUE_PERIOD_FIELDS, 'subscription_paused'] as const;

const TEMPLATE_SERVER_FIELDS = [...SERVER_FIELDS, 'company_id', 'is_test', 'subscription_has_active_clients'];

const WRITABLE = ['brand_id', 'title', 'force_recurring', ...INVOICE_FIELDS, ...SUBSCRIPTION_FIELDS] as const;

type Writable = Pick<BillingTemplate, (typeof WRITABLE)[number]>;

/** Defaults of the spec's table; send_receipt is false, as DESIGN.md §4.11 decides. */
const DEFAULTS: Omit<Writable, 'brand_id'> = {
  title: '',
  force_recurring: false,
  issued: null,
  due: null,
  skip_capture: false,
  send_receipt: false,
  subscription_period: 1,
  subscription_period_units: 'months',
  subscription_due_period: 7,
  subscription_due_period_units: 'days',
  subscription_charge_period_end: false,
  subscription_trial_periods: 0,
  subscription_paused: false,
};

export interface TemplateScope {
  /** Brands of the caller's sandbox: `brand_id` must be one of them. */
  brandIds: readonly string[];
  companyId: string;
}

export function createTemplate(input: Input, scope: TemplateScope, ctx: Context): BillingTemplate {
  return writeTemplate('create', undefined, input, scope, ctx);
}

export function updateTemplate(
  mode: 'put' | 'patch',
  stored: BillingTemplate,
  input: Input,
  scope: TemplateScope,
  ctx: Context,
): BillingTemplate {
  return writeTemplate(mode, stored, input, scope, ctx);
}

/** What a one-time invoice takes from its template: the fields send_invoice copies to the Purchase. */
export type InvoiceTerms = Pick<BillingTemplate, 'brand_id' | 'purchase' | 'issued' | 'due' | 'skip_capture' | 'send_receipt' | 'force_recurring'>;

/**
 * POST /billing/: the request's template fields, checked as the create of a one-time template checks
 * them, and no template made. RV:billing_templates_one_time_invoices: "title and is_subscription are
 * read-only for POST /billing/": `title` is taken and goes nowhere (no template keeps it), and
 * `is_subscription` may only say what the request is, false.
 */
export function oneTimeInvoiceTerms(input: Input, scope: TemplateScope): InvoiceTerms {
  const errs = new ErrorCollector();
  rejectChanges(errs, input, { is_subscription: false }, ['is_subscription'], 'POST /billing/ sends one-time invoices');
  errs.throwIfAny();
  const fields: Input = { ...input, is_subscription: false };
  delete fields.title;
  return checkedFields('create', undefined, fields, scope);
}

function writeTemplate(
  mode: WriteMode,
  stored: BillingTemplate | undefined,
  input: Input,
  scope: TemplateScope,
  ctx: Context,
): BillingTemplate {
  const fields = checkedFields(mode, stored, input, scope);
  const now = unixSeconds(ctx.clock.now());
  return {
    id: stored?.id ?? ctx.ids.uuid(),
    type: 'billing_template',
    created_on: stored?.created_on ?? now,
    updated_on: now,
    company_id: scope.companyId,
    is_test: true,
    ...fields,
  };
}

/** Every field of the new state but the four the server stamps on a record; throws when a rule refuses the input. */
function checkedFields(mode: WriteMode, stored: BillingTemplate | undefined, input: Input, scope: TemplateScope) {
  return withSpecNames(input, (input) => {
    const errs = new ErrorCollector();
    const isSubscription = stored ? stored.is_subscription : (input.is_subscription as boolean);
    const launched = stored?.subscription_has_active_clients ?? false;
    const current = stored ?? { ...DEFAULTS, is_subscription: isSubscription };

    rejectChanges(errs, input, stored ?? {}, TEMPLATE_SERVER_FIELDS, 'set by the server');
    rejectChanges(errs, input, current, ['is_subscription'], 'is_subscription cannot be changed when editing');
    const groups = readOnlyGroups(isSubscription, launched);
    for (const group of groups) rejectChanges(errs, input, current, group.fields, group.reason);
    const readOnly = groups.flatMap((group) => group.fields);
    const required = requiredFields(isSubscription, launched);
    if (mode === 'patch') rejectNulls(errs, input, required);
    else requireFields(errs, input, required);
    if ('brand_id' in input && !scope.brandIds.includes(input.brand_id as string)) {
      errs.add('brand_id', errors.doesNotExist('Brand', input.brand_id));
    }

    const writable = mergeWritable<Writable>(
      mode,
      DEFAULTS as Writable,
      stored,
      input,
      WRITABLE.filter((field) => !readOnly.includes(field)),
      readOnly as (keyof Writable & string)[],
    );
    const purchase =
      'purchase' in input
        ? buildPurchaseDetails(errs, 'purchase', input.purchase as Input, stored?.purchase.total)
        : stored!.purchase;
    errs.throwIfAny();
    return { ...writable, purchase, is_subscription: isSubscription, subscription_has_active_clients: launched };
  });
}

/**
 * Spec: invoice fields are read-only on a subscription template, subscription_* fields on a
 * one-time one; rule 3: "Once any client is activated … these four fields are read-only."
 */
function readOnlyGroups(isSubscription: boolean, launched: boolean): { fields: readonly string[]; reason: string }[] {
  if (!isSubscription) {
    return [{ fields: SUBSCRIPTION_FIELDS, reason: 'subscription fields do not apply when is_subscription is false' }];
  }
  const invoice = { fields: INVOICE_FIELDS, reason: 'invoice fields do not apply when is_subscription is true' };
  return launched ? [invoice, { fields: CYCLE_FIELDS, reason: 'the billing cycle is fixed once a subscriber has been launched' }] : [invoice];
}

/**
 * Spec rules 1–2: the four cycle fields are required on create and on edit (PUT, a full
 * replacement) while no subscriber has been launched; subscription_due_period(_units) "required if
 * is_subscription is true"; `due` "required if is_subscription is false". A PATCH may omit them
 * but not set them to null.
 */
function requiredFields(isSubscription: boolean, launched: boolean): string[] {
  if (!isSubscription) return ['due'];
  return launched ? [...DUE_PERIOD_FIELDS] : [...CYCLE_FIELDS, ...DUE_PERIOD_FIELDS];
}
