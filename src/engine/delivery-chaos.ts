// Delivery chaos in the engine (DESIGN.md §13): the sandbox's settings (GET/PUT/DELETE
// /sim/v1/webhook_chaos), and what they do to each delivery as it is queued (webhooks.ts
// queueDelivery). A delivery is drawn for once, when it is made from its event; a duplicate and a
// resend are not drawn for again. What a draw can do:
// - duplicate: a second delivery with the same event id, body and target (so the same signature),
//   `duplicateOf` the first, queued right behind it;
// - reordered: `held` until a later delivery of its queue (the same webhook and purchase,
//   webhooks.ts queueKey) is queued, which then goes first, and it right behind (with every
//   delivery reordered, a purchase's deliveries arrive newest first);
//   a held one that no later one passes goes REORDER_HOLD_MS late;
// - delayed: every delivery's first attempt is due `delay` later on the sandbox clock.
// Each is marked in the delivery's `chaos`, which the delivery log shows.

import { CHAOS_STREAMS, chaosDelayMs, chaosDraw, NO_CHAOS, type ChaosMark, type WebhookChaos } from '../domain/webhook-chaos.ts';
import type { Delivery, Sandbox } from '../store/store.ts';

/**
 * How long a reordered delivery waits for a later one of its queue to pass it, on the sandbox
 * clock: as long as the platform's first retry, so a receiver sees it arrive like a retried one.
 */
export const REORDER_HOLD_MS = 60_000;

/** The settings as the API shows and takes them (`WebhookChaos` in openapi.yaml). */
export type WebhookChaosView = Omit<WebhookChaos, 'drawn'>;

export function webhookChaosView(sandbox: Sandbox): WebhookChaosView {
  const { duplicate, reorder, delay, seed } = sandbox.webhookChaos ?? NO_CHAOS;
  return { duplicate, reorder, delay, seed };
}

/**
 * PUT /sim/v1/webhook_chaos: replaces the settings (a field left out takes its value of NO_CHAOS)
 * and starts the sequence of draws again, so that a sandbox given the same settings disturbs the
 * same deliveries from here on.
 */
export function setWebhookChaos(sandbox: Sandbox, input: Partial<WebhookChaosView>, nowMs: number): WebhookChaosView {
  const settings = { ...NO_CHAOS, ...input };
  if (settings.delay !== null) chaosDelayMs(settings.delay, nowMs);
  sandbox.webhookChaos = { ...settings, drawn: 0 };
  return webhookChaosView(sandbox);
}

/** What the draw for one delivery decided. */
export interface Disturbance {
  marks: ChaosMark[];
  /** How long its first attempt is put off (`delay`). */
  delayMs: number;
  /** Reordered: it waits for a later one, at most REORDER_HOLD_MS more. */
  held: boolean;
  duplicate: boolean;
}

/** The draw for the sandbox's next delivery, made at `nowMs`, which moves the sequence on; undefined without chaos. */
export function drawDisturbance(sandbox: Sandbox, nowMs: number): Disturbance | undefined {
  const chaos = sandbox.webhookChaos;
  if (!chaos) return undefined;
  const n = chaos.drawn;
  sandbox.webhookChaos = { ...chaos, drawn: n + 1 };
  const delayMs = chaos.delay === null ? 0 : chaosDelayMs(chaos.delay, nowMs);
  const held = chaosDraw(chaos.seed, n, CHAOS_STREAMS.reorder) < chaos.reorder;
  const duplicate = chaosDraw(chaos.seed, n, CHAOS_STREAMS.duplicate) < chaos.duplicate;
  const marks: ChaosMark[] = [];
  if (held) marks.push('reordered');
  if (delayMs > 0) marks.push('delayed');
  return { marks, delayMs, held, duplicate };
}

/** The marks of a duplicate: it is late as its original is, never held. */
export const duplicateMarks = (marks: readonly ChaosMark[]): ChaosMark[] => ['duplicate', ...marks.filter((mark) => mark === 'delayed')];

/**
 * Where a new delivery goes in its queue: right behind `after` (a duplicate behind its
 * original), or else before the first held delivery that has not started (it passes it), or last.
 */
export function queuePlace(queue: readonly string[], deliveries: ReadonlyMap<string, Delivery>, after?: string): number {
  if (after !== undefined) {
    const original = queue.indexOf(after);
    if (original >= 0) return original + 1;
  }
  const held = queue.findIndex((id) => {
    const delivery = deliveries.get(id);
    return delivery?.held === true && delivery.attempts === 0;
  });
  return held >= 0 ? held : queue.length;
}
