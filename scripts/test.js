#!/usr/bin/env node
// `npm test [-- vitest args]`: every vitest file (test/, src/**/*.test.ts), and the whole contract suite against
// the simulator (`npm run contract -- --max-warnings 0`: in two empty sandboxes of its own, where every check,
// informative ones too, must pass; test/contract/faults.test.ts counts on it), both at once. Each leaves a CPU
// idle much of its time (a test waiting on a server, a child process or a delivery; the suite waiting on its
// answers), and the suite's run, 15 s alone, fills those gaps instead of adding to the wall time after vitest's.
// vitest's output is shown as it comes; the suite's after it, whole, so that neither interleaves with the other. The exit status is vitest's when that
// failed, else the suite's. Args go to vitest (`npm test -- test/http` runs those files, and the suite).
// dist/ is built first when stale (scripts/built.js), as vitest's global setup and the suite's start would do
// each on its own, and both at once would build it twice over each other.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI, ensureBuilt } from './built.js';

/** A child's exit status, as a shell gives it: 128 + the signal's number when a signal ended it; 1 when it could not start. */
const exited = (child) =>
  new Promise((resolve) => {
    child.on('error', (error) => {
      console.error(`npm test: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? 128 + (constants.signals[signal] ?? 0)));
  });

/**
 * Runs `first` and `second` (each `[command, ...args]`) at once. `first`'s output goes out as it comes;
 * `second`'s (stdout and stderr, each chunk to its own stream) is held until `first` has ended, then `heading`
 * and all of it follow. SIGINT, SIGTERM and SIGHUP are passed on to both. Resolves to `first`'s status when it
 * is not 0, else `second`'s.
 */
export async function runTogether(first, second, heading) {
  const one = spawn(first[0], first.slice(1), { stdio: 'inherit' });
  const two = spawn(second[0], second.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  const held = [];
  let holding = true;
  for (const [from, to] of [[two.stdout, process.stdout], [two.stderr, process.stderr]]) {
    from.on('data', (chunk) => (holding ? held.push([to, chunk]) : to.write(chunk)));
  }
  const [oneDone, twoDone] = [exited(one), exited(two)];
  const passOn = (signal) => {
    for (const child of [one, two]) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, passOn);
  try {
    const firstStatus = await oneDone;
    console.log(heading);
    holding = false;
    for (const [to, chunk] of held.splice(0)) to.write(chunk);
    const secondStatus = await twoDone;
    return firstStatus !== 0 ? firstStatus : secondStatus;
  } finally {
    for (const signal of signals) process.off(signal, passOn);
  }
}

/**
 * The contract suite's arguments in `npm test`: the whole suite in two empty sandboxes of the simulator it
 * starts, every warning counted (test/contract/faults.test.ts relies on this run for empty accounts).
 */
export const SUITE_ARGS = ['contract', '--max-warnings', '0'];

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!ensureBuilt()) process.exit(1);
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  process.exitCode = await runTogether(
    [process.execPath, vitest, 'run', ...process.argv.slice(2)],
    [process.execPath, CLI, ...SUITE_ARGS],
    `\n> npm run contract -- ${SUITE_ARGS.slice(1).join(' ')} (the whole contract suite against the simulator, run beside vitest)\n`,
  );
}
