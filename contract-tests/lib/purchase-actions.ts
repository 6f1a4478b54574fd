// Builders for the platform's purchase actions (capture/, release/, refund/, mark_as_paid/,
// resend_invoice/): a purchase brought to the status an action starts from, the action itself, and
// what the simulator recorded of it (its events and e-mails). A purchase reaches `hold` or `paid`
// only through the simulated checkout (POST /sim/v1/purchases/{id}/pay), so the builders that make
// one are for checks that require 'payments'; `created` and marked-as-paid purchases need nothing
// beyond the API.

import { expect } from 'vitest';
import type { ApiClient, Reply } from './client.ts';
import { expectStatus } from './primitives.ts';
import { createPurchase, listAll, mainClient, pay, type Account, type Client, type Email, type Purchase } from './scenario.ts';
import type { SimEvent } from './records.ts';

type Node = Record<string, any>;

/** The amount every purchase made here costs: one product of 12.00 (primitives.ts, `purchaseBody`). */
export const TOTAL = 1200;

export type Action = 'capture' | 'release' | 'refund' | 'mark_as_paid' | 'resend_invoice';

/** POST /purchases/{id}/{action}/ with `body` (none when undefined). */
export const act = (account: Account, id: string, action: Action, body?: Node): Promise<Reply> =>
  account.api.post(`/purchases/${id}/${action}/`, body);

/** An action that must answer 200; its body (a Purchase, or the Payment of a refund). */
export async function acted(account: Account, id: string, action: Action, body?: Node): Promise<any> {
  return expectStatus(await act(account, id, action, body), 200, `${action}/`);
}

/**
 * The statuses of the platform's asynchronous steps (its published deliveries show each one): a
 * target may pass through them before the final state, or not. A card payment shows
 * `pending_execute` in its history before `hold` or `paid`.
 */
const isPending = (status: string): boolean => status.startsWith('pending_');

/** A purchase's status history without the pending steps, which a target may or may not take. */
export const settledHistory = (purchase: Purchase): string[] => purchase.status_history.map((entry) => entry.status).filter((status) => !isPending(status));

/** Event types without the pending steps' events, which a target may or may not send. */
export const withoutPendingEvents = (types: string[]): string[] => types.filter((type) => !isPending(type.slice(type.indexOf('.') + 1)));

/** How long a pending step may last before the check gives up on it: the platform's take "seconds". */
const STEP_WAIT_MS = 30_000;

/**
 * The purchase read back until it has left its pending step (`pending_capture`, …), at most
 * STEP_WAIT_MS: at once from a target that ends the step within the request (the simulator's default).
 */
export async function afterPendingStep(account: Account, id: string): Promise<Purchase> {
  const until = Date.now() + STEP_WAIT_MS;
  for (;;) {
    const purchase = expectStatus(await account.api.get(`/purchases/${id}/`), 200, 'get purchase') as Purchase;
    if (!isPending(purchase.status) || Date.now() >= until) return purchase;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** An action that must answer 200, and the purchase once its pending step (if any) has ended. */
export async function actedAndSettled(account: Account, id: string, action: Action, body?: Node): Promise<{ answer: any; purchase: Purchase }> {
  const answer = await acted(account, id, action, body);
  return { answer, purchase: await afterPendingStep(account, id) };
}

/** A new client of the main account with a purchase of TOTAL in `created` (`overrides` to its fields). */
export async function newPurchase(api: ApiClient, overrides: Node = {}): Promise<{ account: Account; client: Client; purchase: Purchase }> {
  const { account, client } = await mainClient(api);
  return { account, client, purchase: await createPurchase(account, client.id, overrides) };
}

/** A purchase with skip_capture paid at the simulated checkout: on `hold`. Requires 'payments'. */
export async function heldPurchase(api: ApiClient) {
  const made = await newPurchase(api, { skip_capture: true });
  const held = await pay(made.account, made.purchase.id);
  expect(held.status, 'a skip_capture purchase paid at checkout is on hold').toBe('hold');
  return { ...made, purchase: held };
}

/** A purchase paid at the simulated checkout. Requires 'payments'. */
export async function paidPurchase(api: ApiClient) {
  const made = await newPurchase(api);
  const paid = await pay(made.account, made.purchase.id);
  expect(paid.status, 'a purchase paid at checkout').toBe('paid');
  return { ...made, purchase: paid };
}

/**
 * The event types recorded for one object, oldest first (GET /sim/v1/events is newest first), read
 * with the list's own `object_id` filter: one request, whatever else the account holds or other
 * checks record meanwhile. Requires 'events'.
 */
export async function eventsOf(account: Account, objectId: string): Promise<string[]> {
  const events = await listAll<SimEvent>(account.api.sim, `/events?object_id=${objectId}`);
  return events.map((event) => event.event_type).reverse();
}

/**
 * The simulator's own events (docs/behaviour.md#events, marked *): recorded beside the platform's,
 * never delivered, so a target that records none of them is as right.
 */
const SIMULATOR_ONLY_EVENTS = new Set([
  'purchase.sent',
  'purchase.overdue',
  'purchase.expired',
  'purchase.refunded',
  'purchase.charged_with_other_clients_token',
  'billing_template_client.activated',
]);

/**
 * The platform's events of one object, oldest first, without its pending steps' events (which a
 * target may or may not send) and the simulator's own: what a webhook subscribed to all events
 * would receive. Requires 'events'.
 */
export async function platformEventsOf(account: Account, objectId: string): Promise<string[]> {
  return withoutPendingEvents(await eventsOf(account, objectId)).filter((type) => !SIMULATOR_ONLY_EVENTS.has(type));
}

/** The e-mails of one purchase, oldest first, read with the outbox's `object_id` filter. Requires 'events'. */
export async function emailsOf(account: Account, purchaseId: string): Promise<Email[]> {
  return (await listAll<Email>(account.api.sim, `/outbox?object_id=${purchaseId}`)).reverse();
}

/** The purchase reads back as `expected` (an action that was refused changed nothing). */
export async function expectUnchanged(account: Account, expected: Purchase): Promise<void> {
  const read = expectStatus(await account.api.get(`/purchases/${expected.id}/`), 200, 'get purchase');
  expect(read, 'a refused action changes nothing').toEqual(expected);
}
