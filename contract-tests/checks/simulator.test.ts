// The simulator control API and health check: billing-sim's decisions only
// (docs/behaviour.md#control-api; the spec has no simulator), so every check is informative, and each
// one skips on a target without the capability.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';

describe('simulator', () => {
  check({ id: 'SIM-HEALTHZ', title: 'GET /healthz answers 200 without a token', cites: 'openapi.yaml#getHealth; docs/behaviour.md#paths', level: 'informative', requires: ['clock'] }, async ({ target }) => {
    const res = await fetch(`${target.origin}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  check({ id: 'SIM-CAPABILITIES', title: 'GET /sim/v1/capabilities names the clock, payments and events', cites: 'docs/behaviour.md#control-api: "GET /sim/v1/capabilities"; openapi.yaml#getCapabilities', level: 'informative', requires: ['clock'] }, async ({ api }) => {
    const res = await api.sim.get('/capabilities');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['clock', 'events', 'payments']);
  });

  check(
    {
      id: 'SIM-CLOCK-FREEZE',
      title: 'PATCH /sim/v1/clock freezes and unfreezes without moving the clock',
      cites: 'docs/behaviour.md#sandbox-clock: "freezes the clock at its current instant", "Neither jumps"; openapi.yaml#patchClock',
      level: 'informative',
      requires: ['clock'],
    },
    async ({ sandboxAt }) => {
      const sandbox = await sandboxAt('2026-12-31T23:59:30Z');
      expect((await sandbox.sim.get('/clock')).body).toEqual({ now: '2026-12-31T23:59:30.000Z', frozen: true });
      const running = await sandbox.sim.patch('/clock', { frozen: false });
      expect(running.body.frozen).toBe(false);
      const frozen = await sandbox.sim.patch('/clock', { frozen: true });
      // A running clock moves with wall time: a few seconds at most passed between the two calls.
      expect(Date.parse(frozen.body.now) - Date.parse('2026-12-31T23:59:30Z')).toBeLessThan(60_000);
      expect(frozen.body.frozen).toBe(true);
    },
  );

  check(
    { id: 'SIM-ADVANCE-PAST', title: 'advancing the clock into the past is refused and the clock stays', cites: 'docs/behaviour.md#time-travel: "a to earlier than now (min_value)"; openapi.yaml#advanceClock', level: 'informative', requires: ['clock'] },
    async ({ sandboxAt }) => {
      const sandbox = await sandboxAt('2028-02-29T12:00:00Z');
      const res = await sandbox.sim.post('/clock/advance', { to: '2028-02-28T12:00:00Z' });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['to']);
      expect((await sandbox.sim.get('/clock')).body.now).toBe('2028-02-29T12:00:00.000Z');
    },
  );

  check(
    {
      id: 'SIM-RESET',
      title: 'POST /sim/v1/reset empties the sandbox and keeps its clock',
      cites: `docs/behaviour.md#sandboxes: "POST /sim/v1/reset empties the caller's sandbox", "The sandbox keeps its id, token, brand, clock and webhook signing key"; openapi.yaml#resetSandbox`,
      level: 'informative',
      requires: ['clock'],
    },
    async ({ sandboxAt }) => {
      const sandbox = await sandboxAt('2027-01-01T00:00:00Z');
      expect((await sandbox.post('/clients/', { email: 'reset@example.com' })).status).toBe(201);
      const reset = await sandbox.sim.post('/reset');
      expect(reset.status).toBe(200);
      expect(reset.body.clock).toEqual({ now: '2027-01-01T00:00:00.000Z', frozen: true });
      expect((await sandbox.get('/clients/')).body.results).toEqual([]);
    },
  );

  check(
    {
      id: 'SIM-EVENTS-OUTBOX',
      title: 'a sent invoice is an event and an e-mail to the client',
      cites: 'docs/behaviour.md#events: "purchase.created | a purchase is created"; docs/behaviour.md#outbox: "Invoices go out for send_invoice/"; openapi.yaml#listEvents; openapi.yaml#listOutbox',
      level: 'informative',
      requires: ['clock', 'events'],
    },
    async ({ sandboxAt }) => {
      const sandbox = await sandboxAt('2027-01-01T00:00:00Z');
      // A new sandbox is empty; its brand is named by the reset's answer.
      const brand = (await sandbox.sim.post('/reset')).body.brand_id as string;
      const client = (await sandbox.post('/clients/', { email: 'outbox@example.com' })).body;
      const template = await sandbox.post('/billing_templates/', {
        brand_id: brand,
        is_subscription: false,
        due: Date.parse('2027-01-15T00:00:00Z') / 1000,
        purchase: { currency: 'EUR', products: [{ name: 'Setup', price: 4900 }] },
      });
      const purchase = await sandbox.post(`/billing_templates/${template.body.id}/send_invoice/`, { client_id: client.id });
      expect(purchase.status).toBe(201);
      const events = (await sandbox.sim.get('/events')).body.results as { event_type: string; object_id: string }[];
      expect(events.filter((e) => e.object_id === purchase.body.id).map((e) => e.event_type)).toContain('purchase.created');
      const outbox = (await sandbox.sim.get('/outbox')).body.results as { kind: string; to: string; purchase_id: string }[];
      expect(outbox).toEqual([expect.objectContaining({ kind: 'invoice', to: 'outbox@example.com', purchase_id: purchase.body.id })]);
    },
  );
});
