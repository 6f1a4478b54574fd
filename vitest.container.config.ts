import { defineConfig } from 'vitest/config';

// The container tests (test/container): run by scripts/container-test.sh against the image it built, never by `npm test`.
export default defineConfig({
  test: {
    include: ['test/container/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
