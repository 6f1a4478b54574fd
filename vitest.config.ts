import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // They need the built image: scripts/container-test.sh runs them (vitest.container.config.ts).
    exclude: [...configDefaults.exclude, 'test/container/**'],
    environment: 'node',
    // The HTTP tests each start a server on a random port; files run in parallel workers.
    testTimeout: 20_000,
  },
});
