// The delivery log (GET /sim/v1/webhook_deliveries): every delivery of the sandbox, to a webhook or
// to a purchase's success_callback, pending ones and done ones, in `sandbox.deliveries` in the order
// they were made. A done delivery stays there, delivered or failed, until MAX_DELIVERIES_KEPT newer
// done ones push it out; pending ones are work still to do and never go. (Resending is queueing:
// webhooks.ts.)

import type { Delivery, DeliveryKind, DeliveryStatus, Sandbox } from '../store/store.ts';
import { MAX_DELIVERIES_KEPT } from './limits.ts';

/** How many done deliveries a sandbox's map holds; counted once per map, then kept up to date. */
const doneCounts = new WeakMap<Map<string, Delivery>, { done: number }>();

function doneCount(deliveries: Map<string, Delivery>): { done: number } {
  let count = doneCounts.get(deliveries);
  if (!count) {
    count = { done: 0 };
    for (const delivery of deliveries.values()) if (delivery.status !== 'pending') count.done += 1;
    doneCounts.set(deliveries, count);
  }
  return count;
}

/** Stores a delivery that has just become done, and drops the oldest done ones past the limit. */
export function markDone(sandbox: Sandbox, done: Delivery): void {
  // Counted before the change, so the count taken now does not include it already.
  const count = doneCount(sandbox.deliveries);
  sandbox.deliveries.set(done.id, done);
  count.done += 1;
  trimDeliveryLog(sandbox, MAX_DELIVERIES_KEPT);
}

/**
 * Drops the oldest done deliveries until at most `max` remain. The oldest come first in the map, so
 * the walk stops after the excess and the few pending ones older than it (each object's head
 * delivery is done within 33 hours of sandbox time).
 */
export function trimDeliveryLog(sandbox: Sandbox, max: number): void {
  const count = doneCount(sandbox.deliveries);
  if (count.done <= max) return;
  for (const [id, delivery] of sandbox.deliveries) {
    if (count.done <= max) return;
    if (delivery.status === 'pending') continue;
    sandbox.deliveries.delete(id);
    count.done -= 1;
  }
}

export interface DeliveryFilters {
  status?: DeliveryStatus;
  kind?: DeliveryKind;
  webhookId?: string;
  eventType?: string;
}

/** The test of a delivery against every filter given, for paginate; none when no filter is given. */
export function deliveryMatches(filters: DeliveryFilters): ((delivery: Delivery) => boolean) | undefined {
  const { status, kind, webhookId, eventType } = filters;
  if (status === undefined && kind === undefined && webhookId === undefined && eventType === undefined) return undefined;
  return (delivery) =>
    (status === undefined || delivery.status === status) &&
    (kind === undefined || (delivery.kind ?? 'webhook') === kind) &&
    (webhookId === undefined || delivery.webhookId === webhookId) &&
    (eventType === undefined || delivery.eventType === eventType);
}
