// scripts/test-profile.js (`npm run test:profile`): from vitest's JSON report, the slowest files (start to end,
// beforeAll included) and tests, slowest first, and the files' time added up beside the run's wall time.

import { describe, expect, it } from 'vitest';
import { format, mostCpu, slowest } from '../../scripts/test-profile.js';

const report = {
  numTotalTests: 4,
  testResults: [
    { name: '/repo/test/a.test.ts', startTime: 1_000, endTime: 3_500, assertionResults: [{ fullName: 'a one', duration: 2_000 }, { fullName: 'a two', duration: 100 }] },
    { name: '/repo/test/b.test.ts', startTime: 1_000, endTime: 81_000, assertionResults: [{ fullName: 'b one', duration: 30_000 }] },
    // A test that did not run (skipped, or its file failed to load) has no duration.
    { name: '/repo/test/c.test.ts', startTime: 2_000, endTime: 2_040, assertionResults: [{ fullName: 'c skipped', duration: null }] },
  ],
};

describe('test:profile', () => {
  it('lists the slowest files by their start to end, and the slowest tests, slowest first, as many as asked', () => {
    const summary = slowest(report, 2, '/repo');
    expect(summary).toEqual({
      fileCount: 3,
      testCount: 4,
      fileMs: 82_540,
      files: [{ file: 'test/b.test.ts', ms: 80_000 }, { file: 'test/a.test.ts', ms: 2_500 }],
      tests: [{ file: 'test/b.test.ts', test: 'b one', ms: 30_000 }, { file: 'test/a.test.ts', test: 'a one', ms: 2_000 }],
    });
  });

  it('prints seconds with one decimal, aligned, the wall time beside the files\' time', () => {
    expect(format(slowest(report, 1, '/repo'), 95_000).split('\n')).toEqual([
      '3 files, 4 tests: 95.0 s wall, 82.5 s of file time in the workers',
      'Slowest files (start to end, beforeAll included):',
      '   80.0 s  test/b.test.ts',
      'Slowest tests:',
      '   30.0 s  test/b.test.ts > b one',
    ]);
  });

  const cpuLines = [
    { file: '/repo/test/a.test.ts', ownMs: 1_200, childrenMs: 0 },
    { file: '/repo/test/b.test.ts', ownMs: 3_000, childrenMs: 40_000 },
    { file: '/repo/test/c.test.ts', ownMs: 9_000, childrenMs: 100 },
  ];

  it('lists the files that used the most CPU, their own and their processes\' added, most first, with the total', () => {
    expect(mostCpu(cpuLines, 2, '/repo')).toEqual({
      totalMs: 53_300,
      files: [
        { file: 'test/b.test.ts', ownMs: 3_000, childrenMs: 40_000, ms: 43_000 },
        { file: 'test/c.test.ts', ownMs: 9_000, childrenMs: 100, ms: 9_100 },
      ],
    });
  });

  it('prints the files by CPU after the slowest tests, each with its own and its processes\' part', () => {
    expect(format(slowest(report, 1, '/repo'), 95_000, mostCpu(cpuLines, 2, '/repo')).split('\n').slice(5)).toEqual([
      'Most CPU (53.3 s in all: each file\'s worker, + the processes it started, from its start to its end):',
      '   43.0 s  (3.0 + 40.0)    test/b.test.ts',
      '    9.1 s  (9.0 + 0.1)     test/c.test.ts',
    ]);
  });
});
