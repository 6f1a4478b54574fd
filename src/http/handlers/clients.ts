// /api/v1/clients/: create, list, read, replace, patch, delete.

import { assertDeletable, writeClient } from '../../domain/clients.ts';
import { clientTokens, deleteToken } from '../../engine/tokens.ts';
import { created, find, noContent, ok, type SandboxHandler } from '../handler.ts';
import { paginate } from '../pagination.ts';

export const clientHandlers: Record<string, SandboxHandler> = {
  createClient: ({ sandbox, body, ctx }) => {
    const client = writeClient('create', undefined, body, ctx);
    sandbox.clients.set(client.id, client);
    return created(client);
  },

  listClients: ({ sandbox, query, url }) => {
    // `?q=EMAIL`: the WHMCS module's look-up (DESIGN.md §14), an exact match whatever the case.
    const email = typeof query.q === 'string' ? query.q.toLowerCase() : undefined;
    return ok(paginate(sandbox.clients.inOrder(), query, url, email === undefined ? undefined : (client) => client.email.toLowerCase() === email));
  },

  getClient: ({ sandbox, params }) => ok(find(sandbox.clients, params.id)),

  updateClient: ({ sandbox, params, body, ctx }) => {
    const client = writeClient('put', find(sandbox.clients, params.id), body, ctx);
    sandbox.clients.set(client.id, client);
    return ok(client);
  },

  patchClient: ({ sandbox, params, body, ctx }) => {
    const client = writeClient('patch', find(sandbox.clients, params.id), body, ctx);
    sandbox.clients.set(client.id, client);
    return ok(client);
  },

  deleteClient: ({ sandbox, params, ctx }) => {
    const client = find(sandbox.clients, params.id);
    assertDeletable(client, [...sandbox.subscribers.values()].filter((subscriber) => subscriber.client_id === client.id).length);
    // Its recurring tokens go with it, each with the effects of a token deletion.
    for (const token of clientTokens(sandbox, client.id)) deleteToken(sandbox, token, ctx);
    sandbox.clients.delete(client.id);
    return noContent();
  },
};
