// Scheduled work of a sandbox: a binary heap (tinyqueue) ordered by time, then by insertion, so
// an advance pops exactly the jobs due before its target, in order, without scanning every
// subscriber or purchase. The heap's array is the sandbox's `jobs`, so it persists with it.

import TinyQueue from 'tinyqueue';

export type JobKind = 'billing' | 'first_deduction' | 'execution' | 'overdue' | 'webhook';

export interface Job {
  /** When the job is due, epoch ms. */
  at: number;
  /** Insertion order: breaks ties so that jobs due at the same instant run as they were scheduled. */
  seq: number;
  kind: JobKind;
  /** The subscriber (billing, first_deduction), purchase (execution, overdue) or delivery (webhook) concerned. */
  id: string;
  /** For billings: the index k of the billing date, so a job made stale by a reschedule is ignored. */
  k?: number;
  /** For executions: the payment method being collected. */
  method?: string;
}

export interface JobHolder {
  jobs: Job[];
  jobSeq: number;
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
}

/** Removes and returns the earliest job due at or before `untilMs`, if any. */
export function popDue(holder: JobHolder, untilMs: number): Job | undefined {
  const queue = queueOf(holder);
  const next = queue.peek();
  return next && next.at <= untilMs ? queue.pop() : undefined;
}

/** The earliest job due at or before `untilMs`, left in the queue; or undefined. */
export function peekDue(holder: JobHolder, untilMs: number): Job | undefined {
  const next = queueOf(holder).peek();
  return next && next.at <= untilMs ? next : undefined;
}

/** When the earliest job is due, if any. */
export const nextDueAt = (holder: JobHolder): number | undefined => queueOf(holder).peek()?.at;
