// Types of scripts/built.js, for the tests' global setup (test/support/fresh-dist.ts).
export const CLI: string;
export function ensureBuilt(): boolean;
