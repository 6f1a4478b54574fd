// /sim/v1/checkpoints: take, list, restore and delete the caller's sandbox's checkpoints
// (store/checkpoints.ts); a fork of one is POST /sim/v1/sandboxes {"from_checkpoint"} (simulator.ts).
// A checkpoint's id is drawn from the server's ids, never from a seeded sandbox's own sequence: taking
// one must not change the ids the sandbox's next objects get.

import { clockView } from '../../domain/sandbox-clock.ts';
import { checkCheckpointFits } from '../../engine/limits.ts';
import { notFound } from '../../domain/errors.ts';
import { checkpointOf, checkpointView, restoredSandbox, takeCheckpoint } from '../../store/checkpoints.ts';
import type { Checkpoint, Sandbox } from '../../store/store.ts';
import { created, noContent, ok, type SandboxHandler } from '../handler.ts';
import { paginate } from '../pagination.ts';

/** The sandbox's checkpoint with this id; 404 for any other, as for an object. */
function findCheckpoint(sandbox: Sandbox, id: string | undefined): Checkpoint {
  const checkpoint = checkpointOf(sandbox, id);
  if (!checkpoint) throw notFound();
  return checkpoint;
}

export const checkpointHandlers: Record<string, SandboxHandler> = {
  createCheckpoint: async ({ sandbox, body, services }) => {
    checkCheckpointFits(sandbox);
    const checkpoint = takeCheckpoint(sandbox, (body.name as string | undefined) ?? null, services.clock, services.ids);
    // Saved first: a checkpoint the file could not take is not kept in memory either.
    await services.store.saveCheckpoint(sandbox, checkpoint);
    sandbox.checkpoints.push(checkpoint);
    return created(checkpointView(checkpoint));
  },

  listCheckpoints: ({ sandbox, query, url }) => {
    const page = paginate(sandbox.checkpoints, query, url);
    return ok({ ...page, results: page.results.map(checkpointView) });
  },

  restoreCheckpoint: async ({ sandbox, params, services }) => {
    const checkpoint = findCheckpoint(sandbox, params.id);
    const restored = restoredSandbox(sandbox, checkpoint, services.clock);
    // As a reset, the sandbox is replaced whole.
    await services.store.restore(restored, checkpoint.id);
    const clock = clockView(restored.clock, services.clock);
    return ok({ ...clock, clock, checkpoint: checkpointView(checkpoint) });
  },

  deleteCheckpoint: async ({ sandbox, params, services }) => {
    const checkpoint = findCheckpoint(sandbox, params.id);
    await services.store.deleteCheckpoint(sandbox.id, checkpoint.id);
    sandbox.checkpoints = sandbox.checkpoints.filter((kept) => kept !== checkpoint);
    return noContent();
  },
};
