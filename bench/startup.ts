// Start-up to the first answered request, from compiled JS (`npm run build` first), as a user
// starts it: `node dist/src/cli.js serve` (what `npx billing-sim serve` runs) and `npm start`,
// beside the floor: a bare node:http server in a process of its own. Each is started RUNS times
// in turn; the median and the fastest are printed, and the ratio to the floor.
// Prints one JSON line last: { simulatorMs, npmStartMs, floorMs } (medians).

import { existsSync } from 'node:fs';
import { CLI, startServer } from './spawn.ts';

const RUNS = Number(process.argv[2] ?? 7);

const FLOOR = `const server = require('node:http').createServer((req, res) => res.end('ok'));
server.listen(0, '127.0.0.1', () => console.log('API base URL http://127.0.0.1:' + server.address().port + '/api/v1/'));`;

/** Milliseconds from spawning `command` to the answer of its first request (/healthz). */
async function firstAnswer(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  const server = await startServer(command, args, { env: { BILLING_SIM_PORT: '0', BILLING_SIM_QUIET: '1' } });
  try {
    const res = await fetch(`${server.origin}/healthz`);
    if (res.status !== 200) throw new Error(`${command}: /healthz answered ${res.status}`);
    return performance.now() - started;
  } finally {
    await server.stop();
  }
}

if (!existsSync(CLI)) throw new Error('dist/src/cli.js is missing: run `npm run build` first');
const cases: Record<string, [string, string[]]> = {
  'node dist/src/cli.js serve': [process.execPath, [CLI, 'serve']],
  'npm start': ['npm', ['start', '--silent']],
  'floor: bare node:http': [process.execPath, ['-e', FLOOR]],
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
// Interleaved, so a busy moment of the machine falls on every case alike.
for (let run = 0; run < RUNS; run += 1) {
  for (const [name, [command, args]] of Object.entries(cases)) times[name]!.push(await firstAnswer(command, args));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const floor = median(times['floor: bare node:http']!);
console.table(
  Object.entries(times).map(([name, values]) => ({
    'started as': name,
    'median ms': Math.round(median(values)),
    'fastest ms': Math.round(Math.min(...values)),
    '× floor': (median(values) / floor).toFixed(1),
  })),
);
console.log(
  JSON.stringify({
    simulatorMs: Math.round(median(times['node dist/src/cli.js serve']!)),
    npmStartMs: Math.round(median(times['npm start']!)),
    floorMs: Math.round(floor),
  }),
);
