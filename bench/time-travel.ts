// One sandbox, N monthly subscribers who paid their first purchase with a saved card, advanced
// 10 years: N × 120 billings, each with a purchase, a charge, events and a receipt e-mail. Then the
// newest page of its purchases, as `GET /api/v1/purchases/` answers it: the first list (which puts
// the purchases in order), and the median of five after it.
// Beside the advance's time, the garbage collector's pauses within it (minor: scavenges of the
// young generation; major: mark-compact and its incremental marking steps), so that a growth of the
// time shows whether the collector grew or the code between its pauses.
// Prints one JSON line; bench/run.ts runs it per size in a fresh process so peak RSS is its own.

import { constants, PerformanceObserver } from 'node:perf_hooks';
import { createIds } from '../src/engine/ids.ts';
import { advance } from '../src/engine/time.ts';
import { purchaseHandlers } from '../src/http/handlers/purchases.ts';
import type { SandboxCall } from '../src/http/handler.ts';
import { busySandbox } from '../test/builders/busy-sandbox.ts';
import { medianBy } from './results.ts';

const subscribers = Number(process.argv[2] ?? 1000);
const years = Number(process.argv[3] ?? 10);
// With a third argument (an ISO-8601 duration), each payment is settled that long after it (PUT /sim/v1/processing).
const settlement = process.argv[4];
const wall = { now: () => Date.parse('2026-01-30T09:00:00Z') };
// Unseeded, as `npm start` runs: crypto's UUIDs.
const ids = createIds();
const sandbox = busySandbox(subscribers, wall, ids);
if (settlement) sandbox.processing = { delay: 'PT0S', settlement };

const pauses: Array<{ startTime: number; duration: number; kind: number | undefined }> = [];
const collector = new PerformanceObserver((list) => {
  for (const { startTime, duration, detail } of list.getEntries() as Array<{ startTime: number; duration: number; detail?: { kind?: number } }>) {
    pauses.push({ startTime, duration, kind: detail?.kind });
  }
});
collector.observe({ entryTypes: ['gc'] });

const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const processed = await advance(sandbox, { by: `P${years}Y` }, wall, ids);
const ended = performance.now();
const ms = ended - started;
// Entries reach the observer after their pause: one more turn of the loop delivers the last ones.
await new Promise((resolve) => setImmediate(resolve));
collector.disconnect();
const pausedMs = (...kinds: number[]) =>
  Math.round(
    pauses
      .filter((entry) => entry.startTime >= started && entry.startTime < ended && entry.kind !== undefined && kinds.includes(entry.kind))
      .reduce((sum, entry) => sum + entry.duration, 0),
  );

const origin = 'http://127.0.0.1:4010';
const listNewest = () => {
  const listed = performance.now();
  purchaseHandlers.listPurchases!({ sandbox, query: {}, url: `${origin}/api/v1/purchases/`, origin } as SandboxCall);
  return performance.now() - listed;
};
const firstListMs = listNewest();
const listMs = medianBy(Array.from({ length: 5 }, listNewest), (time) => time);
console.log(
  JSON.stringify({
    subscribers,
    years,
    ...(settlement && { settlement, settlements: processed.settlements ?? 0 }),
    ms: Math.round(ms),
    billings: processed.billings,
    charges: processed.charges,
    purchases: sandbox.purchases.size,
    events: sandbox.events.length,
    emails: sandbox.outbox.length,
    billingsPerSecond: Math.round(processed.billings / (ms / 1000)),
    gcMs: { minor: pausedMs(constants.NODE_PERFORMANCE_GC_MINOR), major: pausedMs(constants.NODE_PERFORMANCE_GC_MAJOR, constants.NODE_PERFORMANCE_GC_INCREMENTAL) },
    rssBeforeMb: Math.round(rssBefore / 2 ** 20),
    firstListMs: Number(firstListMs.toFixed(2)),
    listMs: Number(listMs.toFixed(2)),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
