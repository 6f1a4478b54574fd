// Work on a whole sandbox that must not hold the server: it runs a step at a time, and lets other
// requests have the event loop every SLICE_MS (engine/limits.ts), as a long advance does. Used for
// the data file's big copies (sqlite-slices.ts) and for the rewriting of an imported or forked
// snapshot's ids (snapshot.ts), which took 1.9 s in one go for a sandbox of 13,000 purchases.

import { setImmediate as nextTurnOfTheLoop } from 'node:timers/promises';
import { SLICE_MS } from '../engine/limits.ts';

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
