// The scheduled-work queue: jobs come out in time order, ties in insertion order, and only those due.

import { describe, expect, it } from 'vitest';
import { popDue, requeue, schedule, type JobHolder } from '../../src/engine/queue.ts';
import { ChangeSet } from '../../src/store/changes.ts';

describe('job queue ordered by time', () => {
  it('pops only jobs due by the target, earliest first, ties in the order scheduled', () => {
    const holder: JobHolder = { jobs: [], jobSeq: 0 };
    schedule(holder, { at: 300, kind: 'billing', id: 'c' });
    schedule(holder, { at: 100, kind: 'billing', id: 'a' });
    schedule(holder, { at: 200, kind: 'overdue', id: 'b1' });
    schedule(holder, { at: 200, kind: 'execution', id: 'b2' });
    const popped: string[] = [];
    for (let job = popDue(holder, 250); job; job = popDue(holder, 250)) popped.push(job.id);
    expect(popped).toEqual(['a', 'b1', 'b2']);
    expect(popDue(holder, 299)).toBeUndefined();
    expect(popDue(holder, 300)?.id).toBe('c');
  });

  it('keeps every pending job in the holder\'s own array, so a persisted sandbox resumes its queue', () => {
    const holder: JobHolder = { jobs: [], jobSeq: 0 };
    for (const at of [5, 3, 9, 1]) schedule(holder, { at, kind: 'billing', id: String(at) });
    expect(popDue(holder, 1)?.id).toBe('1');
    expect(holder.jobs.map((job) => job.id).sort()).toEqual(['3', '5', '9']);
    // A saved job holds its own fields, not its place in the array (which a store's rows do not keep).
    expect(JSON.parse(JSON.stringify(holder.jobs))).toEqual(holder.jobs.map(({ at, seq, kind, id }) => ({ at, seq, kind, id })));
    const restored: JobHolder = JSON.parse(JSON.stringify(holder));
    const order: number[] = [];
    for (let job = popDue(restored, 10); job; job = popDue(restored, 10)) order.push(job.at);
    expect(order).toEqual([3, 5, 9]);
    expect(restored.jobs).toEqual([]);
  });

  it('jobs of one instant read back in any order still run in the order they were scheduled', () => {
    const saved: JobHolder = { jobs: [], jobSeq: 0 };
    for (const id of ['a', 'b', 'c', 'd']) schedule(saved, { at: 100, kind: 'billing', id });
    schedule(saved, { at: 50, kind: 'overdue', id: 'early' });
    // A data file's rows come back in no promised order.
    const restored: JobHolder = { jobs: [...saved.jobs].reverse().map((job) => ({ ...job })), jobSeq: saved.jobSeq };
    schedule(restored, { at: 100, kind: 'billing', id: 'later' });
    const order: string[] = [];
    for (let job = popDue(restored, 100); job; job = popDue(restored, 100)) order.push(job.id);
    expect(order).toEqual(['early', 'a', 'b', 'c', 'd', 'later']);
  });

  it('a popped billing job requeued for its next date runs after the jobs of that date scheduled before it, and a durable store saves it under its new seq', () => {
    const changes = new ChangeSet();
    const holder: JobHolder = { jobs: [], jobSeq: 0, changes };
    schedule(holder, { at: 100, kind: 'billing', id: 'monthly', k: 0 });
    schedule(holder, { at: 200, kind: 'billing', id: 'already queued for 200' });
    changes.enabled = true;
    changes.clear(0, 0);
    const job = popDue(holder, 100)!;
    requeue(holder, job, 200, 1);
    expect(job).toMatchObject({ at: 200, k: 1, seq: 3 });
    expect(holder.jobs).toHaveLength(2);
    expect([...changes.jobsRemoved]).toEqual([1]);
    expect([...changes.jobsAdded.keys()]).toEqual([3]);
    const order: string[] = [];
    for (let next = popDue(holder, 200); next; next = popDue(holder, 200)) order.push(next.id);
    expect(order).toEqual(['already queued for 200', 'monthly']);
  });

  it('refuses to requeue a job that is still queued (it would be queued twice)', () => {
    const holder: JobHolder = { jobs: [], jobSeq: 0 };
    schedule(holder, { at: 100, kind: 'billing', id: 'a', k: 0 });
    expect(() => requeue(holder, holder.jobs[0]!, 200, 1)).toThrow(/still queued/);
    expect(holder.jobs).toHaveLength(1);
  });

  it('tells a durable store what to save: jobs still queued that it lacks, and saved jobs since run', () => {
    const changes = new ChangeSet();
    const holder: JobHolder = { jobs: [], jobSeq: 0, changes };
    schedule(holder, { at: 1, kind: 'billing', id: 'before tracking' });
    changes.enabled = true;
    changes.clear(0, 0);
    schedule(holder, { at: 5, kind: 'billing', id: 'stays' });
    schedule(holder, { at: 2, kind: 'billing', id: 'runs in the same turn' });
    expect(popDue(holder, 3)?.id).toBe('before tracking');
    expect(popDue(holder, 3)?.id).toBe('runs in the same turn');
    // A job scheduled and run within one turn never reaches the database.
    expect([...changes.jobsAdded.values()].map((job) => job.id)).toEqual(['stays']);
    expect([...changes.jobsRemoved]).toEqual([1]);
  });
});
