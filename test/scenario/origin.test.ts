// `--origin URL`: scenarios against a simulator that is already running (here the CLI's `serve` in
// a child process), each in a sandbox of its own there. A failed scenario's sandbox is kept, and the
// report prints its token so that it can be looked at; a server without the control API is refused.

import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killSpawned, runCli, send, spawnSim, type Sim } from '../support/spawn-sim.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-scenario-origin-'));
let sim: Sim;
beforeAll(async () => {
  sim = await spawnSim();
}, 60_000);
afterAll(async () => {
  await killSpawned();
  rmSync(dir, { recursive: true, force: true });
});

describe('scenario run --origin', () => {
  it('runs the scenarios on that server, which keeps running', async () => {
    const result = await runCli(['scenario', 'run', '--origin', sim.origin, 'fixtures/scenarios/token-deletion.yaml', 'fixtures/scenarios/pause-and-resume.yaml'], 60_000);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(`billing-sim scenario: 2 scenario(s) against ${sim.origin}`);
    expect(result.stdout).toContain('2 scenario(s): 2 passed, 0 failed');
    expect((await sim.request('GET', '/healthz', { token: null })).status).toBe(200);
  }, 90_000);

  it('takes the origin from BILLING_SIM_ORIGIN too, and of a URL only its origin', async () => {
    const result = await runCli(['scenario', 'run', 'fixtures/scenarios/month-end-anchoring.yaml'], 60_000, { BILLING_SIM_ORIGIN: `${sim.origin}/api/v1/` });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(`billing-sim scenario: 1 scenario(s) against ${sim.origin}`);
  }, 90_000);

  it('keeps a failed scenario\'s sandbox there and prints its token', async () => {
    const file = join(dir, 'wrong.yaml');
    const text = readFileSync(fileURLToPath(new URL('../../fixtures/scenarios/mandate-expiry.yaml', import.meta.url)), 'utf8');
    writeFileSync(file, text.replace('  - expect: {count: emails, kind: invoice, is: 0}', '  - expect: {count: emails, kind: invoice, is: 1}'));
    const result = await runCli(['scenario', 'run', '--origin', sim.origin, file], 60_000);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const kept = new RegExp(`^ {4}the sandbox is kept: ${sim.origin}/#token=(\\S+) \\(its id ([0-9a-f-]{36})\\)$`, 'm').exec(result.stdout);
    expect(kept, result.stdout).not.toBeNull();
    // The sandbox as the scenario left it: its clock where the last advance put it.
    const clock = await send(sim.origin, 'GET', '/sim/v1/clock', kept![1]!);
    expect(clock.status).toBe(200);
    expect(clock.body).toMatchObject({ now: '2028-03-01T00:00:00.000Z', frozen: true });
  }, 90_000);

  it('a server without the simulator\'s control API: exit 2, one line, before any scenario', async () => {
    const other: Server = createServer((_, res) => res.writeHead(404).end('Not Found'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    try {
      const result = await runCli(['scenario', 'run', '--origin', origin, 'fixtures/scenarios/month-end-anchoring.yaml'], 60_000);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`billing-sim: ${origin} has no simulator control API (GET /sim/v1/capabilities answered 404): scenarios need billing-sim\n`);
    } finally {
      other.close();
    }
  }, 90_000);
});
