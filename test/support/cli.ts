// The CLI as the tests start it: compiled (dist/src/cli.js, package.json "bin"), which vitest's global
// setup (fresh-dist.ts) has built from the sources as they are now. Started from TypeScript through tsx,
// each start cost about 0.9 s of CPU more, and the suite starts the CLI some hundred times.

import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));
