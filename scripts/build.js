// `npm run build` (and `prepare`, so a clone builds at `npm install`): compiles src/ and
// contract-tests/ to dist/ with tsc, then copies what the compiled modules read beside them.
// dist/ is made anew each time, so a deleted source leaves no stale module behind.

import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path) => `${root}${path}`;

rmSync(at('dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const { status } = spawnSync(process.execPath, [tsc, '-p', at('tsconfig.build.json')], { stdio: 'inherit' });
// tsc has printed the errors; a partial dist/ is not a build.
if (status !== 0) {
  rmSync(at('dist'), { recursive: true, force: true });
  process.exit(1);
}
// Each module finds these at the same place relative to itself as in the sources: src/contract/spec
// and contract-tests/lib/document read ../../openapi.yaml, src/ui/dashboard serves
// ./dashboard-browser.js and ./dashboard-actions.js.
copyFileSync(at('openapi.yaml'), at('dist/openapi.yaml'));
// The same document as JSON, which src/contract/spec reads instead when it is there: parsing the
// YAML took a third of every start.
writeFileSync(at('dist/openapi.json'), JSON.stringify(parse(readFileSync(at('openapi.yaml'), 'utf8'))));
copyFileSync(at('src/ui/dashboard-browser.js'), at('dist/src/ui/dashboard-browser.js'));
copyFileSync(at('src/ui/dashboard-actions.js'), at('dist/src/ui/dashboard-actions.js'));
// src/scenario/schema reads ../../scenario.schema.json; the package root keeps its own copy for editors.
copyFileSync(at('scenario.schema.json'), at('dist/scenario.schema.json'));
// The bin runs as a program from a clone too (npm sets the mode itself when it installs a package).
chmodSync(at('dist/src/cli.js'), 0o755);
