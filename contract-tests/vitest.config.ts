// The contract suite as its own vitest project: checks any target named by CONTRACT_BASE_URL (or
// the simulator it starts itself) against openapi.yaml. It never imports the simulator's source.

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import type { JUnitOptions } from 'vitest/node';
import SummaryReporter from './reporter.ts';

const junit = process.env.CONTRACT_JUNIT;

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['checks/**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
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
