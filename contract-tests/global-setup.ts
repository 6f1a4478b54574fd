// Resolves the target once for the whole run, and cleans up after it. With CONTRACT_BASE_URL the
// target is the one run.ts's preflight resolved (CONTRACT_TARGET); when vitest is started on this
// config directly, the preflight (lib/preflight.ts) runs here and a problem stops the run. Without a
// base URL the simulator is started through its programmatic API (the package's entry, src/index,
// never its other modules) with two empty sandboxes — what a new account is — whose brands their
// creation answers name.
//
// Cleanup: the workers note what they create in the accounts in a ledger folder made here
// (lib/ledger.ts); the teardown deletes it (lib/cleanup.ts) unless CONTRACT_KEEP=1, and prints what
// it could not delete. A simulator's sandboxes that the preflight made for the run (lib/own-sandboxes.ts)
// are deleted whole. The suite's own simulator needs none: it stops with everything in it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { discoverCapabilities } from './lib/capabilities.ts';
import { cleanUp, cleanupLines, keptLines, unreachableLine } from './lib/cleanup.ts';
import type { TargetConfig } from './lib/config.ts';
import { readLedger } from './lib/ledger.ts';
import { sandboxesLines } from './lib/own-sandboxes.ts';
import { preflight, unprovenNote, type ResolvedTarget } from './lib/preflight.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const baseUrl = process.env.CONTRACT_BASE_URL?.replace(/\/+$/, '') ?? '';
  if (baseUrl === '') return selfHosted(project);
  const found = await resolved(baseUrl);
  if (found.ownSandboxes) {
    // Nothing to note and delete one by one: the sandboxes go whole.
    project.provide('target', { ...found, ledger: '' });
    return async () => {
      try {
        console.log(['', ...(await sandboxesLines(baseUrl, [found.token, found.token2], process.env.CONTRACT_KEEP === '1'))].join('\n'));
      } catch (error) {
        console.log(`\n${unreachableLine(error)}`);
      }
    };
  }
  const target: TargetConfig = { ...found, ledger: mkdtempSync(join(tmpdir(), 'billing-sim-contract-')) };
  project.provide('target', target);
  return async () => {
    try {
      const created = readLedger(target.ledger);
      const lines = process.env.CONTRACT_KEEP === '1' ? keptLines(created) : cleanupLines(await cleanUp(target, created));
      if (lines.length) console.log(['', ...lines].join('\n'));
    } catch (error) {
      console.log(`\n${unreachableLine(error)}`);
    } finally {
      rmSync(target.ledger, { recursive: true, force: true });
    }
  };
}

/** The target run.ts resolved for this base URL, or resolved here when vitest was started directly. */
async function resolved(baseUrl: string): Promise<ResolvedTarget> {
  const given = process.env.CONTRACT_TARGET ? (JSON.parse(process.env.CONTRACT_TARGET) as ResolvedTarget) : undefined;
  if (given?.baseUrl === baseUrl) return given;
  const env = process.env;
  const result = await preflight({
    baseUrl, token: env.CONTRACT_TOKEN, token2: env.CONTRACT_TOKEN2, brandId: env.CONTRACT_BRAND_ID, brandId2: env.CONTRACT_BRAND_ID2, inAccounts: env.CONTRACT_IN_ACCOUNTS === '1',
  });
  if (!result.ok) throw new Error(`billing-sim contract: ${result.problem}`);
  for (const note of result.notes) console.log(note);
  return result.target;
}

async function newSandbox(origin: string): Promise<{ token: string; brandId: string }> {
  const res = await fetch(`${origin}/sim/v1/sandboxes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  if (res.status !== 201) throw new Error(`could not create a sandbox on the simulator: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string; brand_id: string };
  return { token: body.token, brandId: body.brand_id };
}

async function selfHosted(project: TestProject): Promise<() => Promise<void>> {
  const { startSimulator } = await import('../src/index.ts');
  const sim = await startSimulator({ port: 0, quiet: true });
  try {
    const [one, two] = [await newSandbox(sim.url), await newSandbox(sim.url)];
    const { capabilities, unproven } = await discoverCapabilities(sim.apiUrl, one.token);
    if (unproven.length) console.log(unprovenNote(unproven));
    const target: TargetConfig = {
      baseUrl: sim.apiUrl,
      origin: new URL(sim.apiUrl).origin,
      token: one.token,
      token2: two.token,
      brandId: one.brandId,
      brandId2: two.brandId,
      capabilities,
      selfHosted: true,
      ownSandboxes: false,
      ledger: '',
    };
    project.provide('target', target);
  } catch (error) {
    await sim.stop();
    throw error;
  }
  return () => sim.stop();
}
