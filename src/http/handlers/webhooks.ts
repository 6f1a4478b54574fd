// /api/v1/webhooks/ and /api/v1/public_key/: registrations and the key that signs deliveries.

import { writeWebhook } from '../../domain/webhooks.ts';
import { signingKey } from '../../engine/webhooks.ts';
import { created, find, noContent, ok, type SandboxHandler } from '../handler.ts';
import { paginate } from '../pagination.ts';

export const webhookHandlers: Record<string, SandboxHandler> = {
  createWebhook: ({ sandbox, body, ctx }) => {
    const webhook = writeWebhook('create', undefined, body, ctx);
    sandbox.webhooks.set(webhook.id, webhook);
    // The key exists before the first delivery, so a receiver can fetch it right away.
    signingKey(sandbox);
    return created(webhook);
  },

  listWebhooks: ({ sandbox, query, url }) => ok(paginate(sandbox.webhooks.values(), query, url)),

  getWebhook: ({ sandbox, params }) => ok(find(sandbox.webhooks, params.id)),

  updateWebhook: ({ sandbox, params, body, ctx }) => {
    const webhook = writeWebhook('put', find(sandbox.webhooks, params.id), body, ctx);
    sandbox.webhooks.set(webhook.id, webhook);
    return ok(webhook);
  },

  /** Deliveries still queued for it are dropped when their turn comes. */
  deleteWebhook: ({ sandbox, params }) => {
    sandbox.webhooks.delete(find(sandbox.webhooks, params.id).id);
    return noContent();
  },

  getPublicKey: ({ sandbox }) => ok({ public_key: signingKey(sandbox).publicKey }),
};
