// One sandbox, N monthly subscribers who paid their first purchase with a saved card, advanced
// 10 years: N × 120 billings, each with a purchase, a charge, events and a receipt e-mail.
// Prints one JSON line; bench/run.ts runs it per size in a fresh process so peak RSS is its own.

import { createIds } from '../src/engine/ids.ts';
import { advance } from '../src/engine/time.ts';
import { busySandbox } from '../test/builders/busy-sandbox.ts';

const subscribers = Number(process.argv[2] ?? 1000);
const years = Number(process.argv[3] ?? 10);
const wall = { now: () => Date.parse('2026-01-30T09:00:00Z') };
// Unseeded, as `npm start` runs: crypto's UUIDs.
const ids = createIds();
const sandbox = busySandbox(subscribers, wall, ids);

const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const processed = await advance(sandbox, { by: `P${years}Y` }, wall, ids);
const ms = performance.now() - started;
console.log(
  JSON.stringify({
    subscribers,
    years,
    ms: Math.round(ms),
    billings: processed.billings,
    charges: processed.charges,
    purchases: sandbox.purchases.size,
    events: sandbox.events.length,
    emails: sandbox.outbox.length,
    billingsPerSecond: Math.round(processed.billings / (ms / 1000)),
    rssBeforeMb: Math.round(rssBefore / 2 ** 20),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
