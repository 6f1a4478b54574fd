// DESIGN.md §6–7: `billing-sim export --data FILE [--sandbox ID] --out snap.json` and `billing-sim
// import --data FILE snap.json`, run as a user runs them (the compiled CLI, test/support/cli.ts). Exit codes: 0 ok,
// 2 a usage or configuration error, in one clear line.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { clientBody } from '../builders/templates.ts';
import { CLI } from '../support/cli.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'billing-sim-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// What the commands read from the environment comes from their flags here.
const ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BILLING_SIM_')));

/** Runs the CLI to its end: exit code and output, never a throw. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd: dir, env: ENV });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** A configuration error: exit 2 and exactly one line, which says `what`. */
function expectOneLineError(result: { code: number; stdout: string; stderr: string }, ...what: string[]): void {
  expect(result.code, result.stderr).toBe(2);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  for (const part of what) expect(lines[0]).toContain(part);
}

async function call(sim: RunningSimulator, method: string, path: string, token: string | null, body?: unknown) {
  const response = await fetch(sim.url + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A data file with the default sandbox (one client) and a second sandbox (another client). */
async function dataFile(name: string) {
  const file = join(dir, name);
  const sim = await startSimulator({ port: 0, quiet: true, dataFile: file });
  await call(sim, 'POST', '/api/v1/clients/', sim.token, clientBody({ email: 'default@example.com' }));
  const second = (await call(sim, 'POST', '/sim/v1/sandboxes', null, { now: '2028-02-29T10:00:00Z' })).body;
  await call(sim, 'POST', '/api/v1/clients/', second.token, clientBody({ email: 'second@example.com' }));
  return { file, sim, defaultId: sim.sandboxId, secondId: second.id as string };
}

const snapshotIn = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as { billing_sim_snapshot: number; sandbox: Record<string, any> };

describe('billing-sim export and import', () => {
  it('a data file held by a running server is refused, naming the HTTP way instead', async () => {
    const { file, sim } = await dataFile('running.db');
    try {
      expectOneLineError(await cli('export', '--data', file, '--out', 'running.json'), file, 'in use by another billing-sim process', 'GET /sim/v1/snapshot');
      expect(existsSync(join(dir, 'running.json'))).toBe(false);
      writeFileSync(join(dir, 'exported.json'), JSON.stringify((await call(sim, 'GET', '/sim/v1/snapshot', sim.token)).body));
      expectOneLineError(await cli('import', '--data', file, 'exported.json'), file, 'in use by another billing-sim process', 'POST /sim/v1/sandboxes');
    } finally {
      await sim.stop();
    }
  });

  it('exports the default sandbox of --seed or the one of --sandbox (0600), and imports it as a new sandbox that a server then serves', async () => {
    const { file, sim, defaultId, secondId } = await dataFile('state.db');
    await sim.stop();
    const exported = await cli('export', '--data', file, '--out', 'default.json');
    expect(exported.code, exported.stderr).toBe(0);
    expect(snapshotIn('default.json').sandbox.id).toBe(defaultId);
    expect(statSync(join(dir, 'default.json')).mode & 0o777).toBe(0o600);
    expect((await cli('export', '--data', file, '--sandbox', secondId, '--out', 'second.json')).code).toBe(0);
    expect(snapshotIn('second.json').sandbox.clock).toEqual({ now: '2028-02-29T10:00:00.000Z', frozen: true });

    const imported = await cli('import', '--data', file, '--secret', 'shared secret', 'second.json');
    expect(imported.code, imported.stderr).toBe(0);
    const id = /sandbox id\s+(\S+)/.exec(imported.stdout)?.[1];
    const token = /bearer token\s+(\S+)/.exec(imported.stdout)?.[1];
    expect(id).not.toBe(secondId);

    const again = await startSimulator({ port: 0, quiet: true, dataFile: file, secret: 'shared secret' });
    try {
      const clients = await call(again, 'GET', '/api/v1/clients/', token!);
      expect(clients.body.results.map((c: { email: string }) => c.email)).toEqual(['second@example.com']);
      expect((await call(again, 'GET', '/sim/v1/clock', token!)).body).toEqual({ now: '2028-02-29T10:00:00.000Z', frozen: true });
      expect(again.sandboxId).toBe(defaultId);
      const kept = await call(again, 'GET', '/api/v1/clients/?page_size=1000', again.token);
      expect(kept.body.results.map((c: { email: string }) => c.email)).toContain('default@example.com');
    } finally {
      await again.stop();
    }
  });

  it('a bad snapshot file is refused in one line naming the file and the path of the first bad value; nothing is added', async () => {
    const { file, sim } = await dataFile('guarded.db');
    const document = (await call(sim, 'GET', '/sim/v1/snapshot', sim.token)).body;
    await sim.stop();
    document.sandbox.templates[0][1].subscription_period_units = 'fortnights';
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(document));
    writeFileSync(join(dir, 'torn.json'), '{"billing_sim_snapshot": 1, "sandbox": {');
    const before = statSync(file).mtimeMs;
    expectOneLineError(await cli('import', '--data', file, 'bad.json'), 'bad.json: sandbox.templates.0.1.subscription_period_units: ');
    expectOneLineError(await cli('import', '--data', file, 'torn.json'), 'torn.json: is not JSON');
    expectOneLineError(await cli('import', '--data', file, 'missing.json'), 'missing.json: no such file');
    expect(statSync(file).mtimeMs).toBe(before);
  });

  it('a snapshot file longer than one JavaScript string (about 500 MB, read whole) is refused in one line saying so', async () => {
    const { file, sim } = await dataFile('kept-small.db');
    await sim.stop();
    // 600 MB, sparse: no disk is used, and reading it fills the string all the same.
    writeFileSync(join(dir, 'huge.json'), '');
    truncateSync(join(dir, 'huge.json'), 600 * 2 ** 20);
    expectOneLineError(await cli('import', '--data', file, 'huge.json'), 'huge.json: cannot be read (the snapshot is more JSON than one JavaScript string holds, about 500 MB)');
    rmSync(join(dir, 'huge.json'));
  });

  it('export names what is missing: the data file (never created), the sandbox, --out', async () => {
    expectOneLineError(await cli('export', '--data', 'nowhere.db', '--out', 'x.json'), 'nowhere.db: no such file');
    expect(existsSync(join(dir, 'nowhere.db'))).toBe(false);
    const { file, sim } = await dataFile('named.db');
    await sim.stop();
    expectOneLineError(await cli('export', '--data', file, '--sandbox', '0e5f8c1a-4b2d-4c3e-9f1a-2b3c4d5e6f70', '--out', 'x.json'), 'has no sandbox 0e5f8c1a-4b2d-4c3e-9f1a-2b3c4d5e6f70');
    const noOut = await cli('export', '--data', file);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('--out is required');
  });

  it('a data file whose contents fail validation stops serve and export with the file, the sandbox and the path', async () => {
    const { file, sim, secondId } = await dataFile('tampered.db');
    await sim.stop();
    const db = new Database(file);
    db.prepare("UPDATE records SET data = json_set(data, '$.email', 'not an address') WHERE collection = 'clients' AND sandbox_id = ?").run(secondId);
    db.close();
    const why = [file, `sandbox ${secondId}`, 'clients.0.1.email: '];
    expectOneLineError(await cli('export', '--data', file, '--out', 'x.json'), ...why);
    expectOneLineError(await cli('serve', '--data', file, '--port', '0'), ...why);
  });

  it('-h and --help print each command\'s usage', async () => {
    for (const [command, flag] of [['export', '-h'], ['import', '--help']] as const) {
      const help = await cli(command, flag);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`usage: billing-sim ${command} --data FILE`);
    }
  });
});
