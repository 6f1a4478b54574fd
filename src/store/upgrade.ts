// Records written by billing-sim 0.1, in data files and in snapshots of format 1, brought to
// today's shape before they are checked and loaded, so that no saved sandbox is lost to an upgrade:
// a purchase gains transaction_data, refundable_amount, refund_availability and marked_as_paid, and
// its payment the platform's PaymentDetails fields; an overdue purchase with due_strict is expired;
// quantities and tax rates become decimal strings; a subscriber gains send_invoice_on_add_subscriber;
// a webhook gains all_events and the public key that signed it (the sandbox's), its title is cut to the
// platform's 100 characters, and it loses event names
// the platform does not have; one that listened to nothing else is removed with its deliveries, as it
// would never receive anything again. Records of format 2 written before a field was added gain it
// too (`addLaterFields`): a card's expiry becomes integers, a saved token's outcome becomes a sequence of one, an e-mail gains its
// subject (derived from its purchase as it is now), a delivery its place in the delivery log, a queued
// delivery the key of the queue that holds it. What is
// not a record of the expected kind is left as it is, for the schema to name: this runs on documents
// from outside before any check.

import { CLIENT_DEFAULTS } from '../domain/clients.ts';
import { DETAILS_DEFAULTS, toDecimalString } from '../domain/purchase-details.ts';
import { MERCHANT_DEFAULTS } from '../domain/purchases.ts';
import { emailSubject, type EmailKind } from '../domain/emails.ts';
import { isDeliveredToWebhooks } from '../domain/events.ts';
import type { Purchase } from '../domain/types.ts';

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The records of a collection stored as [key, record] entries. */
function* records(entries: unknown): Generator<Loose> {
  if (!Array.isArray(entries)) return;
  for (const entry of entries) if (Array.isArray(entry) && isObject(entry[1])) yield entry[1];
}

function decimal(product: Loose, field: string, places: number): void {
  if (typeof product[field] !== 'number') return;
  try {
    product[field] = toDecimalString(product[field], places);
  } catch {
    // More places than allowed: left as it was, for the schema to refuse with its path.
  }
}

function upgradeDetails(details: unknown): void {
  if (!isObject(details) || !Array.isArray(details.products)) return;
  for (const product of details.products) {
    if (!isObject(product)) continue;
    decimal(product, 'quantity', 4);
    decimal(product, 'tax_percent', 2);
  }
}

function upgradePurchase(purchase: Loose): void {
  upgradeDetails(purchase.purchase);
  const payment = purchase.payment;
  if (isObject(payment) && !('is_outgoing' in payment) && typeof payment.amount === 'number' && typeof payment.paid_on === 'number') {
    purchase.payment = {
      is_outgoing: false,
      payment_type: 'purchase',
      amount: payment.amount,
      currency: payment.currency,
      net_amount: payment.amount,
      fee_amount: 0,
      pending_amount: 0,
      pending_unfreeze_on: null,
      description: '',
      paid_on: payment.paid_on,
      remote_paid_on: payment.paid_on,
      payment_method: payment.payment_method ?? null,
    };
  }
  const method = isObject(purchase.payment) && typeof purchase.payment.payment_method === 'string' ? purchase.payment.payment_method : null;
  if (!('transaction_data' in purchase)) purchase.transaction_data = { payment_method: method, country: null, attempts: [] };
  if (!('refundable_amount' in purchase)) {
    const paid = purchase.status === 'paid' && isObject(purchase.payment) && typeof purchase.payment.amount === 'number' ? purchase.payment.amount : 0;
    purchase.refundable_amount = paid;
    purchase.refund_availability = paid > 0 ? 'all' : 'none';
  }
  if (!('marked_as_paid' in purchase)) purchase.marked_as_paid = false;
  // 0.1 left a due_strict purchase past its due `overdue` and refused its payment: that is `expired` now.
  if (purchase.status === 'overdue' && isObject(purchase.purchase) && purchase.purchase.due_strict === true) {
    purchase.status = 'expired';
    if (Array.isArray(purchase.status_history)) purchase.status_history = [...purchase.status_history, { status: 'expired', timestamp: purchase.updated_on }];
  }
}

/** Upgrades a webhook of 0.1; false when it listened only to simulator-only events. */
function upgradeWebhook(webhook: Loose, sandboxKey: unknown): boolean {
  if ('all_events' in webhook) return true;
  webhook.all_events = false;
  // 0.1 allowed titles of 256 characters; the platform allows 100.
  if (typeof webhook.title === 'string' && webhook.title.length > 100) webhook.title = webhook.title.slice(0, 100);
  if (!('public_key' in webhook) && isObject(sandboxKey) && typeof sandboxKey.publicKey === 'string') webhook.public_key = sandboxKey.publicKey;
  const events: unknown = webhook.events;
  if (!Array.isArray(events) || events.length === 0) return true;
  const kept = events.filter((name) => typeof name !== 'string' || isDeliveredToWebhooks(name));
  webhook.events = kept;
  return kept.length > 0;
}

/** Removes webhooks of 0.1 that listened only to simulator-only events, with their deliveries. */
function upgradeWebhooks(sandbox: Loose): void {
  if (!Array.isArray(sandbox.webhooks)) return;
  const gone = new Set<unknown>();
  sandbox.webhooks = sandbox.webhooks.filter((entry) => {
    if (!Array.isArray(entry) || !isObject(entry[1]) || upgradeWebhook(entry[1], sandbox.signingKey)) return true;
    gone.add(entry[0]);
    return false;
  });
  if (gone.size === 0 || !Array.isArray(sandbox.deliveries)) return;
  const dropped = new Set<unknown>();
  sandbox.deliveries = sandbox.deliveries.filter((entry) => {
    const keep = !(Array.isArray(entry) && isObject(entry[1]) && gone.has(entry[1].webhookId));
    if (!keep) dropped.add(entry[0]);
    return keep;
  });
  if (!Array.isArray(sandbox.deliveryQueues)) return;
  sandbox.deliveryQueues = sandbox.deliveryQueues
    .map((entry) => (Array.isArray(entry) && Array.isArray(entry[1]) ? [entry[0], entry[1].filter((id: unknown) => !dropped.has(id))] : entry))
    .filter((entry) => !(Array.isArray(entry) && Array.isArray(entry[1]) && entry[1].length === 0));
}

/** Upgrades, in place, the records of a sandbox as a data file or a snapshot holds them. */
export function upgradeSandbox(sandbox: unknown): void {
  if (!isObject(sandbox)) return;
  for (const template of records(sandbox.templates)) upgradeDetails(template.purchase);
  for (const purchase of records(sandbox.purchases)) upgradePurchase(purchase);
  for (const subscriber of records(sandbox.subscribers)) if (!('send_invoice_on_add_subscriber' in subscriber)) subscriber.send_invoice_on_add_subscriber = false;
  upgradeWebhooks(sandbox);
  addLaterFields(sandbox);
}

/**
 * Upgrades, in place, a sandbox as a data file holds it: as upgradeSandbox, and the checkout_url
 * that rows written before 0.2 kept with each purchase emptied, as the store keeps it, so that a
 * million stale paths do not stay in memory (answers derive the URL). Events' payloads are left
 * as they are: they are read lazily, they are at most --max-events, and answers derive theirs too.
 * Not for snapshot documents, whose purchases carry the absolute URL that the schema checks.
 */
export function upgradeDataFileSandbox(sandbox: unknown): void {
  upgradeSandbox(sandbox);
  if (!isObject(sandbox)) return;
  for (const purchase of records(sandbox.purchases)) if (typeof purchase.checkout_url === 'string') purchase.checkout_url = '';
}

/** The `token_outcome` of 0.2 and before, one value for every charge, is the sequence of that one value. */
function upgradeTokenOutcomes(sandbox: Loose): void {
  if (!Array.isArray(sandbox.tokenOutcomes)) return;
  for (const entry of sandbox.tokenOutcomes) if (Array.isArray(entry) && typeof entry[1] === 'string') entry[1] = [entry[1]];
}

/** An e-mail without a subject gets the one it would have had, from its purchase and template as they are now. */
function addSubjects(sandbox: Loose): void {
  if (!Array.isArray(sandbox.outbox) || !sandbox.outbox.some((email) => isObject(email) && !('subject' in email))) return;
  const byId = (entries: unknown) => new Map([...records(entries)].map((record) => [record.id, record]));
  const purchases = byId(sandbox.purchases);
  const templates = byId(sandbox.templates);
  for (const email of sandbox.outbox) {
    if (!isObject(email) || 'subject' in email) continue;
    const kind = email.kind === 'receipt' ? 'receipt' : 'invoice';
    const purchase = purchases.get(email.purchase_id);
    const title = purchase && templates.get(purchase.billing_template_id)?.title;
    try {
      email.subject = emailSubject(kind as EmailKind, purchase as unknown as Purchase, typeof title === 'string' ? title : undefined);
    } catch {
      // No such purchase, or not one the subject can be read from.
      email.subject = `${kind === 'invoice' ? 'Invoice' : 'Receipt'} for purchase ${String(email.purchase_id)}`;
    }
  }
}

/**
 * A delivery saved before the delivery log was pending (done ones were dropped then): it gains the
 * log's fields, with what can be known of it. The event's type is in its body; its time is the
 * object's `updated_on` there (the event's own time); its next attempt is its queued job, if any;
 * the attempts already made were not logged, and its event's id was not kept.
 */
function upgradeDeliveries(sandbox: Loose): void {
  if (!Array.isArray(sandbox.deliveries)) return;
  const callbacks = new Map([...records(sandbox.webhooks)].map((webhook) => [webhook.id, webhook.callback]));
  const due = new Map<unknown, number>();
  for (const job of Array.isArray(sandbox.jobs) ? sandbox.jobs : []) {
    if (isObject(job) && job.kind === 'webhook' && typeof job.at === 'number') due.set(job.id, Math.min(job.at, due.get(job.id) ?? Infinity));
  }
  for (const delivery of records(sandbox.deliveries)) {
    if ('status' in delivery) continue;
    let body: Loose = {};
    try {
      const parsed: unknown = typeof delivery.body === 'string' ? JSON.parse(delivery.body) : {};
      if (isObject(parsed)) body = parsed;
    } catch {
      // Not JSON: the schema takes any string as a body.
    }
    const callback = callbacks.get(delivery.webhookId);
    Object.assign(delivery, {
      eventId: null,
      eventType: typeof body.event_type === 'string' ? body.event_type : '',
      url: typeof callback === 'string' ? callback : '',
      status: 'pending',
      tries: [],
      nextAttemptAt: due.get(delivery.id) ?? null,
      createdOn: typeof body.updated_on === 'number' && Number.isInteger(body.updated_on) && body.updated_on >= 0 ? body.updated_on : 0,
    });
  }
}

/** Gives `record` each of `defaults`' fields it lacks (a shared default list is copied). */
function withDefaults(record: unknown, defaults: object): void {
  if (!isObject(record)) return;
  for (const [field, value] of Object.entries(defaults)) if (!(field in record)) record[field] = Array.isArray(value) ? [...value] : value;
}

/**
 * The platform's client, purchase and purchase-details fields of 0.3 (personal_code, shipping_*,
 * success_callback, reference, total_override, …), with their defaults, on records written before.
 */
function addPlatformFields(sandbox: Loose): void {
  for (const client of records(sandbox.clients)) withDefaults(client, CLIENT_DEFAULTS);
  for (const template of records(sandbox.templates)) withDefaults(template.purchase, DETAILS_DEFAULTS);
  for (const purchase of records(sandbox.purchases)) {
    withDefaults(purchase, MERCHANT_DEFAULTS);
    withDefaults(purchase.client, CLIENT_DEFAULTS);
    withDefaults(purchase.purchase, DETAILS_DEFAULTS);
  }
}

/**
 * A card kept by billing-sim 0.3 had its expiry as two-digit strings ("01", "29"); the platform sends
 * integers (`expiry_month: 10, expiry_year: 24`), and so does the store now. Cards are kept on the
 * attempts of purchases; a frozen card shared by several attempts is replaced by one integer copy.
 */
function integerExpiries(sandbox: Loose): void {
  const copies = new Map<Loose, Loose>();
  for (const purchase of records(sandbox.purchases)) {
    const data = purchase.transaction_data;
    if (!isObject(data) || !Array.isArray(data.attempts) || !data.attempts.some((tried) => isObject(tried) && isObject(tried.extra) && typeof tried.extra.expiry_month === 'string')) continue;
    const attempts = data.attempts.map((tried: unknown) => {
      if (!isObject(tried) || !isObject(tried.extra) || typeof tried.extra.expiry_month !== 'string') return tried;
      const card = tried.extra;
      let copy = copies.get(card);
      if (!copy) copies.set(card, (copy = { ...card, expiry_month: toInteger(card.expiry_month), expiry_year: toInteger(card.expiry_year) }));
      return { ...tried, extra: copy };
    });
    purchase.transaction_data = { ...data, attempts };
  }
}

/** "07" → 7; anything that is not two digits is left for the schema to name. */
const toInteger = (value: unknown): unknown => (typeof value === 'string' && /^\d{1,2}$/.test(value) ? Number(value) : value);

/** Fields added within format 2, given to records written before them; idempotent. */
export function addLaterFields(sandbox: unknown): void {
  if (!isObject(sandbox)) return;
  addPlatformFields(sandbox);
  integerExpiries(sandbox);
  upgradeTokenOutcomes(sandbox);
  addSubjects(sandbox);
  upgradeDeliveries(sandbox);
  queuedDeliveries(sandbox);
}

/**
 * A queued delivery saved before queues were per webhook and purchase (engine/webhooks.ts queueKey)
 * waits in its object's queue: it gains that queue's key as its `queue`, so that it finds the queue
 * that holds it when it is done, and the queue's next delivery goes.
 */
function queuedDeliveries(sandbox: Loose): void {
  if (!Array.isArray(sandbox.deliveryQueues) || !Array.isArray(sandbox.deliveries)) return;
  const holder = new Map<unknown, unknown>();
  for (const entry of sandbox.deliveryQueues) {
    if (Array.isArray(entry) && typeof entry[0] === 'string' && Array.isArray(entry[1])) for (const id of entry[1]) holder.set(id, entry[0]);
  }
  if (holder.size === 0) return;
  for (const delivery of records(sandbox.deliveries)) {
    if (!('queue' in delivery) && holder.has(delivery.id)) delivery.queue = holder.get(delivery.id);
  }
}

/** Upgrades, in place, a snapshot document of format 1 to format 2, and one of format 2 to its latest fields. */
export function upgradeSnapshotDocument(document: unknown): void {
  if (!isObject(document)) return;
  if (document.billing_sim_snapshot === 2) return addLaterFields(document.sandbox);
  if (document.billing_sim_snapshot !== 1) return;
  upgradeSandbox(document.sandbox);
  document.billing_sim_snapshot = 2;
}
