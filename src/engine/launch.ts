// Launching a subscriber and keeping its schedule: billing dates L + k·period (DESIGN.md §4.1–3),
// one queued job for the next date only, `subscription_billing_scheduled_on` and
// `number_of_billing_cycles_passed` kept right as the dates pass.

import { addPeriods, compareDates, dayOf, startOfDay } from '../domain/calendar.ts';
import { unixSeconds, type Context } from '../domain/context.ts';
import type { BillingTemplate, BillingTemplateClient, Purchase } from '../domain/types.ts';
import type { Sandbox, SubscriberSchedule } from '../store/store.ts';
import { requeue, schedule, type Job } from './queue.ts';
import { recordEvent } from './records.ts';

/**
 * The spec's trial example, literally: with t > 0 trial periods the first charge is t + 1
 * periods after launch (charged at period start) or t + 2 (at period end); without trials, at
 * launch or one period after it.
 */
export function firstChargedIndex(template: BillingTemplate): number {
  const trials = template.subscription_trial_periods;
  const end = template.subscription_charge_period_end ? 1 : 0;
  return trials > 0 ? trials + 1 + end : end;
}

export function billingDate(template: BillingTemplate, launch: string, k: number): string {
  return addPeriods(launch, template.subscription_period, template.subscription_period_units, k);
}

/**
 * The next date that will create a purchase, or null once it falls after the mandate's expiry.
 * `nextDate` is that of index `plan.next`, which it is once the trial dates have passed.
 */
function nextScheduledOn(template: BillingTemplate, subscriber: BillingTemplateClient, plan: SubscriberSchedule, nextDate: string): string | null {
  const date = plan.next >= plan.firstCharged ? nextDate : billingDate(template, plan.launch!, plan.firstCharged);
  return compareDates(date, subscriber.mandate_expiry_date) > 0 ? null : date;
}

/** What a launch or a billing changes on the subscriber besides its schedule fields. */
export interface SubscriberChanges {
  status?: BillingTemplateClient['status'];
  /** number_of_billing_cycles_passed. */
  passed?: number;
}

/**
 * Queues the billing of date `plan.next` (trial dates included: they count as cycles passed) and
 * returns the subscriber with its schedule fields brought up to date. DESIGN.md §4.7: no billing
 * after the mandate's expiry, so nothing is queued past it. `job` is the billing job just run,
 * which moves to the next date rather than a new one being made.
 *
 * The record is changed in place unless it is frozen: a record that something outside the
 * sandbox's Map keeps (an event's payload, records.ts) is frozen there, and is replaced instead.
 * A reply holds a record only until it is written, right after its turn and before the sandbox's
 * next turn can run (dispatch.ts), so it sees the record as its turn left it.
 * A billing thus writes three fields where it used to copy all 26 into a new record, which lived a
 * month and died in the old generation. `subscriber` must be the record the sandbox holds.
 */
export function scheduleNext(
  sandbox: Sandbox,
  template: BillingTemplate,
  subscriber: BillingTemplateClient,
  plan: SubscriberSchedule,
  ctx: Context,
  changes: SubscriberChanges = {},
  job?: Job,
): BillingTemplateClient {
  const date = billingDate(template, plan.launch!, plan.next);
  if (compareDates(date, subscriber.mandate_expiry_date) <= 0) {
    const at = startOfDay(date, template.purchase.timezone);
    if (job) requeue(sandbox, job, at, plan.next);
    else schedule(sandbox, { at, kind: 'billing', id: subscriber.id, k: plan.next });
  }
  const updated = Object.isFrozen(subscriber) ? { ...subscriber } : subscriber;
  if (changes.status !== undefined) updated.status = changes.status;
  if (changes.passed !== undefined) updated.number_of_billing_cycles_passed = changes.passed;
  updated.subscription_billing_scheduled_on = nextScheduledOn(template, updated, plan, date);
  updated.updated_on = unixSeconds(ctx.clock.now());
  if (updated === subscriber) sandbox.changes.changedInPlace('subscribers', updated.id);
  else sandbox.subscribers.set(updated.id, updated);
  return updated;
}

/**
 * Launches a subscriber on date L: its cycle is anchored there. `next` is the first index still to
 * bill (1 when the purchase that launched it was the k = 0 billing), `passed` the cycles behind it.
 */
export function launch(
  sandbox: Sandbox,
  template: BillingTemplate,
  subscriber: BillingTemplateClient,
  start: { launch: string; next: number; passed: number },
  ctx: Context,
): BillingTemplateClient {
  const plan: SubscriberSchedule = { launch: start.launch, next: start.next, firstCharged: firstChargedIndex(template) };
  sandbox.schedules.set(subscriber.id, plan);
  if (!template.subscription_has_active_clients) {
    // Spec, rule 3: "Once any client is activated … these four fields are read-only."
    const launched = { ...template, subscription_has_active_clients: true, updated_on: unixSeconds(ctx.clock.now()) };
    sandbox.templates.set(template.id, launched);
  }
  const activated = subscriber.status !== 'active';
  const active = scheduleNext(sandbox, template, subscriber, plan, ctx, { status: 'active', passed: start.passed });
  if (activated) recordEvent(sandbox, 'billing_template_client.activated', active, ctx);
  return active;
}

/** Spec, state table: pending → active when "the created Purchase is paid"; "Subscription starts from the day of payment." */
export function launchOnFirstPayment(sandbox: Sandbox, purchase: Purchase, ctx: Context): void {
  const subscriberId = sandbox.firstPurchases.get(purchase.id);
  if (subscriberId === undefined) return;
  sandbox.firstPurchases.delete(purchase.id);
  const subscriber = sandbox.subscribers.get(subscriberId);
  const template = subscriber && sandbox.templates.get(subscriber.billing_template_id);
  if (!subscriber || !template || subscriber.status !== 'pending') return;
  launch(sandbox, template, subscriber, { launch: dayOf(ctx.clock.now(), template.purchase.timezone), next: 1, passed: 1 }, ctx);
}
