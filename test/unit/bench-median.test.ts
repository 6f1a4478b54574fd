// `npm run bench` keeps each case's and each time-travel size's median round (bench/results.ts):
// one busy moment of a shared machine decides no verdict, and a round's figures stay together.

import { describe, expect, it } from 'vitest';
import { medianBy, medianRound, type RoundFigures } from '../../bench/results.ts';

const round = (ms: number, peakRssMb: number): RoundFigures => ({ subscribers: 10_000, years: 10, ms, billings: 1_200_000, billingsPerSecond: Math.round(1_200_000 / (ms / 1000)), peakRssMb, rssBeforeMb: 150 });

describe('the median round of the bench', () => {
  it('is the middle one by its value whatever order the rounds ran in, and the upper of the middle two for an even count', () => {
    expect(medianBy([30, 10, 20], (x) => x)).toBe(20);
    expect(medianBy([40, 10, 30, 20], (x) => x)).toBe(30);
    expect(medianBy([7], (x) => x)).toBe(7);
    expect(() => medianBy([], (x: number) => x)).toThrow(/no rounds/);
  });

  it('of a time-travel size keeps that round\'s figures, every round\'s time in the order run, and the highest peak RSS', () => {
    const rounds = [round(9969, 1040), round(8302, 1074), round(7688, 1020)];
    expect(medianRound(rounds)).toEqual({ ...rounds[1], roundsMs: [9969, 8302, 7688], peakRssMb: 1074 });
    // The RSS ceiling is judged on the worst round, not on the median one.
    expect(medianRound([round(8000, 900), round(9000, 1600), round(7000, 800)]).peakRssMb).toBe(1600);
  });
});
