// /sim/v1: sandboxes, capabilities and the clock — what only a simulator has. A real server
// answers none of these, which is how the contract suite tells the two apart.

import { clockView, setFrozen } from '../../engine/clock.ts';
import { createSandbox, DEFAULT_SEED, resetSandbox } from '../../engine/sandboxes.ts';
import { advance } from '../../engine/time.ts';
import { created, ok, type PublicHandler, type SandboxHandler } from '../handler.ts';
import { paginate } from '../pagination.ts';
import { presentEvent } from '../present.ts';

export const publicSimulatorHandlers: Record<string, PublicHandler> = {
  getHealth: () => ok({ status: 'ok' }),

  createSandbox: async ({ body, services }) => {
    const nowMs = body.now === undefined ? services.clock.now() : Date.parse(body.now as string);
    const sandbox = createSandbox(
      {
        nowMs,
        frozen: (body.frozen as boolean | undefined) ?? true,
        fixtures: (body.fixtures as boolean | undefined) ?? false,
        seed: (body.seed as number | undefined) ?? DEFAULT_SEED,
      },
      services.clock,
      services.ids,
    );
    services.store.put(sandbox);
    return created({
      id: sandbox.id,
      token: await services.tokens.sign(sandbox.id),
      brand_id: sandbox.brands[0]!.id,
      clock: clockView(sandbox.clock, services.clock),
    });
  },
};

/** Built from the handler table, so a capability is claimed only once its operation exists. */
export function capabilities(has: (operationId: string) => boolean) {
  return { clock: has('advanceClock'), payments: has('payPurchase'), events: has('listEvents') };
}

export const simulatorHandlers: Record<string, SandboxHandler> = {
  getClock: ({ sandbox, services }) => ok(clockView(sandbox.clock, services.clock)),

  patchClock: ({ sandbox, body, services }) => {
    sandbox.clock = setFrozen(sandbox.clock, body.frozen as boolean, services.clock);
    return ok(clockView(sandbox.clock, services.clock));
  },

  advanceClock: async ({ sandbox, body, services }) => {
    const processed = await advance(sandbox, body as { to?: string; by?: string }, services.clock, services.ids);
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
