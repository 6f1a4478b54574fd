// Simulators in child processes, for the durability tests: the real CLI (`dist/src/cli.js serve`,
// test/support/cli.ts), so a test can kill -9 it, read its memory from /proc, or watch it refuse a data
// file with exit 2. Every child is registered here and killed by killSpawned(), which each test file
// calls in afterAll, so a failing test never leaves a server behind.

import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLI } from './cli.ts';
import type { Call } from './harness.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Long enough for a start on a loaded 2-core machine (about 2 s there), short enough to fail a hung one. */
const START_TIMEOUT_MS = 30_000;

const spawned = new Set<ChildProcess>();

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SimOptions {
  data?: string;
  seed?: number;
  /** The child's umask, e.g. 0 to show that a 0600 data file is not the umask's doing. */
  umask?: number;
  /** `serve`'s flags exactly, instead of `--port 0 --quiet` and the options above. */
  args?: string[];
  /** Environment variables beside the test's own (whose BILLING_SIM_* are left out). */
  env?: Record<string, string>;
}

export interface Sim {
  pid: number;
  origin: string;
  token: string;
  brandId: string;
  /** The default sandbox's id (the subject of its token). */
  sandboxId: string;
  /** What the child printed so far. */
  stdout(): string;
  stderr(): string;
  exited: Promise<Exit>;
  /** Sends `signal` (SIGKILL by default) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<Exit>;
  /** One request; a token of null sends none, undefined the default sandbox's. */
  request(method: string, path: string, options?: { token?: string | null; body?: unknown }): Promise<Call>;
}

function cliArgs(options: SimOptions): string[] {
  if (options.args) return ['serve', ...options.args];
  const args = ['serve', '--port', '0', '--quiet'];
  if (options.data !== undefined) args.push('--data', options.data);
  if (options.seed !== undefined) args.push('--seed', String(options.seed));
  return args;
}

function track(child: ChildProcess): { exited: Promise<Exit>; out: { stdout: string; stderr: string } } {
  spawned.add(child);
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      spawned.delete(child);
      resolve({ code, signal });
    }),
  );
  return { exited, out };
}

/** Starts `dist/src/cli.js serve --port 0 --quiet` with the options and waits until it listens. */
export function spawnSim(options: SimOptions = {}): Promise<Sim> {
  const command = [process.execPath, CLI, ...cliArgs(options)];
  const env = childEnv(options.env);
  const child =
    options.umask === undefined
      ? spawn(command[0]!, command.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('/bin/sh', ['-c', `umask ${options.umask.toString(8).padStart(3, '0')} && exec "$@"`, 'sh', ...command], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return listening(child, track(child));
}

function listening(child: ChildProcess, { exited, out }: ReturnType<typeof track>): Promise<Sim> {
  return new Promise<Sim>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the simulator did not listen within ${START_TIMEOUT_MS} ms:\n${out.stdout}${out.stderr}`));
    }, START_TIMEOUT_MS);
    const check = () => {
      const origin = /control API\s+(http:\/\/\S+?)\/sim\/v1\//.exec(out.stdout)?.[1];
      const token = /bearer token\s+(\S+)/.exec(out.stdout)?.[1];
      const brandId = /brand_id\s+(\S+)/.exec(out.stdout)?.[1];
      if (!origin || !token || !brandId) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve(simulator(child, origin, token, brandId, exited, out));
    };
    child.stdout!.on('data', check);
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`the simulator exited (${exit.code ?? exit.signal}) before it listened:\n${out.stdout}${out.stderr}`));
    });
  });
}

function simulator(child: ChildProcess, origin: string, token: string, brandId: string, exited: Promise<Exit>, out: { stdout: string; stderr: string }): Sim {
  const sandboxId = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
  const request: Sim['request'] = (method, path, options = {}) => send(origin, method, path, options.token === undefined ? token : options.token, options.body);
  return {
    pid: child.pid!,
    origin,
    token,
    brandId,
    sandboxId,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    exited,
    kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    request,
  };
}

/** One JSON request to a simulator; the answer as the harness gives it. Rejects when the connection fails. */
export async function send(origin: string, method: string, path: string, token: string | null, body?: unknown): Promise<Call> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(origin + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers.entries()),
    text,
    body: text && type.includes('json') ? JSON.parse(text) : undefined,
  };
}

/** Every page of a list endpoint (`path` without a query), in the API's order. */
export async function listAll<T>(origin: string, token: string, path: string): Promise<T[]> {
  const results: T[] = [];
  for (let page = 1; page <= 1000; page += 1) {
    const call = await send(origin, 'GET', `${path}?page_size=1000&page=${page}`, token);
    if (call.status !== 200) throw new Error(`GET ${path} page ${page}: ${call.status} ${call.text.slice(0, 300)}`);
    const body = call.body as { results: T[]; next: string | null };
    results.push(...body.results);
    if (!body.next) return results;
  }
  throw new Error(`GET ${path}: more than 1000 pages`);
}

/** The test's environment without what would configure the CLI, plus `extra`. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const own = Object.entries(process.env).filter(([name]) => !name.startsWith('BILLING_SIM_') && !name.startsWith('CONTRACT_') && name !== 'PORT');
  return { ...Object.fromEntries(own), ...extra };
}

/** Runs the CLI to its exit (a start that must fail); a child still running after `timeoutMs` is killed. */
export async function runCli(args: string[], timeoutMs = START_TIMEOUT_MS, env?: Record<string, string>): Promise<Exit & { stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const { exited, out } = track(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exit = await exited;
  clearTimeout(timer);
  return { ...exit, ...out };
}

/** Kills every child these helpers started that is still running; for afterAll. */
export async function killSpawned(): Promise<void> {
  const exits = [...spawned].map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of spawned) child.kill('SIGKILL');
  await Promise.all(exits);
}

/** The resident set size of a process, in bytes (VmRSS of /proc/PID/status). */
export function rssBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}
