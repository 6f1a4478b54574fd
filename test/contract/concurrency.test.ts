// The suite's checks run at once, with at most --concurrency requests in flight: proven through a
// proxy that holds every answer 50 ms (a server far away), where requests sent one after another
// would never overlap. What is asserted is how many overlapped, never how long the run took (the
// time is the bench's: bench/contract.ts).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { startProxy } from './fault-proxy.ts';
import { newSandbox, runSuite, totals, type Sandbox } from './suite-run.ts';

let sim: RunningSimulator;
let one: Sandbox;
let two: Sandbox;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
  one = await newSandbox(sim.url, { fixtures: true });
  two = await newSandbox(sim.url, { fixtures: true });
}, 60_000); // a hang guard: the default 10 s ran out starting a simulator on a loaded machine
afterAll(() => sim.stop());

/**
 * Checks enough for the proof and no more: more of them than the highest --concurrency tried (8), each of
 * a few requests, all starting at once (each check makes its own objects). Whole check files, at 50 ms an
 * answer and one request at a time, were most of this file's time.
 */
const CLIENT_CHECKS = ['CLI-CREATE', 'CLI-CREATE-STATUS', 'CLI-CREATE-DEFAULTS', 'CLI-GET', 'CLI-PUT', 'CLI-PUT-RESETS-OMITTED', 'CLI-PUT-EMAIL-REQUIRED', 'CLI-PATCH', 'CLI-DELETE', 'CLI-DELETE-STATUS', 'CLI-DELETE-SUBSCRIBER-PROTECTED', 'CLI-UNKNOWN-ID', 'CLI-UNKNOWN-ID-404'];
const PAYMENT_METHOD_CHECKS = ['PM-PLATFORM-SHAPE', 'PM-BY-COUNTRY-ANY', 'PM-REQUIRED-PARAMS', 'PM-UNKNOWN-BRAND'];

/** The most requests of the checks in flight at once, in a run of `checks` with `args`, through a 50 ms proxy. */
async function peakThroughSlowProxy(checks: string[], args: string[]): Promise<number> {
  const proxy = await startProxy(sim.url, undefined, { delayMs: 50 });
  try {
    const run = await runSuite(['--base-url', `${proxy.url}/api/v1`, '--in-accounts', '--token', one.token, '--token2', two.token, ...args], { CONTRACT_CHECK: checks.join(',') });
    expect(run.code, run.output.slice(-3000)).toBe(0);
    // Every check chosen ran and passed: none was renamed away.
    expect(totals(run.output), run.output.slice(-3000)).toEqual({ passed: checks.length, failed: 0, skipped: 0, warnings: 0 });
    return proxy.peakInFlight();
  } finally {
    await proxy.close();
  }
}

describe('--concurrency', () => {
  it('runs independent checks at once, at most 4 requests in flight by default', async () => {
    const peak = await peakThroughSlowProxy([...CLIENT_CHECKS, ...PAYMENT_METHOD_CHECKS], []);
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(4);
  }, 120_000);

  it('--concurrency 1 sends one request at a time, --concurrency 8 lets up to 8 overlap', async () => {
    expect(await peakThroughSlowProxy(CLIENT_CHECKS, ['--concurrency', '1'])).toBe(1);
    const peak = await peakThroughSlowProxy(CLIENT_CHECKS, ['--concurrency', '8']);
    expect(peak).toBeGreaterThan(4);
    expect(peak).toBeLessThanOrEqual(8);
  }, 120_000);
});
