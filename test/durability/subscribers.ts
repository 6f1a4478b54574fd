// A sandbox with subscribers, built over HTTP on any simulator (spawned or in-process), and its
// state in a form two servers can compare: ids are random, so objects are named by what the test
// chose (a client's email, a template's title) and listed in the API's order.

import { expect } from 'vitest';
import { send } from '../support/spawn-sim.ts';
import type { Client, Email, List, Purchase, SimEvent, Subscriber, Template } from '../builders/engine.ts';

export const START = '2026-01-31T09:00:00Z';

/** Deduction days (at least today + 4); each subscriber then bills on the 31st, the day its first purchase is paid. */
export const DEDUCTIONS = ['2026-02-04', '2026-02-05', '2026-02-28'];

async function ok<T>(origin: string, method: string, path: string, token: string | null, body?: unknown, status = 200): Promise<T> {
  const call = await send(origin, method, path, token, body);
  expect(call.status, `${method} ${path}: ${call.text.slice(0, 300)}`).toBe(status);
  return call.body as T;
}

/**
 * A fixtures sandbox frozen at START whose monthly template has one subscriber per DEDUCTIONS day,
 * each first purchase paid at once with the card saved: they bill on month ends (Feb 28, Mar 31,
 * Apr 30, …), charged.
 */
export async function runSubscribers(origin: string, mandateExpiry = '2029-12-31') {
  const { token } = await ok<{ token: string }>(origin, 'POST', '/sim/v1/sandboxes', null, { now: START, fixtures: true }, 201);
  const templates = await ok<List<Template>>(origin, 'GET', '/api/v1/billing_templates/', token);
  const monthly = templates.results.find((t) => t.is_subscription)!;
  const clients = (await ok<List<Client>>(origin, 'GET', '/api/v1/clients/', token)).results;
  for (const [i, day] of DEDUCTIONS.entries()) {
    const added = await ok<{ purchase: Purchase }>(
      origin,
      'POST',
      `/api/v1/billing_templates/${monthly.id}/add_subscriber/`,
      token,
      { client_id: clients[i]!.id, subscription_deduction_date: day, mandate_expiry_date: mandateExpiry },
      201,
    );
    await ok(origin, 'POST', `/sim/v1/purchases/${added.purchase.id}/pay`, token, { save_token: true });
  }
  const purchasesBefore = (await ok<List<Purchase>>(origin, 'GET', '/api/v1/purchases/?page_size=1000', token)).results.length;
  return { token, purchasesBefore };
}

export const advanceBy = (origin: string, token: string, by: string) => ok(origin, 'POST', '/sim/v1/clock/advance', token, { by });

/** The sandbox as a client sees it, with ids replaced by emails and titles. */
export async function subscribersState(origin: string, token: string) {
  const get = <T>(path: string) => ok<T>(origin, 'GET', path, token);
  const clients = (await get<List<Client>>('/api/v1/clients/?page_size=1000')).results;
  const email = new Map(clients.map((c) => [c.id, c.email]));
  const templates = (await get<List<Template>>('/api/v1/billing_templates/?page_size=1000')).results;
  const monthly = templates.find((t) => t.is_subscription)!;
  const purchases = (await get<List<Purchase>>('/api/v1/purchases/?page_size=1000')).results;
  const subscribers = (await get<List<Subscriber>>(`/api/v1/billing_templates/${monthly.id}/clients/?page_size=1000`)).results;
  const events = (await get<List<SimEvent>>('/sim/v1/events?page_size=1000')).results;
  const outbox = (await get<List<Email>>('/sim/v1/outbox?page_size=1000')).results;
  const issuedBySubscriber: Record<string, string[]> = {};
  for (const p of [...purchases].reverse()) {
    if (p.billing_template_id !== monthly.id) continue;
    (issuedBySubscriber[email.get(p.client_id)!] ??= []).push(p.issued!);
  }
  return {
    now: (await get<{ now: string }>('/sim/v1/clock')).now,
    purchases: purchases.map((p) => ({
      client: email.get(p.client_id),
      issued: p.issued,
      due: p.due,
      status: p.status,
      total: p.purchase.total,
      paid: p.payment?.amount ?? null,
    })),
    subscribers: subscribers.map((s) => ({
      client: email.get(s.client_id),
      status: s.status,
      scheduled: s.subscription_billing_scheduled_on,
      cycles: s.number_of_billing_cycles_passed,
    })),
    events: events.map((e) => e.event_type),
    outbox: outbox.map((m) => `${m.kind} ${m.to}`),
    issuedBySubscriber,
  };
}
