// Limits that bound one sandbox's memory and one request's work (DESIGN.md §6 "Bounded work"),
// named once with the reason beside them; openapi.yaml documents those a client can meet.

import { DAY_MS, minimumDays } from '../domain/calendar.ts';
import { ALL, errors, fieldError } from '../domain/errors.ts';
import type { Sandbox } from '../store/store.ts';

/**
 * Events kept per sandbox, the newest (`--max-events`), and as many outbox e-mails: a ten-year
 * advance of 1,000 subscribers records 240,000 events and sends 120,000 e-mails.
 */
export const MAX_EVENTS_PER_SANDBOX = 100_000;

/**
 * Done webhook deliveries kept per sandbox, newest (GET /sim/v1/webhook_deliveries). Each keeps its
 * signed body (about 1.5 KB), so the log of one sandbox stays under about 15 MB however long it runs.
 */
export const MAX_DELIVERIES_KEPT = 10_000;

/**
 * Purchases one sandbox may hold. Each billing keeps a purchase, about 400 bytes of memory (its status
 * history, attempt and payment details are shared: domain/shared-parts.ts; its checkout_url is not
 * kept; its e-mail and events go once the logs pass MAX_EVENTS_PER_SANDBOX), so the limit keeps a
 * sandbox under about 1 GB: 10,000 monthly subscribers fit for 10 years (478 MB of heap after the
 * advance) and 1,000 for 100 (the up-front bound counts a month as 28 days), while an advance that
 * could pass it is refused before it starts rather than running the process out of memory an hour in.
 */
export const MAX_PURCHASES_PER_SANDBOX = 1_500_000;

/**
 * Checkpoints one sandbox may keep (POST /sim/v1/checkpoints). A checkpoint shares the sandbox's
 * records, which are never changed, and copies only what changes in place; but with `--data` it is
 * a whole copy in the file, and a restore or fork writes the sandbox whole. Their purchases also
 * count against MAX_PURCHASES_PER_SANDBOX (purchasesCounted).
 */
export const MAX_CHECKPOINTS_PER_SANDBOX = 20;

/** The purchases a sandbox holds, and those its checkpoints hold: both against MAX_PURCHASES_PER_SANDBOX. */
export function purchasesCounted(sandbox: Sandbox): number {
  return sandbox.checkpoints.reduce((sum, checkpoint) => sum + checkpoint.state.purchases.length, sandbox.purchases.size);
}

/** Refuses a checkpoint past MAX_CHECKPOINTS_PER_SANDBOX, or one whose purchases would pass MAX_PURCHASES_PER_SANDBOX. */
export function checkCheckpointFits(sandbox: Sandbox): void {
  if (sandbox.checkpoints.length >= MAX_CHECKPOINTS_PER_SANDBOX) {
    throw fieldError(ALL, { ...errors.maxValue(MAX_CHECKPOINTS_PER_SANDBOX), message: `A sandbox keeps at most ${MAX_CHECKPOINTS_PER_SANDBOX} checkpoints; delete one first.` });
  }
  const counted = purchasesCounted(sandbox) + sandbox.purchases.size;
  if (counted > MAX_PURCHASES_PER_SANDBOX) {
    const message = `A sandbox and its checkpoints hold at most ${MAX_PURCHASES_PER_SANDBOX.toLocaleString('en')} purchases: they hold ${(counted - sandbox.purchases.size).toLocaleString('en')}, and this checkpoint would hold ${sandbox.purchases.size.toLocaleString('en')} more. Delete a checkpoint first.`;
    throw fieldError(ALL, { ...errors.maxValue(MAX_PURCHASES_PER_SANDBOX), message });
  }
}

/** How long an advance runs before it lets other sandboxes and /healthz have the event loop (named in store/slices.ts, whose sliced copies use it too). */
export { SLICE_MS } from '../store/slices.ts';

/**
 * At most how many purchases billing creates between the sandbox's `fromMs` and `toMs`: every
 * launched subscriber's dates in that window, a month counted as 28 days so the bound is never
 * short. Read once per advance, from the schedules, before anything runs.
 */
export function billingsAtMost(sandbox: Sandbox, fromMs: number, toMs: number): number {
  let total = 0;
  for (const [id, plan] of sandbox.schedules) {
    const subscriber = sandbox.subscribers.get(id);
    const template = subscriber && sandbox.templates.get(subscriber.billing_template_id);
    if (!plan.launch || !template) continue;
    const end = Math.min(toMs, Date.parse(`${subscriber.mandate_expiry_date}T23:59:59Z`) + DAY_MS);
    const start = Math.max(fromMs, Date.parse(`${plan.launch}T00:00:00Z`) - DAY_MS);
    if (end <= start) continue;
    total += Math.floor((end - start) / (minimumDays(template.subscription_period, template.subscription_period_units) * DAY_MS)) + 1;
  }
  return total;
}

/** Refuses, before it starts, an advance whose billings would pass MAX_PURCHASES_PER_SANDBOX. */
export function checkAdvanceFits(sandbox: Sandbox, fromMs: number, toMs: number, field: string): void {
  const counted = purchasesCounted(sandbox);
  const expected = counted + billingsAtMost(sandbox, fromMs, toMs);
  if (expected <= MAX_PURCHASES_PER_SANDBOX) return;
  const checkpoints = counted > sandbox.purchases.size ? `, with its checkpoints' ${(counted - sandbox.purchases.size).toLocaleString('en')}` : '';
  throw fieldError(
    field,
    errors.maxValue(
      `a target that keeps the sandbox within ${MAX_PURCHASES_PER_SANDBOX.toLocaleString('en')} purchases (it holds ${sandbox.purchases.size.toLocaleString('en')}${checkpoints}; this advance could bill up to ${(expected - counted).toLocaleString('en')} more)`,
    ),
  );
}

/**
 * Between the slices of an advance, events may pass their limit by this share before the oldest are
 * dropped: dropping moves the whole array down (about 0.3 ms for 100,000), and doing it after every
 * 8 ms slice cost 4 % of a long advance. A turn still ends with at most the limit.
 */
export const EVENTS_SLACK_BETWEEN_SLICES = 0.25;

/**
 * After a request's turn, events may pass their limit by this share: dropping the oldest moves the
 * whole list down, about 0.2 ms for 100,000, and once a busy sandbox had reached its limit every
 * request that recorded an event paid it (an add_subscriber took a third longer). With 1 % the
 * move comes once in some thousand events. A limit below 100 is kept exactly.
 */
export const EVENTS_SLACK_AFTER_TURN = 0.01;

/**
 * Drops the oldest events, and the oldest outbox e-mails, past `max` once there are more than
 * `slack` of them, counting them so a durable store can drop their rows. Ten years of 10,000
 * subscribers send 1.2 million e-mails: kept, they were some 150 MB and a tenth of the advance's time.
 */
export function trimLogs(sandbox: Sandbox, max: number, slack = 0): void {
  sandbox.eventsDropped += dropOldest(sandbox.events, max, slack);
  sandbox.outboxDropped += dropOldest(sandbox.outbox, max, slack);
}

/** How many of the oldest entries of `log` it dropped: those past `max`, once there are more than `slack`. */
function dropOldest(log: unknown[], max: number, slack: number): number {
  const excess = log.length - max;
  if (excess <= 0 || excess <= slack) return 0;
  log.splice(0, excess);
  return excess;
}
