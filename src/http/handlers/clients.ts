// /api/v1/clients/: create, list, read, replace, patch, delete.

import { writeClient } from '../../domain/clients.ts';
import { created, find, noContent, ok, type SandboxHandler } from '../handler.ts';
import { paginate } from '../pagination.ts';

export const clientHandlers: Record<string, SandboxHandler> = {
  createClient: ({ sandbox, body, ctx }) => {
    const client = writeClient('create', undefined, body, ctx);
    sandbox.clients.set(client.id, client);
    return created(client);
  },

  listClients: ({ sandbox, query, url }) => ok(paginate(sandbox.clients.values(), query, url)),

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

  deleteClient: ({ sandbox, params }) => {
    sandbox.clients.delete(find(sandbox.clients, params.id).id);
    return noContent();
  },
};
