// The performance criteria (issues 14 and 30), judged on one run's figures or on the median of several
// runs (`npm run bench -- --runs 3`, or three results files given to bench/compare.ts): on a shared
// 2-core machine one run's figure of a case ranged from 46 % to 171 % of another's, so a verdict rests
// on the median. The bench is informational: an unmet criterion is printed, never turned into an exit
// status. A figure that was not measured is "not measured", never "met".

import type { LoadResult } from './load.ts';
import type { Results, TimeTravelFigures } from './results.ts';

export interface Verdict {
  criterion: string;
  figure: string;
  met: boolean | undefined;
}

/** A criterion's figure in one run: the number it is judged on, and how it reads; `failed` when the run could not give one. */
type Measure = { value: number; figure: string } | { failed: string } | undefined;

interface Criterion {
  name: string;
  measure(results: Results): Measure;
  pass(value: number): boolean;
}

const FLOOR_SHARE = 0.8;
const PRISM_TIMES = 2.5;
const P99_MS = 10;
const STARTUP_MS = 300;
const BOUNDED_P99_MS = 50;
const BOUNDED_SUBSCRIBERS = 1000;
const BOUNDED_YEARS = 100;
/** Issue 41: through a proxy delaying each answer 50 ms, the contract suite takes at most this much longer. */
const LATENCY_COST_MS = 60_000;

/** Issue 43: what `billing-sim proxy --record` may cost the proxy's throughput, on the worst of bench/record.ts's cases. */
const RECORD_COST = 0.1;

/** Rounded down, so that a figure printed as 80 % or 2.50× has met its bar. */
const percent = (share: number) => `${Math.floor(share * 100)} %`;
const times = (ratio: number) => `${(Math.floor(ratio * 100) / 100).toFixed(2)}×`;

/** The criteria a run's figures are judged by; the request cases come from the run(s) given, as each names its own. */
export function criteria(runs: Results[]): Criterion[] {
  const labels = [...new Set(runs.flatMap((run) => Object.keys(run.throughput?.cases ?? {})))];
  return [
    ...(labels.length ? labels.flatMap(requestCriteria) : [notMeasured('request cases')]),
    timeTravel(1000, '1,000 subscribers × 10 years < 1 s', (s) => ({ value: s.ms, figure: `${s.ms} ms` }), (ms) => ms < 1000),
    timeTravel(10_000, '10,000 subscribers × 10 years < 5 s', (s) => ({ value: s.ms, figure: `${s.ms} ms` }), (ms) => ms < 5000),
    timeTravel(10_000, '10,000 subscribers × 10 years: peak RSS < 1 GB', (s) => ({ value: s.peakRssMb, figure: `${s.peakRssMb} MB` }), (mb) => mb < 1024),
    {
      name: `start-up to the first answer < ${STARTUP_MS} ms (compiled, node dist/src/cli.js serve)`,
      measure: ({ startup }) => startup && { value: startup.simulatorMs, figure: `${startup.simulatorMs} ms` },
      pass: (ms) => ms < STARTUP_MS,
    },
    ...(['memory', 'data'] as const).map(bounded),
    {
      name: `recording costs the proxy ≤ ${RECORD_COST * 100} % of its throughput (10,000 exchanges per case, with and without --record)`,
      measure: ({ record }) => {
        const worst = record && Object.entries(record.cases).sort(([, a], [, b]) => a.ratio - b.ratio)[0];
        if (!worst) return undefined;
        const [name, { plain, recording, ratio }] = worst;
        // Rounded up, so that a cost printed as 10 % has met its bar only when it is 10 % or less.
        return { value: 1 - ratio, figure: `${Math.ceil((1 - ratio) * 100)} % (${name}: ${plain.requestsPerSecond} → ${recording.requestsPerSecond} req/s)` };
      },
      pass: (cost) => cost <= RECORD_COST,
    },
    {
      name: `contract suite through a proxy delaying each answer 50 ms: at most ${LATENCY_COST_MS / 1000} s more than without the delay`,
      measure: ({ contract }) => {
        const proxied = contract?.proxied;
        return proxied && { value: proxied.delayedMs - proxied.ms, figure: `+${((proxied.delayedMs - proxied.ms) / 1000).toFixed(1)} s (${proxied.ms} → ${proxied.delayedMs} ms)` };
      },
      pass: (ms) => ms <= LATENCY_COST_MS,
    },
  ];
}

function notMeasured(name: string): Criterion {
  return { name, measure: () => undefined, pass: () => false };
}

type Servers = { simulator: LoadResult; floor: LoadResult; prism: LoadResult };

function requestCriteria(label: string): Criterion[] {
  /** The case's three servers in a run; `failed` when one is missing or the case failed. */
  const servers = (results: Results): Servers | { failed: string } | undefined => {
    const found = results.throughput?.cases[label];
    if (!found) return undefined;
    const { simulator, floor, prism } = found.servers;
    if (found.error || !simulator || !floor || !prism) return { failed: found.error ?? 'not all three servers measured' };
    return { simulator, floor, prism };
  };
  const ratio = (name: string, of: (s: Servers) => number, show: (n: number) => string, pass: (n: number) => boolean): Criterion => ({
    name: `${label}: ${name}`,
    measure: (results) => {
      const found = servers(results);
      if (!found || 'failed' in found) return found;
      const value = of(found);
      return { value, figure: show(value) };
    },
    pass,
  });
  return [
    ratio(`≥ ${FLOOR_SHARE * 100} % of the Express floor`, (s) => s.simulator.requestsPerSecond / s.floor.requestsPerSecond, percent, (share) => Math.floor(share * 100) >= FLOOR_SHARE * 100),
    ratio(`≥ ${PRISM_TIMES}× prism mock`, (s) => s.simulator.requestsPerSecond / s.prism.requestsPerSecond, times, (n) => Math.floor(n * 100) >= PRISM_TIMES * 100),
    ratio(`p99 < ${P99_MS} ms`, (s) => s.simulator.p99Ms, (ms) => `${ms} ms`, (ms) => ms < P99_MS),
  ];
}

function timeTravel(subscribers: number, name: string, of: (s: TimeTravelFigures) => { value: number; figure: string }, pass: (n: number) => boolean): Criterion {
  return {
    name,
    measure: ({ timeTravel }) => {
      const size = timeTravel?.[String(subscribers)];
      if (!size) return undefined;
      return 'error' in size ? { failed: size.error } : of(size);
    },
    pass,
  };
}

/** Bounded work (DESIGN §6), in memory or with --data: the higher p99 of /healthz and of another sandbox's GET. */
function bounded(where: 'memory' | 'data'): Criterion {
  return {
    name: `${BOUNDED_SUBSCRIBERS.toLocaleString('en')} subscribers × ${BOUNDED_YEARS} years advanced${where === 'data' ? ' with --data' : ' in memory'}: p99 of /healthz and of another sandbox < ${BOUNDED_P99_MS} ms`,
    measure: ({ bounded }) => {
      const figures = (bounded as Record<string, BoundedFigures | { error: string }> | undefined)?.[where];
      if (!figures) return undefined;
      if ('error' in figures) return { failed: figures.error };
      const value = Math.max(figures.health[1], figures.other[1]);
      return { value, figure: `${figures.health[1]} / ${figures.other[1]} ms` };
    },
    pass: (ms) => ms < BOUNDED_P99_MS,
  };
}

/** What bench/bounded.ts prints last: p50 and p99 of each, in ms. */
export interface BoundedFigures {
  billings: number;
  advanceMs: number;
  health: [number, number];
  other: [number, number];
  rssBefore: number;
  peakRss: number;
}

export function judge(results: Results): Verdict[] {
  return criteria([results]).map(({ name, measure, pass }) => {
    const measured = measure(results);
    if (!measured) return { criterion: name, figure: 'not measured', met: undefined };
    if ('failed' in measured) return { criterion: name, figure: measured.failed, met: false };
    return { criterion: name, figure: measured.figure, met: pass(measured.value) };
  });
}

/**
 * Each criterion judged on the median of the runs' figures (the middle one of three; the upper of the
 * middle two of an even count), its figure listing every run's. A run that failed a criterion counts
 * as the worst figure; one that did not measure it is left out.
 */
export function judgeMedian(runs: Results[]): Verdict[] {
  return criteria(runs).map(({ name, measure, pass }) => {
    const measured = runs.map(measure);
    const figures = measured.map((m) => (m === undefined ? '—' : 'failed' in m ? `failed (${m.failed})` : m.figure));
    const values = measured.filter((m): m is { value: number; figure: string } => m !== undefined && !('failed' in m)).map((m) => m.value);
    const failures = measured.filter((m) => m !== undefined && 'failed' in m).length;
    if (values.length + failures === 0) return { criterion: name, figure: 'not measured', met: undefined };
    // A failed run sorts as the worst: on the side where `pass` fails.
    const worst = pass(Number.POSITIVE_INFINITY) ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    const sorted = [...values, ...Array<number>(failures).fill(worst)].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const shown = Number.isFinite(median) ? (measured.find((m) => m && !('failed' in m) && m.value === median) as { figure: string }).figure : 'failed';
    return { criterion: name, figure: `median ${shown} of ${figures.join(', ')}`, met: Number.isFinite(median) && pass(median) };
  });
}

/** Time of each size against the next smaller one: information printed with the time-travel figures, no longer a criterion. */
export function measuredSizes({ timeTravel }: Results): TimeTravelFigures[] {
  return Object.values(timeTravel ?? {})
    .filter((size): size is TimeTravelFigures => !('error' in size))
    .sort((a, b) => a.subscribers - b.subscribers);
}

export interface Doubling {
  from: number;
  to: number;
  /** The larger size's time over the smaller's. */
  times: number;
  perDoubling: number;
  /** How the garbage collector's pauses and the code between them grew, each as `times`; absent without both sizes' pauses. */
  parts?: { code: number; gc: number };
}

/**
 * Time of each size against the next smaller one, as the growth per doubling of subscribers, so that
 * 10,000 against 2,000 (5×) reads on the same scale as 2,000 against 1,000. It was a criterion ("≤ 2.1×
 * per doubling") until issue 30: the growth is V8's collector at a million retained purchases, and what a
 * user feels is the absolute time, which the 10,000 criterion judges.
 */
export function doublings(results: Results): Doubling[] {
  const sizes = measuredSizes(results);
  return sizes.slice(1).map((large, i) => {
    const small = sizes[i]!;
    const ratio = large.ms / small.ms;
    const growth: Doubling = { from: small.subscribers, to: large.subscribers, times: ratio, perDoubling: ratio ** (1 / Math.log2(large.subscribers / small.subscribers)) };
    if (small.gcMs && large.gcMs) {
      const gc = (size: TimeTravelFigures) => size.gcMs!.minor + size.gcMs!.major;
      growth.parts = { code: (large.ms - gc(large)) / (small.ms - gc(small)), gc: gc(large) / gc(small) };
    }
    return growth;
  });
}

export function printVerdicts(verdicts: Verdict[]): void {
  const width = Math.max(...verdicts.map((v) => v.criterion.length));
  for (const { criterion, figure, met } of verdicts) {
    const mark = met === undefined ? '  ?  not measured' : met ? '  ✓  met         ' : '  ✗  NOT MET     ';
    console.log(`${mark}  ${criterion.padEnd(width)}  ${figure}`);
  }
  const count = (met: boolean | undefined) => verdicts.filter((v) => v.met === met).length;
  console.log(`\n${count(true)} met, ${count(false)} not met, ${count(undefined)} not measured (informational: the exit status stays 0)`);
}
