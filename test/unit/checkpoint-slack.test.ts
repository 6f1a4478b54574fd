// Between the slices of a long advance, events and e-mails may pass their limit by a quarter before
// the oldest are dropped (moving an array of 100,000 after every slice cost 4 % of the advance). With a
// data file each dropped one is also a row to delete in the save between two slices, and 25,000 of each
// at once made that save take 100–230 ms while every request of every sandbox waited: there the slack
// is a turn's, 1 % (src/engine/background.ts, runOptions.sliceSlack; src/engine/time.ts takes it).

import { describe, expect, it } from 'vitest';
import { Background, SandboxSerial } from '../../src/engine/background.ts';
import { clockAt } from '../../src/domain/sandbox-clock.ts';
import { createIds } from '../../src/engine/ids.ts';
import { sliceSlackOf } from '../../src/engine/time.ts';
import { emptySandbox, MemoryStore, type Sandbox, type Store } from '../../src/store/store.ts';

const NOW = Date.parse('2026-01-31T00:00:00Z');
const MAX = 1000;

/** A sandbox holding `count` events and as many e-mails, in `store`, with a background whose limit is MAX. */
function setUp(store: Store, count: number) {
  const wall = { now: () => NOW };
  const sandbox: Sandbox = emptySandbox({ id: 'c1a2b3d4-0000-4000-8000-000000000001', companyId: 'c', brands: [], origin: { fixtures: false, seed: 1, seededIds: false }, clock: clockAt(NOW, true, wall) });
  store.put(sandbox);
  sandbox.events.push(...Array.from({ length: count }, (_, i) => ({ id: `e${i}` }) as unknown as Sandbox['events'][number]));
  sandbox.outbox.push(...Array.from({ length: count }, (_, i) => ({ id: `m${i}` }) as unknown as Sandbox['outbox'][number]));
  const options = new Background(store, wall, createIds(), new SandboxSerial(), () => {}, MAX).runOptions;
  // What runUntil does between two slices.
  return { sandbox, betweenSlices: () => options.checkpoint!(sandbox, sliceSlackOf(options, MAX)) };
}

/** A store that writes to a file, as far as the background can tell: it only counts commits. */
class DurableStore extends MemoryStore {
  override readonly durable = true;
  commits = 0;
  override commit(): void {
    this.commits += 1;
  }
}

describe('the save between two slices of an advance', () => {
  it('in memory, events and e-mails may pass their limit by a quarter before the oldest are dropped', () => {
    const { sandbox, betweenSlices } = setUp(new MemoryStore(), MAX + 200);
    betweenSlices();
    expect([sandbox.events.length, sandbox.outbox.length, sandbox.eventsDropped]).toEqual([MAX + 200, MAX + 200, 0]);
  });

  it('with a data file, they may pass it by a turn\'s 1 % only: the oldest go, so that each save deletes few rows', () => {
    const store = new DurableStore();
    const { sandbox, betweenSlices } = setUp(store, MAX + 200);
    betweenSlices();
    expect([sandbox.events.length, sandbox.outbox.length, sandbox.eventsDropped, sandbox.outboxDropped]).toEqual([MAX, MAX, 200, 200]);
    expect(sandbox.events[0]).toEqual({ id: 'e200' });
    expect(store.commits).toBe(1);
  });

  it('with a data file, 1 % past the limit stays until a later save', () => {
    const { sandbox, betweenSlices } = setUp(new DurableStore(), MAX + 10);
    betweenSlices();
    expect(sandbox.events.length).toBe(MAX + 10);
  });
});
