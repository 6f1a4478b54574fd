// The figures of one `npm run bench`, as written to bench/results/<time>.json and read back by
// bench/compare.ts. Every section is optional: a section that failed has its reason in `failed`
// instead, and `--only` leaves the others out.

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from './load.ts';
import { ROOT } from './spawn.ts';

export interface TimeTravelFigures {
  subscribers: number;
  years: number;
  /** The advance of the median round (bench/run.ts), with that round's billings/s and RSS before. */
  ms: number;
  billings: number;
  billingsPerSecond: number;
  /** The highest of the rounds: the criterion is a ceiling, so no round may pass it unseen. */
  peakRssMb: number;
  rssBeforeMb: number;
  /**
   * The garbage collector's pauses within the advance: minor (scavenges), major (mark-compact and
   * its incremental marking steps). The rest of `ms` is the engine's own code. Absent in older files.
   */
  gcMs?: { minor: number; major: number };
  /** The newest page of purchases after the advance: the first list (which puts them in order), then the median of five. */
  firstListMs?: number;
  listMs?: number;
  /** Every round's advance, in the order they ran. */
  roundsMs: number[];
}

/** What bench/time-travel.ts prints for one round. */
export type RoundFigures = Omit<TimeTravelFigures, 'roundsMs'>;

/**
 * The round whose `value` is the median: the upper of the middle two for an even count. A round's
 * figures stay together (the median round's latencies, its RSS before), rather than medians of each.
 */
export function medianBy<T>(rounds: readonly T[], value: (round: T) => number): T {
  if (rounds.length === 0) throw new Error('no rounds to take a median of');
  return [...rounds].sort((a, b) => value(a) - value(b))[Math.floor(rounds.length / 2)]!;
}

/**
 * The figures of one size's rounds: those of the round with the median advance (the slower of the
 * middle two for an even count), every round's time beside them, and the highest peak RSS.
 */
export function medianRound(rounds: RoundFigures[]): TimeTravelFigures {
  const median = medianBy(rounds, (round) => round.ms);
  return { ...median, peakRssMb: Math.max(...rounds.map((r) => r.peakRssMb)), roundsMs: rounds.map((r) => r.ms) };
}

export type ServerName = 'simulator' | 'prism' | 'floor';

/** One request case of bench/throughput.ts, keyed by its short name (`object GET`). */
export interface CaseFigures {
  /** `GET /api/v1/billing_templates/{id}/` */
  request: string;
  /** Size of the simulator's answer, which the floor answers too. */
  bytes: number;
  servers: Partial<Record<ServerName, LoadResult>>;
  /** Every round's req/s of each server, in the order the rounds ran. */
  roundsPerSecond?: Partial<Record<ServerName, number[]>>;
  /** Why the case has no figures, such as an answer that was not 2xx. */
  error?: string;
}

/** What bench/record.ts prints last. */
export interface RecordFigures {
  exchanges: number;
  cases: Record<string, { request: string; plain: LoadResult; recording: LoadResult; ratio: number; rounds: { plain: number[]; recording: number[] } }>;
  /** Entries in the recording when the recording proxy stopped, against the measured exchanges sent through it (the warm-ups are recorded too). */
  recorded: number;
  sent: number;
}

export interface Results {
  meta: {
    date: string;
    commit: string;
    /** Uncommitted changes in the working tree: the figures are of more than `commit`. */
    dirty: boolean;
    node: string;
    cpus: number;
    cpuModel: string;
    options: Record<string, unknown>;
  };
  throughput?: {
    seconds: number;
    warmUpSeconds: number;
    connections: number;
    cases: Record<string, CaseFigures>;
  };
  /** By number of subscribers; a size the engine refused or that crashed has `error`. */
  timeTravel?: Record<string, TimeTravelFigures | { subscribers: number; years: number; error: string }>;
  /** By number of subscribers: the advance without settlement and with settlement P1D, and on/off ratios. */
  settlement?: Record<string, { off: TimeTravelFigures; on: TimeTravelFigures; timeRatio: number; rssRatio: number }>;
  startup?: { simulatorMs: number; npmStartMs: number; floorMs: number };
  /** Against a simulator of its own; `proxied`: through a proxy answering at once and one holding each answer `delay` ms. */
  contract?: { ms: number; passed: number; failed: number; skipped: number; warnings: number; proxied?: { ms: number; delayedMs: number; delay: number } };
  /** `billing-sim proxy` in front of the simulator without and with --record: each case's medians and with/without ratio. */
  record?: RecordFigures;
  persistence?: Record<string, unknown>;
  bounded?: Record<string, unknown>;
  /** Sections that did not finish, with the reason. */
  failed: Record<string, string>;
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

export function meta(options: Record<string, unknown>): Results['meta'] {
  let commit = 'unknown';
  let dirty = false;
  try {
    commit = git('rev-parse', 'HEAD');
    dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
  } catch {
    // Not a git checkout (an unpacked tarball): the figures still stand, without a commit.
  }
  return {
    date: new Date().toISOString(),
    commit,
    dirty,
    node: process.version,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    options,
  };
}

/** Writes the run to bench/results/<ISO time>.json (colons as dashes, for every file system) and answers its path. */
export function save(results: Results): string {
  const folder = fileURLToPath(new URL('results/', import.meta.url));
  mkdirSync(folder, { recursive: true });
  const file = `${folder}${results.meta.date.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}.json`;
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}
