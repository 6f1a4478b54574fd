// Types of scripts/test.js, for its test (test/unit/npm-test-script.test.ts).
export function runTogether(first: string[], second: string[], heading: string): Promise<number>;
