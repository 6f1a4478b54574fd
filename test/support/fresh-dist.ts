// vitest's global setup: dist/ built from the sources as they are now, before any test file runs.
// The tests start the CLI as users do, compiled (test/support/cli.ts), and the tarball test packs
// dist/ as it is; a build inside one test file would delete dist/ under the others' feet.

import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../../scripts/built.js';

export default function setup(): void {
  if (!ensureBuilt()) throw new Error('npm run build failed: the tests run the compiled CLI (dist/src/cli.js)');
  // The workers, started after this, read the document's readings from this build (contract-tests/lib/document.ts).
  process.env.TESTS_FRESH_DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
}
