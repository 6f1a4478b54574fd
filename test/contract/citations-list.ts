// Prints every check of the contract suite with its id, level and citation, as JSON on one line of
// stdout that starts with `CHECKS ` (the global setup may print lines of its own):
// `tsx test/contract/citations-list.ts`. The checks are collected by vitest (their files loaded, the
// global setup run against a simulator it starts), not run. citations.test.ts reads this list. They are
// the built suite's (dist/, which vitest's global setup keeps fresh; by hand, `npm run build` first), as
// a user's run loads them: Node imports that JS itself, where the TypeScript sources went through Vite
// and the simulator's through tsx, some 3 s of CPU more.

import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';

const config = fileURLToPath(new URL('../../dist/contract-tests/vitest.config.js', import.meta.url));
const vitest = await createVitest('test', { config, watch: false, reporters: [] });
try {
  const { testModules, unhandledErrors } = await vitest.collect();
  const errors = [...unhandledErrors, ...testModules.flatMap((module) => module.errors())].map((error) => (error as Error).message ?? String(error));
  const checks = testModules.flatMap((module) =>
    [...module.children.allTests()].map((test) => ({ file: module.relativeModuleId, name: test.name, ...test.meta().check })),
  );
  process.stdout.write(`\nCHECKS ${JSON.stringify({ checks, errors })}\n`);
} finally {
  await vitest.close();
}
