import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // They need the built image: scripts/container-test.sh runs them (vitest.container.config.ts).
    exclude: [...configDefaults.exclude, 'test/container/**'],
    environment: 'node',
    // dist/ built from the sources as they are now: the tests start the compiled CLI (test/support/cli.ts).
    globalSetup: ['test/support/fresh-dist.ts'],
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
  },
});
