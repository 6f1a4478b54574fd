// openapi.yaml, "The sandbox's clock on every answer": `Billing-Sim-Clock` carries the sandbox's
// instant when it answered, so that a recording made through the proxy keeps the simulator's time
// (src/recording/exchanges.ts reads it) rather than the wall clock's. East and west of UTC make no
// difference: the header is always in UTC.

import { describe, expect, it } from 'vitest';
import { sandboxAt } from '../builders/engine.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();
const CLOCK = 'billing-sim-clock';

describe('Billing-Sim-Clock: the sandbox\'s instant on every answer', () => {
  it('a read of a sandbox frozen on Jan 31 answers that instant, not the wall clock\'s', async () => {
    const box = await sandboxAt(h, '2028-01-31T23:30:00Z');
    const call = await box.req('GET', '/api/v1/clients/');
    expect(call.status).toBe(200);
    expect(call.headers[CLOCK]).toBe('2028-01-31T23:30:00.000Z');
  });

  it('a clock advance over Feb 29 answers the instant it moved to', async () => {
    const box = await sandboxAt(h, '2028-02-28T20:00:00-05:00');
    const call = await box.req('POST', '/sim/v1/clock/advance', { by: 'P1D' });
    expect(call.status).toBe(200);
    expect(call.headers[CLOCK]).toBe('2028-03-01T01:00:00.000Z');
    expect(Date.parse(call.headers[CLOCK]!)).toBe(Date.parse((call.body as { now: string }).now));
  });

  it('a refusal carries it too (400 naming the field), and an answer without a sandbox token does not', async () => {
    const box = await sandboxAt(h, '2027-12-31T23:59:59+08:00');
    const refused = await box.req('POST', '/api/v1/clients/', { email: 'not an e-mail' });
    expect(refused.status).toBe(400);
    expect(refused.headers[CLOCK]).toBe('2027-12-31T15:59:59.000Z');
    const health = await h.request('GET', '/healthz', {});
    expect(health.headers[CLOCK]).toBeUndefined();
  });
});
