// Work no request is waiting for: webhook deliveries queued by a request, and, for sandboxes whose
// clock runs with wall time, jobs that fall due as time passes. Everything that reads or changes a
// sandbox runs one turn at a time through SandboxSerial; a webhook POST runs outside any turn, and
// only its answer is logged in one, when it comes (at the latest when the attempt's 5 s are up), so a
// receiver that never answers holds up nothing.

import type { Clock, Ids } from '../domain/context.ts';
import type { Sandbox, Store } from '../store/store.ts';
import { sandboxClock, sandboxNow } from '../domain/sandbox-clock.ts';
import { EVENTS_SLACK_AFTER_TURN, MAX_EVENTS_PER_SANDBOX, trimLogs } from './limits.ts';
import { nextDueAt } from './queue.ts';
import { sandboxIds } from './sandboxes.ts';
import { catchUp, type RunOptions } from './time.ts';
import { post, type Answer } from './delivery-post.ts';
import { recordAnswer, type Attempt } from './webhooks.ts';

/** Runs the work of each sandbox in order, one piece at a time. */
export class SandboxSerial {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(sandboxId: string, work: () => T | Promise<T>): Promise<T> {
    return this.follow(sandboxId, (this.tails.get(sandboxId) ?? Promise.resolve()).then(work));
  }

  /**
   * As run, but with nothing of the sandbox queued `work` runs at once, and what it gives is returned
   * as it is: a request whose turn needs no waiting is answered in the very callback that read it,
   * with none of the promise hops that cost a small request a tenth of its time. A promise it gives
   * becomes the sandbox's tail, so later work still waits for it.
   */
  runSoon<T>(sandboxId: string, work: () => T | Promise<T>): T | Promise<T> {
    if (this.tails.has(sandboxId)) return this.run(sandboxId, work);
    const result = work();
    return result instanceof Promise ? this.follow(sandboxId, result) : result;
  }

  /** Makes `result` the sandbox's tail until it settles. */
  private follow<T>(sandboxId: string, result: Promise<T>): Promise<T> {
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
  /** The wall time at which each sandbox's timer fires. */
  private readonly firesAt = new Map<string, number>();
  /** Deliveries whose POST is out ("sandbox delivery", as ids of seeded sandboxes repeat): a retry due meanwhile is not sent twice at once. */
  private readonly posting = new Set<string>();
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly wall: Clock,
    private readonly ids: Ids,
    private readonly serial: SandboxSerial,
    private readonly report: (line: string) => void,
    private readonly maxEvents = MAX_EVENTS_PER_SANDBOX,
  ) {}

  /** How turns run work: within the event limit, handing webhook POSTs to this background, saving between slices. */
  get runOptions(): RunOptions {
    return {
      maxEvents: this.maxEvents,
      deliver: (attempt) => this.deliver(attempt),
      checkpoint: (sandbox, slack) => this.settle(sandbox, slack),
      // With a data file, events and e-mails past the limit are rows to delete in the save between two
      // slices: a quarter of the limit at once (25,000 rows of each) made that save take 100–230 ms, and
      // every request of every sandbox waited for it. A turn's slack keeps each such save small.
      sliceSlack: this.store.durable ? EVENTS_SLACK_AFTER_TURN : undefined,
    };
  }

  /**
   * The end of any turn: events and e-mails past the limit go (a request records some too), then the commit.
   * `slack` of each past the limit may stay until a later turn: EVENTS_SLACK_AFTER_TURN of the
   * limit after a request, more between the slices of an advance.
   */
  settle(sandbox: Sandbox, slack = Math.floor(this.maxEvents * EVENTS_SLACK_AFTER_TURN)): void {
    trimLogs(sandbox, this.maxEvents, slack);
    this.store.commit(sandbox);
  }

  /**
   * Sends an attempt after the current turn, and logs its answer in a turn of its own. A delivery
   * whose earlier POST is still out (a frozen clock advanced past its retries within the 5 s the
   * receiver has) is not sent twice at once: that attempt is logged as not sent.
   */
  deliver(attempt: Attempt): void {
    const key = `${attempt.sandboxId} ${attempt.deliveryId}`;
    if (this.posting.has(key)) {
      this.log(attempt, { status: null, error: 'not sent: the previous attempt was still waiting for its answer', durationMs: 0 });
      return;
    }
    this.posting.add(key);
    setImmediate(() => {
      void post(attempt).then((answer) => {
        this.posting.delete(key);
        this.log(attempt, answer);
      });
    });
  }

  private log(attempt: Attempt, answer: Answer): void {
    if (this.stopped) return;
    let released = false;
    void this.inTurn(attempt.sandboxId, async (sandbox) => {
      released = recordAnswer(sandbox, attempt.deliveryId, attempt.index, answer, this.context(sandbox));
    }).then(() => {
      // The next delivery of its queue (the webhook's, of the same purchase) is due now.
      if (released) this.wake(attempt.sandboxId);
    });
  }

  /** Stops looking at a sandbox that is gone (DELETE /sim/v1/sandbox); answers still out find nothing to log. */
  forget(sandboxId: string): void {
    clearTimeout(this.timers.get(sandboxId));
    this.timers.delete(sandboxId);
    this.firesAt.delete(sandboxId);
  }

  /**
   * After a request changed a sandbox: a look right after the answer when the change queued work
   * that falls due before the look already planned (a webhook delivery due now, a billing that a
   * running clock reaches before the timer fires), and none otherwise. Waking after every write
   * cost each POST a background turn and a new timer, a tenth of a small request's time.
   */
  changed(sandboxId: string): void {
    let sandbox: Sandbox | undefined;
    try {
      sandbox = this.store.get(sandboxId);
    } catch {
      // The file cannot give the sandbox back: the background turn reports it.
      return this.wake(sandboxId);
    }
    const next = sandbox && nextDueAt(sandbox);
    if (!sandbox || next === undefined) return;
    const wait = next - sandboxNow(sandbox.clock, this.wall);
    // A frozen clock never reaches a later job by itself; a running one does at wall time now + wait.
    if (wait > 0 && (sandbox.clock.frozen || (this.firesAt.get(sandboxId) ?? Infinity) <= this.wall.now() + wait)) return;
    this.wake(sandboxId);
  }

  private context(sandbox: Sandbox) {
    return { clock: sandboxClock(sandbox.clock, this.wall), ids: sandboxIds(sandbox, this.ids) };
  }

  /** Runs whatever is due in the sandbox soon after the current request, then plans the next look. */
  wake(sandboxId: string): void {
    clearTimeout(this.timers.get(sandboxId));
    this.timers.delete(sandboxId);
    this.firesAt.delete(sandboxId);
    setImmediate(() => {
      if (this.stopped) return;
      void this.inTurn(sandboxId, async (sandbox) => {
        await catchUp(sandbox, this.wall, sandboxIds(sandbox, this.ids), this.runOptions);
      });
    });
  }

  /**
   * One background turn: the work, the commit (also after a failure, of what was done), a log line
   * naming the sandbox for any error, since no request is waiting to hear of it, and in every case
   * the next look planned, so one failure does not stop a running clock for good.
   */
  private inTurn(sandboxId: string, work: (sandbox: Sandbox) => Promise<void>): Promise<void> {
    return this.serial.run(sandboxId, async () => {
      try {
        // Inside the try: a store whose file cannot give the sandbox back throws here too.
        const sandbox = this.store.get(sandboxId);
        if (!sandbox || this.stopped) return;
        try {
          await work(sandbox);
        } finally {
          this.settle(sandbox);
        }
      } catch (error) {
        this.report(`billing-sim: background work of sandbox ${sandboxId} failed: ${(error as Error)?.stack ?? String(error)}`);
      }
      this.plan(sandboxId);
    });
  }

  private plan(sandboxId: string): void {
    let sandbox: Sandbox | undefined;
    try {
      sandbox = this.store.get(sandboxId);
    } catch {
      // The file cannot give the sandbox back yet (the failure is logged): look again later.
      return this.sleep(sandboxId, LONGEST_SLEEP_MS);
    }
    const next = sandbox && nextDueAt(sandbox);
    if (!sandbox || sandbox.clock.frozen || next === undefined) return;
    this.sleep(sandboxId, Math.min(Math.max(next - sandboxNow(sandbox.clock, this.wall), 0), LONGEST_SLEEP_MS));
  }

  private sleep(sandboxId: string, delay: number): void {
    const timer = setTimeout(() => this.wake(sandboxId), delay);
    timer.unref();
    this.timers.set(sandboxId, timer);
    this.firesAt.set(sandboxId, this.wall.now() + delay);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.firesAt.clear();
  }
}
