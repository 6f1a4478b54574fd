#!/usr/bin/env node
// `npm run test:profile [-- vitest args]`: `vitest run` as `npm test` runs it (or the files and flags given, e.g.
// `-- test/http`), with vitest's own output, then where the time went: the run's wall time beside the time of its
// files added up (files run in parallel workers), the slowest files and tests, each with its duration, and the
// files that used the most CPU (test/support/cpu-time.ts: on 2 cores the wall time follows CPU). A
// file's time runs from its start to its end in its worker, so it includes its beforeAll (a packed tarball, a
// server); a test's is the test alone. The budget (docs/development.md#tests): `npm test` under 4 minutes and
// `bash .ci/run` under 15 on a quiet 2-core machine. TEST_PROFILE_TOP (default 15) sets how many are listed.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * What a vitest JSON report (`--reporter=json`) says of time: file and test counts, the files' time added up,
 * and the `top` slowest files and tests, slowest first. Durations in milliseconds; paths relative to `base`.
 * @param {{ numTotalTests: number, testResults: { name: string, startTime: number, endTime: number, assertionResults: { fullName: string, duration?: number | null }[] }[] }} report
 * @param {number} top
 * @param {string} base
 */
export function slowest(report, top, base = root) {
  const files = report.testResults.map((file) => ({ file: relative(base, file.name), ms: file.endTime - file.startTime }));
  const tests = report.testResults.flatMap((file) =>
    file.assertionResults.map((test) => ({ file: relative(base, file.name), test: test.fullName, ms: test.duration ?? 0 })),
  );
  const byTime = (a, b) => b.ms - a.ms;
  return {
    fileCount: files.length,
    testCount: report.numTotalTests,
    fileMs: files.reduce((sum, { ms }) => sum + ms, 0),
    files: files.sort(byTime).slice(0, top),
    tests: tests.sort(byTime).slice(0, top),
  };
}

/**
 * The files that used the most CPU, from the lines test/support/cpu-time.ts wrote (`{file, ownMs, childrenMs}`):
 * the CPU of every file added up, and the `top` files, most first. Paths relative to `base`.
 * @param {{ file: string, ownMs: number, childrenMs: number }[]} lines
 * @param {number} top
 * @param {string} base
 */
export function mostCpu(lines, top, base = root) {
  const files = lines.map(({ file, ownMs, childrenMs }) => ({ file: relative(base, file), ownMs, childrenMs, ms: ownMs + childrenMs }));
  return { totalMs: files.reduce((sum, { ms }) => sum + ms, 0), files: files.sort((a, b) => b.ms - a.ms).slice(0, top) };
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(9);

/** The summary as printed: seconds with one decimal, aligned; with `cpu` (mostCpu), the files by CPU too. */
export function format(summary, wallMs, cpu) {
  return [
    `${summary.fileCount} files, ${summary.testCount} tests: ${(wallMs / 1000).toFixed(1)} s wall, ${(summary.fileMs / 1000).toFixed(1)} s of file time in the workers`,
    `Slowest files (start to end, beforeAll included):`,
    ...summary.files.map(({ file, ms }) => `${seconds(ms)}  ${file}`),
    `Slowest tests:`,
    ...summary.tests.map(({ file, test, ms }) => `${seconds(ms)}  ${file} > ${test}`),
    ...(cpu
      ? [
          `Most CPU (${(cpu.totalMs / 1000).toFixed(1)} s in all: each file's worker, + the processes it started, from its start to its end):`,
          ...cpu.files.map(({ file, ownMs, childrenMs, ms }) => `${seconds(ms)}  ${`(${(ownMs / 1000).toFixed(1)} + ${(childrenMs / 1000).toFixed(1)})`.padEnd(15)} ${file}`),
        ]
      : []),
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const work = mkdtempSync(join(tmpdir(), 'billing-sim-profile-'));
  const out = join(work, 'report.json');
  const cpuLog = join(work, 'cpu.jsonl');
  const vitest = join(root, 'node_modules/vitest/vitest.mjs');
  const started = performance.now();
  const { status } = spawnSync(process.execPath, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BILLING_SIM_TEST_CPU_LOG: cpuLog },
  });
  const wallMs = performance.now() - started;
  try {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    const top = Number(process.env.TEST_PROFILE_TOP) || 15;
    const lines = existsSync(cpuLog) ? readFileSync(cpuLog, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
    console.log(`\n${format(slowest(report, top), wallMs, lines.length ? mostCpu(lines, top) : undefined)}`);
  } catch (error) {
    console.error(`test:profile: no report from vitest (${error instanceof Error ? error.message : error})`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.exit(status ?? 1);
}
