// Issue 43, "Replay and drift": a recording of a team's own flows, sent again to a fresh simulator,
// shows no drift; the same flows recorded in front of an upstream that differs in one behaviour
// show exactly that difference as drift.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { replayRecording, type ReplayResult } from '../../src/recording/replay.ts';
import { HarRecorder } from '../support/har-recorder.ts';

let recordedOn: RunningSimulator;
let replayOn: RunningSimulator;
beforeAll(async () => {
  [recordedOn, replayOn] = await Promise.all([startSimulator({ port: 0, quiet: true }), startSimulator({ port: 0, quiet: true })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([recordedOn?.stop(), replayOn?.stop()]);
});

/** Exchange indexes of the flow's steps, by name, for the assertions. */
type Flow = Record<string, number>;

/**
 * Clients, templates, a subscriber with a deduction date whose first purchase is paid with a saved
 * card through /sim/v1, a one-time invoice paid outside the API (only its answer shows it), an error
 * answer naming a field, a month end passed by the clock (January 31 → February 29 2028, billed
 * automatically), and a refund.
 */
export async function recordFlow(recorder: HarRecorder, options: { recordSandbox?: boolean } = {}): Promise<Flow> {
  const made = await recorder.call('POST', '/sim/v1/sandboxes', { body: { now: '2028-01-31T09:00:00Z' }, record: options.recordSandbox === true });
  const { token, brand_id } = made.body as { token: string; brand_id: string };
  const as = (method: string, path: string, body?: unknown, record = true) => recorder.call(method, path, { token, body, record });
  const flow: Flow = {};
  const client = await as('POST', '/api/v1/clients/', { email: 'ada@example.com', full_name: 'Ada Lovelace' });
  flow.client = client.index;
  const purchase = { currency: 'EUR', products: [{ name: 'Monthly membership', price: 2990 }] };
  const gym = await as('POST', '/api/v1/billing_templates/', {
    brand_id, title: 'Gym membership', is_subscription: true, purchase, subscription_period: 1, subscription_period_units: 'months',
    subscription_due_period: 7, subscription_due_period_units: 'days', subscription_charge_period_end: false, subscription_trial_periods: 0,
  });
  flow.template = gym.index;
  const checkup = { brand_id, title: 'Annual check-up', is_subscription: false, purchase: { currency: 'EUR', products: [{ name: 'Check-up', price: 12000 }] } };
  flow.refused = (await as('POST', '/api/v1/billing_templates/', checkup)).index;
  // Due March 15 2028, after the clock's last move: the invoice is never overdue.
  const oneTime = await as('POST', '/api/v1/billing_templates/', { ...checkup, due: Date.UTC(2028, 2, 15) / 1000 });
  const added = await as('POST', `/api/v1/billing_templates/${gym.body.id}/add_subscriber/`, { client_id: client.body.id, subscription_deduction_date: '2028-02-04', mandate_expiry_date: '2029-12-31' });
  flow.subscriber = added.index;
  flow.pay = (await as('POST', `/sim/v1/purchases/${added.body.purchase.id}/pay`, { save_token: true })).index;
  flow.scheduled = (await as('GET', `/api/v1/billing_templates/${gym.body.id}/clients/${added.body.billing_template_client.id}/`)).index;
  const invoice = await as('POST', `/api/v1/billing_templates/${oneTime.body.id}/send_invoice/`, { client_id: client.body.id });
  flow.invoice = invoice.index;
  await as('POST', `/sim/v1/purchases/${invoice.body.id}/pay`, {}, false);
  flow.invoicePaid = (await as('GET', `/api/v1/purchases/${invoice.body.id}/`)).index;
  flow.advance = (await as('POST', '/sim/v1/clock/advance', { to: '2028-03-01T00:00:00Z' })).index;
  const list = await as('GET', `/api/v1/purchases/?client_id=${client.body.id}`);
  flow.list = list.index;
  const renewal = (list.body.results as { id: string; issued: string }[]).find((item) => item.issued === '2028-02-29')!;
  flow.refund = (await as('POST', `/api/v1/purchases/${renewal.id}/refund/`, {})).index;
  flow.refunded = (await as('GET', `/api/v1/purchases/${renewal.id}/`)).index;
  return flow;
}

describe('replay: a recording made in front of a simulator', () => {
  let flow: Flow;
  let result: ReplayResult;
  it('replays on a fresh simulator with no drift', async () => {
    const recorder = new HarRecorder(recordedOn.url);
    flow = await recordFlow(recorder);
    const log: string[] = [];
    result = await replayRecording({ har: recorder.har(), origin: replayOn.url, log: (line) => log.push(line) });
    console.log(JSON.stringify(result, null, 1), log, flow);
    expect(result.drift).toEqual([]);
  });
});
