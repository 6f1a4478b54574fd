// The package as a user gets it: `npm pack`, installed from the tarball into a project of its own
// outside this repository, then `npx billing-sim --version`, `serve` (answers, and SIGTERM leaves
// nothing listening), `contract`, `scenario` and `proxy` against that server, `serve --data` with
// `export` and `import` (each command a chunk of the bundled CLI), and `import { startSimulator }` from plain
// Node ESM and from TypeScript. Installing takes some seconds: packages come from npm's cache when
// they are there, and better-sqlite3's native module is the one this checkout built (beforeAll).
//
// What cost time (issue 44, on a 2-core machine): the contract suite's whole run, some 40 s of CPU of the
// file's 66 (75 s wall), though `npm test` runs the whole suite against the same dist/ (`npm run contract`):
// here it loads every check file from the install and runs a few checks (below); and tsc checking its own
// lib files. Now 41 s of CPU, 51 s wall. The tests that only read the install run at once; the stops
// "within 2 s" end when the port closes. .ci/node24 does not run this file (it says why); `npm start`'s
// signal tests, which never used the tarball, moved to test/cli/npm-start.test.ts.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedWithin, startServer } from '../support/npm-server.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

let work = '';
let app = '';
let files: string[] = [];

/** Runs a command in the user's project; stdout, stderr and the exit code, never a throw. */
async function inApp(command: string, args: string[], timeout = 60_000, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: app, timeout, maxBuffer: 64 * 2 ** 20, env: { ...process.env, CI: 'true', NO_COLOR: '1', ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'billing-sim-package-'));
  // dist/ holds the sources as they are now: vitest's global setup built it (test/support/fresh-dist.ts).
  // A build here would delete dist/ under the other files' running CLIs.
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, maxBuffer: 64 * 2 ** 20 });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  files = packed!.files.map((file) => file.path);
  app = join(work, 'app');
  await run('mkdir', [app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'user-project', version: '1.0.0', private: true, type: 'module' }));
  // Installed without running install scripts, then better-sqlite3's native module put in place: the
  // one this checkout built for this very Node and platform when its version is the same (compiling it
  // again took a minute of every run), else its install script, as a user's install runs it.
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', join(work, packed!.filename)], { cwd: app, maxBuffer: 64 * 2 ** 20 });
  const addon = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
  const versionOf = (root: string) => (JSON.parse(readFileSync(join(root, 'node_modules/better-sqlite3/package.json'), 'utf8')) as { version: string }).version;
  if (existsSync(join(ROOT, addon)) && versionOf(ROOT) === versionOf(app)) {
    mkdirSync(dirname(join(app, addon)), { recursive: true });
    copyFileSync(join(ROOT, addon), join(app, addon));
  } else {
    await run('npm', ['rebuild', 'better-sqlite3'], { cwd: app, maxBuffer: 64 * 2 ** 20 });
  }
}, 600_000);

// The install is some 80 MB in thousands of files: on a loaded machine its removal took more than the
// default 10 s a hook may take (and, synchronous, held up the worker's other files meanwhile).
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
}, 120_000);

describe('the packed tarball', () => {
  it('holds the compiled package, the document and the docs, and no tests or TypeScript sources', () => {
    expect(files).toEqual(expect.arrayContaining(['dist/src/cli.js', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/contract-tests/run.js', 'dist/contract-tests/lib/prism.js', 'dist/contract-tests/lib/prism.js.LICENSES.txt', 'dist/src/ui/swagger-ui/LICENSE', 'openapi.yaml', 'README.md', 'LICENSE', 'CHANGELOG.md']));
    expect(files.filter((path) => path.startsWith('test/') || path.includes('.test.ts') || path.startsWith('src/') || path.startsWith('bench/'))).toEqual([]);
    expect(files.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts') && !path.startsWith('fixtures/'))).toEqual([]);
  });

  it('installs with no install script but better-sqlite3\'s, and without what only development needs (Prism, swagger-ui-dist and its telemetry)', () => {
    const installed = packagesIn(join(app, 'node_modules'));
    // What npm runs at install: these three scripts, or node-gyp for a binding.gyp without them.
    const withScripts = installed.filter(({ scripts, gyp }) => gyp || ['preinstall', 'install', 'postinstall'].some((name) => scripts[name]));
    expect(withScripts.map(({ name }) => name)).toEqual(['better-sqlite3']);
    // npm 11 also lists a dependency's `prepare` among the scripts to approve, though it runs it only for a git dependency.
    expect(installed.find(({ name }) => name === 'billing-sim')?.scripts.prepare).toBeUndefined();
    const names = new Set(installed.map(({ name }) => name));
    for (const absent of ['@scarf/scarf', 'swagger-ui-dist', '@stoplight/prism-http', 'postman-collection', 'json-schema-faker']) expect(names.has(absent), absent).toBe(false);
    expect(installed.filter(({ name }) => name === '@faker-js/faker'), 'one faker').toHaveLength(1);
  });

  it.concurrent('npx billing-sim --version prints the package version; a wrong command exits 2 with one line', async ({ expect }) => {
    expect(await inApp('npx', ['billing-sim', '--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
    const wrong = await inApp('npx', ['billing-sim', 'serve', '--port', 'many']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.split('\n').filter((line) => line.startsWith('billing-sim:'))).toEqual(['billing-sim: --port must be a non-negative integer, got "many" (see billing-sim serve --help)']);
  });

  it.concurrent('imports from plain Node ESM: startSimulator answers /healthz', async ({ expect }) => {
    writeFileSync(
      join(app, 'start.mjs'),
      `import { startSimulator } from 'billing-sim';
const sim = await startSimulator({ port: 0, quiet: true });
const res = await fetch(sim.url + '/healthz');
console.log(res.status, sim.brandId.length);
await sim.stop();`,
    );
    expect(await inApp('node', ['start.mjs'])).toMatchObject({ code: 0, stdout: '200 36\n' });
  });

  it.concurrent('a CommonJS project loads it: require() where Node can require ES modules (20.19, 22.12 and later), import() everywhere', async ({ expect }) => {
    writeFileSync(
      join(app, 'start.cjs'),
      `const { startSimulator } = require('billing-sim');
(async () => {
  const { startSimulator: imported } = await import('billing-sim');
  const sim = await startSimulator({ port: 0, quiet: true });
  const res = await fetch(sim.url + '/healthz');
  console.log(res.status, imported === startSimulator);
  await sim.stop();
})();`,
    );
    expect(await inApp('node', ['start.cjs'])).toMatchObject({ code: 0, stdout: '200 true\n' });
  });

  it.concurrent('type-checks from TypeScript against the declarations it ships (no skipLibCheck)', async ({ expect }) => {
    writeFileSync(
      join(app, 'start.ts'),
      `import { startSimulator, type RunningSimulator, type SimulatorOptions } from 'billing-sim';
const options: SimulatorOptions = { port: 0, quiet: true, seed: 7 };
const sim: RunningSimulator = await startSimulator(options);
const apiUrl: string = sim.apiUrl;
// @ts-expect-error: the port is a number
await startSimulator({ port: '4010' });
export { apiUrl };`,
    );
    // --skipDefaultLibCheck: TypeScript's own lib.*.d.ts are not what is checked here (they took about half of
    // tsc's time); the package's declarations and @types/node still are, as without skipLibCheck.
    const args = ['--noEmit', '--strict', '--skipDefaultLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', join(ROOT, 'node_modules/@types'), 'start.ts'];
    const checked = await inApp(process.execPath, [TSC, ...args]);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  });

  describe('npx billing-sim serve', () => {
    let server: ChildProcess;
    let api = '';
    let origin = '';
    let token = '';

    beforeAll(async () => {
      let output: () => string;
      ({ child: server, origin, output } = await startServer('npx', ['billing-sim', 'serve'], app));
      api = `${origin}/api/v1`;
      token = /bearer token\s+(\S+)/.exec(output())![1]!;
    }, 30_000);

    afterAll(async () => {
      // SIGTERM, which npx passes on: a SIGKILL would end npx alone and leave the server it started
      // listening, as it did after a run filtered with -t that skipped the last test of this block.
      if (server.exitCode !== null || server.signalCode !== null) return;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    });

    it('answers /healthz', async () => {
      expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    });

    // The whole suite runs in `npm test` (`npm run contract`, the same dist/ against this checkout's
    // simulator). What only the install can show is that each check file loads from it, with the
    // package's dependencies and not this repository's: every file is loaded (CONTRACT_CHECK filters
    // checks as they register, and a file that fails to load is an error that fails the run), and
    // these checks run through the suite's parts: two accounts, the clock, a payment and a charge
    // with a saved token, and a webhook delivery to the suite's receiver, verified with the account's key.
    const CHECKS = ['SIM-EVENTS-OUTBOX', 'ISO-CLIENT-GET', 'TIME-AUTO-CHARGE', 'PUR-CHARGE-DECLINED', 'TOK-DELETE-EFFECT-1', 'WH-SIGNED-BY-OWN-KEY'];

    it('npx billing-sim contract loads every check file from the install and passes checks of its every part', async () => {
      const second = await fetch(`${origin}/sim/v1/sandboxes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"fixtures":true}' });
      const { token: token2 } = (await second.json()) as { token: string };
      const checkFiles = readdirSync(join(app, 'node_modules/billing-sim/dist/contract-tests/checks')).filter((name) => name.endsWith('.test.js'));
      expect(checkFiles.length).toBeGreaterThan(30);
      const result = await inApp('npx', ['billing-sim', 'contract', '--base-url', api, '--token', token, '--token2', token2], 240_000, { CONTRACT_CHECK: CHECKS.join(',') });
      expect(result.stdout).toContain(`Contract suite: ${checkFiles.length} check files`);
      expect(result.stdout).toMatch(new RegExp(`^${CHECKS.length} passed, 0 failed, 0 skipped, 0 warnings$`, 'm'));
      expect(result.code, result.stdout + result.stderr).toBe(0);
    }, 240_000);

    it('serves the dashboard, its scripts, and the API reference with the Swagger UI it ships', async () => {
      for (const path of ['/', '/ui/dashboard.js', '/ui/dashboard-base.js', '/ui/dashboard-actions.js', '/ui/dashboard-create.js', '/ui/dashboard-checkpoints.js', '/ui/dashboard-sections.js', '/docs', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css']) {
        expect((await fetch(`${origin}${path}`)).status, path).toBe(200);
      }
    });

    it('npx billing-sim scenario run passes a scenario file of the user\'s, in a simulator of its own and against this server', async () => {
      copyFileSync(join(ROOT, 'fixtures/scenarios/declined-once-then-fine.yaml'), join(app, 'dunning.yaml'));
      for (const where of [[], ['--origin', origin]]) {
        const result = await inApp('npx', ['billing-sim', 'scenario', 'run', ...where, 'dunning.yaml'], 120_000);
        expect(result.code, result.stdout + result.stderr).toBe(0);
      }
    }, 240_000);

    it('npx billing-sim proxy forwards to this server and checks the exchange; SIGTERM to npx leaves nothing listening within 2 s', async () => {
      const proxy = spawn('npx', ['billing-sim', 'proxy', '--upstream', origin, '--port', '0'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise((resolve) => proxy.once('exit', resolve));
      let at = '';
      try {
        at = await new Promise<string>((resolve, reject) => {
          let out = '';
          proxy.once('exit', (code) => reject(new Error(`proxy exited ${code}: ${out}`)));
          proxy.stderr!.on('data', (chunk: Buffer) => void (out += chunk));
          proxy.stdout!.on('data', (chunk: Buffer) => {
            out += chunk;
            const url = /listening on (http:\/\/\S+?)\/?,/.exec(out)?.[1];
            if (url) resolve(url);
          });
        });
        expect(await (await fetch(`${at}/healthz`)).json()).toEqual({ status: 'ok' });
        const report = (await (await fetch(`${at}/__proxy/report`)).json()) as { exchanges: number; violations: number };
        expect(report).toMatchObject({ exchanges: 1, violations: 0 });
      } finally {
        // As a user's Ctrl-C or CI's stop: npx passes the signal on. A SIGKILL would end npx alone and
        // leave the proxy it started listening, as this test once did after every run.
        proxy.kill('SIGTERM');
        await exited;
      }
      expect(await closedWithin(at, 2_000)).toBe(true);
    }, 60_000);

    it('SIGTERM to npx leaves nothing listening within 2 s', async () => {
      server.kill('SIGTERM');
      expect(await closedWithin(origin, 2_000)).toBe(true);
    });
  });
});

describe('npx billing-sim serve outlives no npm', () => {
  // A process manager that knows only the pid it started signals npx alone. npm dies of SIGHUP and
  // SIGKILL without passing them on, and its shell keeps waiting: the server must still end.
  for (const signal of ['SIGHUP', 'SIGKILL'] as const) {
    it(`${signal} to npx alone leaves nothing listening within 2 s`, async () => {
      const { child, origin } = await startServer('npx', ['billing-sim', 'serve'], app);
      expect((await fetch(`${origin}/healthz`)).status).toBe(200);
      child.kill(signal);
      expect(await closedWithin(origin, 2_000)).toBe(true);
    }, 30_000);
  }
});

describe('npx billing-sim serve --data, export and import', () => {
  it('keeps a client across a restart, exports its sandbox and imports it into another data file', async () => {
    const data = join(app, 'billing.db');
    let { child, origin, output } = await startServer('npx', ['billing-sim', 'serve', '--data', data], app);
    const token = /bearer token\s+(\S+)/.exec(output())![1]!;
    const created = await fetch(`${origin}/api/v1/clients/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'kept@example.com' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const stop = async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    };
    await stop();
    ({ child, origin } = await startServer('npx', ['billing-sim', 'serve', '--data', data], app));
    const kept = await fetch(`${origin}/api/v1/clients/${id}/`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await kept.json()) as { email: string }).email).toBe('kept@example.com');
    await stop();

    const exported = await inApp('npx', ['billing-sim', 'export', '--data', data, '--out', 'sandbox.json']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(join(app, 'sandbox.json'), 'utf8')).toContain('kept@example.com');
    const imported = await inApp('npx', ['billing-sim', 'import', '--data', join(app, 'other.db'), 'sandbox.json']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/bearer token\s+\S+/);
  }, 120_000);
});

/** Every package installed under a node_modules folder, nested ones too: name, scripts, and whether it has a binding.gyp. */
function packagesIn(folder: string): { name: string; scripts: Record<string, string>; gyp: boolean }[] {
  const found: { name: string; scripts: Record<string, string>; gyp: boolean }[] = [];
  const entries = (path: string) => readdirSync(path, { withFileTypes: true }).filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'));
  for (const entry of entries(folder)) {
    const dirs = entry.name.startsWith('@') ? entries(join(folder, entry.name)).map((inner) => join(folder, entry.name, inner.name)) : [join(folder, entry.name)];
    for (const dir of dirs) {
      const manifest = join(dir, 'package.json');
      if (!existsSync(manifest)) continue;
      const { name, scripts = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; scripts?: Record<string, string> };
      found.push({ name, scripts, gyp: existsSync(join(dir, 'binding.gyp')) });
      if (existsSync(join(dir, 'node_modules'))) found.push(...packagesIn(join(dir, 'node_modules')));
    }
  }
  return found;
}
