// Delivery chaos's draws (domain/webhook-chaos.ts): "With the same seed the same deliveries are
// disturbed" — a number that depends only on the seed, the delivery's number and the kind of
// disturbance, spread evenly enough that a probability p disturbs about a share p of deliveries.

import { describe, expect, it } from 'vitest';
import { CHAOS_STREAMS, chaosDelayMs, chaosDraw } from '../../src/domain/webhook-chaos.ts';

const N = 20_000;

describe('chaos draws', () => {
  it('the same seed and delivery number give the same draw; another seed, number or stream another', () => {
    expect(chaosDraw(42, 7, CHAOS_STREAMS.duplicate)).toBe(chaosDraw(42, 7, CHAOS_STREAMS.duplicate));
    const draws = new Set([chaosDraw(42, 7, CHAOS_STREAMS.duplicate), chaosDraw(43, 7, CHAOS_STREAMS.duplicate), chaosDraw(42, 8, CHAOS_STREAMS.duplicate), chaosDraw(42, 7, CHAOS_STREAMS.reorder)]);
    expect(draws.size).toBe(4);
    // Seeds past 32 bits count in full.
    expect(chaosDraw(2 ** 32 + 1, 0, CHAOS_STREAMS.reorder)).not.toBe(chaosDraw(1, 0, CHAOS_STREAMS.reorder));
  });

  it('draws fall in [0, 1), so probability 1 disturbs every delivery and 0 none; a probability p disturbs about a share p', () => {
    for (const seed of [0, 1, 42, Number.MAX_SAFE_INTEGER]) {
      const draws = Array.from({ length: N }, (_, n) => chaosDraw(seed, n, CHAOS_STREAMS.duplicate));
      expect(draws.every((u) => u >= 0 && u < 1)).toBe(true);
      const share = draws.filter((u) => u < 0.2).length / N;
      expect(share).toBeGreaterThan(0.19);
      expect(share).toBeLessThan(0.21);
    }
  });

  it('the two kinds of disturbance are drawn independently: duplicate and reorder at 0.5 each meet in about a quarter', () => {
    const both = Array.from({ length: N }, (_, n) => chaosDraw(5, n, CHAOS_STREAMS.duplicate) < 0.5 && chaosDraw(5, n, CHAOS_STREAMS.reorder) < 0.5).filter(Boolean).length / N;
    expect(both).toBeGreaterThan(0.24);
    expect(both).toBeLessThan(0.26);
  });

  it('a delay is an ISO-8601 duration on the sandbox clock, from 0 to 30 days: P1M counts the month it starts in', () => {
    const jan30 = Date.parse('2026-01-30T12:00:00Z');
    expect(chaosDelayMs('PT1H', jan30)).toBe(3_600_000);
    expect(chaosDelayMs('P1M', Date.parse('2026-02-01T00:00:00Z'))).toBe(28 * 86_400_000);
    expect(() => chaosDelayMs('P1M', Date.parse('2026-01-31T00:00:00Z'))).not.toThrow();
    expect(() => chaosDelayMs('P31D', jan30)).toThrow(/less than or equal to P30D/);
    expect(() => chaosDelayMs('-PT1S', jan30)).toThrow(/greater than or equal to PT0S/);
    expect(() => chaosDelayMs('1 hour', jan30)).toThrow(/not an ISO-8601 duration/);
  });
});
