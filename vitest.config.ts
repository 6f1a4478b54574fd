import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // They need the built image: scripts/container-test.sh runs them (vitest.container.config.ts).
    exclude: [...configDefaults.exclude, 'test/container/**'],
    environment: 'node',
    // The HTTP tests each start a server on a random port; files run in parallel workers. One more
    // worker than CPUs: many files wait on child processes and sockets much of the time (vitest's own
    // default, one fewer than CPUs, ran them one by one on 2 cores: 10.6 min; 3 workers there: 6.4 min).
    maxWorkers: availableParallelism() + 1,
    testTimeout: 20_000,
  },
});
