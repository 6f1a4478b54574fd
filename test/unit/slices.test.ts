// Work on a whole sandbox runs in slices (src/store/slices.ts): a fork's rewriting of ids, a data
// file's big copies. "No request can freeze other sandboxes": every SLICE_MS of steps, other work
// gets the event loop; and an import of a snapshot whose ids are taken, made in slices, renames them
// exactly as before (the same new id for the same old one, wherever it occurs).

import { describe, expect, it } from 'vitest';
import { createIds } from '../../src/engine/ids.ts';
import { clockAt } from '../../src/domain/sandbox-clock.ts';
import { inSlices, SLICE_MS } from '../../src/store/slices.ts';
import { exportSnapshot, importSnapshot } from '../../src/store/snapshot.ts';
import { emptySandbox, MemoryStore } from '../../src/store/store.ts';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('work in slices', () => {
  it('gives the event loop a turn every SLICE_MS of steps', async () => {
    const steps = 20;
    let done = 0;
    let turns = 0;
    const tick = () => {
      turns += 1;
      if (done < steps) setImmediate(tick);
    };
    setImmediate(tick);
    await inSlices(() => {
      busy(SLICE_MS / 2);
      return (done += 1) < steps;
    });
    expect(done).toBe(steps);
    // 20 steps of SLICE_MS / 2 are 10 slices: a turn after each but the last.
    expect(turns).toBeGreaterThanOrEqual(steps / 2 - 1);
  });

  it('an import whose ids are taken renames each id the same wherever it occurs, list by list and item by item', async () => {
    const wall = { now: () => Date.parse('2028-02-29T12:00:00Z') };
    const sandbox = emptySandbox({ id: 'c1a2b3d4-0000-4000-8000-00000000000a', companyId: 'c1a2b3d4-0000-4000-8000-00000000000b', brands: [], origin: { fixtures: false, seed: 1, seededIds: false }, clock: clockAt(wall.now(), true, wall) });
    const client = 'c1a2b3d4-0000-4000-8000-00000000000c';
    sandbox.clients.set(client, { id: client, type: 'client', email: 'a@example.com' } as never);
    for (let i = 0; i < 300; i += 1) sandbox.events.push({ id: `e${i}`, event_type: 'client.created', created_on: 0, object_type: 'client', object_id: client, payload: { id: client } } as never);
    const store = new MemoryStore();
    store.put(sandbox);
    const copy = await importSnapshot(exportSnapshot(sandbox, wall), store, createIds(5), wall);
    const [renamed] = [...copy.clients.keys()];
    expect(renamed).not.toBe(client);
    expect(copy.clients.get(renamed!)!.id).toBe(renamed);
    expect(new Set(copy.events.map((event) => event.object_id))).toEqual(new Set([renamed]));
    expect(new Set(copy.events.map((event) => (event.payload as { id: string }).id))).toEqual(new Set([renamed]));
  });
});
