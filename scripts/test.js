#!/usr/bin/env node
// `npm test [-- vitest args]`: every vitest file (test/, src/**/*.test.ts), and the whole contract suite against
// the simulator (`npm run contract`), both at once. Each leaves a CPU idle much of its time (a test waiting on a
// server, a child process or a delivery; the suite waiting on its answers), and the suite's run, 17 s alone,
// fills those gaps instead of adding to the wall time after vitest's. vitest's output is shown as it comes; the
// suite's after it, whole, so that neither interleaves with the other. The exit status is vitest's when that
// failed, else the suite's. Args go to vitest (`npm test -- test/http` runs those files, and the suite).
// dist/ is built first when stale (scripts/built.js), as vitest's global setup and the suite's start would do
// each on its own, and both at once would build it twice over each other.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { CLI, ensureBuilt } from './built.js';

if (!ensureBuilt()) process.exit(1);

const vitestBin = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const vitest = spawn(process.execPath, [vitestBin, 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
const contract = spawn(process.execPath, [CLI, 'contract'], { stdio: ['ignore', 'pipe', 'pipe'] });

/** The suite's output, each chunk with the stream it goes to, held until vitest is done; then printed as it comes. */
const held = [];
let holding = true;
for (const [from, to] of [[contract.stdout, process.stdout], [contract.stderr, process.stderr]]) {
  from.on('data', (chunk) => (holding ? held.push([to, chunk]) : to.write(chunk)));
}

/** A child's exit status, as a shell gives it: 128 + the signal's number when a signal ended it. */
const exited = (child) => new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? 128 + (constants.signals[signal] ?? 0))));
const vitestDone = exited(vitest);
const contractDone = exited(contract);

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    for (const child of [vitest, contract]) if (child.exitCode === null) child.kill(signal);
  });
}

const vitestStatus = await vitestDone;
console.log('\n> npm run contract (the whole contract suite against the simulator, run beside vitest)\n');
holding = false;
for (const [to, chunk] of held.splice(0)) to.write(chunk);
const contractStatus = await contractDone;
process.exitCode = vitestStatus !== 0 ? vitestStatus : contractStatus;
