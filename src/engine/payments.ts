// Simulated money: paying at checkout (POST /sim/v1/purchases/{id}/pay), charging a recurring
// token (POST /purchases/{id}/charge/ and automatic subscription charges), bank execution of
// ONEDAY/TWODAY collections, and what follows a payment: receipt, token, subscriber launch.

import { DAY_MS } from '../domain/calendar.ts';
import { unixSeconds, type Context } from '../domain/context.ts';
import { ALL, errors, fieldError } from '../domain/errors.ts';
import { PAYMENT_METHODS } from '../domain/payment-methods.ts';
import { assertPayable, EXECUTION_DAYS, serviceTypeFits, withStatus } from '../domain/purchases.ts';
import type { BillingTemplateClient, Input, Purchase, RecurringToken } from '../domain/types.ts';
import type { Sandbox, TokenOutcome } from '../store/store.ts';
import { launchOnFirstPayment } from './launch.ts';
import { schedule } from './queue.ts';
import { savePurchase, sendEmail } from './records.ts';
import { saveToken } from './tokens.ts';

/** Counts of what an advance or a request processed, reported by POST /sim/v1/clock/advance. */
export interface Processed {
  billings: number;
  first_deductions: number;
  charges: number;
  executions: number;
  overdue: number;
  webhook_deliveries: number;
}

export const noneProcessed = (): Processed => ({ billings: 0, first_deductions: 0, charges: 0, executions: 0, overdue: 0, webhook_deliveries: 0 });

/** Money received: paid, with the payment, a receipt when asked, and the pending subscriber it launches. */
export function markPaid(sandbox: Sandbox, purchase: Purchase, method: string, ctx: Context, changes: Partial<Purchase> = {}): Purchase {
  const paid = savePurchase(
    sandbox,
    withStatus(purchase, 'paid', ctx, {
      ...changes,
      payment: {
        amount: purchase.purchase.total,
        currency: purchase.purchase.currency,
        payment_method: method,
        paid_on: unixSeconds(ctx.clock.now()),
      },
    }),
    'purchase.paid',
    ctx,
  );
  if (paid.send_receipt) sendEmail(sandbox, 'receipt', paid, ctx);
  launchOnFirstPayment(sandbox, paid, ctx);
  return paid;
}

/**
 * A successful collection. DESIGN.md §4.8: with a service type the bank takes 1 or 2 days, so the
 * purchase waits in `pending_execute` and an execution job makes it `paid` when that time has passed.
 */
function collect(sandbox: Sandbox, purchase: Purchase, method: string, tokenId: string | null, ctx: Context): Purchase {
  const changes = { recurring_token: tokenId };
  if (purchase.skip_capture) return savePurchase(sandbox, withStatus(purchase, 'hold', ctx, changes), 'purchase.hold', ctx);
  if (!purchase.service_type) return markPaid(sandbox, purchase, method, ctx, changes);
  const at = ctx.clock.now() + EXECUTION_DAYS[purchase.service_type] * DAY_MS;
  schedule(sandbox, { at, kind: 'execution', id: purchase.id, method });
  return savePurchase(sandbox, withStatus(purchase, 'pending_execute', ctx, changes), 'purchase.pending_execute', ctx);
}

/** The execution job: the bank has executed the collection. */
export function execute(sandbox: Sandbox, purchaseId: string, method: string, ctx: Context): boolean {
  const purchase = sandbox.purchases.get(purchaseId);
  if (purchase?.status !== 'pending_execute') return false;
  markPaid(sandbox, purchase, method, ctx);
  return true;
}

function resolveMethod(purchase: Purchase, requested: unknown): string {
  const allowed = purchase.payment_method_whitelist ?? PAYMENT_METHODS.map((method) => method.name);
  const method = (requested as string | undefined) ?? allowed[0]!;
  if (!allowed.includes(method)) throw fieldError('method', errors.invalidChoice(method, allowed));
  return method;
}

/** POST /sim/v1/purchases/{id}/pay: what the checkout page does when the client pays. */
export function payAtCheckout(sandbox: Sandbox, purchase: Purchase, input: Input, ctx: Context): Purchase {
  assertPayable(purchase);
  if (purchase.status === 'overdue' && purchase.purchase.due_strict) {
    throw fieldError(ALL, errors.invalidState('The purchase is overdue and due_strict: the checkout page refuses payment.'));
  }
  const method = resolveMethod(purchase, input.method);
  const recurring = PAYMENT_METHODS.find((m) => m.name === method)?.recurring ?? false;
  if (input.save_token === true && !recurring) {
    throw fieldError('save_token', errors.invalid(`${method} cannot save a recurring token.`));
  }
  if (input.outcome === 'failure') {
    return savePurchase(sandbox, withStatus(purchase, 'error', ctx), 'purchase.payment_failure', ctx);
  }
  // force_recurring saves the credentials "when the payment method supports it, without giving the customer a choice".
  let payable = purchase;
  if (recurring && (input.save_token === true || purchase.force_recurring)) {
    saveToken(sandbox, purchase, method, (input.token_outcome as TokenOutcome | undefined) ?? 'success', ctx);
    payable = { ...purchase, is_recurring_token: true };
  }
  return collect(sandbox, payable, method, null, ctx);
}

/** The checks of POST /purchases/{id}/charge/: the token must exist, be the client's, and fit the purchase. */
export function usableToken(sandbox: Sandbox, purchase: Purchase, tokenId: string, nowMs: number): RecurringToken {
  const token = sandbox.tokens.get(tokenId);
  if (!token || token.client_id !== purchase.client_id) {
    throw fieldError('recurring_token', errors.doesNotExist('Recurring token of this purchase\'s client', tokenId));
  }
  if (token.service_type !== purchase.service_type) {
    // Spec: "A recurring token can only charge a Purchase of the same service type. A ONEDAY Purchase needs a ONEDAY token."
    throw fieldError('recurring_token', errors.invalid(`The token's service type is ${token.service_type ?? 'none'}, the purchase's ${purchase.service_type ?? 'none'}.`));
  }
  if (!serviceTypeFits(token.service_type, purchase.due, nowMs)) {
    throw fieldError('recurring_token', errors.invalid(`A ${token.service_type} token needs ${EXECUTION_DAYS[token.service_type!]} day(s) before the purchase is due.`));
  }
  return token;
}

/** POST /purchases/{id}/charge/: a declined charge leaves the purchase in `error`. */
export function chargeWithToken(sandbox: Sandbox, purchase: Purchase, tokenId: string, ctx: Context): Purchase {
  assertPayable(purchase);
  const token = usableToken(sandbox, purchase, tokenId, ctx.clock.now());
  if (sandbox.tokenOutcomes.get(token.id) === 'failure') {
    return savePurchase(sandbox, withStatus(purchase, 'error', ctx), 'purchase.payment_failure', ctx);
  }
  return collect(sandbox, purchase, token.payment_method, token.id, ctx);
}

/**
 * DESIGN.md §4.4: a generated purchase is charged at once with the client's newest usable token;
 * a decline leaves it `sent` with an invoice when the subscriber asks for one; with no token the
 * invoice is e-mailed and the purchase waits for payment.
 */
export function chargeAutomatically(
  sandbox: Sandbox,
  purchase: Purchase,
  subscriber: BillingTemplateClient,
  token: RecurringToken | undefined,
  ctx: Context,
  processed: Processed,
): Purchase {
  if (!token || !serviceTypeFits(token.service_type, purchase.due, ctx.clock.now())) {
    const sent = savePurchase(sandbox, withStatus(purchase, 'sent', ctx), 'purchase.sent', ctx);
    sendEmail(sandbox, 'invoice', sent, ctx);
    return sent;
  }
  processed.charges += 1;
  if (sandbox.tokenOutcomes.get(token.id) === 'failure') {
    const failed = savePurchase(sandbox, withStatus(purchase, 'sent', ctx), 'purchase.subscription_charge_failure', ctx);
    if (subscriber.send_invoice_on_charge_failure) sendEmail(sandbox, 'invoice', failed, ctx);
    return failed;
  }
  return collect(sandbox, purchase, token.payment_method, token.id, ctx);
}

export function assertCancellable(purchase: Purchase): void {
  if (purchase.status === 'hold') return;
  assertPayable(purchase);
}
