import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    // The HTTP tests each start a server on a random port; files run in parallel workers.
    testTimeout: 20_000,
  },
});
