// The contract suite as its own vitest project (compiled to vitest.config.js in the package):
// checks any target named by CONTRACT_BASE_URL (or the simulator it starts itself) against
// openapi.yaml. Its checks never import the simulator's source; the global setup starts a simulator
// through the package's programmatic entry, src/index.

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import type { JUnitOptions } from 'vitest/node';
import SummaryReporter from './reporter.ts';

const junit = process.env.CONTRACT_JUNIT;

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    // .ts in the sources, .js in the package. Installed, the suite itself lies under node_modules/,
    // which vitest's default exclude would skip whole.
    include: ['checks/**/*.test.{ts,js}'],
    exclude: ['**/*.d.ts'],
    globalSetup: ['./global-setup'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Check files share each worker's modules: Prism's document and validators are loaded once per
    // worker instead of once per file (31 s → 13 s for the whole suite). Checks keep no module state
    // between them but the exchange log, which each check resets.
    isolate: false,
    // JUnit XML: one testcase per check, its name starting with the check's id.
    reporters: ['default', new SummaryReporter(), ...(junit ? [['junit', { outputFile: junit, suiteName: 'contract' } satisfies Partial<JUnitOptions>] as ['junit', Partial<JUnitOptions>]] : [])],
  },
});
