// /sim/v1: sandboxes, snapshots, capabilities and the clock — what only a simulator has. A real
// server answers none of these, which is how the contract suite tells the two apart.

import { ApiError, emptyFieldErrors, errors, fieldError } from '../../domain/errors.ts';
import type { Input } from '../../domain/types.ts';
import { clockView, setFrozen } from '../../engine/clock.ts';
import { createSandbox, DEFAULT_SEED, resetSandbox } from '../../engine/sandboxes.ts';
import { checkClockInstant } from '../../domain/clock-bounds.ts';
import { advance } from '../../engine/time.ts';
import { findInconsistency } from '../../store/snapshot-checks.ts';
import { exportSnapshot, importSnapshot, type SnapshotDocument } from '../../store/snapshot.ts';
import type { Sandbox } from '../../store/store.ts';
import { created, ok, type PublicHandler, type SandboxHandler, type Services } from '../handler.ts';
import { paginate } from '../pagination.ts';
import { presentEvent } from '../present.ts';

export const publicSimulatorHandlers: Record<string, PublicHandler> = {
  getHealth: () => ok({ status: 'ok' }),

  createSandbox: async ({ body, services }) => {
    const sandbox = body.snapshot === undefined ? newSandbox(body, services) : importedSandbox(body, services);
    services.store.put(sandbox);
    // An imported sandbox may have work due already: webhook retries, or billings of a running clock.
    if (body.snapshot !== undefined) services.background.wake(sandbox.id);
    return created({
      id: sandbox.id,
      token: await services.tokens.sign(sandbox.id),
      brand_id: sandbox.brands[0]!.id,
      clock: clockView(sandbox.clock, services.clock),
    });
  },
};

function newSandbox(body: Input, services: Services): Sandbox {
  const nowMs = body.now === undefined ? services.clock.now() : Date.parse(body.now as string);
  checkClockInstant(nowMs, 'now');
  return createSandbox(
    {
      nowMs,
      frozen: (body.frozen as boolean | undefined) ?? true,
      fixtures: (body.fixtures as boolean | undefined) ?? false,
      seed: (body.seed as number | undefined) ?? DEFAULT_SEED,
    },
    services.clock,
    services.ids,
  );
}

/** The dispatcher has checked the snapshot against its schema; what the schema cannot say is checked here. */
function importedSandbox(body: Input, services: Services): Sandbox {
  const combined = Object.keys(body).filter((field) => field !== 'snapshot');
  if (combined.length > 0) {
    const detail = errors.invalid('Send snapshot alone: the snapshot brings its own clock and objects.');
    const fields = emptyFieldErrors();
    for (const field of combined) fields[field] = [detail];
    throw new ApiError(400, fields);
  }
  const document = body.snapshot as SnapshotDocument;
  const problem = findInconsistency(document);
  if (problem) throw fieldError(`snapshot.${problem.path}`, problem.detail);
  return importSnapshot(document, services.store, services.ids, services.clock);
}

/** Built from the handler table, so a capability is claimed only once its operation exists. */
export function capabilities(has: (operationId: string) => boolean) {
  return { clock: has('advanceClock'), payments: has('payPurchase'), events: has('listEvents') };
}

export const simulatorHandlers: Record<string, SandboxHandler> = {
  getClock: ({ sandbox, services }) => ok(clockView(sandbox.clock, services.clock)),

  getSnapshot: ({ sandbox, services }) => ok(exportSnapshot(sandbox, services.clock)),

  patchClock: ({ sandbox, body, services }) => {
    sandbox.clock = setFrozen(sandbox.clock, body.frozen as boolean, services.clock);
    return ok(clockView(sandbox.clock, services.clock));
  },

  advanceClock: async ({ sandbox, body, services }) => {
    const processed = await advance(sandbox, body as { to?: string; by?: string }, services.clock, services.ids, services.background.runOptions);
    return ok({ ...clockView(sandbox.clock, services.clock), processed });
  },

  listEvents: ({ sandbox, query, url, origin }) => {
    const page = paginate(sandbox.events, query, url);
    return ok({ ...page, results: page.results.map((event) => presentEvent(event, origin)) });
  },

  listOutbox: ({ sandbox, query, url }) => ok(paginate(sandbox.outbox, query, url)),

  resetSandbox: ({ sandbox, services }) => {
    // The signing key survives: receivers keep verifying with the key they fetched.
    const fresh = { ...resetSandbox(sandbox, services.clock, services.ids), signingKey: sandbox.signingKey };
    services.store.put(fresh);
    return ok({ id: fresh.id, brand_id: fresh.brands[0]!.id, clock: clockView(fresh.clock, services.clock) });
  },
};
