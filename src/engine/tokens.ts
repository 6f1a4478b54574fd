// Recurring tokens, with an index by client so that a billing finds the client's newest usable
// token without scanning every token of the sandbox. All token changes go through here.

import { cardDescription, paidCard } from '../domain/cards.ts';
import { unixSeconds, type Context } from '../domain/context.ts';
import { withAttempt } from '../domain/purchases.ts';
import { attempt } from '../domain/shared-parts.ts';
import type { CardDetails, Purchase, RecurringToken, ServiceType } from '../domain/types.ts';
import type { Sandbox, TokenOutcome } from '../store/store.ts';
import { recordEvent } from './records.ts';
import { beginStep } from './steps.ts';

const byClient = new WeakMap<Map<string, RecurringToken>, Map<string, RecurringToken[]>>();

/**
 * Tokens per client, oldest first; derived from `sandbox.tokens`, so never persisted. It holds the
 * records themselves, which are never changed, only added and deleted (here), so a billing finds its
 * token without a second lookup by id.
 */
function index(sandbox: Sandbox): Map<string, RecurringToken[]> {
  let found = byClient.get(sandbox.tokens);
  if (!found) {
    found = new Map();
    for (const token of sandbox.tokens.values()) found.set(token.client_id, [...(found.get(token.client_id) ?? []), token]);
    byClient.set(sandbox.tokens, found);
  }
  return found;
}

/** The description of a token of a method that is not a card: its masked account. A card's is its masked number. */
const MASKS: Record<string, string> = { eft: 'Acc •••• 6789' };

/**
 * The token a successful payment saves: its id is the purchase's (DESIGN.md §3), its service type
 * the purchase's, its description the masked `card` ("•••• 1111") when a card paid.
 */
export function saveToken(sandbox: Sandbox, purchase: Purchase, method: string, outcomes: TokenOutcome[], ctx: Context, card: CardDetails | null = null): RecurringToken {
  const now = unixSeconds(ctx.clock.now());
  const token: RecurringToken = {
    id: purchase.id,
    type: 'recurring_token',
    created_on: now,
    updated_on: now,
    client_id: purchase.client_id,
    payment_method: method,
    description: card ? cardDescription(card) : (MASKS[method] ?? '••••'),
    service_type: purchase.service_type,
  };
  // The index first: built lazily from `sandbox.tokens`, it must not see the new token twice.
  const tokens = index(sandbox);
  tokens.set(token.client_id, [...(tokens.get(token.client_id) ?? []), token]);
  sandbox.tokens.set(token.id, token);
  if (!acceptsAll(outcomes)) sandbox.tokenOutcomes.set(token.id, outcomes);
  return token;
}

/**
 * The card a token charges: the one that paid the purchase that saved it (whose id is the token's),
 * known after the token is deleted too. Undefined for a token of another method, or one saved
 * before card details were recorded.
 */
export function savedCard(sandbox: Sandbox, tokenId: string): CardDetails | undefined {
  const saving = sandbox.purchases.get(tokenId);
  return saving && paidCard(saving.transaction_data);
}

/** ["success"]: every charge accepted, what a token without an entry in `tokenOutcomes` does. */
const acceptsAll = (outcomes: readonly TokenOutcome[]): boolean => outcomes.length === 1 && outcomes[0] === 'success';

/**
 * How the next charge with the token goes (`token_outcomes` of the payment that saved it): the
 * first outcome of its sequence, which this charge uses up; the last one stays for every charge
 * after it. So ["failure", "success"] declines one charge and accepts the rest. A token that
 * accepts every charge has no entry, so that the billings of thousands of such tokens look up an
 * empty Map: the lookup in one of 10,000 entries cost 2.5 % of a ten-year advance.
 */
export function nextTokenOutcome(sandbox: Sandbox, tokenId: string): TokenOutcome {
  const outcomes = sandbox.tokenOutcomes.get(tokenId);
  if (outcomes === undefined) return 'success';
  if (outcomes.length > 1) {
    const rest = outcomes.slice(1);
    if (acceptsAll(rest)) sandbox.tokenOutcomes.delete(tokenId);
    else sandbox.tokenOutcomes.set(tokenId, rest);
  }
  return outcomes[0] ?? 'success';
}

/**
 * Deletes a token with the spec's three effects: it leaves the client's list (so checkout no longer
 * offers it), it can no longer charge, and the purchase that saved it has is_recurring_token false.
 * At once: the client deleted with its tokens. A deletion asked for (`requestTokenDeletion`) passes
 * through the platform's pending step first.
 */
export function deleteToken(sandbox: Sandbox, token: RecurringToken, ctx: Context): Purchase | undefined {
  withdrawToken(sandbox, token);
  return recordDeletion(sandbox, token.id, ctx);
}

/** The token leaves the client's list and can no longer charge. */
function withdrawToken(sandbox: Sandbox, token: RecurringToken): void {
  sandbox.tokens.delete(token.id);
  sandbox.tokenOutcomes.delete(token.id);
  const tokens = index(sandbox);
  tokens.set(token.client_id, (tokens.get(token.client_id) ?? []).filter((kept) => kept.id !== token.id));
}

/** The deletion on the purchase that saved the token: its attempt, is_recurring_token false, `purchase.recurring_token_deleted`. */
export function recordDeletion(sandbox: Sandbox, tokenId: string, ctx: Context): Purchase | undefined {
  const saving = sandbox.purchases.get(tokenId);
  if (!saving) return undefined;
  const changes = withAttempt(saving, attempt('delete_recurring_token', saving.transaction_data.payment_method));
  const updated: Purchase = { ...saving, ...changes, is_recurring_token: false, updated_on: unixSeconds(ctx.clock.now()) };
  sandbox.purchases.set(updated.id, updated);
  recordEvent(sandbox, 'purchase.recurring_token_deleted', updated, ctx);
  return updated;
}

/**
 * POST /purchases/{id}/delete_recurring_token/ and DELETE of a client's token: the token can no
 * longer charge at once; `purchase.pending_recurring_token_delete` (the purchase's status unchanged,
 * as on the platform), then, when the step ends (engine/steps.ts), the deletion's attempt and
 * `purchase.recurring_token_deleted`. Returns the saving purchase as it is after the request.
 */
export function requestTokenDeletion(sandbox: Sandbox, token: RecurringToken, ctx: Context): Purchase | undefined {
  withdrawToken(sandbox, token);
  const saving = sandbox.purchases.get(token.id);
  if (saving) recordEvent(sandbox, 'purchase.pending_recurring_token_delete', saving, ctx);
  beginStep(sandbox, { id: token.id, method: 'recurring_token_delete' }, ctx, () => void recordDeletion(sandbox, token.id, ctx));
  return sandbox.purchases.get(token.id);
}

/** DESIGN.md §4.9: "Automatic subscription charges use the client's newest usable token." */
export function newestUsableToken(sandbox: Sandbox, clientId: string, serviceType: ServiceType | null): RecurringToken | undefined {
  const tokens = index(sandbox).get(clientId);
  if (!tokens) return undefined;
  for (let i = tokens.length - 1; i >= 0; i -= 1) {
    if (tokens[i]!.service_type === serviceType) return tokens[i];
  }
  return undefined;
}

export function clientTokens(sandbox: Sandbox, clientId: string): RecurringToken[] {
  return [...(index(sandbox).get(clientId) ?? [])];
}
