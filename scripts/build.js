// `npm run build` (and `prepare`, so a clone builds at `npm install`): compiles src/ and
// contract-tests/ to dist/ with tsc, then copies what the compiled modules read beside them.
// dist/ is made anew each time, so a deleted source leaves no stale module behind.

import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
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
// and contract-tests/lib/document read ../../openapi.yaml, src/ui/dashboard serves its classic
// scripts, the .js files of src/ui (copied as they are, below).
copyFileSync(at('openapi.yaml'), at('dist/openapi.yaml'));
// The same document as JSON, which src/contract/spec reads instead when it is there: parsing the
// YAML took a third of every start.
writeFileSync(at('dist/openapi.json'), JSON.stringify(parse(readFileSync(at('openapi.yaml'), 'utf8'))));
// Every validator the simulator compiles from that document (each operation's body and query string, the
// snapshot's), as ajv's standalone code beside the modules that load them (src/contract/precompiled.ts):
// compiling them took a second of CPU in every process that started a simulator or a proxy.
{
  const { loadSpec } = await import(pathToFileURL(at('dist/src/contract/spec.js')).href);
  const { writeValidators } = await import(pathToFileURL(at('dist/src/contract/write-validators.js')).href);
  writeValidators(loadSpec(), pathToFileURL(at('dist/src/contract/')));
}
for (const script of readdirSync(at('src/ui')).filter((name) => name.endsWith('.js'))) copyFileSync(at(`src/ui/${script}`), at(`dist/src/ui/${script}`));
// src/scenario/schema reads ../../scenario.schema.json; the package root keeps its own copy for editors.
copyFileSync(at('scenario.schema.json'), at('dist/scenario.schema.json'));
// Its validator, compiled (src/scenario/schema.ts): compiling it took 0.17 s of CPU at every `scenario run`.
{
  const { writeScenarioValidator } = await import(pathToFileURL(at('dist/src/scenario/schema.js')).href);
  writeScenarioValidator(pathToFileURL(at('dist/src/scenario/')));
}
// The API reference's Swagger UI (src/ui/docs serves ./swagger-ui/), with its licence and notices:
// the package ships these files and not swagger-ui-dist, whose dependency @scarf/scarf reports each
// install (an install script every consumer's npm flags).
const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
mkdirSync(at('dist/src/ui/swagger-ui'), { recursive: true });
for (const file of ['swagger-ui-bundle.js', 'swagger-ui-bundle.js.LICENSE.txt', 'swagger-ui.css', 'LICENSE', 'NOTICE']) {
  copyFileSync(join(swaggerUi, file), at(`dist/src/ui/swagger-ui/${file}`));
}

// Prism's parts that contract-tests/lib/prism reads documents and checks responses with, bundled into
// that module with what they import (ajv aside, a dependency of the package's own), so the package
// needs no @stoplight/prism-http at run time: installed, it brings some 70 MB (a mock server's faker,
// postman-collection, …) these parts never load. Beside the bundle, each bundled package's licence.
const prism = at('dist/contract-tests/lib/prism.js');
const { metafile } = await build({
  entryPoints: [prism],
  outfile: prism,
  allowOverwrite: true,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['ajv'],
  // jsonc-parser's `main` is a UMD module that requires its own parts at run time, which a bundle does
  // not hold: its ES module instead (only its: other packages' ES builds differ from what Prism runs).
  // whatwg-url requires Node's `punycode`, which Node 22 and later deprecate (DEP0040) with a warning for any
  // code outside node_modules, as the bundle in a clone's dist/ is: the npm package of the same code instead.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js', punycode: 'punycode/punycode.js' },
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  metafile: true,
  banner: { js: "import { createRequire as createRequireOfPrism } from 'node:module'; const require = createRequireOfPrism(import.meta.url);" },
  logLevel: 'warning',
});
writeFileSync(`${prism}.LICENSES.txt`, bundledLicences(metafile));
// Both readings of the document (contract-tests/lib/document: the full one and the platform's), as
// Prism's parts just bundled read it into operations, beside openapi.json: every run of the suite and
// every proxy's start read them from these files instead of reading the document again (about 1 s of
// CPU each).
await (await import(pathToFileURL(at('dist/contract-tests/lib/document.js')).href)).buildReadings();

/** The name, version and licence text of every package a bundle holds files of, for its LICENSES file. */
function bundledLicences({ inputs }) {
  const folders = new Set();
  for (const input of Object.keys(inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) folders.add(match[1]);
  }
  return [...folders].sort().map((folder) => {
    const { name, version, license } = JSON.parse(readFileSync(at(`${folder}/package.json`), 'utf8'));
    const file = readdirSync(at(folder)).find((entry) => /^(licen[cs]e|copying)/i.test(entry));
    const text = file ? readFileSync(at(`${folder}/${file}`), 'utf8').trim() : `${license} (the package ships no licence file)`;
    return `${name}@${version} (${license})\n\n${text}\n`;
  }).join(`\n${'-'.repeat(72)}\n\n`);
}

// The CLI as one module. Loading the 80 modules tsc writes and the 60-odd CommonJS files of express
// and its kin was most of a start (about 40 % of its CPU); bundled, dist/src/cli.js loads as one
// file, and each lazily imported command (contract, proxy, scenario, export/import, --data) as a
// chunk beside it, cli.*.js. dist/src/index.js, the package's import, stays as tsc wrote it.
// Left out: what loads lazily or must stay a file of its own (ajv and yaml, required on first use;
// better-sqlite3's native module; Prism's parts, bundled above into a module of their own that the
// contract suite's checks import too; vitest, which loads its own files), and iconv-lite's code tables and mime-db: 770 KB of JavaScript that a bundle compiles
// at every start, while from node_modules the tables load only for a body that is not UTF-8 and
// mime-db is read as JSON. Each module still finds its files (openapi.json, the dashboard's scripts, the checks)
// where it did: its import.meta.url is its own dist/ path again (moduleUrl).
const srcDir = at('dist/src');
/** Gives every bundled module of dist/ the import.meta.url it had as a file of its own. */
const moduleUrl = {
  name: 'module-url',
  setup(builder) {
    builder.onLoad({ filter: /\.js$/ }, ({ path }) => {
      // A package's own files load as they are.
      if (!path.startsWith(at('dist/'))) return undefined;
      const own = relative(srcDir, path).split('\\').join('/').replace(/^(?!\.)/, './');
      const contents = readFileSync(path, 'utf8').replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`);
      return { contents, loader: 'js' };
    });
  },
};
/** Imports of contract-tests/lib/prism load the bundle made above, a file of its own beside the CLI's chunks. */
const prismBundle = {
  name: 'prism-bundle',
  setup(builder) {
    builder.onResolve({ filter: /\/prism\.js$/ }, ({ path, resolveDir }) => {
      const target = join(resolveDir, path);
      if (target !== prism) return undefined;
      return { path: relative(srcDir, prism).split('\\').join('/').replace(/^(?!\.)/, './'), external: true };
    });
  },
};
await build({
  entryPoints: [at('dist/src/cli.js')],
  outdir: srcDir,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'cli.[name]-[hash]',
  external: ['ajv', 'ajv-formats', 'yaml', 'better-sqlite3', 'vitest', 'vitest/*', 'iconv-lite', 'mime-db'],
  // The CommonJS packages it holds call require (for node: modules too), which an ES module lacks.
  banner: { js: "import { createRequire as createRequireOfCli } from 'node:module'; const require = createRequireOfCli(import.meta.url);" },
  plugins: [moduleUrl, prismBundle],
  logLevel: 'warning',
});
// The bin runs as a program from a clone too (npm sets the mode itself when it installs a package).
chmodSync(at('dist/src/cli.js'), 0o755);
