// A sandbox's turn: the one way HTTP code touches a sandbox. It waits for the sandbox's earlier
// work (services.serial: requests, webhook deliveries, a running clock's billings), looks the
// sandbox up again inside the turn (a reset queued before it has replaced the object), runs the
// work that fell due, and hands `work` a context whose clock is the sandbox's and whose ids are the
// sandbox's own sequence when it was created with a seed (engine/sandboxes.ts). Whatever the turn
// changed is committed to the store before the turn ends, so before any answer goes out; a commit
// that fails turns the answer into a 503 (the store has put the sandbox back as last saved).
// A turn that has nothing to wait for (no earlier work queued, nothing due, a `work` that gives its
// answer at once) runs to its end synchronously and gives its answer as a value, not a promise.

import type { Context } from '../domain/context.ts';
import { sandboxClock } from '../domain/sandbox-clock.ts';
import { sandboxIds } from '../engine/sandboxes.ts';
import { catchUp, hasDueWork } from '../engine/time.ts';
import type { Sandbox } from '../store/store.ts';
import type { Services } from './handler.ts';

export function inSandboxTurn<T>(
  services: Services,
  sandboxId: string,
  work: (sandbox: Sandbox, ctx: Context) => T | Promise<T>,
  /** What the turn gives when the sandbox is gone by then. */
  missing: () => T,
): T | Promise<T> {
  return services.serial.runSoon(sandboxId, () => {
    const sandbox = services.store.get(sandboxId);
    if (!sandbox) return missing();
    const ids = sandboxIds(sandbox, services.ids);
    const run = () => work(sandbox, { clock: sandboxClock(sandbox.clock, services.clock), ids });
    // Also after a rejected request: a catch-up before it changed the sandbox.
    const settle = () => services.background.settle(sandbox);
    if (hasDueWork(sandbox, services.clock)) {
      return catchUp(sandbox, services.clock, ids, services.background.runOptions).then(run).finally(settle);
    }
    let result: T | Promise<T>;
    try {
      result = run();
    } catch (error) {
      settle();
      throw error;
    }
    if (result instanceof Promise) return result.finally(settle);
    settle();
    return result;
  });
}
