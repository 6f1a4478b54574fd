// A simulator started as a user starts it, through npm or npx (`npm start`, `npx billing-sim serve`), for the
// tests of how those wrappers pass signals on; and the check that nothing listens any more, which ends as
// soon as the port is closed instead of sleeping out the whole allowance first.

import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { listening } from './ports.ts';

/** Starts `command` (npx or npm start) running the server on a free port; its origin once it answers. */
export async function startServer(command: string, args: string[], cwd: string): Promise<{ child: ChildProcess; origin: string; output: () => string }> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BILLING_SIM_PORT: '0', BILLING_SIM_QUIET: '1' } });
  let out = '';
  child.stderr!.on('data', (chunk: Buffer) => void (out += chunk));
  const origin = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${command} exited ${code}: ${out}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const api = /API base URL\s+(\S+)/.exec(out)?.[1];
      if (api && /bearer token\s+\S+\s/.test(out)) resolve(new URL(api).origin);
    });
  });
  return { child, origin, output: () => out };
}

/**
 * Whether nothing listens at `origin` any more within `ms` of now (DESIGN §7: a stop within 2 s). It looks
 * every 50 ms and answers true at the first refused connection: the same verdict as one look after `ms`
 * (a port, once closed, is not opened again by the process that was stopped), without waiting out the rest.
 */
export async function closedWithin(origin: string, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  for (;;) {
    if (!(await listening(origin))) return true;
    if (performance.now() >= deadline) return false;
    await sleep(50);
  }
}
