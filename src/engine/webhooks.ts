// Webhook delivery (DESIGN.md §4.14, §6, §9). Each event of the platform's (domain/events.ts) that a
// webhook subscribes to becomes a delivery: the object's JSON plus `event_type`, signed with that
// webhook's own RSA key (PKCS#1 v1.5 over SHA-256, base64 in X-Signature), POSTed to the callback.
// A webhook registered by an earlier version, which made no key per webhook, is signed with the
// sandbox's key, the one its receiver fetched from GET /public_key/. A webhook's deliveries of one
// purchase, and of the Payments related to it (a refund's), go one at a time, in the order their
// events happened (queueKey); a failed one is retried with backoff on the sandbox clock, and the
// purchase's later events wait behind it for that webhook only: another webhook, another purchase
// and another sandbox are never held by a receiver that fails or never answers. A purchase's success_callback (success-callbacks.ts) is a delivery
// too, with the same attempts, retries and log, but signed with the sandbox's key and queued behind
// nothing: a webhook receiver that fails must not hold the merchant's confirmation of payment.
// Attempts are jobs of the sandbox's queue, so they start in time order
// with the rest; the POST itself goes out after the sandbox's turn (engine/background.ts), so a
// receiver that never answers holds no request and no advance. An attempt therefore schedules its
// retry when it starts, as if it will fail, and logs itself with no answer yet; the answer (status
// or error, and how long it took) is logged in a later turn. A 2xx ends the delivery, and the retry
// job then finds nothing to do. A crash while a POST is out loses nothing but that answer. A done
// delivery stays, delivered or failed, in the sandbox's delivery log (delivery-log.ts).

import { generateKeyPair, generateKeyPairSync, sign, type RSAKeyPairOptions } from 'node:crypto';
import { promisify } from 'node:util';
import { unixSeconds, type Context } from '../domain/context.ts';
import { ALL, errors, fieldError, notFound } from '../domain/errors.ts';
import { isDeliveredToWebhooks, orderedWith } from '../domain/events.ts';
import type { Purchase, SimEvent } from '../domain/types.ts';
import { subscribes } from '../domain/webhooks.ts';
import type { Delivery, DeliveryTry, Sandbox, SigningKey } from '../store/store.ts';
import { drawDisturbance, duplicateMarks, queuePlace, REORDER_HOLD_MS } from './delivery-chaos.ts';
import { markDone } from './delivery-log.ts';
import { ATTEMPT_TIMEOUT_MS, type Answer, type Outgoing } from './delivery-post.ts';
import { schedule } from './queue.ts';
import { objectView } from '../present/payments.ts';

/** Waits after the 1st, 2nd, … failed attempt; the last attempt has ATTEMPT_TIMEOUT_MS to answer. */
export const RETRY_BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000, 24 * 3_600_000];

/** One POST to make, outside the sandbox's turn. */
export interface Attempt extends Outgoing {
  sandboxId: string;
  deliveryId: string;
  /** Its place in the delivery's `tries`, where its answer is logged. */
  index: number;
}

const RSA_KEY: RSAKeyPairOptions<'pem', 'pem'> = {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
};

/**
 * A new RSA key pair, made on libuv's thread pool: 2048-bit generation takes 50–500 ms, during
 * which the event loop keeps answering other sandboxes (this one's turn waits for it).
 */
export const newKeyPair = (): Promise<SigningKey> => promisify(generateKeyPair)('rsa', RSA_KEY);

/** The sandbox's own key (GET /public_key/), made on first use. */
export async function sandboxKey(sandbox: Sandbox): Promise<SigningKey> {
  sandbox.signingKey ??= await newKeyPair();
  return sandbox.signingKey;
}

/**
 * The sandbox's key where no await is possible: a success_callback's attempt starts within a turn.
 * POST /purchases/ makes the key when a purchase names a success_callback, so this makes one (and
 * holds the event loop for it) only for a purchase that came without: from a snapshot or data file
 * of a sandbox that never had a key.
 */
export function sandboxKeyNow(sandbox: Sandbox): SigningKey {
  sandbox.signingKey ??= generateKeyPairSync('rsa', RSA_KEY);
  return sandbox.signingKey;
}

/**
 * The key that signs a webhook's deliveries: its own, or for a webhook of an earlier version, which
 * has none, the sandbox's, whose public half it shows. A snapshot or data file where neither exists
 * is refused before it is loaded (store/snapshot-checks.ts).
 */
export function webhookKey(sandbox: Sandbox, webhookId: string): SigningKey {
  return sandbox.webhookKeys.get(webhookId) ?? sandbox.signingKey!;
}

export const signature = (body: string, key: SigningKey): string => sign('sha256', Buffer.from(body), key.privateKey).toString('base64');

/** The body a webhook or success_callback receives: the object as the API returns it (absolute checkout_url), plus event_type. */
export function deliveryBody(sandbox: Sandbox, event: SimEvent): string {
  return JSON.stringify({ ...objectView(event.payload, sandbox, sandbox.publicOrigin), event_type: event.event_type });
}

/** Queues a delivery of `event` to every webhook that subscribes to its type; a simulator-only event goes nowhere. */
export function enqueueDeliveries(sandbox: Sandbox, event: SimEvent, ctx: Context): void {
  if (!isDeliveredToWebhooks(event.event_type)) return;
  // The same body to every webhook (each signs it with its own key): made once, when one subscribes.
  let body: string | undefined;
  for (const webhook of sandbox.webhooks.values()) {
    if (!subscribes(webhook, event.event_type)) continue;
    body ??= deliveryBody(sandbox, event);
    const queue = webhookQueue(webhook.id, orderedWith(event));
    queueDelivery(sandbox, { webhookId: webhook.id, objectId: event.object_id, queue, body, eventId: event.id, eventType: event.event_type, url: webhook.callback }, ctx);
  }
}

/**
 * The queue of a webhook's deliveries of one purchase (with its Payments: domain/events.ts
 * orderedWith): `<webhook id>:<purchase id>`. Per webhook, so that a receiver that never answers
 * holds only its own deliveries, never another webhook's of the same purchase.
 */
export const webhookQueue = (webhookId: string, orderedId: string): string => `${webhookId}:${orderedId}`;

/** The key of the queue a webhook's delivery waits in; a delivery of an earlier version waits in its object's. */
export const queueKey = (delivery: Pick<Delivery, 'queue' | 'objectId'>): string => delivery.queue ?? delivery.objectId;

/** A success_callback's delivery rather than a webhook's. */
export const isCallback = (delivery: Pick<Delivery, 'kind'>): boolean => delivery.kind === 'success_callback';

type DeliveryFields = Pick<Delivery, 'kind' | 'webhookId' | 'objectId' | 'queue' | 'body' | 'eventId' | 'eventType' | 'url'>;

/**
 * Adds a delivery behind the earlier ones of its queue (a purchase's events arrive at a webhook in
 * order) and returns it. Only the queue's oldest delivery is scheduled; the next one is when it is done. A
 * success_callback waits behind nothing (a purchase is paid once; a resend is asked for now). With
 * delivery chaos (delivery-chaos.ts) a delivery made from an event may be copied, held back or put
 * off; a resend is sent as asked (`disturb` false).
 */
export function queueDelivery(sandbox: Sandbox, fields: DeliveryFields, ctx: Context, disturb = true): Delivery {
  const now = ctx.clock.now();
  const drawn = disturb ? drawDisturbance(sandbox, now) : undefined;
  if (!drawn) return place(sandbox, fields, now, ctx);
  const { marks, delayMs, held } = drawn;
  const delivery = place(sandbox, { ...fields, ...(marks.length > 0 && { chaos: marks }), ...(held && { held }) }, now + delayMs + (held ? REORDER_HOLD_MS : 0), ctx);
  if (drawn.duplicate) place(sandbox, { ...fields, chaos: duplicateMarks(marks), duplicateOf: delivery.id }, now + delayMs, ctx);
  return delivery;
}

/** Stores a new delivery, due at `dueAt` at the earliest, in its place in its queue (delivery-chaos.ts queuePlace). */
function place(sandbox: Sandbox, fields: DeliveryFields & Pick<Delivery, 'chaos' | 'duplicateOf' | 'held'>, dueAt: number, ctx: Context): Delivery {
  const now = ctx.clock.now();
  const delivery: Delivery = { id: ctx.ids.uuid(), ...fields, attempts: 0, status: 'pending', tries: [], nextAttemptAt: null, createdOn: unixSeconds(now) };
  if (dueAt > now) delivery.notBefore = dueAt;
  const waiting = isCallback(fields) ? [] : (sandbox.deliveryQueues.get(queueKey(fields)) ?? []);
  const index = queuePlace(waiting, sandbox.deliveries, fields.duplicateOf);
  // A held delivery passed by this one has been held back behind a later one: it goes in its turn
  // now, right behind it (or when a delay of its own is over), no longer waiting out its hold.
  const passed = sandbox.deliveries.get(waiting[index] ?? '');
  if (passed?.held) sandbox.deliveries.set(passed.id, unheld(passed, now));
  if (index === 0) delivery.nextAttemptAt = dueAt;
  sandbox.deliveries.set(delivery.id, delivery);
  if (!isCallback(fields)) sandbox.deliveryQueues.set(queueKey(fields), [...waiting.slice(0, index), delivery.id, ...waiting.slice(index)]);
  if (index === 0) schedule(sandbox, { at: dueAt, kind: 'webhook', id: delivery.id });
  return delivery;
}

/** A held delivery once passed: its hold (REORDER_HOLD_MS) taken off its due time, so that only a delay of its own is left. */
function unheld({ notBefore, ...passed }: Delivery, now: number): Delivery {
  const due = (notBefore ?? now) - REORDER_HOLD_MS;
  return { ...passed, held: false, nextAttemptAt: null, ...(due > now && { notBefore: due }) };
}

/**
 * POST /sim/v1/webhook_deliveries/{id}/resend: a new delivery of the same signed body to the same
 * webhook (at its callback of now), queued now behind the pending deliveries of its queue, if any, so
 * the purchase's order holds. A webhook deleted since cannot receive it: 400. A success_callback goes
 * again to the URL it went to, at once.
 */
export function resendDelivery(sandbox: Sandbox, id: string, ctx: Context): Delivery {
  const original = sandbox.deliveries.get(id);
  if (!original) throw notFound();
  if (isCallback(original)) {
    const { kind, objectId, body, eventId, eventType, url } = original;
    return queueDelivery(sandbox, { kind, webhookId: null, objectId, body, eventId, eventType, url }, ctx, false);
  }
  const webhook = original.webhookId === null ? undefined : sandbox.webhooks.get(original.webhookId);
  if (!webhook) throw fieldError(ALL, errors.invalidState(`Its webhook ${original.webhookId} has been deleted; there is nowhere to send it.`));
  const { webhookId, objectId, queue, body, eventId, eventType } = original;
  return queueDelivery(sandbox, { webhookId, objectId, ...(queue !== undefined && { queue }), body, eventId, eventType, url: webhook.callback }, ctx, false);
}

/** The delivery is done (acknowledged or given up): it stays in the log, and the next one of its queue goes now. */
function finish(sandbox: Sandbox, delivery: Delivery, status: 'delivered' | 'failed', ctx: Context): void {
  markDone(sandbox, { ...delivery, status, nextAttemptAt: null });
  if (isCallback(delivery)) return;
  const key = queueKey(delivery);
  const waiting = (sandbox.deliveryQueues.get(key) ?? []).filter((id) => id !== delivery.id);
  if (waiting.length === 0) sandbox.deliveryQueues.delete(key);
  else {
    sandbox.deliveryQueues.set(key, waiting);
    const next = sandbox.deliveries.get(waiting[0]!);
    // A delayed or held one goes when its time comes, if that is later.
    const at = Math.max(ctx.clock.now(), next?.notBefore ?? 0);
    if (next) sandbox.deliveries.set(next.id, { ...next, nextAttemptAt: at });
    schedule(sandbox, { at, kind: 'webhook', id: waiting[0]! });
  }
}

/**
 * Whether a job of the delivery is the one its next attempt waits for. Chaos leaves some behind: a
 * held delivery, scheduled at the head of its queue, that a later one passed (it waits
 * behind that one now, and is scheduled again when its turn comes), and that older job then falls
 * due before the attempt it was scheduled for.
 */
function isDue(sandbox: Sandbox, delivery: Delivery, now: number): boolean {
  if (delivery.nextAttemptAt !== null && now < delivery.nextAttemptAt) return false;
  if (isCallback(delivery)) return true;
  const queue = sandbox.deliveryQueues.get(queueKey(delivery));
  return !queue || queue[0] === delivery.id || !queue.includes(delivery.id);
}

/** Attempts a delivery makes in all: the first and one per wait of RETRY_BACKOFF_MS. */
export const MAX_ATTEMPTS = RETRY_BACKOFF_MS.length + 1;

/** Where a delivery goes now and the key that signs it; undefined when its webhook is gone. */
function target(sandbox: Sandbox, delivery: Delivery): { url: string; key: SigningKey } | undefined {
  if (isCallback(delivery)) return { url: delivery.url, key: sandboxKeyNow(sandbox) };
  const webhook = delivery.webhookId === null ? undefined : sandbox.webhooks.get(delivery.webhookId);
  return webhook && { url: webhook.callback, key: webhookKey(sandbox, webhook.id) };
}

/**
 * Starts an attempt of a queued delivery: counts and logs it, schedules the next try (or, after the
 * last, giving up), and returns the POST to make. Undefined when there is nothing to send: the
 * delivery is done, was dropped, or its webhook is gone.
 */
export function startAttempt(sandbox: Sandbox, deliveryId: string, ctx: Context): Attempt | undefined {
  const delivery = sandbox.deliveries.get(deliveryId);
  if (delivery?.status !== 'pending' || !isDue(sandbox, delivery, ctx.clock.now())) return undefined;
  const to = delivery.attempts < MAX_ATTEMPTS ? target(sandbox, delivery) : undefined;
  if (!to) {
    // Gone, or the last attempt went unanswered: the next delivery of its queue may go.
    finish(sandbox, delivery, 'failed', ctx);
    return undefined;
  }
  const now = ctx.clock.now();
  const attempts = delivery.attempts + 1;
  const wait = RETRY_BACKOFF_MS[attempts - 1] ?? ATTEMPT_TIMEOUT_MS;
  schedule(sandbox, { at: now + wait, kind: 'webhook', id: deliveryId });
  const tried: DeliveryTry = { at: now, status: null, error: null, durationMs: null };
  sandbox.deliveries.set(deliveryId, {
    ...delivery,
    attempts,
    url: to.url,
    tries: [...delivery.tries, tried],
    nextAttemptAt: attempts < MAX_ATTEMPTS ? now + wait : null,
  });
  return {
    sandboxId: sandbox.id,
    deliveryId,
    index: delivery.tries.length,
    url: to.url,
    body: delivery.body,
    signature: signature(delivery.body, to.key),
  };
}

const acknowledges = (answer: Answer): boolean => answer.error === null && answer.status !== null && answer.status >= 200 && answer.status < 300;

/**
 * Logs the answer to attempt `index` of a delivery. A 2xx ends the delivery (even one given up
 * meanwhile: the receiver has it after all); a failed last attempt gives it up now rather than when
 * its time runs out. Returns whether the next delivery of its queue was released, so it can go now.
 */
export function recordAnswer(sandbox: Sandbox, deliveryId: string, index: number, answer: Answer, ctx: Context): boolean {
  const delivery = sandbox.deliveries.get(deliveryId);
  if (!delivery?.tries[index]) return false;
  const tries = delivery.tries.map((tried, i) => (i === index ? { ...tried, status: answer.status, error: answer.error, durationMs: answer.durationMs } : tried));
  const answered = { ...delivery, tries };
  if (acknowledges(answer)) {
    if (delivery.status === 'pending') {
      finish(sandbox, answered, 'delivered', ctx);
      return true;
    }
    sandbox.deliveries.set(deliveryId, { ...answered, status: 'delivered' });
    return false;
  }
  // The answer to the last attempt there will be (a delivery saved before the log has fewer tries than attempts).
  if (delivery.status === 'pending' && delivery.attempts === MAX_ATTEMPTS && index === delivery.tries.length - 1) {
    finish(sandbox, answered, 'failed', ctx);
    return true;
  }
  sandbox.deliveries.set(deliveryId, answered);
  return false;
}
