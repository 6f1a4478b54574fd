// The delivery log (GET /sim/v1/webhook_deliveries) as the delivery tests read it: webhooks' and
// success_callbacks' deliveries alike.

import { expect } from 'vitest';
import { HANG_GUARD_MS } from '../support/receiver.ts';
import type { Box, List } from './engine.ts';

export interface LoggedAttempt {
  at: string;
  status: number | null;
  error: string | null;
  duration_ms: number | null;
}

export interface Delivery {
  id: string;
  kind: 'webhook' | 'success_callback';
  webhook_id: string | null;
  event_id: string | null;
  event_type: string;
  object_id: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: LoggedAttempt[];
  next_attempt_at: string | null;
  created_on: number;
  chaos: ('duplicate' | 'reordered' | 'delayed')[];
  duplicate_of: string | null;
}

export async function log(box: Box, query = ''): Promise<Delivery[]> {
  const res = await box.req('GET', `/sim/v1/webhook_deliveries?page_size=1000${query}`);
  expect(res.status, res.text).toBe(200);
  return (res.body as List<Delivery>).results;
}

/**
 * Answers are logged after the POST, in a turn of their own: waits until the log shows what `done`
 * wants. `waitMs` only catches a hang (HANG_GUARD_MS unless given); past it the test fails with the
 * log as it last was.
 */
export async function logWhen(box: Box, done: (deliveries: Delivery[]) => boolean, query = '', waitMs = HANG_GUARD_MS): Promise<Delivery[]> {
  let deliveries = await log(box, query);
  for (const started = Date.now(); !done(deliveries) && Date.now() - started < waitMs; deliveries = await log(box, query)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(done(deliveries), `the delivery log never showed what was awaited within ${waitMs} ms; it was:\n${JSON.stringify(deliveries, null, 1)}`).toBe(true);
  return deliveries;
}
