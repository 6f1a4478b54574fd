// DESIGN.md §13 / issue: checkpoints are "bounded (a documented number per sandbox; a checkpoint counts
// against the sandbox's limits)". The purchases a sandbox's checkpoints hold count with its own against
// MAX_PURCHASES_PER_SANDBOX: for a new checkpoint, and for an advance, which is refused up front as
// when the sandbox alone would pass the limit. A checkpoint holds the sandbox's records, not copies.

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.ts';
import { clockAt } from '../../src/domain/sandbox-clock.ts';
import { createIds } from '../../src/engine/ids.ts';
import { checkAdvanceFits, checkCheckpointFits, MAX_PURCHASES_PER_SANDBOX, purchasesCounted } from '../../src/engine/limits.ts';
import { restoredSandbox, takeCheckpoint } from '../../src/store/checkpoints.ts';
import { emptySandbox, type Sandbox } from '../../src/store/store.ts';

const NOW = Date.parse('2026-01-31T00:00:00Z');
const wall = { now: () => NOW };
const ids = createIds(3);
const DAY = 86_400_000;

/** A sandbox holding `count` purchases (bare records: only their number matters here) and one monthly subscriber. */
function sandboxWith(count: number): Sandbox {
  const sandbox = emptySandbox({ id: 'c1a2b3d4-0000-4000-8000-000000000002', companyId: 'c', brands: [], origin: { fixtures: false, seed: 1, seededIds: false }, clock: clockAt(NOW, true, wall) });
  for (let i = 0; i < count; i += 1) sandbox.purchases.set(`p${i}`, { id: `p${i}` } as never);
  sandbox.templates.set('t', { id: 't', subscription_period: 1, subscription_period_units: 'months' } as never);
  sandbox.subscribers.set('s', { id: 's', billing_template_id: 't', mandate_expiry_date: '2099-12-31', status: 'active' } as never);
  sandbox.schedules.set('s', { launch: '2026-01-31', next: 1, firstCharged: 0 });
  return sandbox;
}

const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return (error as ApiError).fields;
  }
  return undefined;
};

describe('a checkpoint counts against the sandbox\'s limits', () => {
  const half = MAX_PURCHASES_PER_SANDBOX / 2;

  it('the purchases a checkpoint holds count with the sandbox\'s own: a second checkpoint of a sandbox of half the limit is refused with max_value', () => {
    const sandbox = sandboxWith(half / 2);
    checkCheckpointFits(sandbox);
    sandbox.checkpoints.push(takeCheckpoint(sandbox, null, wall, ids));
    expect(purchasesCounted(sandbox)).toBe(half);
    for (let i = half / 2; i < half; i += 1) sandbox.purchases.set(`p${i}`, { id: `p${i}` } as never);
    // Its own 750,000 and the checkpoint's 375,000, and 750,000 more in a new checkpoint: past 1,500,000.
    expect(refusal(() => checkCheckpointFits(sandbox))).toEqual({ __all__: [expect.objectContaining({ code: 'max_value' })] });
  });

  it('an advance that could bill past the limit with the checkpoints\' purchases is refused up front, and allowed once the checkpoint is gone', () => {
    const sandbox = sandboxWith(half);
    sandbox.checkpoints.push(takeCheckpoint(sandbox, null, wall, ids));
    const oneMonth = () => checkAdvanceFits(sandbox, NOW, NOW + 31 * DAY, 'by');
    expect(refusal(oneMonth)).toEqual({ by: [expect.objectContaining({ code: 'max_value', message: expect.stringContaining("with its checkpoints' 750,000") })] });
    sandbox.checkpoints = [];
    expect(refusal(oneMonth)).toBeUndefined();
  });

  it('a checkpoint holds the sandbox\'s records themselves, and copies of what a billing changes in place', () => {
    const sandbox = sandboxWith(3);
    const checkpoint = takeCheckpoint(sandbox, 'three', wall, ids);
    expect(checkpoint.state.purchases[0]![1]).toBe(sandbox.purchases.get('p0'));
    expect(checkpoint.state.schedules[0]![1]).not.toBe(sandbox.schedules.get('s'));
    sandbox.schedules.get('s')!.next = 7;
    expect((checkpoint.state.schedules[0]![1] as { next: number }).next).toBe(1);
    // A restored sandbox changes its own copies, never the checkpoint's.
    const restored = restoredSandbox(sandbox, checkpoint, wall);
    restored.schedules.get('s')!.next = 9;
    restored.events.push({ id: 'e' } as never);
    expect((checkpoint.state.schedules[0]![1] as { next: number }).next).toBe(1);
    expect(checkpoint.state.events).toEqual([]);
    expect(restoredSandbox(sandbox, checkpoint, wall).schedules.get('s')!.next).toBe(1);
  });
});
