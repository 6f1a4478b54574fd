import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (`npm run test:profile`, docs/development.md#tests), longest first. A
 * fresh clone has no timings of an earlier run, from which vitest starts the longest files first: it
 * starts the largest files first instead, and the contract suite's fault runs (over a minute, a small
 * file) began among the last, the run waiting on them alone at its end.
 */
const LONGEST = [
  'test/contract/faults.test.ts',
  'test/http/no-500.test.ts',
  'test/package/tarball.test.ts',
  'test/contract/simulator-only.test.ts',
  'test/http/persistence-kill.test.ts',
  'test/contract/prism.test.ts',
  'test/contract/ignored-fields.test.ts',
  'test/contract/concurrency.test.ts',
  'test/unit/sqlite-removal.test.ts',
];

/** vitest's order (the slowest first by its timings, failed ones before them), but LONGEST before all. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST.findIndex((path) => file.moduleId.endsWith(`/${path}`));
      return index < 0 ? LONGEST.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // They need the built image: scripts/container-test.sh runs them (vitest.container.config.ts).
    exclude: [...configDefaults.exclude, 'test/container/**'],
    environment: 'node',
    // dist/ built from the sources as they are now: the tests start the compiled CLI (test/support/cli.ts).
    globalSetup: ['test/support/fresh-dist.ts'],
    // Each file's CPU, for `npm run test:profile` only (BILLING_SIM_TEST_CPU_LOG).
    setupFiles: ['test/support/cpu-time.ts'],
    // The HTTP tests each start a server on a random port; files run in parallel workers. One more
    // worker than CPUs: many files wait on child processes and sockets much of the time (vitest's own
    // default, one fewer than CPUs, ran them one by one on 2 cores: 10.6 min; 3 workers there: 6.4 min).
    maxWorkers: availableParallelism() + 1,
    // A worker runs its files one after another in one module graph, not each in a fresh one: each file
    // imported the simulator again and compiled openapi.yaml's validators again (about a second of CPU
    // per file; the HTTP and unit files took 147 s of CPU isolated, 58 s not). No file relies on a
    // fresh module: state lives in the sandboxes and servers each file starts.
    isolate: false,
    // A guard against a hang, not a budget: a test of many steps, each guarded by 15 s (expect.poll, a
    // browser page's waits), once took over 20 s on a loaded CI machine (Swagger UI's first render and
    // "Try it out" under Node 24 with every other file running).
    testTimeout: 60_000,
    // expect.poll waits for what it checks, at most this long: a guard against a hang, not a guess of how
    // long the check takes (its default, 1 s, failed the dashboard's first load on a loaded CI machine).
    expect: { poll: { timeout: 15_000 } },
    sequence: { sequencer: LongestFirst },
  },
});
