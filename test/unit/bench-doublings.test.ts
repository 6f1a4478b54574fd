// `npm run bench` judges "2× subscribers → ≤ 2.1× time" between each time-travel size and the next
// smaller one, per doubling of subscribers, and splits each growth into the garbage collector's
// pauses and the code between them (bench/criteria.ts).

import { describe, expect, it } from 'vitest';
import { doublings, judge } from '../../bench/criteria.ts';
import type { Results, TimeTravelFigures } from '../../bench/results.ts';

const size = (subscribers: number, ms: number, gcMs?: TimeTravelFigures['gcMs']): TimeTravelFigures => ({
  subscribers,
  years: 10,
  ms,
  billings: subscribers * 120,
  billingsPerSecond: Math.round((subscribers * 120) / (ms / 1000)),
  peakRssMb: 500,
  rssBeforeMb: 100,
  roundsMs: [ms],
  ...(gcMs ? { gcMs } : {}),
});

const run = (...sizes: Array<TimeTravelFigures | { subscribers: number; years: number; error: string }>): Results => ({
  meta: { date: '2026-11-24T10:00:00.000Z', commit: 'abc', dirty: false, node: 'v20', cpus: 2, cpuModel: 'test', options: {} },
  timeTravel: Object.fromEntries(sizes.map((s) => [String(s.subscribers), s])),
  failed: {},
});

describe('2× subscribers → ≤ 2.1× time, in the bench', () => {
  it('judges 5× subscribers by the growth per doubling: 5.59× the time is within 2.1 per doubling, 5.6× is not', () => {
    const [growth] = doublings(run(size(2000, 1000), size(10_000, 5000)));
    expect(growth).toMatchObject({ from: 2000, to: 10_000 });
    expect(growth!.times).toBeCloseTo(5, 10);
    // Linear growth: 5× the time for 5× the subscribers is 2× per doubling.
    expect(growth!.perDoubling).toBeCloseTo(2, 10);
    const verdict = (ms: number) => judge(run(size(2000, 1000), size(10_000, ms))).find((v) => v.criterion.includes('2000 → 10000'))!;
    // 2.1 per doubling is 2.1 ** log2(5) = 5.5998× for 5× the subscribers.
    expect(verdict(5599).met).toBe(true);
    expect(verdict(5600).met).toBe(false);
    expect(verdict(5700).figure).toBe('5.70× time for 5× subscribers = 2.12× per doubling');
  });

  it('compares each size with the next smaller one that ran, leaving a refused size out', () => {
    const growth = doublings(run(size(1000, 800), { subscribers: 2000, years: 10, error: 'refused' }, size(10_000, 8000)));
    expect(growth.map(({ from, to }) => [from, to])).toEqual([[1000, 10_000]]);
    expect(growth[0]!.times).toBeCloseTo(10, 10);
  });

  it('splits a growth into the pauses of the garbage collector and the code between them', () => {
    // 2,000: 1,000 ms of which 250 paused; 10,000: 6,000 ms of which 1,000 paused.
    const [growth] = doublings(run(size(2000, 1000, { minor: 200, major: 50 }), size(10_000, 6000, { minor: 900, major: 100 })));
    expect(growth!.parts!.code).toBeCloseTo(5000 / 750, 10);
    expect(growth!.parts!.gc).toBeCloseTo(1000 / 250, 10);
  });

  it('gives no split when a size has no pauses recorded (a results file written before they were)', () => {
    const [growth] = doublings(run(size(2000, 1000), size(10_000, 6000, { minor: 900, major: 100 })));
    expect(growth!.parts).toBeUndefined();
  });
});
