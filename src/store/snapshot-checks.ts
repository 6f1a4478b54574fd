// What the schema of a snapshot cannot say, checked before a sandbox is made of it. Each rule is
// one the engine relies on without looking again, so a snapshot that broke it would fail later, in
// a billing or a delivery, as a 500: a subscriber whose client is missing makes its next billing
// throw, a signing key that is not one the next webhook delivery (the sandbox's, or a webhook's own
// in `webhookKeys`, which a snapshot of an earlier version lacks), a done delivery left in an object's
// queue holds that object's later deliveries for good, a job numbered like another overwrites it
// in the data file, and a chaos delay that is no duration fails the next delivery. The first
// problem found is reported, with its path in the document.

import { createPrivateKey, createPublicKey } from 'node:crypto';
import { addPeriods, startOfDay } from '../domain/calendar.ts';
import { EARLIEST_CLOCK_MS, LATEST_CLOCK_MS, LATEST_DATE_MS } from '../domain/clock-bounds.ts';
import { errors, type ApiError, type ErrorDetail } from '../domain/errors.ts';
import { chaosDelayMs, type DurationLimit } from '../domain/webhook-chaos.ts';
import { PROCESSING_LIMIT } from '../domain/processing.ts';
import { isTimeZone } from '../domain/purchase-details.ts';
import type { BillingTemplate, BillingTemplateClient, Purchase, RecurringToken, Webhook } from '../domain/types.ts';
import type { SnapshotDocument, SnapshotProblem, SnapshotSandbox } from './snapshot.ts';
import { MAPS, type Delivery, type SigningKey, type SubscriberSchedule } from './store.ts';

/** Collections of API objects: each key is the record's own id. */
const RESOURCES: readonly string[] = ['clients', 'templates', 'subscribers', 'purchases', 'tokens', 'webhooks', 'deliveries', 'statements'];


type Entries<T> = [string, T][];

const problem = (path: string, detail: ErrorDetail): SnapshotProblem => ({ path: `sandbox.${path}`, detail });

export function findInconsistency(document: SnapshotDocument): SnapshotProblem | null {
  for (const found of problems(document.sandbox)) return found;
  return null;
}

function* problems(sandbox: SnapshotSandbox): Generator<SnapshotProblem> {
  // ajv's date-time format takes a leap second (23:59:60), which Date cannot represent.
  const now = Date.parse(sandbox.clock.now);
  if (Number.isNaN(now)) yield problem('clock.now', errors.invalid('Enter an instant a JavaScript Date can hold.'));
  else if (now < EARLIEST_CLOCK_MS || now > LATEST_CLOCK_MS) yield problem('clock.now', errors.invalid('Enter an instant from 1970-01-01 to 9999-12-31.'));
  if (sandbox.webhookChaos?.delay) yield* duration(sandbox.webhookChaos.delay, now, 'webhookChaos.delay');
  if (sandbox.processing) yield* duration(sandbox.processing.delay, now, 'processing.delay', PROCESSING_LIMIT);
  if (sandbox.processing?.settlement) yield* duration(sandbox.processing.settlement, now, 'processing.settlement', PROCESSING_LIMIT);
  if (sandbox.signingKey) yield* keyPair(sandbox.signingKey, 'signingKey');
  for (const [index, [, pair]] of ((sandbox.webhookKeys ?? []) as Entries<SigningKey>).entries()) yield* keyPair(pair, `webhookKeys.${index}.1`);
  for (const field of MAPS) yield* keys(sandbox[field] ?? [], field);
  yield* timeZones(sandbox.templates as Entries<BillingTemplate>, 'templates');
  yield* timeZones(sandbox.purchases as Entries<Purchase>, 'purchases');
  yield* references(sandbox);
  yield* webhookKeys(sandbox);
  // After the time zones: a schedule's dates are days in its template's zone.
  yield* schedules(sandbox);
  yield* jobNumbers(sandbox);
}

/** What the engine looks up by id and uses without a check: a subscriber's client and template, and the rest. */
function* references(sandbox: SnapshotSandbox): Generator<SnapshotProblem> {
  const keysOf = (entries: [string, unknown][]) => new Set(entries.map(([key]) => key));
  const clients = keysOf(sandbox.clients);
  const templates = keysOf(sandbox.templates);
  const tokens = keysOf(sandbox.tokens);
  const deliveries = keysOf(sandbox.deliveries);
  for (const [index, [, subscriber]] of (sandbox.subscribers as Entries<BillingTemplateClient>).entries()) {
    if (!clients.has(subscriber.client_id)) yield problem(`subscribers.${index}.1.client_id`, errors.doesNotExist('Client', subscriber.client_id));
    if (!templates.has(subscriber.billing_template_id)) {
      yield problem(`subscribers.${index}.1.billing_template_id`, errors.doesNotExist('BillingTemplate', subscriber.billing_template_id));
    }
  }
  for (const [index, [, token]] of (sandbox.tokens as Entries<RecurringToken>).entries()) {
    if (!clients.has(token.client_id)) yield problem(`tokens.${index}.1.client_id`, errors.doesNotExist('Client', token.client_id));
  }
  for (const [index, [key]] of sandbox.tokenOutcomes.entries()) {
    if (!tokens.has(key)) yield problem(`tokenOutcomes.${index}.0`, errors.doesNotExist('RecurringToken', key));
  }
  const done = new Set((sandbox.deliveries as Entries<Delivery>).filter(([, delivery]) => delivery.status !== 'pending').map(([key]) => key));
  for (const [index, [, queued]] of (sandbox.deliveryQueues as Entries<string[]>).entries()) {
    const missing = queued.findIndex((id) => !deliveries.has(id));
    if (missing >= 0) yield problem(`deliveryQueues.${index}.1.${missing}`, errors.doesNotExist('Delivery', queued[missing]));
    // A done delivery at the head of a queue would hold the object's later deliveries for good.
    const finished = queued.findIndex((id) => done.has(id));
    if (finished >= 0) yield problem(`deliveryQueues.${index}.1.${finished}`, errors.invalid(`Delivery ${queued[finished]} is done; a queue holds pending deliveries only.`));
  }
}

/**
 * A key belongs to a webhook, and each webhook shows the public half of the key that signs it: its
 * own, or for a webhook of an earlier version (no entry) the sandbox's, which must then exist.
 */
function* webhookKeys(sandbox: SnapshotSandbox): Generator<SnapshotProblem> {
  const entries = (sandbox.webhookKeys ?? []) as Entries<SigningKey>;
  const webhooks = sandbox.webhooks as Entries<Webhook>;
  const ids = new Set(webhooks.map(([key]) => key));
  for (const [index, [key]] of entries.entries()) {
    if (!ids.has(key)) yield problem(`webhookKeys.${index}.0`, errors.doesNotExist('Webhook', key));
  }
  const own = new Map(entries);
  for (const [index, [key, webhook]] of webhooks.entries()) {
    const signing = own.get(key) ?? sandbox.signingKey;
    if (signing?.publicKey !== webhook.public_key) {
      yield problem(`webhooks.${index}.1.public_key`, errors.invalid('Enter the public half of the key that signs its deliveries: its webhookKeys entry, or else signingKey.'));
    }
  }
}

/** A schedule belongs to a subscriber, and its next billing date is a day the engine can schedule. */
function* schedules(sandbox: SnapshotSandbox): Generator<SnapshotProblem> {
  const templates = new Map(sandbox.templates as Entries<BillingTemplate>);
  const subscribers = new Map(sandbox.subscribers as Entries<BillingTemplateClient>);
  for (const [index, [key, plan]] of (sandbox.schedules as Entries<SubscriberSchedule>).entries()) {
    const subscriber = subscribers.get(key);
    const template = subscriber && templates.get(subscriber.billing_template_id);
    if (!subscriber) yield problem(`schedules.${index}.0`, errors.doesNotExist('BillingTemplateClient', key));
    else if (template && !schedulable(template, plan)) {
      yield problem(`schedules.${index}.1.next`, errors.invalid('The next billing date falls outside the calendar a date can hold.'));
    }
  }
}

/** Keys appear once; an API object's key is its id (a lookup by id must find the record that has it). */
function* keys(entries: [string, unknown][], field: string): Generator<SnapshotProblem> {
  const seen = new Set<string>();
  for (const [index, [key, record]] of entries.entries()) {
    if (seen.has(key)) yield problem(`${field}.${index}.0`, errors.invalid(`The key "${key}" appears twice.`));
    seen.add(key);
    const id = (record as { id?: string }).id;
    if (RESOURCES.includes(field) && id !== key) yield problem(`${field}.${index}.0`, errors.invalid(`The key must be the record's id, "${id}".`));
  }
}

function* timeZones(entries: Entries<{ purchase: { timezone: string } }>, field: string): Generator<SnapshotProblem> {
  const known = new Map<string, boolean>();
  for (const [index, [, record]] of entries.entries()) {
    const zone = record.purchase.timezone;
    if (!known.has(zone)) known.set(zone, isTimeZone(zone));
    if (!known.get(zone)) yield problem(`${field}.${index}.1.purchase.timezone`, errors.invalid(`"${zone}" is not a known IANA time zone.`));
  }
}

/** Whether the schedule's next billing date (or its first charged one, which the API shows) has an instant. */
function schedulable(template: BillingTemplate, plan: SubscriberSchedule): boolean {
  try {
    const k = Math.max(plan.next, plan.firstCharged);
    const at = startOfDay(addPeriods(plan.launch!, template.subscription_period, template.subscription_period_units, k), template.purchase.timezone);
    return Math.abs(at) <= LATEST_DATE_MS;
  } catch {
    return false;
  }
}

/** Job numbers order jobs due at the same instant and key them in the data file: unique, and none yet to be drawn. */
function* jobNumbers(sandbox: SnapshotSandbox): Generator<SnapshotProblem> {
  const seen = new Set<number>();
  for (const [index, job] of sandbox.jobs.entries()) {
    if (seen.has(job.seq)) yield problem(`jobs.${index}.seq`, errors.invalid(`Another job has seq ${job.seq}.`));
    if (job.seq > sandbox.jobSeq) yield problem(`jobs.${index}.seq`, errors.maxValue(`jobSeq (${sandbox.jobSeq})`));
    seen.add(job.seq);
  }
}

/** A duration the engine cannot add (a chaos delay, a processing delay or settlement) would fail the sandbox's next delivery or step. */
function* duration(value: string, now: number, path: string, limit?: DurationLimit): Generator<SnapshotProblem> {
  try {
    chaosDelayMs(value, Number.isNaN(now) ? 0 : now, 'delay', limit);
  } catch (error) {
    const [detail] = Object.values((error as ApiError).fields)[0] ?? [];
    yield problem(path, detail ?? errors.invalid());
  }
}

/** The pair must sign (an RSA private key) and verify (its own public half), or deliveries fail or cannot be checked. */
function* keyPair(key: SigningKey, path: string): Generator<SnapshotProblem> {
  let derived: Buffer;
  try {
    const privateKey = createPrivateKey(key.privateKey);
    if (privateKey.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
    derived = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  } catch {
    return yield problem(`${path}.privateKey`, errors.invalid('Enter an RSA private key, PKCS#8 PEM.'));
  }
  let given: Buffer | undefined;
  try {
    given = createPublicKey(key.publicKey).export({ type: 'spki', format: 'der' });
  } catch {
    given = undefined;
  }
  if (!given?.equals(derived)) yield problem(`${path}.publicKey`, errors.invalid('Enter the public half of privateKey, SubjectPublicKeyInfo PEM.'));
}
