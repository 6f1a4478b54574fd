// Runs the contract suite: `billing-sim contract …` (src/cli.ts parses the command line) and
// `npm run contract -- …`. The target is passed to the suite's global setup through CONTRACT_*
// variables; without a base URL the simulator is started and checked. With one, the preflight
// (lib/preflight.ts) first checks that the target can be checked at all — the URL, the tokens, the
// brand — and a problem ends the run with one line and status 2 before vitest starts; the target it
// resolved goes to the global setup as CONTRACT_TARGET. Resolves to the exit status: 2 for an
// unknown group or level (lib/selection.ts) or a preflight problem, 1 when a normative check fails
// or, with `maxWarnings`, when more informative checks warn than it allows (one line at the end says
// so), else 0. After the run, the same results give the Markdown summary (`summary`, lib/summary.ts).

import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SerializedError } from 'vitest';
import { preflight } from './lib/preflight.ts';
import { groupsFromEnvironment, selectionProblem } from './lib/selection.ts';

export interface ContractOptions {
  /** The API base URL, e.g. https://host/api/v1; none: the suite starts a simulator. */
  baseUrl?: string;
  token?: string;
  /** A second account's token, for the isolation checks. */
  token2?: string;
  /** The brand to create templates and purchases for; default: one an existing object names. */
  brandId?: string;
  /**
   * The second account's brand, for the isolation checks that create templates or purchases in it
   * (default: env CONTRACT_BRAND_ID2, else one an existing object names; unknown: those checks skip).
   */
  brandId2?: string;
  /** Write a JUnit XML report here (relative to the current folder). */
  junit?: string;
  /** Keep what the suite created instead of deleting it at the end. */
  keep?: boolean;
  /** Check in the accounts of token and token2 even when the target is a simulator (lib/own-sandboxes.ts). */
  inAccounts?: boolean;
  /** Print each failed check's exchanges. */
  verbose?: boolean;
  /** Only these groups of checks (a check file's top-level describe). */
  groups?: string[];
  /** Only the checks of this level. */
  level?: 'normative' | 'informative';
  /** Only check files whose path contains one of these. */
  filters?: string[];
  /** Fail the run when more informative checks than this warn (ESLint's --max-warnings); none: warnings never fail it. */
  maxWarnings?: number;
  /** Write the run as GitHub-flavoured Markdown here (relative to the current folder), e.g. $GITHUB_STEP_SUMMARY. */
  summary?: string;
  /** At most this many requests in flight against the target (the suite's default: 4). */
  concurrency?: number;
}

export async function runContract(options: ContractOptions): Promise<number> {
  const env: Record<string, string | undefined> = {
    CONTRACT_BASE_URL: options.baseUrl,
    CONTRACT_TOKEN: options.token,
    CONTRACT_TOKEN2: options.token2,
    CONTRACT_BRAND_ID: options.brandId,
    CONTRACT_BRAND_ID2: options.brandId2,
    CONTRACT_JUNIT: options.junit,
    CONTRACT_KEEP: options.keep ? '1' : undefined,
    CONTRACT_IN_ACCOUNTS: options.inAccounts ? '1' : undefined,
    CONTRACT_VERBOSE: options.verbose ? '1' : undefined,
    CONTRACT_GROUP: options.groups?.length ? options.groups.join(',') : undefined,
    CONTRACT_LEVEL: options.level,
    CONTRACT_CONCURRENCY: options.concurrency === undefined ? undefined : String(options.concurrency),
    // For reporter.ts's words only: the verdict on warnings is this module's, after the run.
    CONTRACT_MAX_WARNINGS: options.maxWarnings === undefined ? undefined : String(options.maxWarnings),
  };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) process.env[name] = value;
  if (options.maxWarnings === undefined) delete process.env.CONTRACT_MAX_WARNINGS;
  // Against the folder the user ran the command in, as --junit's (vitest.config.ts).
  const summaryFile = options.summary === undefined ? undefined : resolve(options.summary);

  // A usage error first, before the target is even asked: one line, status 2.
  const problem = selectionProblem(groupsFromEnvironment(), process.env.CONTRACT_LEVEL);
  if (problem) {
    console.error(`billing-sim contract: ${problem}`);
    return 2;
  }

  delete process.env.CONTRACT_TARGET;
  const baseUrl = process.env.CONTRACT_BASE_URL;
  if (baseUrl) {
    const { CONTRACT_TOKEN: token, CONTRACT_TOKEN2: token2, CONTRACT_BRAND_ID: brandId, CONTRACT_BRAND_ID2: brandId2 } = process.env;
    const result = await preflight({ baseUrl, token, token2, brandId, brandId2, inAccounts: process.env.CONTRACT_IN_ACCOUNTS === '1' });
    if (!result.ok) {
      console.error(`billing-sim contract: ${result.problem}`);
      return 2;
    }
    for (const note of result.notes) console.log(note);
    process.env.CONTRACT_TARGET = JSON.stringify(result.target);
  }

  // Loaded after the preflight: a run that stops there does not wait for vitest to load.
  const { startVitest } = await import('vitest/node');
  // The config beside this module: vitest.config.ts in the sources, vitest.config.js once compiled.
  const config = fileURLToPath(new URL(`./vitest.config${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
  const vitest = await startVitest('test', options.filters ?? [], { config, run: true, watch: false });
  await vitest.close();
  let status = Number(process.exitCode ?? 0);
  if (summaryFile === undefined && options.maxWarnings === undefined) return status;

  // What the reporters saw, read again from the closed run: its modules stay in its state.
  const { collectResults, tallies } = await import('./lib/results.ts');
  const results = collectResults(vitest.state.getTestModules(), vitest.state.getUnhandledErrors() as SerializedError[]);
  if (summaryFile !== undefined) {
    const { writeSummary } = await import('./lib/summary.ts');
    writeSummary(summaryFile, results, { maxWarnings: options.maxWarnings, baseUrl: process.env.CONTRACT_BASE_URL });
    console.log(`Markdown summary written to ${summaryFile}`);
  }
  const warned = tallies(results.checks).total.warned;
  if (options.maxWarnings !== undefined && warned > options.maxWarnings) {
    console.log(`${warned} ${warned === 1 ? 'warning' : 'warnings'}, more than --max-warnings ${options.maxWarnings} allows`);
    status = Math.max(status, 1);
  }
  return status;
}
