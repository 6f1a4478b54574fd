// Runs the contract suite: `billing-sim contract …` (src/cli.ts parses the command line) and
// `npm run contract -- …`. The target is passed to the suite's global setup through CONTRACT_*
// variables; without a base URL the simulator is started and checked. Resolves to the exit
// status: 1 when a normative check fails (an informative one only warns), else 0.

import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';

export interface ContractOptions {
  /** The API base URL, e.g. https://host/api/v1; none: the suite starts a simulator. */
  baseUrl?: string;
  token?: string;
  /** A second account's token, for the isolation checks. */
  token2?: string;
  /** The brand to create templates and purchases for; default: one an existing object names. */
  brandId?: string;
  /** Write a JUnit XML report here (relative to the current folder). */
  junit?: string;
  /** Keep what the suite created instead of deleting it at the end. */
  keep?: boolean;
  /** Print each failed check's exchanges. */
  verbose?: boolean;
  /** Only these groups of checks (a check file's top-level describe). */
  groups?: string[];
  /** Only the checks of this level. */
  level?: 'normative' | 'informative';
  /** Only check files whose path contains one of these. */
  filters?: string[];
}

export async function runContract(options: ContractOptions): Promise<number> {
  const env: Record<string, string | undefined> = {
    CONTRACT_BASE_URL: options.baseUrl,
    CONTRACT_TOKEN: options.token,
    CONTRACT_TOKEN2: options.token2,
    CONTRACT_BRAND_ID: options.brandId,
    CONTRACT_JUNIT: options.junit,
    CONTRACT_KEEP: options.keep ? '1' : undefined,
    CONTRACT_VERBOSE: options.verbose ? '1' : undefined,
    CONTRACT_GROUP: options.groups?.length ? options.groups.join(',') : undefined,
    CONTRACT_LEVEL: options.level,
  };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) process.env[name] = value;

  // The config beside this module: vitest.config.ts in the sources, vitest.config.js once compiled.
  const config = fileURLToPath(new URL(`./vitest.config${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
  const vitest = await startVitest('test', options.filters ?? [], { config, run: true, watch: false });
  await vitest.close();
  return Number(process.exitCode ?? 0);
}
