// Two runs of `npm run bench` side by side: every number of the two results files, by its path in
// the file, with the change from A to B in %. `compare.ts A.json B.json` (or `npm run bench --
// --compare A.json B.json`). Whether a change is better depends on the figure (req/s up, ms down):
// the sign is only the direction. A figure in one file only is shown with the other side empty.
// Three or more files: the criteria judged on the median of their figures (bench/criteria.ts), each
// criterion with every file's figure.

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { judgeMedian, printVerdicts } from './criteria.ts';
import type { Results } from './results.ts';

/** Every number below `value`, keyed by its dotted path: `throughput.cases.list GET.servers.floor.p99Ms`. */
function numbers(value: unknown, path = '', into = new Map<string, number>()): Map<string, number> {
  if (typeof value === 'number') into.set(path, value);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) numbers(inner, path ? `${path}.${key}` : key, into);
  }
  return into;
}

/** The parts of a section that failed, such as a time-travel size the engine refused. */
function errors(value: unknown, path = ''): Array<[string, string]> {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]): Array<[string, string]> =>
    key === 'error' && typeof inner === 'string' ? [[path, inner]] : errors(inner, path ? `${path}.${key}` : key),
  );
}

const describe = ({ meta }: Results) =>
  `${meta.date}  ${meta.commit.slice(0, 10)}${meta.dirty ? ' (with uncommitted changes)' : ''}  node ${meta.node}, ${meta.cpus} cpus`;

export function compare(...files: string[]): void {
  const runs = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as Results);
  if (runs.length > 2) {
    runs.forEach((run, i) => console.log(`${i + 1}  ${describe(run)}`));
    console.log(`\ncriteria, each on the median of the ${runs.length} runs' figures`);
    printVerdicts(judgeMedian(runs));
    return;
  }
  const [a, b] = runs as [Results, Results];
  console.log(`A  ${describe(a)}\nB  ${describe(b)}\n`);
  // The run's options (seconds, sizes, cpus) are context, not figures.
  const [left, right] = [a, b].map(({ meta, ...figures }) => numbers(figures));
  const paths = [...new Set([...left!.keys(), ...right!.keys()])];
  const width = Math.max(...paths.map((path) => path.length));
  const cell = (value: number | undefined) => (value === undefined ? '' : String(value)).padStart(10);
  console.log(`${'figure'.padEnd(width)}  ${'A'.padStart(10)}  ${'B'.padStart(10)}  change`);
  for (const path of paths) {
    const [x, y] = [left!.get(path), right!.get(path)];
    // Counts of errors and non-2xx answers are 0 in a run that counts: shown only when they are not.
    if (!x && !y) continue;
    const change = x === undefined || y === undefined ? '' : x === 0 ? (y === 0 ? '0 %' : 'new') : `${y >= x ? '+' : ''}${(((y - x) / x) * 100).toFixed(1)} %`;
    console.log(`${path.padEnd(width)}  ${cell(x)}  ${cell(y)}  ${change}`);
  }
  for (const [name, run] of [['A', a], ['B', b]] as const) {
    for (const [section, reason] of Object.entries(run.failed)) console.log(`${name}: ${section} failed: ${reason}`);
    for (const [path, reason] of errors(run)) console.log(`${name}: ${path} failed: ${reason}`);
  }
}

// Run as a script; bench/run.ts imports `compare` for `--compare`.
if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const files = process.argv.slice(2);
  if (files.length < 2) throw new Error('usage: compare.ts A.json B.json [C.json …]');
  compare(...files);
}
