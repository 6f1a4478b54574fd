// Child processes of the benchmarks. Every server a benchmark measures runs in a process of its own
// and announces itself as the simulator's CLI does, with a line `API base URL http://127.0.0.1:PORT/api/v1/`
// (bench/servers/ print the same line), so one reader serves the simulator, prism and the floor alike.
// A benchmark that prints figures for bench/run.ts prints them as one JSON line, its last.

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The compiled CLI, as `npx billing-sim` runs it. */
export const CLI = fileURLToPath(new URL('../dist/src/cli.js', import.meta.url));

/** Node running a TypeScript file of bench/ through tsx's loader, without tsx's own wrapper process. */
export const tsNode = (file: string, ...args: string[]): [string, string[]] => [
  process.execPath,
  ['--import', 'tsx', fileURLToPath(new URL(file, import.meta.url)), ...args],
];

/** Prism reads and compiles openapi.yaml first: seconds on a busy machine, never this long. */
const START_TIMEOUT_MS = 60_000;

export interface Server {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT`, from the announced API base URL. */
  origin: string;
  /** Everything the server printed up to its announcement (the simulator's token is in it). */
  printed: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** Written to the child's stdin, which is then closed (the floor reads its answers there). */
  input?: string;
  /** What else must have been printed before the server counts as started (the simulator's token line). */
  until?: RegExp;
  /** How it announces its URL (group 1), when not by an API base URL line: `billing-sim proxy listening on …`. */
  announced?: RegExp;
}

/** Spawns a server and resolves once it has printed its API base URL; rejects if it exits first. */
export async function startServer(command: string, args: string[], options: StartOptions = {}): Promise<Server> {
  const child = spawn(command, args, {
    cwd: ROOT,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_NO_WARNINGS: '1', ...options.env },
  });
  if (options.input !== undefined) child.stdin!.end(options.input);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let printed = '';
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not announce itself within ${START_TIMEOUT_MS} ms:\n${printed}`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code, signal) => reject(new Error(`${command} ${args.join(' ')} exited (${code ?? signal}) before it listened:\n${printed}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const url = (options.announced ?? /API base URL\s+(http:\/\/\S+)/).exec(printed)?.[1];
      if (url && (!options.until || options.until.test(printed))) {
        clearTimeout(timer);
        resolve(new URL(url).origin);
      }
    });
  });
  // Keep draining stdout, or a server that goes on printing would block on a full pipe; unread.
  child.stdout!.removeAllListeners('data').resume();
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { child, origin, printed, stop };
}

/**
 * The compiled simulator on a free port, as users start it, with its default sandbox's token (printed
 * after the URL, and perhaps in a later chunk: waited for).
 */
export async function startSimulatorWithToken(): Promise<{ sim: Server; token: string }> {
  const tokenLine = /bearer token\s+(\S+)\n/;
  const sim = await startServer(process.execPath, [CLI, 'serve', '--port', '0', '--quiet'], { until: tokenLine });
  return { sim, token: tokenLine.exec(sim.printed)![1]! };
}

/** A benchmark script that failed: its exit status and the gist of what it wrote to stderr. */
export class ScriptFailed extends Error {
  constructor(readonly file: string, readonly status: number | string, readonly stderr: string) {
    super(`${file} exited (${status}): ${gist(stderr)}`);
  }
}

/**
 * The line of a stack trace that says what happened: `ApiError: by: Ensure this value is less than…`
 * for a refused advance, `FATAL ERROR: … JavaScript heap out of memory` for a crash, else the last line.
 */
function gist(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim()).filter(Boolean);
  return lines.find((line) => /^(\w*Error\b|FATAL ERROR)/.test(line)) ?? lines.at(-1) ?? 'no message';
}

/**
 * Runs a script of bench/ in a fresh process (so its peak RSS is its own) and parses the JSON line it
 * prints last. With `show`, what it prints (its table) is passed through as it comes.
 */
export async function runScript<T = Record<string, number>>(file: string, args: string[] = [], show = false): Promise<T> {
  const [command, argv] = tsNode(file, ...args);
  const child = spawn(command, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_NO_WARNINGS: '1' } });
  let out = '';
  let err = '';
  let shown = 0;
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (!show) return;
    // Whole lines only, and not the JSON line meant for bench/run.ts.
    const end = out.lastIndexOf('\n') + 1;
    for (const line of out.slice(shown, end).split('\n').slice(0, -1)) if (!line.startsWith('{')) console.log(line);
    shown = Math.max(shown, end);
  });
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const status = await new Promise<number | string>((resolve) => child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  if (status !== 0) throw new ScriptFailed(file, status, err);
  process.stderr.write(err);
  return JSON.parse(out.trim().split('\n').at(-1)!) as T;
}
