// Checkpoints (DESIGN.md §13): the whole sandbox at one instant, clock included, to go back to or to
// copy into a new sandbox. Built on the snapshot machinery: a checkpoint holds the sandbox's store
// form (snapshot.ts `held`), a restore loads it as an import loads a snapshot, and a fork is an
// import of its snapshot document. Records are replaced, never changed, so a checkpoint shares them
// with its sandbox; only what turns change in place is copied (subscribers, schedules, jobs, logs).
//
// A restore puts back everything a snapshot holds, so that the sandbox's snapshot afterwards is the
// one it had when the checkpoint was taken, with two exceptions that keep promises made since:
// - ids are never reused: a sandbox whose ids are its own sequence (created with `seed`) goes on from
//   where it is, not from where it was, so no later object's id can come back for another object;
// - a signing key made after the checkpoint stays (receivers verify with the key they fetched).
// The sandbox keeps its id, token and checkpoints, the one restored included.

import type { Clock, Ids } from '../domain/context.ts';
import { unixSeconds } from '../domain/context.ts';
import { clockAt, clockView } from '../domain/sandbox-clock.ts';
import { held, snapshotOf, type SnapshotDocument } from './snapshot.ts';
import { fromSnapshot, toSnapshot, type Checkpoint, type Sandbox } from './store.ts';

export function takeCheckpoint(sandbox: Sandbox, name: string | null, wall: Clock, ids: Ids): Checkpoint {
  return {
    id: ids.uuid(),
    name,
    created_on: unixSeconds(wall.now()),
    clock: clockView(sandbox.clock, wall),
    state: held(toSnapshot(sandbox)),
  };
}

/** The sandbox's checkpoint with this id, if it has one. */
export const checkpointOf = (sandbox: Sandbox, id: unknown): Checkpoint | undefined => sandbox.checkpoints.find((kept) => kept.id === id);

/** How a checkpoint is answered: everything but the state it holds. */
export function checkpointView({ id, name, created_on, clock }: Checkpoint) {
  return { id, name, created_on, clock };
}

/** The sandbox as the checkpoint holds it, its clock at the checkpoint's instant (a running clock runs on from there). */
export function restoredSandbox(sandbox: Sandbox, checkpoint: Checkpoint, wall: Clock): Sandbox {
  const restored = fromSnapshot({ ...held(checkpoint.state), clock: checkpointClock(checkpoint, wall) });
  restored.idsDrawn = Math.max(restored.idsDrawn, sandbox.idsDrawn);
  restored.signingKey ??= sandbox.signingKey;
  restored.checkpoints = sandbox.checkpoints;
  return restored;
}

/** The checkpoint as a snapshot document, as GET /sim/v1/snapshot answered it then: what a fork imports. */
export function checkpointSnapshot(checkpoint: Checkpoint, wall: Clock): SnapshotDocument {
  return snapshotOf({ ...checkpoint.state, clock: checkpointClock(checkpoint, wall) }, wall);
}

const checkpointClock = (checkpoint: Checkpoint, wall: Clock) => clockAt(Date.parse(checkpoint.clock.now), checkpoint.clock.frozen, wall);
