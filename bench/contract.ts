// Wall time of the contract suite as a user runs it: `node dist/src/cli.js contract`, from spawn to
// exit. Three runs: against a simulator of its own (no --base-url), then against a simulator in a
// process of its own through a forwarding proxy that answers at once, and through the same proxy
// holding every answer 50 ms, as a staging server in another region does (the default --concurrency).
// The two proxied runs differ only in the delay: their difference is what latency costs the suite.
// A run counts only if it exits 0, so a suite that got faster by failing early is never reported
// as fast. Prints a line per run, and the figures as JSON last:
// { ms, passed, failed, skipped, warnings, proxied: { ms, delayedMs, delay } }.

import { spawn } from 'node:child_process';
import { startProxy } from '../test/contract/fault-proxy.ts';
import { CLI, ROOT, startServer } from './spawn.ts';

/** What a server far away adds to each answer. */
const DELAY_MS = 50;

interface SuiteFigures {
  ms: number;
  passed: number;
  failed: number;
  skipped: number;
  warnings: number;
}

async function suite(args: string[], what: string): Promise<SuiteFigures> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'contract', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const status = await new Promise<number | string>((resolve) => child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const ms = Math.round(performance.now() - started);
  if (status !== 0) {
    console.error(out.trim().split('\n').slice(-30).join('\n'));
    throw new Error(`the contract suite (${what}) exited ${status} after ${ms} ms (must be 0)`);
  }
  const totals = /(\d+) passed, (\d+) failed, (\d+) skipped, (\d+) warnings?/.exec(out);
  if (!totals) throw new Error(`the contract suite printed no totals line:\n${out.slice(-2000)}`);
  const [passed, failed, skipped, warnings] = totals.slice(1).map(Number) as [number, number, number, number];
  console.log(`node dist/src/cli.js contract ${what}: exit 0 in ${ms} ms; ${totals[0]}`);
  return { ms, passed, failed, skipped, warnings };
}

async function sandbox(origin: string): Promise<{ token: string; brand_id: string }> {
  const res = await fetch(`${origin}/sim/v1/sandboxes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"fixtures": true}' });
  if (res.status !== 201) throw new Error(`POST /sim/v1/sandboxes → ${res.status}`);
  return (await res.json()) as { token: string; brand_id: string };
}

/** The suite through a proxy holding each answer `delayMs`, in two fresh sandboxes of `origin`. */
async function proxied(origin: string, delayMs: number): Promise<SuiteFigures> {
  const [one, two] = [await sandbox(origin), await sandbox(origin)];
  const proxy = await startProxy(origin, undefined, { delayMs });
  try {
    return await suite(['--base-url', `${proxy.url}/api/v1`, '--in-accounts', '--token', one.token, '--token2', two.token], `through a proxy delaying ${delayMs} ms`);
  } finally {
    await proxy.close();
  }
}

const own = await suite([], 'against a simulator of its own');
const server = await startServer(process.execPath, [CLI, 'serve', '--port', '0', '--quiet']);
try {
  const direct = await proxied(server.origin, 0);
  const delayed = await proxied(server.origin, DELAY_MS);
  console.log(`latency of ${DELAY_MS} ms per answer adds ${((delayed.ms - direct.ms) / 1000).toFixed(1)} s to the suite`);
  console.log(JSON.stringify({ ...own, proxied: { ms: direct.ms, delayedMs: delayed.ms, delay: DELAY_MS } }));
} finally {
  await server.stop();
}
