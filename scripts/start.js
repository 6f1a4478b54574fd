#!/usr/bin/env node
// `node scripts/start.js COMMAND [flags]`: the compiled CLI, built first when dist/ is missing or
// older than what it is built from (scripts/built.js). `npm start [-- flags]` runs `serve` through
// it, `npm run contract [-- flags]` runs `contract`. So a fresh clone needs no build step of its own
// (the package has no `prepare` script: npm lists one among the install scripts a consumer is asked
// to approve, though it never runs for a package installed from the registry), and an edited source
// is never run stale. The CLI runs in this very process, so signals reach it as they would the bin.

import { pathToFileURL } from 'node:url';
import { CLI, ensureBuilt } from './built.js';

if (!ensureBuilt()) process.exit(1);
process.argv = [process.argv[0], CLI, ...process.argv.slice(2)];
await import(pathToFileURL(CLI).href);
