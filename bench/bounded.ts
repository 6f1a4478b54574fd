// Bounded work (DESIGN.md §6): while one sandbox of 1,000 monthly subscribers is advanced 35 years
// (420,000 billings), how long do /healthz and another sandbox's
// GET take? The simulator runs in a child process (as `npm start` does); this process only asks.
// Prints a table; the last line is the figures as JSON.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientBody, subscriptionBody } from '../test/builders/templates.ts';
import { call as callTarget } from './http.ts';
import { startServer } from './spawn.ts';

const SUBSCRIBERS = Number(process.argv[2] ?? 1000);
const YEARS = Number(process.argv[3] ?? 35);
const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

// `bounded.ts N YEARS data`: the same with --data (a temporary SQLite file), whose advance commits between slices.
const folder = process.argv[4] === 'data' ? mkdtempSync(join(tmpdir(), 'billing-sim-bounded-')) : undefined;
const dataArgs = folder ? ['--data', join(folder, 'bounded.db')] : [];
const server = await startServer(process.execPath, ['--import', 'tsx', CLI, 'serve', '--port', '0', '--quiet', ...dataArgs]);
const { origin, child } = server;
const call = (token: string, method: string, path: string, body?: unknown) => callTarget({ url: origin, token }, method, path, body);

const newSandbox = async () => call('', 'POST', '/sim/v1/sandboxes', { now: '2026-01-30T09:00:00Z' });
const rssMb = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024);

try {
  const busy = await newSandbox();
  const other = await newSandbox();
  const template = await call(busy.token, 'POST', '/api/v1/billing_templates/', subscriptionBody(busy.brand_id));
  for (let i = 0; i < SUBSCRIBERS; i += 1) {
    const client = await call(busy.token, 'POST', '/api/v1/clients/', clientBody({ email: `subscriber${i}@example.com` }));
    const { purchase } = await call(busy.token, 'POST', `/api/v1/billing_templates/${template.id}/add_subscriber/`, {
      client_id: client.id,
      subscription_deduction_date: '2026-02-05',
      mandate_expiry_date: '2099-01-01',
    });
    await call(busy.token, 'POST', `/sim/v1/purchases/${purchase.id}/pay`, { method: 'visa', save_token: true });
  }
  const rssBefore = rssMb();
  let peakRss = rssBefore;
  const started = performance.now();
  let done = false;
  const advancing = call(busy.token, 'POST', '/sim/v1/clock/advance', { by: `P${YEARS}Y` }).finally(() => (done = true));
  // Awaited after the loop; handled now, so a refusal ends the run through `finally`, not as an unhandled rejection.
  advancing.catch(() => undefined);
  const health: number[] = [];
  const others: number[] = [];
  while (!done) {
    const t0 = performance.now();
    await fetch(`${origin}/healthz`).then((res) => res.arrayBuffer());
    const t1 = performance.now();
    await fetch(`${origin}/api/v1/clients/`, { headers: { authorization: `Bearer ${other.token}` } }).then((res) => res.arrayBuffer());
    health.push(t1 - t0);
    others.push(performance.now() - t1);
    peakRss = Math.max(peakRss, rssMb());
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const { processed } = await advancing;
  const advanceMs = Math.round(performance.now() - started);
  const quantile = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1));
  };
  const row = (name: string, values: number[]) => ({ '': name, samples: values.length, 'p50 ms': quantile(values, 0.5), 'p99 ms': quantile(values, 0.99), 'max ms': quantile(values, 1) });
  console.table([row('GET /healthz', health), row("another sandbox's GET /api/v1/clients/", others)]);
  console.log(`advance P${YEARS}Y of ${SUBSCRIBERS} subscribers${folder ? ' with --data' : ''}: ${processed.billings} billings in ${advanceMs} ms; server RSS ${rssBefore} → peak ${peakRss} MB`);
  console.log(JSON.stringify({ billings: processed.billings, advanceMs, health: [quantile(health, 0.5), quantile(health, 0.99)], other: [quantile(others, 0.5), quantile(others, 0.99)], rssBefore, peakRss }));
} finally {
  await server.stop('SIGKILL');
  if (folder) rmSync(folder, { recursive: true, force: true });
}
