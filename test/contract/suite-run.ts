// Running `billing-sim contract` as a CI user does (the CLI, in a process of its own), and reading
// the accounts it ran against from outside: what the self-tests of the suite share.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CLI } from '../support/cli.ts';

const run = promisify(execFile);

export interface SuiteRun {
  code: number;
  output: string;
  /** Wall time of the whole process, start-up included. */
  ms: number;
}

/** The CLI from its TypeScript sources, for a developer trying the suite while dist/ is being rebuilt. */
export const SOURCE_CLI = ['--import', 'tsx', fileURLToPath(new URL('../../src/cli.ts', import.meta.url))];

/**
 * `billing-sim contract ARGS…` (`cli`: the compiled one, or SOURCE_CLI) with `env` added to a copy of this process's environment, from which
 * every CONTRACT_* and BILLING_SIM_* variable was removed first (a developer's own must not leak in).
 */
export async function runSuite(args: string[], env: Record<string, string> = {}, cli: string[] = [CLI]): Promise<SuiteRun> {
  const environment: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
  for (const name of Object.keys(environment)) if (name.startsWith('CONTRACT_') || name.startsWith('BILLING_SIM_')) delete environment[name];
  Object.assign(environment, env);
  const started = performance.now();
  try {
    const { stdout, stderr } = await run(process.execPath, [...cli, 'contract', ...args], { maxBuffer: 64 * 2 ** 20, env: environment });
    return { code: 0, output: stdout + stderr, ms: performance.now() - started };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: (failed.stdout ?? '') + (failed.stderr ?? ''), ms: performance.now() - started };
  }
}

/** The totals a run printed: `N passed, N failed, N skipped…`. */
export function totals(output: string): { passed: number; failed: number; skipped: number; warnings: number } | undefined {
  const match = /^(\d+) passed, (\d+) failed, (\d+) skipped, (\d+) warnings?/m.exec(output);
  return match ? { passed: Number(match[1]), failed: Number(match[2]), skipped: Number(match[3]), warnings: Number(match[4]) } : undefined;
}

export interface Sandbox {
  token: string;
  brandId: string;
}

/** POST /sim/v1/sandboxes with `body` ({} : an empty account, as a new account of a real service is). */
export async function newSandbox(origin: string, body: Record<string, unknown> = {}): Promise<Sandbox> {
  const res = await fetch(`${origin}/sim/v1/sandboxes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`POST /sim/v1/sandboxes → ${res.status}`);
  const created = (await res.json()) as { token: string; brand_id: string };
  return { token: created.token, brandId: created.brand_id };
}

/** What an account holds, read through the API: the ids of every collection, and each purchase's status. */
export interface AccountState {
  clients: string[];
  recurringTokens: string[];
  billingTemplates: string[];
  subscribers: string[];
  webhooks: string[];
  purchases: Record<string, string>;
}

export async function accountState(apiUrl: string, token: string): Promise<AccountState> {
  const all = async (path: string): Promise<Record<string, any>[]> => {
    const items: Record<string, any>[] = [];
    for (let url: string | null = `${apiUrl}${path}?page_size=1000`; url; ) {
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`GET ${url} → ${res.status}`);
      const page = (await res.json()) as { results: Record<string, any>[]; next: string | null };
      items.push(...page.results);
      url = page.next;
    }
    return items;
  };
  const ids = (items: Record<string, any>[]) => items.map((item) => item.id as string).sort();
  const clients = await all('/clients/');
  const templates = await all('/billing_templates/');
  const tokens = (await Promise.all(clients.map((c) => all(`/clients/${c.id}/recurring_tokens/`)))).flat();
  const subscribers = (await Promise.all(templates.map((t) => all(`/billing_templates/${t.id}/clients/`)))).flat();
  const purchases = Object.fromEntries((await all('/purchases/')).map((p) => [p.id as string, p.status as string]));
  return {
    clients: ids(clients),
    recurringTokens: ids(tokens),
    billingTemplates: ids(templates),
    subscribers: ids(subscribers),
    webhooks: ids(await all('/webhooks/')),
    purchases,
  };
}
