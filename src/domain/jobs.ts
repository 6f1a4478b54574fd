// A unit of scheduled work, as the engine's queue orders it and as a store keeps it. Both need the
// shape, so it lives here rather than in either.

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
