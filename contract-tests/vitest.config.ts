// The contract suite as its own vitest project (compiled to vitest.config.js in the package):
// checks any target named by CONTRACT_BASE_URL (or the simulator it starts itself) against
// openapi.yaml. Its checks never import the simulator's source; the global setup starts a simulator
// through the package's programmatic entry, src/index.
//
// Read from the environment run.ts sets: CONTRACT_GROUP (only the files of those groups are given
// to vitest), CONTRACT_LEVEL (lib/check.ts registers only that level's checks, so a file may have
// none), CONTRACT_JUNIT (the report's path, relative to the folder the user ran the command in: this
// file is loaded in that process, before anything changes folder) and CONTRACT_VERBOSE (reporter.ts).

import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SummaryReporter from './reporter.ts';
import { JUnitReporter } from './lib/junit.ts';
import { filesOfGroups, groupsFromEnvironment, selectedChecks, selectedLevel, selectionProblem } from './lib/selection.ts';

const groups = groupsFromEnvironment();
// run.ts refuses a bad selection before vitest starts; a programmatic start without it stops here.
const problem = selectionProblem(groups, process.env.CONTRACT_LEVEL);
if (problem) throw new Error(problem);

/** Loaded from dist/ (compiled to JS), not from the TypeScript sources. */
const BUILT = import.meta.url.endsWith('.js');

const junit = process.env.CONTRACT_JUNIT ? resolve(process.cwd(), process.env.CONTRACT_JUNIT) : undefined;

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    // .ts in the sources, .js in the package. Installed, the suite itself lies under node_modules/,
    // which vitest's default exclude would skip whole.
    include: (filesOfGroups(groups) ?? ['checks/**/*.test.ts']).map((file) => file.replace(/\.test\.[jt]s$/, '.test.{ts,js}')),
    exclude: ['**/*.d.ts'],
    globalSetup: ['./global-setup'],
    // The bundle of Prism's parts (lib/prism.ts, built into one module with what it imports) runs as
    // Node loads it, as the packages it holds did; Vite's transform of it broke their CommonJS interop.
    server: { deps: { external: [/\/contract-tests\/lib\/prism\.js$/] } },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Check files share each worker's modules: Prism's document and validators are loaded once per
    // worker instead of once per file (31 s → 13 s for the whole suite). Checks keep no module state
    // between them but the exchange log, which each check resets.
    isolate: false,
    // One worker, whose checks run at once, file by file: lib/client.ts lets at most
    // CONTRACT_CONCURRENCY (--concurrency) of their requests be in flight, over the whole run. Each
    // check makes its own objects, so checks of a file do not wait on each other; against a server
    // 50 ms away this is what keeps the suite from taking minutes. A file whose checks share state
    // says so with describe.sequential.
    maxWorkers: 1,
    // A worker thread of the command's process, not a process of its own (vitest's default): some 0.5 s of
    // CPU less per run, the start of a second Node and what crosses between the two. The checks change no
    // process state a thread cannot (no chdir, no exit, no signal handler).
    pool: 'threads',
    // Built (this file as vitest.config.js), Node imports the check files itself, not Vite's module
    // runner: they are plain JS there, and no check mocks a module. Some 0.5 s of CPU less per run, of
    // the 2.5 s a run spent before its first check. From the TypeScript sources, Vite transforms them.
    experimental: { viteModuleRunner: !BUILT, nodeLoader: false },
    sequence: { concurrent: true },
    maxConcurrency: 32,
    // With --level, a file may hold no check of that level (webhooks has only informative ones); with
    // CONTRACT_CHECK most files hold none of the checks chosen.
    passWithNoTests: selectedLevel() !== undefined || selectedChecks() !== undefined,
    // The JUnit report first, so that the summary's last line is the last one printed.
    reporters: [...(junit ? [new JUnitReporter(junit)] : []), new SummaryReporter()],
  },
});
