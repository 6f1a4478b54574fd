// /api/v1/clients/{id}/recurring_tokens/: a client's saved credentials; deleting one has the
// spec's three effects (engine/tokens.ts).

import { notFound } from '../../domain/errors.ts';
import type { Sandbox } from '../../store/store.ts';
import { clientTokens, requestTokenDeletion } from '../../engine/tokens.ts';
import { find, noContent, ok, type SandboxHandler } from '../handler.ts';
import { paginate } from '../pagination.ts';

function tokenOf(sandbox: Sandbox, clientId: string | undefined, tokenId: string | undefined) {
  const client = find(sandbox.clients, clientId);
  const token = find(sandbox.tokens, tokenId);
  if (token.client_id !== client.id) throw notFound();
  return token;
}

export const recurringTokenHandlers: Record<string, SandboxHandler> = {
  listClientRecurringTokens: ({ sandbox, params, query, url }) =>
    ok(paginate(clientTokens(sandbox, find(sandbox.clients, params.id).id), query, url)),

  getClientRecurringToken: ({ sandbox, params }) => ok(tokenOf(sandbox, params.id, params.token_id)),

  deleteClientRecurringToken: ({ sandbox, params, ctx }) => {
    requestTokenDeletion(sandbox, tokenOf(sandbox, params.id, params.token_id), ctx);
    return noContent();
  },
};
