// dist/ as fresh as the sources: built when it is missing or older than anything it is built from.
// `npm start`, `npm run contract` and the tests (test/support/fresh-dist.ts, vitest's global setup)
// all run the compiled CLI through this, so an edited source is never run stale, and no process pays
// for compiling TypeScript at start (tsx: about 0.9 s of CPU per start, against 0.16 s for dist/).

import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The compiled CLI (package.json "bin"). */
export const CLI = `${root}dist/src/cli.js`;
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
  return Math.max(stat.mtimeMs, ...readdirSync(path).filter((name) => name !== 'node_modules').map((name) => newest(`${path}/${name}`)));
}

/** Builds dist/ (scripts/build.js) when it is missing or stale; says why on stderr. False when the build failed. */
export function ensureBuilt() {
  const built = newest(CLI);
  if (built !== 0 && !INPUTS.some((input) => newest(`${root}${input}`) > built)) return true;
  console.error(built === 0 ? 'billing-sim: building dist/ (first start)…' : 'billing-sim: sources changed since the last build: building dist/…');
  return spawnSync(process.execPath, [`${root}scripts/build.js`], { stdio: 'inherit' }).status === 0;
}
