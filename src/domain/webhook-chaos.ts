// Delivery chaos (DESIGN.md §13): a sandbox may ask that its webhook and success_callback
// deliveries arrive as a real platform's sometimes do, twice, late, or after a later one. Which
// deliveries are disturbed is decided by draws that depend only on the sandbox's `seed` and the
// delivery's number in the sequence that PUT /sim/v1/webhook_chaos started: a stateless hash, so
// the same settings and the same requests disturb the same deliveries on every run, in every
// sandbox, and after a snapshot is loaded again (the position, `drawn`, is saved with the sandbox).

import { addDuration, DAY_MS } from './calendar.ts';
import { errors, fieldError } from './errors.ts';
import { mix32, TWO_32 } from './integer-hash.ts';

/** Why a delivery does not arrive once, in order, on time; the delivery log lists them. */
export type ChaosMark = 'duplicate' | 'reordered' | 'delayed';

/** A sandbox's chaos settings, and how far its sequence of draws has gone. */
export interface WebhookChaos {
  /** Chance (0..1) that a delivery is sent twice, the copy with the same event id, body and signature. */
  duplicate: number;
  /** Chance (0..1) that a delivery is held back until a later one of the same object has gone. */
  reorder: number;
  /** ISO-8601 duration by which every delivery's first attempt is put off on the sandbox clock; null for none. */
  delay: string | null;
  seed: number;
  /** Deliveries drawn for since the settings were put: the next one is number `drawn` of the sequence. */
  drawn: number;
}

/** The settings as GET /sim/v1/webhook_chaos answers them when a sandbox has none: nothing is disturbed. */
export const NO_CHAOS: Omit<WebhookChaos, 'drawn'> = { duplicate: 0, reorder: 0, delay: null, seed: 0 };

/**
 * The longest delay: a delivery put off longer than the platform's whole retry schedule (about 33
 * hours) is a lost one already, and 30 days still lets a test hold one across a month end.
 */
export const MAX_CHAOS_DELAY_MS = 30 * DAY_MS;

/** The longest duration a setting takes, in ms and as the refusal names it. */
export interface DurationLimit {
  ms: number;
  name: string;
}

const CHAOS_DELAY_LIMIT: DurationLimit = { ms: MAX_CHAOS_DELAY_MS, name: 'P30D' };

/** Independent draws of one delivery, one per kind of disturbance. */
export const CHAOS_STREAMS = { duplicate: 1, reorder: 2 } as const;
export type ChaosStream = (typeof CHAOS_STREAMS)[keyof typeof CHAOS_STREAMS];

/** A number in [0, 1) that depends only on the seed, the delivery's number and the stream: 1 is never drawn, 0 never passes. */
export function chaosDraw(seed: number, n: number, stream: ChaosStream): number {
  let h = mix32(seed ^ 0x9e3779b9);
  for (const word of [Math.floor(seed / TWO_32), n, Math.floor(n / TWO_32), stream]) h = mix32(h ^ mix32(word + 0x7f4a7c15));
  return h / TWO_32;
}

/**
 * How long `delay` puts a delivery off from `nowMs` on the sandbox clock (P1M counts the month it
 * starts in). Throws a 400 naming `field` for text that is no ISO-8601 duration, a negative one, or
 * one past MAX_CHAOS_DELAY_MS.
 */
export function chaosDelayMs(delay: string, nowMs: number, field = 'delay', limit: DurationLimit = CHAOS_DELAY_LIMIT): number {
  let ms: number;
  try {
    ms = addDuration(nowMs, delay) - nowMs;
  } catch {
    throw fieldError(field, errors.invalid(`"${delay}" is not an ISO-8601 duration such as PT1H or P1D.`));
  }
  if (!(ms >= 0)) throw fieldError(field, errors.minValue('PT0S'));
  if (ms > limit.ms) throw fieldError(field, errors.maxValue(limit.name));
  return ms;
}
