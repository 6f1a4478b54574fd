// Work no request is waiting for: webhook deliveries queued by a request, and, for sandboxes whose
// clock runs with wall time, jobs that fall due as time passes. Everything on one sandbox runs one
// at a time through SandboxSerial, so a delivery awaiting its receiver never interleaves with a request.

import type { Clock, Ids } from '../domain/context.ts';
import type { Store } from '../store/store.ts';
import { sandboxNow } from './clock.ts';
import { nextDueAt } from './queue.ts';
import { catchUp } from './time.ts';

/** Runs the work of each sandbox in order, one piece at a time. */
export class SandboxSerial {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(sandboxId: string, work: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(sandboxId) ?? Promise.resolve()).then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(sandboxId, tail);
    void tail.then(() => {
      if (this.tails.get(sandboxId) === tail) this.tails.delete(sandboxId);
    });
    return result;
  }

  /** Settles when every sandbox's queued work has run: a stop waits for it before closing the store. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all(this.tails.values());
  }
}

/** A running clock is looked at again at least this often, so a far-off job is never waited for blindly. */
const LONGEST_SLEEP_MS = 60_000;

export class Background {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly wall: Clock,
    private readonly ids: Ids,
    private readonly serial: SandboxSerial,
    private readonly report: (line: string) => void,
  ) {}

  /** Runs whatever is due in the sandbox soon after the current request, then plans the next look. */
  wake(sandboxId: string): void {
    clearTimeout(this.timers.get(sandboxId));
    this.timers.delete(sandboxId);
    setImmediate(() => {
      if (this.stopped) return;
      void this.serial.run(sandboxId, async () => {
        const sandbox = this.store.get(sandboxId);
        if (!sandbox || this.stopped) return;
        try {
          try {
            await catchUp(sandbox, this.wall, this.ids);
          } finally {
            this.store.commit(sandbox);
          }
        } catch (error) {
          // No request is waiting to hear of it; the log is where a failed save must show.
          this.report(`billing-sim: background work of sandbox ${sandboxId} failed: ${(error as Error).message}`);
        }
        this.plan(sandboxId);
      });
    });
  }

  private plan(sandboxId: string): void {
    const sandbox = this.store.get(sandboxId);
    const next = sandbox && nextDueAt(sandbox);
    if (!sandbox || sandbox.clock.frozen || next === undefined) return;
    const delay = Math.min(Math.max(next - sandboxNow(sandbox.clock, this.wall), 0), LONGEST_SLEEP_MS);
    const timer = setTimeout(() => this.wake(sandboxId), delay);
    timer.unref();
    this.timers.set(sandboxId, timer);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
