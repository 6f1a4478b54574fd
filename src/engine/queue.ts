// Scheduled work of a sandbox: a binary heap (tinyqueue) ordered by time, then by insertion, so
// an advance pops exactly the jobs due before its target, in order, without scanning every
// subscriber or purchase. The heap's array is the sandbox's `jobs`, so it persists with it.

import TinyQueue from 'tinyqueue';
import type { Job } from '../domain/jobs.ts';

export type { Job, JobKind } from '../domain/jobs.ts';

export interface JobHolder {
  jobs: Job[];
  jobSeq: number;
  /** Told of every push and pop, so a durable store saves the queue's changes and not the queue. */
  changes?: { jobAdded(job: Job): void; jobRemoved(job: Job): void };
}

const byTime = (a: Job, b: Job): number => a.at - b.at || a.seq - b.seq;
const queues = new WeakMap<Job[], TinyQueue<Job>>();

function queueOf(holder: JobHolder): TinyQueue<Job> {
  let queue = queues.get(holder.jobs);
  if (!queue) {
    // TinyQueue heapifies the array in place and keeps using it, so `holder.jobs` stays the heap.
    queue = new TinyQueue(holder.jobs, byTime);
    queues.set(holder.jobs, queue);
  }
  return queue;
}

export function schedule(holder: JobHolder, job: Omit<Job, 'seq'>): void {
  holder.jobSeq += 1;
  (job as Job).seq = holder.jobSeq;
  queueOf(holder).push(job as Job);
  holder.changes?.jobAdded(job as Job);
}

/** Removes and returns the earliest job due at or before `untilMs`, if any. */
export function popDue(holder: JobHolder, untilMs: number): Job | undefined {
  const queue = queueOf(holder);
  const next = queue.peek();
  if (!next || next.at > untilMs) return undefined;
  queue.pop();
  holder.changes?.jobRemoved(next);
  return next;
}

/** The earliest job due at or before `untilMs`, left in the queue; or undefined. */
export function peekDue(holder: JobHolder, untilMs: number): Job | undefined {
  const next = queueOf(holder).peek();
  return next && next.at <= untilMs ? next : undefined;
}

/** When the earliest job is due, if any. */
export const nextDueAt = (holder: JobHolder): number | undefined => queueOf(holder).peek()?.at;
