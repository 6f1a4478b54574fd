// Work on a whole sandbox that must not hold the server: it runs a step at a time, and lets other
// requests have the event loop every SLICE_MS, as a long advance does (engine/time.ts). Used for
// the data file's big copies (sqlite-slices.ts) and for the rewriting of an imported or forked
// snapshot's ids (snapshot.ts), which took 1.9 s in one go for a sandbox of 13,000 purchases.

import { setImmediate as nextTurnOfTheLoop } from 'node:timers/promises';

/**
 * How long one sandbox's work runs before it lets other sandboxes and /healthz have the event loop:
 * an advance's slice, a big copy into the data file, a long answer's pieces. Named here, where the
 * store's own sliced work needs it (the store imports nothing from the engine); engine/limits.ts
 * lists it with the other limits. 8 ms, with a slice's save on top, stays well inside the 50 ms p99
 * DESIGN.md §6 allows /healthz during a 100-year advance.
 */
export const SLICE_MS = 8;

/** Runs `step` until it says nothing is left (false), letting other work run every SLICE_MS. */
export async function inSlices(step: () => boolean): Promise<void> {
  let more = true;
  while (more) {
    const started = performance.now();
    do more = step();
    while (more && performance.now() - started < SLICE_MS);
    if (more) await nextTurnOfTheLoop();
  }
}
