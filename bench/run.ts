// `npm run bench`: each benchmark in a fresh process (so peak RSS is its own), side by side, with
// ratios against its peer in the same run rather than absolute thresholds.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));

function run(name: string, args: string[]): Record<string, number> {
  const out = execFileSync(tsx, [script(name), ...args], { encoding: 'utf8', env: { ...process.env, NODE_NO_WARNINGS: '1' } });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

/** For a benchmark that prints its own table (and runs each side in a child of its own). */
function show(name: string): void {
  execFileSync(tsx, [script(name)], { stdio: 'inherit', env: { ...process.env, NODE_NO_WARNINGS: '1' } });
}

console.log('time travel: monthly subscribers with saved cards, advanced 10 years in one call');
const sizes = [1000, 2000];
const results = sizes.map((n) => run('time-travel.ts', [String(n), '10']));
console.table(
  results.map((r) => ({
    subscribers: r.subscribers,
    billings: r.billings,
    'advance ms': r.ms,
    'billings/s': r.billingsPerSecond,
    'peak RSS MB': r.peakRssMb,
    'RSS before MB': r.rssBeforeMb,
  })),
);
const [small, large] = results as [Record<string, number>, Record<string, number>];
console.log(
  `2× subscribers → ${(large.ms! / small.ms!).toFixed(2)}× time (linear would be 2.00×), ` +
    `${((large.peakRssMb! - large.rssBeforeMb!) / (small.peakRssMb! - small.rssBeforeMb!)).toFixed(2)}× memory growth`,
);

console.log('\nthroughput: autocannon, 10 connections, 4 s per case; the simulator beside prism mock on the same openapi.yaml');
const throughput = run('throughput.ts', ['4']) as unknown as { startupMs: [number, number]; cases: Record<string, [number, number]> };
console.table(
  Object.entries(throughput.cases).map(([request, [simulator, prism]]) => ({
    request,
    'simulator req/s': simulator,
    'prism mock req/s': prism,
    'simulator / prism': (simulator / prism).toFixed(2),
  })),
);
console.log(
  `start-up to the first answered request (in-process): simulator ${throughput.startupMs[0]} ms, prism ${throughput.startupMs[1]} ms`,
);

console.log('\nstart-up from compiled JS to the first answered request, beside a bare node:http server (the floor)');
show('startup.ts');

console.log('\npersistence: in memory beside --data (a temporary SQLite file); 1,000 monthly subscribers with saved cards, over HTTP');
show('persistence.ts');

console.log('\nbounded work: /healthz and another sandbox while 1,000 subscribers are advanced 35 years (the simulator in a child process)');
show('bounded.ts');
