// What the payer did outside the API, read off a recording: the checkout page opened (a purchase goes
// from created or sent to viewed) and a payment made there (from a payable status to paid, hold,
// preauthorized or error). The API never shows these steps, only their results, so a replay and a
// scenario made from a recording do them through the simulator (GET checkout_url, POST
// /sim/v1/purchases/{id}/pay) just before the first exchange whose answer shows the result.
//
// A status change the recording itself explains is not the payer's: a request on the purchase between
// the two sightings (charge/, mark_as_paid/, capture/, /sim/v1/…/pay) made it, and a purchase first seen
// paid was paid by the engine (an automatic charge with a saved card) or before the recording began.

import type { RecordedExchange } from './exchanges.ts';
import { idsInText, isId } from './recorded-ids.ts';

export type OutsideStep =
  | { kind: 'view'; before: number; purchase: string }
  | { kind: 'pay'; before: number; purchase: string; body: PayBody };

/** The body of POST /sim/v1/purchases/{id}/pay that gives the recorded result. */
export interface PayBody {
  outcome: 'success' | 'failure';
  method?: string;
  save_token?: boolean;
  decline_code?: string;
}

/** Statuses in which the checkout page takes a payment (src/domain/purchases.ts PAYABLE). */
const PAYABLE = new Set(['created', 'sent', 'viewed', 'error', 'overdue']);
/** What a payment on the page leaves: money taken or reserved, a card authorised, or a failed attempt. */
const PAID = new Set(['paid', 'hold', 'preauthorized', 'pending_execute']);

interface PurchaseSeen {
  id: string;
  status: string;
  [field: string]: unknown;
}

/** Every purchase object an answer shows: itself, the items of a list, an add_subscriber's `purchase`. */
export function purchasesIn(body: unknown): PurchaseSeen[] {
  if (body === null || typeof body !== 'object') return [];
  const object = body as Record<string, unknown>;
  if (object.type === 'purchase' && isId(object.id) && typeof object.status === 'string') return [object as PurchaseSeen];
  const nested = [object.purchase, ...(Array.isArray(object.results) ? object.results : [])];
  return nested.flatMap((item) => purchasesIn(item));
}

export function outsideSteps(exchanges: readonly RecordedExchange[]): OutsideStep[] {
  const last = new Map<string, string>();
  const steps: OutsideStep[] = [];
  for (const exchange of exchanges) {
    // A write on the purchase explains what its answers show next.
    if (exchange.method !== 'GET') for (const id of idsInText(exchange.path)) last.delete(id.toLowerCase());
    if (exchange.status < 200 || exchange.status >= 300) continue;
    for (const purchase of purchasesIn(exchange.responseBody)) {
      const id = purchase.id.toLowerCase();
      const before = last.get(id);
      last.set(id, purchase.status);
      if (before === undefined || before === purchase.status || !PAYABLE.has(before)) continue;
      if (purchase.status === 'viewed' && (before === 'created' || before === 'sent')) {
        steps.push({ kind: 'view', before: exchange.index, purchase: purchase.id });
      } else if (PAID.has(purchase.status) || purchase.status === 'error') {
        // The payer opened the page before paying on it; the history shows it though no answer did.
        if ((before === 'created' || before === 'sent') && viewedFirst(purchase)) steps.push({ kind: 'view', before: exchange.index, purchase: purchase.id });
        steps.push({ kind: 'pay', before: exchange.index, purchase: purchase.id, body: payBody(purchase) });
      }
    }
  }
  return steps;
}

const viewedFirst = (purchase: PurchaseSeen): boolean =>
  Array.isArray(purchase.status_history) && purchase.status_history.some((entry) => (entry as { status?: unknown } | null)?.status === 'viewed');

function payBody(purchase: PurchaseSeen): PayBody {
  const transaction = (purchase.transaction_data ?? {}) as { payment_method?: unknown; attempts?: { payment_method?: unknown; error?: { code?: unknown } | null }[] };
  // A failed attempt's method is on the attempt: the platform leaves the purchase's own empty then.
  const named = [transaction.payment_method, transaction.attempts?.at(-1)?.payment_method].find((value) => typeof value === 'string' && value !== '');
  const method = named as string | undefined;
  if (purchase.status === 'error') {
    const code = transaction.attempts?.at(-1)?.error?.code;
    return { outcome: 'failure', ...(method ? { method } : {}), ...(typeof code === 'string' && code !== '' ? { decline_code: code } : {}) };
  }
  return { outcome: 'success', ...(method ? { method } : {}), ...(purchase.is_recurring_token === true ? { save_token: true } : {}) };
}
