// The billing engine: adding subscribers (the spec's state table), running the jobs of the queue
// (billings, first deductions, bank executions, overdue marking), one-time send_invoice and POST /billing/.

import { addPeriods, compareDates, dayOf, startOfDay } from '../domain/calendar.ts';
import { unixSeconds, type Context } from '../domain/context.ts';
import { ALL, ErrorCollector, errors, fieldError } from '../domain/errors.ts';
import { buildPurchase, checkWhitelist, PAYABLE, withStatus } from '../domain/purchases.ts';
import { newSubscriber } from '../domain/subscribers.ts';
import type { InvoiceTerms } from '../domain/billing-templates.ts';
import type { BillingTemplate, BillingTemplateClient, Client, Input, Purchase, PurchaseDetails } from '../domain/types.ts';
import type { Sandbox } from '../store/store.ts';
import { billingDate, launch, scheduleNext } from './launch.ts';
import { chargeAutomatically, execute, type Processed } from './payments.ts';
import { runStep, settle } from './step-jobs.ts';
import { schedule, type Job } from './queue.ts';
import { awaitPayment, recordEvent, savePurchase, sendEmail } from './records.ts';
import { newestUsableToken } from './tokens.ts';

/**
 * DESIGN.md §4.4: due = start of (issued + due period) in the template's time zone. In whole
 * seconds through unixSeconds, as every other timestamp: a plain division left a heap number in
 * each purchase (16 bytes; 19 MB over ten years of 10,000 subscribers) where the others are small
 * integers held in the field itself.
 */
function dueOf(template: BillingTemplate, issued: string): number {
  const dueDate = addPeriods(issued, template.subscription_due_period, template.subscription_due_period_units, 1);
  return unixSeconds(startOfDay(dueDate, template.purchase.timezone));
}

/** A new purchase for a subscriber, not yet stored: the template's details copied 1:1 (or `details` for a first deduction). */
function subscriberPurchase(
  sandbox: Sandbox,
  template: BillingTemplate,
  subscriber: BillingTemplateClient,
  issued: string,
  ctx: Context,
  details: PurchaseDetails = template.purchase,
): Purchase {
  return buildPurchase(
    {
      brandId: template.brand_id,
      client: sandbox.clients.get(subscriber.client_id)!,
      details,
      billingTemplateId: template.id,
      issued,
      due: dueOf(template, issued),
      skipCapture: template.skip_capture,
      sendReceipt: subscriber.send_receipt,
      forceRecurring: template.force_recurring,
      whitelist: subscriber.payment_method_whitelist,
      serviceType: template.force_recurring ? subscriber.default_service_type : null,
    },
    ctx,
  );
}

/** POST /billing_templates/{id}/add_subscriber/: both rows of the spec's state table. */
export function addSubscriber(sandbox: Sandbox, template: BillingTemplate, input: Input, ctx: Context) {
  const today = dayOf(ctx.clock.now(), template.purchase.timezone);
  const subscriber = newSubscriber(input, { template, clientExists: sandbox.clients.has(input.client_id as string), today }, ctx);
  sandbox.subscribers.set(subscriber.id, subscriber);
  if (subscriber.subscription_first_deduction_date !== null) {
    const at = startOfDay(subscriber.subscription_first_deduction_date, template.purchase.timezone);
    schedule(sandbox, { at, kind: 'first_deduction', id: subscriber.id });
  }
  if (subscriber.status === 'active') {
    // Charged at period end and/or with trials: "Trial or billing is scheduled per template settings."
    const active = launch(sandbox, template, subscriber, { launch: subscriber.subscription_deduction_date, next: 0, passed: 0 }, ctx);
    return { billing_template_client: active, purchase: null };
  }
  // "A Purchase is created and returned. The caller redirects the client to purchase.checkout_url to pay."
  let purchase = savePurchase(sandbox, subscriberPurchase(sandbox, template, subscriber, today, ctx), 'purchase.created', ctx);
  if (subscriber.send_invoice_on_add_subscriber) {
    // The platform's send_invoice_on_add_subscriber: the first purchase is e-mailed to the client.
    purchase = savePurchase(sandbox, withStatus(purchase, 'sent', ctx), 'purchase.sent', ctx);
    sendEmail(sandbox, 'invoice', purchase, ctx);
  }
  awaitPayment(sandbox, purchase);
  sandbox.firstPurchases.set(purchase.id, subscriber.id);
  return { billing_template_client: subscriber, purchase };
}

/** Spec: while paused, "no Purchases are created and no invoices sent"; the template flag acts on every subscriber. */
const billable = (template: BillingTemplate, subscriber: BillingTemplateClient): boolean =>
  subscriber.status === 'active' && !template.subscription_paused;

/**
 * A billing's new purchase, charged at once. The charge stores the purchase's next version within
 * this job, so the created version is recorded as its event and not stored first: one insert
 * instead of two into the Map of every purchase of the sandbox (1.2 million after ten years of
 * 10,000 monthly subscribers, where each insert costs the better part of a microsecond).
 */
function charge(sandbox: Sandbox, purchase: Purchase, subscriber: BillingTemplateClient, ctx: Context, processed: Processed): void {
  recordEvent(sandbox, 'purchase.created', purchase, ctx);
  const token = newestUsableToken(sandbox, purchase.client_id, purchase.service_type);
  const charged = chargeAutomatically(sandbox, purchase, subscriber, token, ctx, processed);
  if (PAYABLE.has(charged.status)) awaitPayment(sandbox, charged);
}

function runBilling(sandbox: Sandbox, job: Job, ctx: Context, processed: Processed): void {
  const subscriber = sandbox.subscribers.get(job.id);
  const plan = sandbox.schedules.get(job.id);
  const template = subscriber && sandbox.templates.get(subscriber.billing_template_id);
  if (!subscriber || !plan || !template || plan.next !== job.k) return;
  const date = billingDate(template, plan.launch!, job.k);
  // The mandate may have been shortened since this job was queued: "no billing happens after it".
  if (compareDates(date, subscriber.mandate_expiry_date) > 0) return;
  processed.billings += 1;
  if (job.k >= plan.firstCharged && billable(template, subscriber)) {
    const purchase = subscriberPurchase(sandbox, template, subscriber, date, ctx);
    charge(sandbox, purchase, subscriber, ctx, processed);
  }
  // A plan never leaves the sandbox, so it is changed in place.
  plan.next += 1;
  sandbox.changes.changedInPlace('schedules', job.id);
  scheduleNext(sandbox, template, subscriber, plan, ctx, { passed: subscriber.number_of_billing_cycles_passed + 1 }, job);
}

/** DESIGN.md §4.6: one purchase on f for exactly the first-deduction amount, no tax or discount. */
function runFirstDeduction(sandbox: Sandbox, job: Job, ctx: Context, processed: Processed): void {
  const subscriber = sandbox.subscribers.get(job.id);
  const template = subscriber && sandbox.templates.get(subscriber.billing_template_id);
  if (!subscriber || !template || !billable(template, subscriber)) return;
  const amount = subscriber.subscription_first_deduction_amount!;
  const details: PurchaseDetails = {
    ...template.purchase,
    products: [{ name: `${template.title || 'Subscription'}: first deduction`, price: amount, quantity: '1.0000', discount: 0, tax_percent: '0.00', category: '' }],
    total: amount,
  };
  processed.first_deductions += 1;
  const purchase = subscriberPurchase(sandbox, template, subscriber, subscriber.subscription_first_deduction_date!, ctx, details);
  charge(sandbox, purchase, subscriber, ctx, processed);
}

/**
 * A purchase still unpaid when its due passes: `overdue`, still payable, or with due_strict
 * `expired`, which nothing can pay any more (DESIGN.md §9). Both events are the simulator's own.
 */
function runOverdue(sandbox: Sandbox, job: Job, ctx: Context, processed: Processed): void {
  const purchase = sandbox.purchases.get(job.id);
  if (!purchase || !PAYABLE.has(purchase.status) || purchase.status === 'overdue') return;
  const status = purchase.purchase.due_strict ? 'expired' : 'overdue';
  processed[status] += 1;
  savePurchase(sandbox, withStatus(purchase, status, ctx), `purchase.${status}`, ctx);
}

/** Runs one job of the queue; the context's clock shows the job's own instant. */
export function runJob(sandbox: Sandbox, job: Job, ctx: Context, processed: Processed): void {
  switch (job.kind) {
    case 'billing':
      return runBilling(sandbox, job, ctx, processed);
    case 'first_deduction':
      return runFirstDeduction(sandbox, job, ctx, processed);
    case 'execution':
      if (execute(sandbox, job.id, job.method!, ctx)) processed.executions += 1;
      return;
    case 'overdue':
      return runOverdue(sandbox, job, ctx, processed);
    case 'step':
      if (runStep(sandbox, job, ctx)) processed.steps = (processed.steps ?? 0) + 1;
      return;
    case 'settlement':
      if (settle(sandbox, job.id, ctx)) processed.settlements = (processed.settlements ?? 0) + 1;
      return;
    case 'webhook':
      // Deliveries are awaited by the time loop (engine/time.ts), never run synchronously here.
      return;
  }
}

/** POST /billing_templates/{id}/send_invoice/: one sent Purchase per call; no subscriber is stored. */
export function sendInvoice(sandbox: Sandbox, template: BillingTemplate, input: Input, ctx: Context): Purchase {
  if (template.is_subscription) {
    throw fieldError(ALL, errors.invalidState('send_invoice is for templates with is_subscription false; add subscribers instead.'));
  }
  return sendInvoices(sandbox, template, template.id, [input], '', ctx)[0]!;
}

/**
 * POST /billing/: one sent Purchase per client of `clients`, made from `terms` as send_invoice makes
 * it from a one-time template; no template is stored, so the purchases have no billing_template_id.
 */
export function sendOneTimeInvoices(sandbox: Sandbox, terms: InvoiceTerms, clients: Input[], ctx: Context): Purchase[] {
  return sendInvoices(sandbox, terms, null, clients, 'clients.', ctx);
}

/**
 * Every client is checked before the first purchase is made, so a rejected request changes nothing.
 * Each input is one BillingTemplateClient of the request; `at` is where the inputs are in its body
 * (`clients.` makes an error's field `clients.1.client_id`; send_invoice's one input is the body itself).
 */
function sendInvoices(sandbox: Sandbox, terms: InvoiceTerms, billingTemplateId: string | null, inputs: Input[], at: string, ctx: Context): Purchase[] {
  const errs = new ErrorCollector();
  const clients = inputs.map((input, index) => {
    const prefix = at && `${at}${index}.`;
    const client = sandbox.clients.get(input.client_id as string);
    if (!client) errs.add(`${prefix}client_id`, errors.doesNotExist('Client', input.client_id));
    checkWhitelist(errs, `${prefix}payment_method_whitelist`, input.payment_method_whitelist);
    return client!;
  });
  errs.throwIfAny();
  return inputs.map((input, index) => issueInvoice(sandbox, terms, billingTemplateId, clients[index]!, input, ctx));
}

function issueInvoice(sandbox: Sandbox, terms: InvoiceTerms, billingTemplateId: string | null, client: Client, input: Input, ctx: Context): Purchase {
  const purchase = savePurchase(
    sandbox,
    buildPurchase(
      {
        brandId: terms.brand_id,
        client,
        details: terms.purchase,
        billingTemplateId,
        // Spec: issued "When omitted, generated from the current day in purchase.timezone."
        issued: terms.issued ?? dayOf(ctx.clock.now(), terms.purchase.timezone),
        due: terms.due,
        skipCapture: terms.skip_capture,
        sendReceipt: terms.send_receipt,
        forceRecurring: terms.force_recurring,
        whitelist: (input.payment_method_whitelist as string[] | null | undefined) ?? null,
      },
      ctx,
    ),
    'purchase.created',
    ctx,
  );
  const sent = savePurchase(sandbox, withStatus(purchase, 'sent', ctx), 'purchase.sent', ctx);
  sendEmail(sandbox, 'invoice', sent, ctx);
  return awaitPayment(sandbox, sent);
}
