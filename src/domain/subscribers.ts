// BillingTemplateClient (subscriber) rules: what add_subscriber accepts, which status it starts
// in (the spec's state table), and what a PATCH may change. Scheduling lives in engine/billing.ts.

import { addDays, compareDates, minimumDays } from './calendar.ts';
import { ALL, ErrorCollector, errors, fieldError } from './errors.ts';
import { rejectChanges, SERVER_FIELDS } from './fields.ts';
import { checkWhitelist, EXECUTION_DAYS } from './purchases.ts';
import { unixSeconds, type Context } from './context.ts';
import type { BillingTemplate, BillingTemplateClient, Input, ServiceType, SubscriberStatus } from './types.ts';

const COMPUTED = ['billing_template_id', 'subscription_billing_scheduled_on', 'number_of_billing_cycles_passed'];

/** Fixed once the subscriber exists: the client (spec: "Read-only after creation") and the cycle's dates. */
const FIXED_AFTER_ADD = ['client_id', 'subscription_deduction_date', 'subscription_first_deduction_date', 'subscription_first_deduction_amount'];

/** Spec, state table: active at once when charged at period end and/or with trials, else pending. */
export function initialStatus(template: BillingTemplate): SubscriberStatus {
  return template.subscription_charge_period_end || template.subscription_trial_periods > 0 ? 'active' : 'pending';
}

export interface SubscriberScope {
  template: BillingTemplate;
  clientExists: boolean;
  /** Today in the template's time zone (DESIGN.md §3 Formats). */
  today: string;
}

/** "Minimum: today plus 4 days." */
const earliestDate = (today: string): string => addDays(today, 4);

/** Why a date before earliestDate is refused, in the spec's words, with the day it counts from. */
const earliestWhy = (today: string, template: BillingTemplate): string =>
  `the minimum is today plus 4 days, and today is ${today} (${template.purchase.timezone}, the template's time zone)`;

function checkServiceType(errs: ErrorCollector, serviceType: ServiceType, template: BillingTemplate): void {
  // DESIGN.md §4.8: the execution time must fit in the due period of the purchases it will collect.
  if (EXECUTION_DAYS[serviceType] > minimumDays(template.subscription_due_period, template.subscription_due_period_units)) {
    errs.add(
      'default_service_type',
      errors.invalid(`${serviceType} takes ${EXECUTION_DAYS[serviceType]} day(s), longer than the template's due period.`),
    );
  }
}

function checkMandate(errs: ErrorCollector, mandate: string, deduction: string): void {
  if (compareDates(mandate, deduction) <= 0) {
    errs.add('mandate_expiry_date', errors.minValue(`the day after subscription_deduction_date (${addDays(deduction, 1)})`));
  }
}

export function newSubscriber(input: Input, scope: SubscriberScope, ctx: Context): BillingTemplateClient {
  const { template, today } = scope;
  if (!template.is_subscription) {
    throw fieldError(ALL, errors.invalidState('Subscribers can be added only to a template with is_subscription true.'));
  }
  const errs = new ErrorCollector();
  const status = initialStatus(template);
  rejectChanges(errs, input, {}, [...SERVER_FIELDS, ...COMPUTED], 'set by the server');
  rejectChanges(errs, input, { status }, ['status'], `a subscriber of this template starts ${status}`);
  if (!scope.clientExists) errs.add('client_id', errors.doesNotExist('Client', input.client_id));

  const deduction = input.subscription_deduction_date as string;
  const earliest = earliestDate(today);
  if (compareDates(deduction, earliest) < 0) errs.add('subscription_deduction_date', errors.minValue(earliest, earliestWhy(today, template)));
  checkMandate(errs, input.mandate_expiry_date as string, deduction);

  const firstDate = (input.subscription_first_deduction_date as string | null | undefined) ?? null;
  const firstAmount = (input.subscription_first_deduction_amount as number | null | undefined) ?? null;
  // "Requires subscription_first_deduction_amount when set", and the other way round.
  if (firstDate !== null && firstAmount === null) errs.add('subscription_first_deduction_amount', errors.required());
  if (firstAmount !== null && firstDate === null) errs.add('subscription_first_deduction_date', errors.required());
  if (firstDate !== null) {
    if (compareDates(firstDate, earliest) < 0) errs.add('subscription_first_deduction_date', errors.minValue(earliest, earliestWhy(today, template)));
    else if (compareDates(firstDate, deduction) >= 0) {
      errs.add('subscription_first_deduction_date', errors.maxValue(`the day before subscription_deduction_date (${addDays(deduction, -1)})`));
    }
  }
  checkWhitelist(errs, 'payment_method_whitelist', input.payment_method_whitelist);
  const serviceType = (input.default_service_type as ServiceType | undefined) ?? 'TWODAY';
  checkServiceType(errs, serviceType, template);
  errs.throwIfAny();

  const now = unixSeconds(ctx.clock.now());
  return {
    id: ctx.ids.uuid(),
    type: 'billing_template_client',
    created_on: now,
    updated_on: now,
    billing_template_id: template.id,
    client_id: input.client_id as string,
    send_receipt: (input.send_receipt as boolean | undefined) ?? true,
    send_invoice_on_charge_failure: (input.send_invoice_on_charge_failure as boolean | undefined) ?? true,
    send_invoice_on_add_subscriber: (input.send_invoice_on_add_subscriber as boolean | undefined) ?? false,
    subscription_deduction_date: deduction,
    mandate_expiry_date: input.mandate_expiry_date as string,
    subscription_first_deduction_date: firstDate,
    subscription_first_deduction_amount: firstAmount,
    status,
    payment_method_whitelist: (input.payment_method_whitelist as string[] | null | undefined) ?? null,
    default_service_type: serviceType,
    subscription_billing_scheduled_on: null,
    number_of_billing_cycles_passed: 0,
  };
}

const EDITABLE = [
  'send_receipt',
  'send_invoice_on_charge_failure',
  'send_invoice_on_add_subscriber',
  'mandate_expiry_date',
  'payment_method_whitelist',
  'default_service_type',
] as const;

/**
 * PATCH of a subscriber. Spec: status is "Editable between active and subscription_paused only.
 * Read-only while the record is inactive (internal status) or pending."
 */
export function patchSubscriber(stored: BillingTemplateClient, input: Input, template: BillingTemplate, ctx: Context): BillingTemplateClient {
  const errs = new ErrorCollector();
  rejectChanges(errs, input, stored, [...SERVER_FIELDS, ...COMPUTED], 'set by the server');
  rejectChanges(errs, input, stored, FIXED_AFTER_ADD, 'fixed when the subscriber was added');
  if ('status' in input && input.status !== stored.status) {
    const movable = (status: unknown) => status === 'active' || status === 'subscription_paused';
    if (!movable(stored.status) || !movable(input.status)) {
      errs.add(ALL, errors.invalidState(`Status can change only between active and subscription_paused; this subscriber is ${stored.status}.`));
    }
  }
  if ('mandate_expiry_date' in input) checkMandate(errs, input.mandate_expiry_date as string, stored.subscription_deduction_date);
  checkWhitelist(errs, 'payment_method_whitelist', input.payment_method_whitelist);
  if ('default_service_type' in input) checkServiceType(errs, input.default_service_type as ServiceType, template);
  errs.throwIfAny();

  const changed: Partial<BillingTemplateClient> = {};
  for (const field of EDITABLE) if (field in input) (changed as Input)[field] = input[field];
  if ('status' in input) changed.status = input.status as SubscriberStatus;
  return { ...stored, ...changed, updated_on: unixSeconds(ctx.clock.now()) };
}

/**
 * The subscriber cancelling through the link of a subscription e-mail (the platform: "Subscriber
 * cancels via the e-mail link → emits `billing_template_client.subscription_billing_cancelled`,
 * status → subscription_paused" [CS Event]): an active subscriber is paused, as a PATCH pauses it,
 * so its billing dates pass without purchases and are never shifted (DESIGN.md §4.5), and the
 * merchant may make it active again. Undefined for any other status: a paused one has cancelled
 * already, a pending one has not started.
 */
export function cancelledByLink(stored: BillingTemplateClient, ctx: Context): BillingTemplateClient | undefined {
  if (stored.status !== 'active') return undefined;
  return { ...stored, status: 'subscription_paused', updated_on: unixSeconds(ctx.clock.now()) };
}
