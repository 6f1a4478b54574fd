// Wall time of the contract suite as a user runs it against the simulator: `node dist/src/cli.js
// contract` (without --base-url it starts a simulator of its own), from spawn to exit. The run
// counts only if it exits 0, so a suite that got faster by failing early is never reported as fast.
// Prints one line, and the figures as JSON last: { ms, passed, failed, skipped, warnings }.

import { spawn } from 'node:child_process';
import { CLI, ROOT } from './spawn.ts';

const started = performance.now();
const child = spawn(process.execPath, [CLI, 'contract'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
let out = '';
child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
const status = await new Promise<number | string>((resolve) => child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
const ms = Math.round(performance.now() - started);
if (status !== 0) {
  console.error(out.trim().split('\n').slice(-30).join('\n'));
  throw new Error(`the contract suite exited ${status} after ${ms} ms (must be 0)`);
}
const totals = /(\d+) passed, (\d+) failed, (\d+) skipped, (\d+) warnings/.exec(out);
if (!totals) throw new Error(`the contract suite printed no totals line:\n${out.slice(-2000)}`);
const [passed, failed, skipped, warnings] = totals.slice(1).map(Number) as [number, number, number, number];
console.log(`node dist/src/cli.js contract: exit 0 in ${ms} ms; ${totals[0]}`);
console.log(JSON.stringify({ ms, passed, failed, skipped, warnings }));
