// Creating and resetting sandboxes. A sandbox is one merchant account: a company, one brand, a
// clock, and (when asked) the fixtures. The default sandbox draws every id from its seed, so it
// and its token are the same on every start with the same seed and secret. A sandbox created with
// a seed draws its object ids from a sequence of its own (engine/ids.ts seededUuid): the same
// requests give the same ids on every run, and in every sandbox of that seed on one server.

import type { Clock, Ids } from '../domain/context.ts';
import type { Brand, IssuerDetails } from '../domain/types.ts';
import { DEFAULT_ISSUER } from '../present/issuer.ts';
import { seedFixtures } from '../../fixtures/seed.ts';
import { clockAt, sandboxClock, sandboxNow } from '../domain/sandbox-clock.ts';
import { createIds, sandboxSeededIds, seededFaker, seededUuid } from './ids.ts';
import { emptySandbox, type Sandbox, type SandboxOrigin } from '../store/store.ts';

export { DEFAULT_SEED } from '../defaults.ts';

export interface SandboxOptions {
  nowMs: number;
  frozen: boolean;
  fixtures: boolean;
  seed: number;
  /** Draw the sandbox's own ids from `seed` too (the default sandbox). */
  seededIds?: boolean;
  /** Draw every object id from the sandbox's own sequence of `seed` (POST /sim/v1/sandboxes {"seed"}); the sandbox id stays the server's. */
  ownIds?: boolean;
  /** Refuse unknown and read-only /api/v1 body fields (POST /sim/v1/sandboxes {"strict": true}); a reset keeps it. */
  strict?: boolean;
  /** The brand's legal details, which its purchases show as `issuer_details` (POST /sim/v1/sandboxes {"brand"}). */
  brand?: Partial<IssuerDetails>;
}

const BRAND_NAME = 'Sandbox brand';

/** The sandbox's brand: its name, and the legal details given, the defaults' for those not given (present/issuer.ts). */
function brandOf(id: string, given: Partial<IssuerDetails> | undefined): Brand {
  if (!given) return { id, name: BRAND_NAME };
  const name = given.brand_name ?? BRAND_NAME;
  return { id, name, issuer_details: { brand_name: name, ...DEFAULT_ISSUER, ...given } };
}

export function createSandbox(options: SandboxOptions, wall: Clock, ids: Ids): Sandbox {
  const seeded = options.seededIds ? createIds(options.seed) : undefined;
  const id = (seeded ?? ids).uuid();
  const own = options.ownIds ? sandboxSeededIds(options.seed) : undefined;
  const source = seeded ?? own ?? ids;
  const sandbox = emptySandbox({
    id,
    companyId: source.uuid(),
    brands: [brandOf(source.uuid(), options.brand)],
    origin: {
      fixtures: options.fixtures,
      seed: options.seed,
      seededIds: options.seededIds ?? false,
      ownIds: options.ownIds ?? false,
      ...(options.strict === true && { strict: true }),
    },
    clock: clockAt(options.nowMs, options.frozen, wall),
  });
  if (options.fixtures) {
    seedFixtures(sandbox, seededFaker(options.seed), { clock: sandboxClock(sandbox.clock, wall), ids: source });
  }
  sandbox.idsDrawn = own?.drawn() ?? 0;
  return sandbox;
}

/** The default sandbox: fixtures, a clock following wall time, every id drawn from the seed. */
export function createDefaultSandbox(seed: number, wall: Clock, ids: Ids): Sandbox {
  return createSandbox({ nowMs: wall.now(), frozen: false, fixtures: true, seed, seededIds: true }, wall, ids);
}

/**
 * POST /sim/v1/reset: the same sandbox (id, company, brand, clock), emptied and seeded again.
 * A sandbox with seeded ids draws the same sequence again, so its fixtures come back unchanged.
 * What is not its objects stays: its signing key (receivers keep verifying with the key they
 * fetched), its checkpoints (a reset is one more state to go back from), its processing setting and
 * its delivery chaos settings, their sequence started again as the sandbox's ids are drawn again.
 */
export function resetSandbox(sandbox: Sandbox, wall: Clock, ids: Ids): Sandbox {
  const fresh = createSandbox(
    { ...sandbox.origin, nowMs: sandboxNow(sandbox.clock, wall), frozen: sandbox.clock.frozen },
    wall,
    ids,
  );
  const kept = {
    signingKey: sandbox.signingKey,
    checkpoints: sandbox.checkpoints,
    webhookChaos: sandbox.webhookChaos && { ...sandbox.webhookChaos, drawn: 0 },
    processing: sandbox.processing,
  };
  return { ...fresh, ...kept, ...(!sandbox.origin.seededIds && { id: sandbox.id, companyId: sandbox.companyId, brands: sandbox.brands }) };
}

/**
 * Where a turn of the sandbox draws ids: its own sequence (`origin.ownIds`), counted in
 * `idsDrawn`, which the store saves with the sandbox, or else the server's.
 */
export function sandboxIds(sandbox: Sandbox, server: Ids): Ids {
  if (!sandbox.origin.ownIds) return server;
  return { uuid: () => seededUuid(sandbox.origin.seed, sandbox.idsDrawn++) };
}
