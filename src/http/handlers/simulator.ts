// /sim/v1: sandboxes, snapshots, capabilities and the clock — what only a simulator has. A real
// server answers none of these, which is how the contract suite tells the two apart. What a sandbox
// recorded (events, e-mails, webhook deliveries) is listed by sim-records.ts.

import { ApiError, emptyFieldErrors, errors, fieldError } from '../../domain/errors.ts';
import type { Input, IssuerDetails } from '../../domain/types.ts';
import { clockView, setFrozen } from '../../domain/sandbox-clock.ts';
import { createSandbox, DEFAULT_SEED, resetSandbox } from '../../engine/sandboxes.ts';
import { checkClockInstant } from '../../domain/clock-bounds.ts';
import { advance } from '../../engine/time.ts';
import { findInconsistency } from '../../store/snapshot-checks.ts';
import { checkpointOf, checkpointSnapshot } from '../../store/checkpoints.ts';
import { importSnapshot, snapshotText, type SnapshotDocument } from '../../store/snapshot.ts';
import type { Sandbox } from '../../store/store.ts';
import { sandboxGone } from '../auth.ts';
import { created, noContent, ok, okText, type PublicHandler, type SandboxHandler, type Services } from '../handler.ts';
import { simRecordHandlers } from './sim-records.ts';
import { processingHandlers } from './processing.ts';
import { webhookChaosHandlers } from './webhook-chaos.ts';

export const publicSimulatorHandlers: Record<string, PublicHandler> = {
  getHealth: () => ok({ status: 'ok' }),

  createSandbox: async ({ body, services, authorization }) => {
    const copied = body.snapshot !== undefined || body.from_checkpoint !== undefined;
    let sandbox: Sandbox;
    if (body.snapshot !== undefined) sandbox = await importedSandbox(body, services);
    else if (body.from_checkpoint !== undefined) sandbox = await forkedSandbox(body, authorization, services);
    else sandbox = newSandbox(body, services);
    await services.store.add(sandbox);
    // A copied sandbox may have work due already: webhook retries, or billings of a running clock.
    if (copied) services.background.wake(sandbox.id);
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
      // With a seed, the sandbox's object ids are its own sequence of that seed: the same on every run.
      ownIds: body.seed !== undefined,
      strict: body.strict === true,
      ...(body.brand !== undefined && { brand: body.brand as Partial<IssuerDetails> }),
    },
    services.clock,
    services.ids,
  );
}

/** A snapshot or a checkpoint brings its own clock and objects: any other field beside `source` is refused. */
function sentAlone(body: Input, source: 'snapshot' | 'from_checkpoint'): void {
  const combined = Object.keys(body).filter((field) => field !== source);
  if (combined.length === 0) return;
  const detail = errors.invalid(`Send ${source} alone: the ${source === 'snapshot' ? 'snapshot' : 'checkpoint'} brings its own clock and objects.`);
  const fields = emptyFieldErrors();
  for (const field of combined) fields[field] = [detail];
  throw new ApiError(400, fields);
}

/** The dispatcher has checked the snapshot against its schema; what the schema cannot say is checked here. */
function importedSandbox(body: Input, services: Services): Promise<Sandbox> {
  sentAlone(body, 'snapshot');
  const document = body.snapshot as SnapshotDocument;
  const problem = findInconsistency(document);
  if (problem) throw fieldError(`snapshot.${problem.path}`, problem.detail);
  return importSnapshot(document, services.store, services.ids, services.clock);
}

/**
 * A new sandbox copied from a checkpoint of the sandbox whose token the request carries: an import
 * of the checkpoint's snapshot, so every object gets a fresh id (its origin holds the old ones) and
 * the copy bills, pays and delivers on its own from then on.
 */
async function forkedSandbox(body: Input, authorization: string | undefined, services: Services): Promise<Sandbox> {
  sentAlone(body, 'from_checkpoint');
  const origin = services.store.get(await services.tokens.verify(authorization));
  if (!origin) throw sandboxGone();
  const checkpoint = checkpointOf(origin, body.from_checkpoint);
  if (!checkpoint) throw fieldError('from_checkpoint', errors.doesNotExist('Checkpoint', body.from_checkpoint));
  return importSnapshot(checkpointSnapshot(checkpoint, services.clock), services.store, services.ids, services.clock);
}

/** Built from the handler table, so a capability is claimed only once its operation exists. */
export function capabilities(has: (operationId: string) => boolean) {
  return { clock: has('advanceClock'), payments: has('payPurchase'), events: has('listEvents') };
}

export const simulatorHandlers: Record<string, SandboxHandler> = {
  getClock: ({ sandbox, services }) => ok(clockView(sandbox.clock, services.clock)),

  // In pieces: a long-lived sandbox's document can be gigabytes (store/snapshot.ts snapshotText).
  getSnapshot: ({ sandbox, services }) => okText(snapshotText(sandbox, services.clock)),

  patchClock: ({ sandbox, body, services }) => {
    sandbox.clock = setFrozen(sandbox.clock, body.frozen as boolean, services.clock);
    return ok(clockView(sandbox.clock, services.clock));
  },

  advanceClock: async ({ sandbox, body, services, ctx }) => {
    const processed = await advance(sandbox, body as { to?: string; by?: string }, services.clock, ctx.ids, services.background.runOptions);
    return ok({ ...clockView(sandbox.clock, services.clock), processed });
  },

  ...simRecordHandlers,
  ...webhookChaosHandlers,
  ...processingHandlers,

  resetSandbox: async ({ sandbox, services }) => {
    const fresh = resetSandbox(sandbox, services.clock, services.ids);
    await services.store.put(fresh);
    return ok({ id: fresh.id, brand_id: fresh.brands[0]!.id, clock: clockView(fresh.clock, services.clock) });
  },

  getSandbox: ({ sandbox, services }) => ok({ id: sandbox.id, brand_id: sandbox.brands[0]!.id, clock: clockView(sandbox.clock, services.clock) }),

  deleteSandbox: async ({ sandbox, services }) => {
    // Inside the sandbox's turn: requests queued behind it find no sandbox, and their token gets 401.
    const removed = services.store.delete(sandbox.id);
    services.background.forget(sandbox.id);
    await removed;
    return noContent();
  },
};
