// Webhook delivery (DESIGN.md §4.14). Each event a webhook subscribes to becomes a delivery: the
// object's JSON plus `event_type`, signed with the sandbox's RSA key (PKCS#1 v1.5 over SHA-256,
// base64 in X-Signature), POSTed to the callback. Deliveries of one object go one at a time, in
// order; a failed one is retried with backoff on the sandbox clock, and the object's later events
// wait behind it. Attempts are jobs of the sandbox's queue, so they run in time order with the rest.

import { generateKeyPairSync, sign } from 'node:crypto';
import type { Context } from '../domain/context.ts';
import type { Purchase, SimEvent } from '../domain/types.ts';
import type { Delivery, Sandbox, SigningKey } from '../store/store.ts';
import { schedule } from './queue.ts';

/** Waits after the 1st, 2nd, … failed attempt; after the last one the delivery is dropped. */
export const RETRY_BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000, 24 * 3_600_000];
const ATTEMPT_TIMEOUT_MS = 5_000;

export function signingKey(sandbox: Sandbox): SigningKey {
  sandbox.signingKey ??= generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return sandbox.signingKey;
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

/** Queues a delivery of `event` to every webhook that subscribes to its type. */
export function enqueueDeliveries(sandbox: Sandbox, event: SimEvent, ctx: Context): void {
  for (const webhook of sandbox.webhooks.values()) {
    if (!webhook.events.includes(event.event_type)) continue;
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

async function post(url: string, body: string, signatureValue: string): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': signatureValue, 'user-agent': 'billing-sim webhooks' },
      body,
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    return res.status >= 200 && res.status < 300;
  } catch {
    return false;
  }
}

/** One attempt of a queued delivery; true when it was acknowledged. */
export async function attemptDelivery(sandbox: Sandbox, deliveryId: string, ctx: Context): Promise<boolean> {
  const delivery = sandbox.deliveries.get(deliveryId);
  if (!delivery) return false;
  const webhook = sandbox.webhooks.get(delivery.webhookId);
  if (!webhook) {
    finish(sandbox, delivery, ctx);
    return false;
  }
  const ok = await post(webhook.callback, delivery.body, signature(delivery.body, signingKey(sandbox)));
  const attempted = { ...delivery, attempts: delivery.attempts + 1 };
  sandbox.deliveries.set(attempted.id, attempted);
  if (ok || attempted.attempts > RETRY_BACKOFF_MS.length) finish(sandbox, attempted, ctx);
  else schedule(sandbox, { at: ctx.clock.now() + RETRY_BACKOFF_MS[attempted.attempts - 1]!, kind: 'webhook', id: attempted.id });
  return ok;
}
