#!/usr/bin/env node
// The CLI from its TypeScript sources through tsx, for the tests and benches: they check what is in
// the work tree without a build. Users run the compiled dist/src/cli.js (package.json "bin").
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
