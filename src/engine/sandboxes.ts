// Creating and resetting sandboxes. A sandbox is one merchant account: a company, one brand, a
// clock, and (when asked) the fixtures. The default sandbox draws every id from its seed, so it
// and its token are the same on every start with the same seed and secret.

import type { Clock, Ids } from '../domain/context.ts';
import { seedFixtures } from '../../fixtures/seed.ts';
import { clockAt, sandboxClock, sandboxNow } from './clock.ts';
import { createIds, seededFaker } from './ids.ts';
import { emptySandbox, type Sandbox } from '../store/store.ts';

export const DEFAULT_SEED = 1;

export interface SandboxOptions {
  nowMs: number;
  frozen: boolean;
  fixtures: boolean;
  seed: number;
  /** Draw the sandbox's own ids from `seed` too (the default sandbox). */
  seededIds?: boolean;
}

export function createSandbox(options: SandboxOptions, wall: Clock, ids: Ids): Sandbox {
  const source = options.seededIds ? createIds(options.seed) : ids;
  const sandbox = emptySandbox({
    id: source.uuid(),
    companyId: source.uuid(),
    brands: [{ id: source.uuid(), name: 'Sandbox brand' }],
    origin: { fixtures: options.fixtures, seed: options.seed, seededIds: options.seededIds ?? false },
    clock: clockAt(options.nowMs, options.frozen, wall),
  });
  if (options.fixtures) {
    seedFixtures(sandbox, seededFaker(options.seed), { clock: sandboxClock(sandbox.clock, wall), ids: source });
  }
  return sandbox;
}

/** The default sandbox: fixtures, a clock following wall time, every id drawn from the seed. */
export function createDefaultSandbox(seed: number, wall: Clock, ids: Ids): Sandbox {
  return createSandbox({ nowMs: wall.now(), frozen: false, fixtures: true, seed, seededIds: true }, wall, ids);
}

/**
 * POST /sim/v1/reset: the same sandbox (id, company, brand, clock), emptied and seeded again.
 * A sandbox with seeded ids draws the same sequence again, so its fixtures come back unchanged.
 */
export function resetSandbox(sandbox: Sandbox, wall: Clock, ids: Ids): Sandbox {
  const fresh = createSandbox(
    { ...sandbox.origin, nowMs: sandboxNow(sandbox.clock, wall), frozen: sandbox.clock.frozen },
    wall,
    ids,
  );
  return sandbox.origin.seededIds ? fresh : { ...fresh, id: sandbox.id, companyId: sandbox.companyId, brands: sandbox.brands };
}
