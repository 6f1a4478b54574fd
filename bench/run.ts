// `npm run bench`: every benchmark in a fresh process (so peak RSS is its own, and no server shares
// its event loop with the load generator), peers side by side in the same run, every figure saved to
// bench/results/<time>.json, and the criteria (bench/criteria.ts) judged last: on the median of the
// runs with --runs. Informational: it exits 0 when a criterion is not met, and a section that fails is
// reported and skipped, not fatal.
//   --runs N           the whole bench N times, each saved; the criteria judged on the medians (default 1)
//   --quick            1 s per request case, time travel of 1,000 and 2,000 only, no persistence or bounded
//   --seconds N        seconds per request case and round (default 3; BENCH_SECONDS)
//   --rounds N         rounds per request case and time-travel size, the median kept (default 3; 1 with --quick)
//   --only A,B         only these sections: throughput, time-travel, settlement, startup, contract, record, persistence, bounded
//   --compare A B…     compare two results files, or judge three or more by their medians, instead of running (bench/compare.ts)

import { parseArgs } from 'node:util';
import { compare } from './compare.ts';
import { doublings, judge, judgeMedian, printVerdicts } from './criteria.ts';
import { medianRound, meta, save, type Results, type RoundFigures } from './results.ts';
import { runScript, ScriptFailed } from './spawn.ts';

const SECTIONS = ['throughput', 'time-travel', 'settlement', 'startup', 'contract', 'record', 'persistence', 'bounded'] as const;
type Section = (typeof SECTIONS)[number];

const { values: flags, positionals } = parseArgs({
  options: { quick: { type: 'boolean' }, seconds: { type: 'string' }, rounds: { type: 'string' }, runs: { type: 'string' }, only: { type: 'string' }, compare: { type: 'boolean' } },
  allowPositionals: true,
});
if (flags.compare) {
  if (positionals.length < 2) throw new Error('usage: npm run bench -- --compare A.json B.json [C.json …]');
  compare(...positionals);
  process.exit(0);
}

const quick = flags.quick ?? false;
const options = {
  quick,
  seconds: Number(flags.seconds ?? process.env.BENCH_SECONDS ?? (quick ? 1 : 3)),
  rounds: Number(flags.rounds ?? (quick ? 1 : 3)),
  runs: Number(flags.runs ?? 1),
  warmUpSeconds: quick ? 0.5 : 1,
  subscribers: quick ? [1000, 2000] : [1000, 2000, 10_000],
  startupRuns: quick ? 3 : 7,
  sections: (flags.only?.split(',') ?? SECTIONS.filter((s) => !quick || (s !== 'persistence' && s !== 'bounded'))) as Section[],
};
// A count the loops below would take as zero rounds (NaN, 0) or an endless run: refused before anything starts.
if (!Number.isInteger(options.rounds) || options.rounds < 1) throw new Error(`--rounds takes a whole number of 1 or more, not ${flags.rounds}`);
if (!Number.isInteger(options.runs) || options.runs < 1) throw new Error(`--runs takes a whole number of 1 or more, not ${flags.runs}`);
if (!(options.seconds > 0)) throw new Error(`--seconds (BENCH_SECONDS) takes a number above 0, not ${flags.seconds ?? process.env.BENCH_SECONDS}`);
const unknown = options.sections.filter((s) => !SECTIONS.includes(s));
if (unknown.length > 0) throw new Error(`unknown section ${unknown.join(', ')}; the sections are ${SECTIONS.join(', ')}`);

let results: Results = { meta: meta(options), failed: {} };

const run: Record<Section, () => Promise<void>> = {
  throughput: async () => {
    console.log(`request throughput: autocannon in a process of its own, 10 connections, ${options.seconds} s per case after ${options.warmUpSeconds} s of warm-up, ${options.rounds} rounds in a rotating order (the median round kept);`);
    console.log('the simulator (compiled), prism mock on the same openapi.yaml, and the Express floor answering the same bodies, each in its own process');
    results.throughput = await runScript('throughput.ts', [String(options.seconds), String(options.warmUpSeconds), String(options.rounds)], true);
  },
  'time-travel': async () => {
    console.log(`time travel: monthly subscribers with saved cards, advanced 10 years in one call, each size in a fresh process; ${options.rounds} rounds, the sizes in turn in each, the median round of each size kept`);
    results.timeTravel = {};
    const rounds = new Map<number, RoundFigures[]>(options.subscribers.map((subscribers) => [subscribers, []]));
    for (let round = 0; round < options.rounds; round += 1) {
      for (const subscribers of options.subscribers) {
        // A size refused or crashed once is reported as such; its later rounds would only repeat it.
        if (results.timeTravel[subscribers]) continue;
        try {
          rounds.get(subscribers)!.push(await runScript<RoundFigures>('time-travel.ts', [String(subscribers), '10']));
        } catch (error) {
          if (!(error instanceof ScriptFailed)) throw error;
          results.timeTravel[subscribers] = { subscribers, years: 10, error: error.message };
        }
      }
    }
    for (const [subscribers, figures] of rounds) results.timeTravel[subscribers] ??= medianRound(figures);
    console.table(
      Object.values(results.timeTravel).map((r) =>
        'error' in r
          ? { subscribers: r.subscribers, billings: 'REFUSED OR FAILED', 'advance ms': r.error }
          : { subscribers: r.subscribers, billings: r.billings, 'advance ms': r.ms, 'rounds ms': r.roundsMs.join(', '), 'billings/s': r.billingsPerSecond, 'GC ms (minor/major)': r.gcMs ? `${r.gcMs.minor} / ${r.gcMs.major}` : '', 'peak RSS MB': r.peakRssMb, 'RSS before MB': r.rssBeforeMb, 'list ms (first)': `${r.listMs} (${r.firstListMs})` },
      ),
    );
    for (const { from, to, times, perDoubling, parts } of doublings(results)) {
      const split = parts ? `: the code between GC pauses ${parts.code.toFixed(2)}×, the pauses ${parts.gc.toFixed(2)}×` : '';
      console.log(`${from} → ${to} subscribers: ${times.toFixed(2)}× time (linear: ${(to / from).toFixed(2)}×), ${perDoubling.toFixed(2)}× per doubling${split}`);
    }
  },
  settlement: async () => {
    // PUT /sim/v1/processing {"settlement": "P1D"} adds a settlement job per billing; off, it must cost nothing.
    const sizes = quick ? [1000] : [1000, 10_000];
    console.log(`settlement: the time-travel advance with settlement P1D beside without (the default), ${options.rounds} rounds alternating the two, the median of each kept`);
    const figures: Record<string, { off: RoundFigures[]; on: RoundFigures[] }> = {};
    for (let round = 0; round < options.rounds; round += 1) {
      for (const subscribers of sizes) {
        const size = (figures[subscribers] ??= { off: [], on: [] });
        size.off.push(await runScript<RoundFigures>('time-travel.ts', [String(subscribers), '10']));
        size.on.push(await runScript<RoundFigures>('time-travel.ts', [String(subscribers), '10', 'P1D']));
      }
    }
    results.settlement = Object.fromEntries(
      Object.entries(figures).map(([subscribers, { off, on }]) => {
        const [offMedian, onMedian] = [medianRound(off), medianRound(on)];
        return [subscribers, { off: offMedian, on: onMedian, timeRatio: onMedian.ms / offMedian.ms, rssRatio: onMedian.peakRssMb / offMedian.peakRssMb }];
      }),
    );
    console.table(
      Object.entries(results.settlement).map(([subscribers, r]) => ({
        subscribers,
        'off ms': r.off.ms,
        'on ms': r.on.ms,
        'on/off time': r.timeRatio.toFixed(2),
        'off peak RSS MB': r.off.peakRssMb,
        'on peak RSS MB': r.on.peakRssMb,
        'on/off RSS': r.rssRatio.toFixed(2),
      })),
    );
  },
  startup: async () => {
    console.log('start-up from compiled JS to the first answered request, beside a bare node:http server (the floor)');
    results.startup = await runScript('startup.ts', [String(options.startupRuns)], true);
  },
  contract: async () => {
    console.log('contract suite: wall time of `node dist/src/cli.js contract`, spawn to exit: a simulator of its own, then through a proxy answering at once and through one delaying each answer 50 ms');
    results.contract = await runScript('contract.ts', [], true);
  },
  record: async () => {
    console.log(`recording: billing-sim proxy (compiled) in front of the simulator, without and with --record, 10,000 exchanges per case and round after 1,000 of warm-up, ${options.rounds} rounds alternating the two, the median of each kept`);
    results.record = await runScript('record.ts', [String(options.rounds)], true);
  },
  persistence: async () => {
    console.log('persistence: in memory beside --data (a temporary SQLite file); 1,000 monthly subscribers with saved cards, over HTTP');
    results.persistence = await runScript('persistence.ts', [], true);
  },
  bounded: async () => {
    console.log('bounded work: /healthz and another sandbox while 1,000 subscribers are advanced 100 years (the simulator in a child process), in memory, then with --data');
    const bounded: Record<string, unknown> = {};
    results.bounded = bounded;
    for (const where of ['memory', 'data'] as const) {
      try {
        bounded[where] = await runScript('bounded.ts', ['1000', '100', ...(where === 'data' ? ['data'] : [])], true);
      } catch (error) {
        if (!(error instanceof ScriptFailed)) throw error;
        bounded[where] = { error: error.message };
      }
    }
  },
};

const runs: Results[] = [];
for (let n = 1; n <= options.runs; n += 1) {
  if (options.runs > 1) console.log(`\n=== run ${n} of ${options.runs}`);
  results = { meta: meta(options), failed: {} };
  for (const section of options.sections) {
    console.log('');
    const started = performance.now();
    try {
      await run[section]();
    } catch (error) {
      results.failed[section] = (error as Error).message;
      console.log(`!!! ${section} FAILED: ${results.failed[section]}`);
    }
    console.log(`(${section}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
  console.log(`\ncriteria${options.runs > 1 ? `, run ${n} alone` : ''}`);
  printVerdicts(judge(results));
  for (const [section, reason] of Object.entries(results.failed)) console.log(`section ${section} failed: ${reason}`);
  console.log(`\nevery figure: ${save(results).replace(process.cwd() + '/', '')}`);
  runs.push(results);
}
if (runs.length > 1) {
  console.log(`\ncriteria, each on the median of the ${runs.length} runs' figures`);
  printVerdicts(judgeMedian(runs));
}
