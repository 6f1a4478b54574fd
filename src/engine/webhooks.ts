// Webhook delivery (DESIGN.md §4.14, §6, §9). Each event of the platform's (domain/events.ts) that a
// webhook subscribes to becomes a delivery: the object's JSON plus `event_type`, signed with that
// webhook's own RSA key (PKCS#1 v1.5 over SHA-256, base64 in X-Signature), POSTed to the callback.
// A webhook registered by an earlier version, which made no key per webhook, is signed with the
// sandbox's key, the one its receiver fetched from GET /public_key/. Deliveries of one object go one
// at a time, in order; a failed one is retried with backoff on the sandbox clock, and the object's
// later events wait behind it. Attempts are jobs of the sandbox's queue, so they start in time order
// with the rest; the POST itself goes out after the sandbox's turn (engine/background.ts), so a
// receiver that never answers holds no request and no advance. An attempt therefore schedules its
// retry when it starts, as if it will fail: an acknowledgement, recorded in a later turn, ends the
// delivery, and the retry job then finds nothing to do. A crash while a POST is out loses nothing.

import { generateKeyPair, sign, type RSAKeyPairOptions } from 'node:crypto';
import { promisify } from 'node:util';
import type { Context } from '../domain/context.ts';
import { isDeliveredToWebhooks } from '../domain/events.ts';
import type { Purchase, SimEvent } from '../domain/types.ts';
import { subscribes } from '../domain/webhooks.ts';
import type { Delivery, Sandbox, SigningKey } from '../store/store.ts';
import { schedule } from './queue.ts';

/** Waits after the 1st, 2nd, … failed attempt; the last attempt has ATTEMPT_TIMEOUT_MS to answer. */
export const RETRY_BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000, 24 * 3_600_000];
/** How long a receiver has to answer an attempt, in wall time for the POST and in sandbox time for the last one. */
export const ATTEMPT_TIMEOUT_MS = 5_000;
/** How much of a receiver's answer is read: only its status matters, and an endless body must not fill memory. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** One POST to make, outside the sandbox's turn. */
export interface Attempt {
  sandboxId: string;
  deliveryId: string;
  url: string;
  body: string;
  signature: string;
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
 * The key that signs a webhook's deliveries: its own, or for a webhook of an earlier version, which
 * has none, the sandbox's, whose public half it shows. A snapshot or data file where neither exists
 * is refused before it is loaded (store/snapshot-checks.ts).
 */
export function webhookKey(sandbox: Sandbox, webhookId: string): SigningKey {
  return sandbox.webhookKeys.get(webhookId) ?? sandbox.signingKey!;
}

export const signature = (body: string, key: SigningKey): string => sign('sha256', Buffer.from(body), key.privateKey).toString('base64');

/** The body a webhook receives: the object as the API returns it (absolute checkout_url), plus event_type. */
function deliveryBody(sandbox: Sandbox, event: SimEvent): string {
  const object =
    event.payload.type === 'purchase'
      ? { ...(event.payload as Purchase), checkout_url: sandbox.publicOrigin + (event.payload as Purchase).checkout_url }
      : event.payload;
  return JSON.stringify({ ...object, event_type: event.event_type });
}

/** Queues a delivery of `event` to every webhook that subscribes to its type; a simulator-only event goes nowhere. */
export function enqueueDeliveries(sandbox: Sandbox, event: SimEvent, ctx: Context): void {
  if (!isDeliveredToWebhooks(event.event_type)) return;
  for (const webhook of sandbox.webhooks.values()) {
    if (!subscribes(webhook, event.event_type)) continue;
    const delivery: Delivery = { id: ctx.ids.uuid(), webhookId: webhook.id, objectId: event.object_id, body: deliveryBody(sandbox, event), attempts: 0 };
    sandbox.deliveries.set(delivery.id, delivery);
    const waiting = sandbox.deliveryQueues.get(event.object_id) ?? [];
    waiting.push(delivery.id);
    sandbox.deliveryQueues.set(event.object_id, waiting);
    // Only the object's oldest delivery is scheduled; the next one is when it is done.
    if (waiting.length === 1) schedule(sandbox, { at: ctx.clock.now(), kind: 'webhook', id: delivery.id });
  }
}

/** The delivery is done (acknowledged or given up): the object's next one goes now. */
function finish(sandbox: Sandbox, delivery: Delivery, ctx: Context): void {
  sandbox.deliveries.delete(delivery.id);
  const waiting = (sandbox.deliveryQueues.get(delivery.objectId) ?? []).filter((id) => id !== delivery.id);
  if (waiting.length === 0) sandbox.deliveryQueues.delete(delivery.objectId);
  else {
    sandbox.deliveryQueues.set(delivery.objectId, waiting);
    schedule(sandbox, { at: ctx.clock.now(), kind: 'webhook', id: waiting[0]! });
  }
}

/**
 * Starts an attempt of a queued delivery: counts it, schedules the next try (or, after the last,
 * giving up), and returns the POST to make. Undefined when there is nothing to send: the delivery
 * was acknowledged or dropped, or its webhook is gone.
 */
export function startAttempt(sandbox: Sandbox, deliveryId: string, ctx: Context): Attempt | undefined {
  const delivery = sandbox.deliveries.get(deliveryId);
  if (!delivery) return undefined;
  const webhook = sandbox.webhooks.get(delivery.webhookId);
  if (!webhook || delivery.attempts > RETRY_BACKOFF_MS.length) {
    // Gone, or the last attempt went unanswered: the object's next delivery may go.
    finish(sandbox, delivery, ctx);
    return undefined;
  }
  const attempted = { ...delivery, attempts: delivery.attempts + 1 };
  sandbox.deliveries.set(attempted.id, attempted);
  const wait = RETRY_BACKOFF_MS[attempted.attempts - 1] ?? ATTEMPT_TIMEOUT_MS;
  schedule(sandbox, { at: ctx.clock.now() + wait, kind: 'webhook', id: attempted.id });
  return { sandboxId: sandbox.id, deliveryId, url: webhook.callback, body: delivery.body, signature: signature(delivery.body, webhookKey(sandbox, webhook.id)) };
}

/** The receiver answered 2xx: the delivery is done and the object's next one goes now. */
export function acknowledge(sandbox: Sandbox, deliveryId: string, ctx: Context): void {
  const delivery = sandbox.deliveries.get(deliveryId);
  if (delivery) finish(sandbox, delivery, ctx);
}

/** Whether the receiver acknowledged the POST (2xx) within the time it has. Never throws. */
export async function post(attempt: Attempt): Promise<boolean> {
  try {
    const res = await fetch(attempt.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': attempt.signature, 'user-agent': 'billing-sim webhooks' },
      body: attempt.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    await readAtMost(res, MAX_ANSWER_BYTES);
    return res.status >= 200 && res.status < 300;
  } catch {
    return false;
  }
}

async function readAtMost(res: Response, limit: number): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  let read = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    read += chunk.value.byteLength;
    if (read >= limit) {
      await reader.cancel();
      return;
    }
  }
}
