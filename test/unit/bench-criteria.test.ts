// `npm run bench` judges its criteria on the median of several runs (`--runs 3`, or three results files
// given to bench/compare.ts), printing every run's figure; and it still shows how time grows between
// each time-travel size and the next smaller one, per doubling of subscribers, split into the garbage
// collector's pauses and the code between them, as information (bench/criteria.ts).

import { describe, expect, it } from 'vitest';
import { doublings, judge, judgeMedian } from '../../bench/criteria.ts';
import type { LoadResult } from '../../bench/load.ts';
import type { Results, TimeTravelFigures } from '../../bench/results.ts';

const size = (subscribers: number, ms: number, gcMs?: TimeTravelFigures['gcMs'], peakRssMb = 500): TimeTravelFigures => ({
  subscribers,
  years: 10,
  ms,
  billings: subscribers * 120,
  billingsPerSecond: Math.round((subscribers * 120) / (ms / 1000)),
  peakRssMb,
  rssBeforeMb: 100,
  roundsMs: [ms],
  ...(gcMs ? { gcMs } : {}),
});

const run = (...sizes: Array<TimeTravelFigures | { subscribers: number; years: number; error: string }>): Results => ({
  meta: { date: '2026-11-24T10:00:00.000Z', commit: 'abc', dirty: false, node: 'v20', cpus: 2, cpuModel: 'test', options: {} },
  timeTravel: Object.fromEntries(sizes.map((s) => [String(s.subscribers), s])),
  failed: {},
});

describe('the growth per doubling of subscribers, shown beside the time-travel figures', () => {
  it('reads 5× subscribers as doublings: 5× the time for 5× the subscribers is 2× per doubling; it is no criterion any more', () => {
    const [growth] = doublings(run(size(2000, 1000), size(10_000, 5000)));
    expect(growth).toMatchObject({ from: 2000, to: 10_000 });
    expect(growth!.times).toBeCloseTo(5, 10);
    expect(growth!.perDoubling).toBeCloseTo(2, 10);
    expect(judge(run(size(2000, 1000), size(10_000, 5000))).filter((v) => v.criterion.includes('doubling'))).toEqual([]);
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

describe('the criteria, judged on the median of the runs', () => {
  const tenThousand = (ms: number, peakRssMb = 800) => run(size(10_000, ms, undefined, peakRssMb));
  const verdict = (runs: Results[], name: string) => judgeMedian(runs).find((v) => v.criterion.startsWith(name))!;

  it("10,000 subscribers × 10 years < 5 s: 6.1 s, 4.2 s and 4.9 s have the median 4.9 s, met; every run's figure is shown", () => {
    expect(verdict([tenThousand(6100), tenThousand(4200), tenThousand(4900)], '10,000 subscribers × 10 years < 5 s')).toEqual({
      criterion: '10,000 subscribers × 10 years < 5 s',
      figure: 'median 4900 ms of 6100 ms, 4200 ms, 4900 ms',
      met: true,
    });
    expect(verdict([tenThousand(6100), tenThousand(4200), tenThousand(5000)], '10,000 subscribers × 10 years < 5 s').met).toBe(false);
  });

  it('10,000 subscribers × 10 years: peak RSS < 1 GB, on the median of the runs', () => {
    expect(verdict([tenThousand(4000, 900), tenThousand(4000, 1100), tenThousand(4000, 1000)], '10,000 subscribers × 10 years: peak RSS').met).toBe(true);
    expect(verdict([tenThousand(4000, 1030), tenThousand(4000, 1100), tenThousand(4000, 1000)], '10,000 subscribers × 10 years: peak RSS').met).toBe(false);
  });

  it('a run that failed a criterion counts as its worst figure: one failure of three still leaves a median', () => {
    const failed: Results = run({ subscribers: 10_000, years: 10, error: 'out of memory' });
    expect(verdict([tenThousand(4200), failed, tenThousand(4900)], '10,000 subscribers × 10 years < 5 s')).toMatchObject({ met: true, figure: 'median 4900 ms of 4200 ms, failed (out of memory), 4900 ms' });
    expect(verdict([failed, failed, tenThousand(4900)], '10,000 subscribers × 10 years < 5 s').met).toBe(false);
  });

  it('a request case is judged by the median share of the floor, which must be at least 80 % as printed', () => {
    const shares = (share: number): Results => ({
      ...run(),
      throughput: {
        seconds: 3,
        warmUpSeconds: 1,
        connections: 10,
        cases: {
          'list GET': {
            request: 'GET /api/v1/clients/',
            bytes: 100,
            servers: {
              simulator: { requestsPerSecond: share * 10_000, p99Ms: 4 } as LoadResult,
              floor: { requestsPerSecond: 10_000, p99Ms: 2 } as LoadResult,
              prism: { requestsPerSecond: 1000, p99Ms: 20 } as LoadResult,
            },
          },
        },
      },
    });
    expect(verdict([shares(0.79), shares(0.85), shares(0.801)], 'list GET: ≥ 80 %')).toMatchObject({ met: true, figure: 'median 80 % of 79 %, 85 %, 80 %' });
    expect(verdict([shares(0.79), shares(0.85), shares(0.799)], 'list GET: ≥ 80 %').met).toBe(false);
  });

  it('a criterion no run measured is "not measured", never met', () => {
    expect(verdict([run(), run(), run()], 'start-up')).toMatchObject({ met: undefined, figure: 'not measured' });
  });
});
