// After a request changes a sandbox, the background looks at it again right after the answer only
// when the change queued work due before the look already planned: a running clock's timer covers
// a billing queued for next month, so a busy client's POSTs do not each cost a background turn.

import { describe, expect, it, vi } from 'vitest';
import { Background, SandboxSerial } from '../../src/engine/background.ts';
import { clockAt } from '../../src/domain/sandbox-clock.ts';
import { createIds } from '../../src/engine/ids.ts';
import { schedule } from '../../src/engine/queue.ts';
import { emptySandbox, MemoryStore, type Sandbox } from '../../src/store/store.ts';

const DAY = 86_400_000;
/** Half a minute before the turn of the year. */
const NOW = Date.parse('2026-12-31T23:59:30Z');

function setUp(frozen: boolean) {
  const wall = { now: () => NOW };
  const store = new MemoryStore();
  const sandbox: Sandbox = emptySandbox({
    id: 'b7f5c3a8-1d2e-4f60-9a7b-0c1d2e3f4a5b',
    companyId: 'c',
    brands: [],
    origin: { fixtures: false, seed: 1, seededIds: false },
    clock: clockAt(NOW, frozen, wall),
  });
  store.put(sandbox);
  const background = new Background(store, wall, createIds(), new SandboxSerial(), () => {});
  const wake = vi.spyOn(background, 'wake');
  return { sandbox, background, wake };
}

/** Lets a wake's background turn run and plan its timer. */
const turnOver = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

describe('looking at a sandbox again after a request changed it', () => {
  it('a running clock with nothing planned is looked at, and its timer then covers a billing queued for next month', async () => {
    const { sandbox, background, wake } = setUp(false);
    schedule(sandbox, { at: NOW + 31 * DAY, kind: 'billing', id: 's1', k: 1 });
    background.changed(sandbox.id);
    expect(wake).toHaveBeenCalledTimes(1);
    await turnOver();
    // The timer now fires within a minute: a second billing next month needs no look of its own.
    schedule(sandbox, { at: NOW + 31 * DAY, kind: 'billing', id: 's2', k: 1 });
    background.changed(sandbox.id);
    expect(wake).toHaveBeenCalledTimes(1);
    background.stop();
  });

  it('work due before the planned timer fires (10 s from now across the turn of the year) is looked at right away', async () => {
    const { sandbox, background, wake } = setUp(false);
    schedule(sandbox, { at: NOW + 31 * DAY, kind: 'billing', id: 's1', k: 1 });
    background.changed(sandbox.id);
    await turnOver();
    schedule(sandbox, { at: NOW + 10_000, kind: 'overdue', id: 'p1' });
    background.changed(sandbox.id);
    expect(wake).toHaveBeenCalledTimes(2);
    background.stop();
  });

  it('a frozen clock is looked at for work due now (a webhook delivery), never for later work it cannot reach by itself', () => {
    const { sandbox, background, wake } = setUp(true);
    schedule(sandbox, { at: NOW + DAY, kind: 'billing', id: 's1', k: 1 });
    background.changed(sandbox.id);
    expect(wake).not.toHaveBeenCalled();
    schedule(sandbox, { at: NOW, kind: 'webhook', id: 'd1' });
    background.changed(sandbox.id);
    expect(wake).toHaveBeenCalledTimes(1);
    background.stop();
  });

  it('a sandbox with nothing queued, or one that is gone, is not looked at', () => {
    const { sandbox, background, wake } = setUp(false);
    background.changed(sandbox.id);
    background.changed('00000000-0000-4000-8000-000000000000');
    expect(wake).not.toHaveBeenCalled();
  });
});
