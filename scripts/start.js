#!/usr/bin/env node
// `npm start [-- flags]`: the compiled CLI's `serve`, built first when dist/ is missing or older
// than what it is built from. So a fresh clone needs no build step of its own (the package has no
// `prepare` script: npm lists one among the install scripts a consumer is asked to approve, though
// it never runs for a package installed from the registry), and an edited source is never served
// stale. The CLI runs in this very process, so signals reach it as they would the bin.

import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const CLI = `${root}dist/src/cli.js`;
/** What the build reads: a change to any of them makes dist/ stale. */
const INPUTS = ['src', 'contract-tests', 'openapi.yaml', 'scenario.schema.json', 'scripts/build.js', 'package-lock.json', 'tsconfig.build.json'];

/** The newest modification time under `path` (a file or a folder), in ms; 0 when it is missing. */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(`${path}/${name}`)));
}

const built = newest(CLI);
if (built === 0 || INPUTS.some((input) => newest(`${root}${input}`) > built)) {
  console.error(built === 0 ? 'billing-sim: building dist/ (first start)…' : 'billing-sim: sources changed since the last build: building dist/…');
  const { status } = spawnSync(process.execPath, [`${root}scripts/build.js`], { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
process.argv = [process.argv[0], CLI, 'serve', ...process.argv.slice(2)];
await import(pathToFileURL(CLI).href);
