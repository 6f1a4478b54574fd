// The preflight: before any check, whether the target can be checked at all — the base URL answers
// as this API, each token is accepted, the two tokens are two accounts, the brand of each account is
// known — and what the target can do beyond the spec (lib/capabilities.ts). A problem is one line
// that says what to pass; run.ts prints it and exits 2 before vitest starts (DESIGN.md §8), so no
// check runs against a target it cannot reach. Nothing the preflight creates outlives it: the client
// that tells the two accounts apart and the template that tries a given brand are deleted at once.
//
// It blames the configuration only where the answer leaves no doubt (a refused token, a 404 for the
// API base, a brand_id error); any other odd answer is left to the checks, which say what was wrong.

import { monthlyTemplate } from './bodies.ts';
import { discoverCapabilities } from './capabilities.ts';
import type { TargetConfig } from './config.ts';
import { ownSandboxes, twoAccounts } from './own-sandboxes.ts';
import { call, is2xx, Unreachable, type Answer } from './plain-http.ts';

/** The whole preflight's time limit; each request has its own, shorter one (plain-http.ts). */
export const PREFLIGHT_LIMIT_MS = 15_000;

export interface PreflightInput {
  baseUrl?: string;
  token?: string;
  token2?: string;
  brandId?: string;
  brandId2?: string;
  /** Check in the accounts of the tokens even when the target is a simulator (own-sandboxes.ts). */
  inAccounts?: boolean;
}

export type ResolvedTarget = Omit<TargetConfig, 'ledger'>;

export type PreflightResult =
  | { ok: true; target: ResolvedTarget; /** Lines worth knowing before the run, e.g. a capability claimed but not shown. */ notes: string[] }
  | { ok: false; /** One line: what is wrong and what to pass. */ problem: string };

/** Raised by a step that found the target cannot be checked as configured. */
class Problem extends Error {}

const EXAMPLE_BASE = 'http://127.0.0.1:4010/api/v1';
const SECOND_BRAND = 'CONTRACT_BRAND_ID2';

export async function preflight(input: PreflightInput): Promise<PreflightResult> {
  const signal = AbortSignal.timeout(PREFLIGHT_LIMIT_MS);
  try {
    return { ok: true, ...(await resolve(input, signal)) };
  } catch (error) {
    if (error instanceof Problem) return { ok: false, problem: error.message };
    if (error instanceof Unreachable) {
      return { ok: false, problem: `cannot reach ${input.baseUrl} (${error.message}): pass the API base URL of a running server as --base-url, e.g. ${EXAMPLE_BASE}` };
    }
    throw error;
  }
}

async function resolve(input: PreflightInput, signal: AbortSignal): Promise<{ target: ResolvedTarget; notes: string[] }> {
  const baseUrl = (input.baseUrl ?? '').replace(/\/+$/, '');
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new Problem(`--base-url must be an http(s) URL such as ${EXAMPLE_BASE}, got "${input.baseUrl}"`);
  }
  const given = input.token ?? '';
  const at = (path: string, tokenOf: string, method = 'GET', body?: unknown) => call(`${baseUrl}${path}`, { method, token: tokenOf, body, signal });
  // Tokens given are checked even when the suite's own sandboxes leave them unused: a refused one is a slip to point out.
  if (given) expectAccepted(baseUrl, await at('/clients/?page_size=1', given), '--token', 'pass a valid bearer token of the account to check as --token');
  if (input.token2) expectAccepted(baseUrl, await at('/clients/?page_size=1', input.token2), '--token2', 'pass a valid bearer token of a second account as --token2, or leave --token2 out');
  const own = input.inAccounts ? undefined : await ownSandboxes(baseUrl, signal);
  if (!given && !own) throw new Problem('--base-url needs --token TOKEN, the bearer token of the account to check');
  if (!own && input.token2) await expectTwoAccounts(baseUrl, given, input.token2, signal);
  if (own) {
    const [one, two] = own;
    const { capabilities, unproven } = await discoverCapabilities(baseUrl, one.token, signal);
    const notes = [
      "note: the target makes sandboxes (a simulator): the checks run in two new sandboxes of the suite's own, deleted at the end " +
        '(--keep keeps them; --in-accounts checks the accounts of --token and --token2 instead)',
      ...(unproven.length ? [unprovenNote(unproven)] : []),
    ];
    const target: ResolvedTarget = {
      baseUrl, origin: new URL(baseUrl).origin, token: one.token, token2: two.token, brandId: one.brandId, brandId2: two.brandId, capabilities, selfHosted: false, ownSandboxes: true,
    };
    return { target, notes };
  }
  const token = given;
  const token2 = input.token2 ?? '';

  const notes: string[] = [];
  const brandId = input.brandId || (await foundBrand(at, token));
  if (!brandId) throw new Problem('the account has no billing template or purchase to take a brand from: pass --brand-id ID');
  if (input.brandId) await expectBrandAccepted(at, token, input.brandId, `pass the brand_id of a brand of the account as --brand-id`);
  let brandId2 = '';
  if (token2) {
    brandId2 = input.brandId2 || (await foundBrand(at, token2)) || '';
    if (input.brandId2) await expectBrandAccepted(at, token2, input.brandId2, `set ${SECOND_BRAND} to the brand_id of a brand of the second account`);
    if (!brandId2) {
      notes.push(
        `note: the second account has no billing template or purchase to take a brand from: the isolation checks that create ` +
          `templates or purchases in it are skipped (set ${SECOND_BRAND} to its brand_id to run them)`,
      );
    }
  }

  const { capabilities, unproven } = await discoverCapabilities(baseUrl, token, signal);
  if (unproven.length) notes.push(unprovenNote(unproven));
  const target: ResolvedTarget = { baseUrl, origin: new URL(baseUrl).origin, token, token2, brandId, brandId2, capabilities, selfHosted: false, ownSandboxes: false };
  return { target, notes };
}

type At = (path: string, token: string, method?: string, body?: unknown) => Promise<Answer>;

/** One line on the capabilities claimed but not shown: their names, and why the first is not believed. */
export function unprovenNote(unproven: string[]): string {
  const names = unproven.map((line) => line.slice(0, line.indexOf(':')));
  const them = names.length === 1 ? 'it' : 'them';
  return `note: GET /sim/v1/capabilities claims ${names.join(', ')}, but the target does not show ${them}, so the checks that need ${them} are skipped (${unproven[0]!.slice(0, 160)})`;
}

/** A list of clients answered with this token: the base URL is this API and the token is accepted. */
function expectAccepted(baseUrl: string, answer: Answer, flag: string, advice: string): void {
  if (answer.status === 401 || answer.status === 403) throw new Problem(`the server refused ${flag} (GET ${baseUrl}/clients/ → ${answer.status}): ${advice}`);
  if (answer.status === 404 || (answer.status === 200 && !Array.isArray(answer.body?.results))) {
    const what = answer.status === 404 ? '404' : `200 without a list of clients`;
    throw new Problem(`GET ${baseUrl}/clients/ answered ${what}: pass the API base URL as --base-url, e.g. ${EXAMPLE_BASE}`);
  }
}

/** The two tokens act on two accounts (own-sandboxes.ts twoAccounts); a target that cannot tell is left to the checks. */
async function expectTwoAccounts(baseUrl: string, token: string, token2: string, signal: AbortSignal): Promise<void> {
  const advice = 'pass the token of a second account as --token2, or leave --token2 out';
  if (token === token2) throw new Problem(`--token and --token2 are the same token: ${advice}`);
  if ((await twoAccounts(baseUrl, token, token2, signal)) === false) {
    throw new Problem(`--token and --token2 act on the same account (a client created with --token is listed with --token2): ${advice}`);
  }
}

/** The brand_id of the account's newest template, else of its newest purchase; undefined when it has neither. */
async function foundBrand(at: At, token: string): Promise<string | undefined> {
  for (const path of ['/billing_templates/?page_size=1', '/purchases/?page_size=1']) {
    const answer = await at(path, token);
    const brand = answer.status === 200 ? answer.body?.results?.[0]?.brand_id : undefined;
    if (typeof brand === 'string' && brand) return brand;
  }
  return undefined;
}

/** A template made with the given brand is accepted (and deleted at once), or refused for another reason than its brand_id. */
async function expectBrandAccepted(at: At, token: string, brandId: string, advice: string): Promise<void> {
  const created = await at('/billing_templates/', token, 'POST', monthlyTemplate(brandId, { title: 'Contract preflight' }));
  if (is2xx(created)) {
    if (typeof created.body?.id === 'string') await at(`/billing_templates/${created.body.id}/`, token, 'DELETE');
    return;
  }
  const refusal = created.body?.brand_id;
  if (created.status >= 400 && created.status < 500 && refusal !== undefined) {
    const code = Array.isArray(refusal) && typeof refusal[0]?.code === 'string' ? ` ${refusal[0].code}` : '';
    throw new Problem(`the account refuses the brand ${brandId} (POST /billing_templates/ → ${created.status}, brand_id${code}): ${advice}`);
  }
}
