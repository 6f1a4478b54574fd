// DESIGN.md §6 "Bounded work": an advance that would create more purchases than a sandbox may hold
// is refused before it starts; events, and outbox e-mails, are kept up to the limit, newest first.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.ts';
import { createIds } from '../../src/engine/ids.ts';
import { billingsAtMost, MAX_PURCHASES_PER_SANDBOX } from '../../src/engine/limits.ts';
import { advance } from '../../src/engine/time.ts';
import { SqliteStore } from '../../src/store/sqlite.ts';
import { MemoryStore } from '../../src/store/store.ts';
import { Background, SandboxSerial } from '../../src/engine/background.ts';
import { busySandbox } from '../builders/busy-sandbox.ts';

const wall = { now: () => Date.parse('2026-01-30T09:00:00Z') };
const dir = mkdtempSync(join(tmpdir(), 'billing-sim-bounded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(work: Promise<unknown>): Promise<ApiError> {
  const error = await work.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the per-sandbox purchase limit', () => {
  it(`an advance that could bill past ${MAX_PURCHASES_PER_SANDBOX.toLocaleString('en')} purchases is refused before it starts: 400 max_value naming the field, nothing billed, the clock unmoved`, async () => {
    const ids = createIds(3);
    // 1,300 monthly subscribers over 100 years: 1,560,000 billings.
    const sandbox = busySandbox(1300, wall, ids);
    const before = { purchases: sandbox.purchases.size, jobs: sandbox.jobs.length, clock: { ...sandbox.clock } };
    const error = await refusal(advance(sandbox, { by: 'P100Y' }, wall, ids));
    expect(error.status).toBe(400);
    expect(error.fields.by![0]!.code).toBe('max_value');
    expect(error.fields.by![0]!.message).toContain(`${MAX_PURCHASES_PER_SANDBOX.toLocaleString('en')} purchases`);
    expect({ purchases: sandbox.purchases.size, jobs: sandbox.jobs.length, clock: sandbox.clock }).toEqual(before);
    // Launched on Jan 30 by their payment: two years of the same fit (31,200), and run.
    expect((await advance(sandbox, { to: '2028-01-30T09:00:00Z' }, wall, ids)).billings).toBe(31_200);
  }, 60_000);

  it('the estimate is never short of what an advance bills: days, weeks and months, across Feb 29 and the turn of a year', async () => {
    for (const period of [{ units: 'days', every: 1 }, { units: 'weeks', every: 2 }, { units: 'months', every: 1 }, { units: 'months', every: 12 }] as const) {
      const ids = createIds(4);
      const sandbox = busySandbox(3, wall, ids, period);
      const from = wall.now();
      const to = Date.parse('2028-03-01T00:00:00Z');
      const bound = billingsAtMost(sandbox, from, to);
      const { billings } = await advance(sandbox, { to: new Date(to).toISOString() }, wall, ids);
      expect(bound, `${period.every} ${period.units}`).toBeGreaterThanOrEqual(billings);
      // A bound, not a guess: a month counted as 28 days overshoots by about a tenth.
      expect(bound, `${period.every} ${period.units}`).toBeLessThanOrEqual(Math.ceil(billings * 1.2) + 3 * 2);
    }
  });
});

describe('event retention', () => {
  it('keeps the newest events up to the limit and drops the oldest, counting them', async () => {
    const ids = createIds(5);
    const sandbox = busySandbox(20, wall, ids);
    const all: string[] = sandbox.events.map((event) => event.id);
    const recorded = sandbox.events.length;
    await advance(sandbox, { by: 'P1Y' }, wall, ids, { maxEvents: 100 });
    expect(sandbox.events).toHaveLength(100);
    expect(sandbox.eventsDropped).toBeGreaterThan(recorded);
    // The oldest go first: none of the events from before the advance is kept.
    expect(sandbox.events.some((event) => all.includes(event.id))).toBe(false);
    const times = sandbox.events.map((event) => event.created_on);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)).toBe(Date.parse('2027-01-30T00:00:00Z') / 1000);
  });

  it('after a request, the oldest go once the limit is passed by 1 %, back to exactly the limit; a limit under 100 is kept exactly', () => {
    const store = new MemoryStore();
    const report = (line: string) => expect.fail(line);
    const ids = createIds(8);
    const sandbox = busySandbox(1, wall, ids);
    store.put(sandbox);
    const background = new Background(store, wall, ids, new SandboxSerial(), report, 1000);
    const more = (count: number) => sandbox.events.push(...Array.from({ length: count }, () => ({ ...sandbox.events[0]!, id: ids.uuid() })));
    more(1010 - sandbox.events.length);
    const dropped = sandbox.eventsDropped;
    background.settle(sandbox);
    expect(sandbox.events).toHaveLength(1010);
    more(1);
    const newest = sandbox.events.slice(-1000).map((event) => event.id);
    background.settle(sandbox);
    expect(sandbox.events.map((event) => event.id)).toEqual(newest);
    expect(sandbox.eventsDropped).toBe(dropped + 11);

    const exact = new Background(store, wall, ids, new SandboxSerial(), report, 99);
    more(1);
    exact.settle(sandbox);
    expect(sandbox.events).toHaveLength(99);
  });

  it('a data file drops the rows of dropped events, and a restart has exactly the newest ones', async () => {
    const file = join(dir, 'events.db');
    const ids = createIds(6);
    const store = await SqliteStore.open(file);
    const sandbox = busySandbox(5, wall, ids);
    store.put(sandbox);
    await advance(sandbox, { by: 'P6M' }, wall, ids, { maxEvents: 30 });
    store.commit(sandbox);
    const kept = sandbox.events.map((event) => event.id);
    await advance(sandbox, { by: 'P1M' }, wall, ids, { maxEvents: 30 });
    store.commit(sandbox);
    const newest = JSON.parse(JSON.stringify(sandbox.events));
    await store.close();

    const reopened = await SqliteStore.open(file);
    const loaded = reopened.get(sandbox.id)!;
    expect(JSON.parse(JSON.stringify(loaded.events))).toEqual(newest);
    expect(loaded.eventsDropped).toBe(sandbox.eventsDropped);
    expect(loaded.events.some((event) => kept.slice(0, 10).includes(event.id))).toBe(false);
    await reopened.close();
  });
});

describe('outbox retention', () => {
  it('keeps the newest e-mails up to the limit and drops the oldest, counting them: billed on Jan 30, Feb 28 and Feb 29, across the turn of the year', async () => {
    const ids = createIds(9);
    const sandbox = busySandbox(20, wall, ids);
    const before = sandbox.outbox.map((email) => email.id);
    // 20 subscribers × 25 months: 500 receipts, from 2026-02-28 to 2028-02-29.
    await advance(sandbox, { to: '2028-03-01T00:00:00Z' }, wall, ids, { maxEvents: 100 });
    expect(sandbox.outbox).toHaveLength(100);
    expect(sandbox.outboxDropped).toBe(before.length + 500 - 100);
    expect(sandbox.outbox.some((email) => before.includes(email.id))).toBe(false);
    const sent = sandbox.outbox.map((email) => email.sent_on);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    // The newest 100 are the last five billing days: 2027-10-30 … 2028-01-30, and 2028-02-29.
    expect(new Date(sent[0]! * 1000).toISOString().slice(0, 10)).toBe('2027-10-30');
    expect(new Date(sent.at(-1)! * 1000).toISOString().slice(0, 10)).toBe('2028-02-29');
    // Every purchase is still there: only the log of e-mails is bounded.
    expect(sandbox.purchases.size).toBeGreaterThanOrEqual(500);
  });

  it('after a request, the oldest e-mails go once the limit is passed by 1 %, as events do', () => {
    const store = new MemoryStore();
    const ids = createIds(10);
    const sandbox = busySandbox(1, wall, ids);
    store.put(sandbox);
    const background = new Background(store, wall, ids, new SandboxSerial(), (line) => expect.fail(line), 1000);
    const template = sandbox.outbox[0]!;
    const more = (count: number) => sandbox.outbox.push(...Array.from({ length: count }, () => ({ ...template, id: ids.uuid() })));
    more(1010 - sandbox.outbox.length);
    background.settle(sandbox);
    expect(sandbox.outbox).toHaveLength(1010);
    more(1);
    const newest = sandbox.outbox.slice(-1000).map((email) => email.id);
    background.settle(sandbox);
    expect(sandbox.outbox.map((email) => email.id)).toEqual(newest);
    expect(sandbox.outboxDropped).toBe(11);
  });

  it('a data file drops the rows of dropped e-mails, and a restart has exactly the newest ones, numbered on', async () => {
    const file = join(dir, 'outbox.db');
    const ids = createIds(11);
    const store = await SqliteStore.open(file);
    const sandbox = busySandbox(5, wall, ids);
    store.put(sandbox);
    await advance(sandbox, { by: 'P6M' }, wall, ids, { maxEvents: 12 });
    store.commit(sandbox);
    const kept = sandbox.outbox.map((email) => email.id);
    await advance(sandbox, { by: 'P1M' }, wall, ids, { maxEvents: 12 });
    store.commit(sandbox);
    const newest = JSON.parse(JSON.stringify(sandbox.outbox));
    await store.close();

    const reopened = await SqliteStore.open(file);
    const loaded = reopened.get(sandbox.id)!;
    expect(JSON.parse(JSON.stringify(loaded.outbox))).toEqual(newest);
    expect(loaded.outboxDropped).toBe(sandbox.outboxDropped);
    expect(loaded.outbox.some((email) => kept.slice(0, 5).includes(email.id))).toBe(false);
    // The next e-mails are saved after the kept ones, and a second restart reads them in order.
    await advance(loaded, { by: 'P1M' }, wall, ids, { maxEvents: 12 });
    reopened.commit(loaded);
    const after = loaded.outbox.map((email) => email.id);
    await reopened.close();
    const again = await SqliteStore.open(file);
    expect(again.get(sandbox.id)!.outbox.map((email) => email.id)).toEqual(after);
    await again.close();
  });
});
