// Persistence: the same HTTP requests against an in-memory simulator and one with `--data` (a
// temporary SQLite file, removed afterwards), side by side in one run. Write latency of sequential
// `POST /api/v1/clients/` on an empty store, then in a sandbox of 1,000 monthly subscribers
// advanced one year and in an empty sandbox beside it (DESIGN.md §6: "the cost of a write depends on
// what it changed, never on the size of the store"); the time to populate and advance that sandbox;
// and the restart on that file once advanced a second year. Each side runs in a fresh process, so
// neither runs on code the other warmed up. Prints a table; the last line is the figures as JSON.
// `persistence.ts measure [FILE]` and `persistence.ts start [FILE]` are the children.

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../src/index.ts';
import { clientBody, subscriptionBody } from '../test/builders/templates.ts';
import { call } from './http.ts';
import { runScript } from './spawn.ts';

const SUBSCRIBERS = 1000;
const WRITES = 300;
const WARM_UP = 200;
const SEED = 7;

interface Sandbox {
  url: string;
  token: string;
  brandId: string;
}

async function newSandbox(sim: RunningSimulator): Promise<Sandbox> {
  const created = await call({ url: sim.url, token: '' }, 'POST', '/sim/v1/sandboxes', { now: '2026-01-30T09:00:00Z', frozen: true });
  return { url: sim.url, token: created.token, brandId: created.brand_id };
}

/** p50 and p95 in ms of sequential client creations, after a warm-up that is not counted. */
async function writeLatency(sandbox: Sandbox): Promise<[number, number]> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + WRITES; i += 1) {
    const t0 = performance.now();
    await call(sandbox, 'POST', '/api/v1/clients/', clientBody({ email: `writer${i}@example.com` }));
    if (i >= WARM_UP) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => round(times[Math.min(times.length - 1, Math.floor(q * times.length))]!, 2);
  return [at(0.5), at(0.95)];
}

/** 1,000 monthly subscribers, each paying the first purchase with a saved card, as the README's flow. */
async function populate(sandbox: Sandbox): Promise<void> {
  const template = await call(sandbox, 'POST', '/api/v1/billing_templates/', subscriptionBody(sandbox.brandId));
  for (let i = 0; i < SUBSCRIBERS; i += 1) {
    const client = await call(sandbox, 'POST', '/api/v1/clients/', clientBody({ email: `subscriber${i}@example.com` }));
    const { purchase } = await call(sandbox, 'POST', `/api/v1/billing_templates/${template.id}/add_subscriber/`, {
      client_id: client.id,
      subscription_deduction_date: '2026-02-05',
      mandate_expiry_date: '2040-01-01',
    });
    await call(sandbox, 'POST', `/sim/v1/purchases/${purchase.id}/pay`, { method: 'visa', save_token: true });
  }
}

async function timedMs(work: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await work();
  return Math.round(performance.now() - t0);
}

const round = (value: number, digits = 0) => Number(value.toFixed(digits));

/** One store kind through the whole sequence; `dataFile` undefined is the in-memory simulator. */
async function measure(dataFile: string | undefined) {
  const sim = await startSimulator({ port: 0, quiet: true, dataFile, seed: SEED });
  const emptyStore = await writeLatency(await newSandbox(sim));
  const big = await newSandbox(sim);
  const populateMs = await timedMs(() => populate(big));
  const advance = async () => (await call(big, 'POST', '/sim/v1/clock/advance', { by: 'P1Y' })).processed;
  let firstYear: Record<string, number> = {};
  const advanceMs = await timedMs(async () => (firstYear = await advance()));
  const bigSandbox = await writeLatency(big);
  const besideBig = await writeLatency(await newSandbox(sim));
  const secondAdvanceMs = await timedMs(advance);
  await sim.stop();
  return { emptyStore, populateMs, advanceMs, billings: firstYear.billings!, bigSandbox, besideBig, secondAdvanceMs };
}

/** Start-up to the first answered request, on an existing file or a new one (or in memory). */
async function startUp(dataFile: string | undefined) {
  let sim: RunningSimulator | undefined;
  const ms = await timedMs(async () => {
    sim = await startSimulator({ port: 0, quiet: true, dataFile, seed: SEED });
    await fetch(`${sim.url}/healthz`);
  });
  await sim!.stop();
  return { ms, peakRssMb: peakRssMb() };
}

const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

const [step, file] = process.argv.slice(2);
if (step === 'measure') {
  console.log(JSON.stringify({ ...(await measure(file)), peakRssMb: peakRssMb() }));
} else if (step === 'start') {
  console.log(JSON.stringify(await startUp(file)));
} else {
  const t0 = performance.now();
  const folder = mkdtempSync(join(tmpdir(), 'billing-sim-bench-'));
  const bigFile = join(folder, 'big.db');
  try {
    type Measured = Awaited<ReturnType<typeof measure>> & { peakRssMb: number };
    type Started = Awaited<ReturnType<typeof startUp>>;
    // Each step in a fresh process, so neither store kind runs on code the other warmed up.
    const child = <T>(...args: string[]) => runScript<T>('persistence.ts', args);
    const memory = await child<Measured>('measure');
    const data = await child<Measured>('measure', bigFile);
    const fileMb = round(statSync(bigFile).size / 2 ** 20, 1);
    const start = { memory: await child<Started>('start'), data: await child<Started>('start', join(folder, 'new.db')) };
    const restart = await child<Started>('start', bigFile);

    const pair = (name: string, m: number | string, d: number) => ({ '': name, memory: m, 'data file': d, 'data / memory': typeof m === 'number' ? round(d / m, 2) : '' });
    console.table([
      pair('write p50 ms, empty store', memory.emptyStore[0], data.emptyStore[0]),
      pair('write p95 ms, empty store', memory.emptyStore[1], data.emptyStore[1]),
      pair(`write p50 ms, in the ${SUBSCRIBERS}-subscriber sandbox`, memory.bigSandbox[0], data.bigSandbox[0]),
      pair(`write p95 ms, in the ${SUBSCRIBERS}-subscriber sandbox`, memory.bigSandbox[1], data.bigSandbox[1]),
      pair('write p50 ms, empty sandbox beside it', memory.besideBig[0], data.besideBig[0]),
      pair('write p95 ms, empty sandbox beside it', memory.besideBig[1], data.besideBig[1]),
      pair(`populate ms (${SUBSCRIBERS} × client, add_subscriber, pay)`, memory.populateMs, data.populateMs),
      pair(`advance P1Y ms (${data.billings} billings)`, memory.advanceMs, data.advanceMs),
      pair('advance a second P1Y ms', memory.secondAdvanceMs, data.secondAdvanceMs),
      pair('peak RSS MB of the above', memory.peakRssMb, data.peakRssMb),
      pair('start-up ms to the first answer, empty store', start.memory.ms, start.data.ms),
      pair('restart ms on the 2-year store (memory: empty)', start.memory.ms, restart.ms),
      pair('peak RSS MB of that restart (memory: empty)', start.memory.peakRssMb, restart.peakRssMb),
      pair('data file MB, 2-year store', '', fileMb),
    ]);
    console.log(`each row's side in a fresh process; ${WRITES} writes after ${WARM_UP} of warm-up; run ${round((performance.now() - t0) / 1000, 1)} s`);
    console.log(JSON.stringify({ memory, data, start, restart, fileMb }));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
