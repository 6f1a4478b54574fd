// Against a simulator, the suite checks in two sandboxes of its own instead of the accounts of
// --token and --token2: a developer who points it at `npx billing-sim serve` and its printed token
// would otherwise find some 130 purchases the suite made in the sandbox the dashboard shows, and the
// API deletes no purchase. The target is a simulator when it makes sandboxes that behave as two
// accounts: POST /sim/v1/sandboxes answers a token and a brand, a client created with the first
// token answers with the e-mail address it was given, and the second token's list does not hold it.
// A real server has no /sim/v1 (404), and `prism mock` answers canned examples, so both are checked
// in the given accounts. At the end the suite's sandboxes are deleted (DELETE /sim/v1/sandbox), or
// kept with --keep and their tokens printed.

import { call, is2xx, marker, type Answer } from './plain-http.ts';

export interface OwnSandbox {
  token: string;
  brandId: string;
}

/** Two new sandboxes of the target, once they are seen to be two accounts; undefined when the target makes none. */
export async function ownSandboxes(baseUrl: string, signal?: AbortSignal): Promise<[OwnSandbox, OwnSandbox] | undefined> {
  const origin = new URL(baseUrl).origin;
  const made: OwnSandbox[] = [];
  try {
    for (let n = 0; n < 2; n += 1) {
      const created = await call(`${origin}/sim/v1/sandboxes`, { method: 'POST', body: {}, signal });
      const { token, brand_id: brandId } = (created.body ?? {}) as Record<string, unknown>;
      if (created.status !== 201 || typeof token !== 'string' || typeof brandId !== 'string') return undefined;
      made.push({ token, brandId });
    }
    const [one, two] = made as [OwnSandbox, OwnSandbox];
    if ((await twoAccounts(baseUrl, one.token, two.token, signal)) === true) return [one, two];
    await deleteSandboxes(baseUrl, made.map(({ token }) => token));
    return undefined;
  } catch (error) {
    await deleteSandboxes(baseUrl, made.map(({ token }) => token)).catch(() => undefined);
    throw error;
  }
}

/**
 * Whether two tokens act on two accounts: a client created with the first (and deleted again) is not
 * in the second's list. A list, not a GET by id: a server whose lookup by id ignores the account would
 * look like one account here, when it is the isolation checks' job to report it. Undefined when the
 * target does not answer with what it was sent (a mock): that tells nothing.
 */
export async function twoAccounts(baseUrl: string, token: string, token2: string, signal?: AbortSignal): Promise<boolean | undefined> {
  const email = `${marker('accounts')}@example.com`;
  const created = await call(`${baseUrl}/clients/`, { method: 'POST', token, body: { email, full_name: 'Contract suite' }, signal });
  if (!is2xx(created) || created.body?.email !== email || typeof created.body?.id !== 'string') return undefined;
  try {
    const listed = await call(`${baseUrl}/clients/?page_size=100`, { token: token2, signal });
    if (listed.status !== 200 || !Array.isArray(listed.body?.results)) return undefined;
    return !(listed.body.results as { email?: string }[]).some((client) => client.email === email);
  } finally {
    await call(`${baseUrl}/clients/${created.body.id}/`, { method: 'DELETE', token, signal });
  }
}

/** DELETE /sim/v1/sandbox with each token; the answers, in order. */
export function deleteSandboxes(baseUrl: string, tokens: string[]): Promise<Answer[]> {
  const origin = new URL(baseUrl).origin;
  return Promise.all(tokens.map((token) => call(`${origin}/sim/v1/sandbox`, { method: 'DELETE', token })));
}

/** The line the end of a run prints about the suite's sandboxes: deleted, or kept with their dashboard links. */
export async function sandboxesLines(baseUrl: string, tokens: string[], keep: boolean): Promise<string[]> {
  const origin = new URL(baseUrl).origin;
  if (keep) return [`Kept the suite's ${tokens.length} sandboxes (--keep); open them in the dashboard:`, ...tokens.map((token) => `  ${origin}/#token=${token}`)];
  const answers = await deleteSandboxes(baseUrl, tokens);
  const failed = answers.filter((answer) => answer.status !== 204);
  if (failed.length === 0) return [`Deleted the suite's ${tokens.length} sandboxes and everything in them.`];
  return [`Could not delete ${failed.length} of the suite's ${tokens.length} sandboxes (DELETE /sim/v1/sandbox → ${failed.map((answer) => answer.status).join(', ')}).`];
}
