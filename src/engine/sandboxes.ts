// Creating and resetting sandboxes. A sandbox is one merchant account: a company, one brand, a
// clock, and (when asked) the fixtures. The default sandbox draws every id from its seed, so it
// and its token are the same on every start with the same seed and secret. A sandbox created with
// a seed draws its object ids from a sequence of its own (engine/ids.ts seededUuid): the same
// requests give the same ids on every run, and in every sandbox of that seed on one server.

import type { Clock, Ids } from '../domain/context.ts';
import { paidCard, shownTransactionData } from '../domain/cards.ts';
import type { Purchase, PurchaseView } from '../domain/types.ts';
import { seedFixtures } from '../../fixtures/seed.ts';
import { clockAt, sandboxClock, sandboxNow } from './clock.ts';
import { createIds, sandboxSeededIds, seededFaker, seededUuid } from './ids.ts';
import { emptySandbox, type Sandbox, type SandboxOrigin } from '../store/store.ts';

export const DEFAULT_SEED = 1;

export interface SandboxOptions {
  nowMs: number;
  frozen: boolean;
  fixtures: boolean;
  seed: number;
  /** Draw the sandbox's own ids from `seed` too (the default sandbox). */
  seededIds?: boolean;
  /** Draw every object id from the sandbox's own sequence of `seed` (POST /sim/v1/sandboxes {"seed"}); the sandbox id stays the server's. */
  ownIds?: boolean;
}

export function createSandbox(options: SandboxOptions, wall: Clock, ids: Ids): Sandbox {
  const seeded = options.seededIds ? createIds(options.seed) : undefined;
  const id = (seeded ?? ids).uuid();
  const own = options.ownIds ? sandboxSeededIds(options.seed) : undefined;
  const source = seeded ?? own ?? ids;
  const sandbox = emptySandbox({
    id,
    companyId: source.uuid(),
    brands: [{ id: source.uuid(), name: 'Sandbox brand' }],
    origin: { fixtures: options.fixtures, seed: options.seed, seededIds: options.seededIds ?? false, ownIds: options.ownIds ?? false },
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
 * fetched), its checkpoints (a reset is one more state to go back from) and its delivery chaos
 * settings, their sequence started again as the sandbox's ids are drawn again.
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

/**
 * What a checkout path depends on: the sandbox's id, and whether its ids are its own (seeded). With
 * its purchases, an answer also shows the card of each token charge (withCheckoutUrl); a snapshot,
 * which keeps records as stored, has none.
 */
export interface CheckoutScope {
  id: string;
  origin: Pick<SandboxOrigin, 'ownIds'>;
  purchases?: ReadonlyMap<string, Purchase>;
}

/**
 * The path of a purchase's checkout page, its `checkout_url` without the origin. Checkout links
 * carry no token, so a link must lead to one purchase: a random id is unique on the server (an
 * import renames ids already taken), but the ids of a sandbox created with a seed repeat in every
 * sandbox of that seed, so its links name the sandbox: `/checkout/{sandbox_id}/{purchase_id}/`.
 */
export function checkoutPath(sandbox: CheckoutScope, purchaseId: string): string {
  return sandbox.origin.ownIds ? `/checkout/${sandbox.id}/${purchaseId}/` : `/checkout/${purchaseId}/`;
}

/**
 * The purchase as the API answers it: its checkout_url, which the record keeps empty, is its
 * checkout path on `origin` (the origin the client called; for webhook bodies and snapshots, the
 * sandbox's last one). The key exists in the record, so the copy overwrites it in place. Given the
 * sandbox's purchases, its card details too (domain/cards.ts shownTransactionData): a token charge
 * shows the card of the purchase that saved the token. One copy of the purchase, with both changed.
 */
export function withCheckoutUrl(purchase: Purchase, sandbox: CheckoutScope, origin: string): PurchaseView {
  const checkout_url = origin + checkoutPath(sandbox, purchase.id);
  const { purchases } = sandbox;
  if (!purchases) return { ...purchase, checkout_url };
  const transaction_data = shownTransactionData(purchase, (tokenId) => {
    const saving = purchases.get(tokenId);
    return saving && paidCard(saving.transaction_data);
  });
  return { ...purchase, checkout_url, transaction_data };
}
