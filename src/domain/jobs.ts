// A unit of scheduled work, as the engine's queue orders it and as a store keeps it. Both need the
// shape, so it lives here rather than in either.

export type JobKind = 'billing' | 'first_deduction' | 'execution' | 'overdue' | 'webhook' | 'step' | 'settlement';

export interface Job {
  /** When the job is due, epoch ms. */
  at: number;
  /** Insertion order: breaks ties so that jobs due at the same instant run as they were scheduled. */
  seq: number;
  kind: JobKind;
  /**
   * The subscriber (billing, first_deduction), purchase (execution, overdue, settlement, a step) or
   * delivery (webhook) concerned; for the step `recurring_token_delete`, the token.
   */
  id: string;
  /** For billings: the index k of the billing date, so a job made stale by a reschedule is ignored. */
  k?: number;
  /** For executions: the payment method being collected; for steps, the step that ends (engine/steps.ts). */
  method?: string;
  /** For a capture's or a refund's step: the amount it takes. */
  amount?: number;
  /** For a refund's step: the id of the Payment it makes, answered when the refund was asked for; for a charge's: the token charged. */
  ref?: string;
}
