// The CLI, started before its arguments are known (test/support/spawn-sim.ts standbySim): loads
// the simulator's modules and better-sqlite3, reads one JSON line of arguments from stdin, then runs
// src/cli.ts with them, as `scripts/cli-from-source.js` would. The kill -9 trials start the next
// process this way while the current one takes writes, so twenty restarts do not cost twenty loads.

import '../../src/index.ts';
import 'better-sqlite3';
import { buildRouteTable } from '../../src/contract/routes.ts';
import { loadSpec } from '../../src/contract/spec.ts';

// Compiled once here and thrown away: the CLI's own compile then runs on warm code, as a second
// start in one process would.
buildRouteTable(loadSpec());

const args = await new Promise<string[]>((resolve) => {
  let text = '';
  process.stdin.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    if (text.includes('\n')) resolve(JSON.parse(text) as string[]);
  });
});
process.stdin.destroy();
process.argv = [process.argv[0]!, 'billing-sim', ...args];
await import('../../src/cli.ts');
