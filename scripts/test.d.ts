// Types of scripts/test.js, for the tests that import it (test/unit/npm-test-script.test.ts, test/contract/faults.test.ts).
export function runTogether(first: string[], second: string[], heading: string): Promise<number>;
/** The contract suite's arguments in `npm test` (scripts/test.js). */
export const SUITE_ARGS: readonly string[];
