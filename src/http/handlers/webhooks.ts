// /api/v1/webhooks/ and /api/v1/public_key/: registrations, each with its own signing key pair
// (made at create, dropped with the webhook), and the sandbox's key as a bare JSON string (§9).

import { writeWebhook } from '../../domain/webhooks.ts';
import { newKeyPair, sandboxKey } from '../../engine/webhooks.ts';
import { created, find, noContent, ok, type SandboxHandler } from '../handler.ts';
import { paginate } from '../pagination.ts';

export const webhookHandlers: Record<string, SandboxHandler> = {
  /** The key exists before the first delivery, so a receiver can take it from this answer. */
  createWebhook: async ({ sandbox, body, ctx }) => {
    const key = await newKeyPair();
    const webhook = writeWebhook('create', undefined, body, ctx, key.publicKey);
    sandbox.webhooks.set(webhook.id, webhook);
    sandbox.webhookKeys.set(webhook.id, key);
    return created(webhook);
  },

  listWebhooks: ({ sandbox, query, url }) => ok(paginate(sandbox.webhooks.inOrder(), query, url)),

  getWebhook: ({ sandbox, params }) => ok(find(sandbox.webhooks, params.id)),

  updateWebhook: ({ sandbox, params, body, ctx }) => {
    const stored = find(sandbox.webhooks, params.id);
    const webhook = writeWebhook('put', stored, body, ctx, stored.public_key);
    sandbox.webhooks.set(webhook.id, webhook);
    return ok(webhook);
  },

  /** Deliveries still queued for it are dropped when their turn comes; its key goes at once. */
  deleteWebhook: ({ sandbox, params }) => {
    const { id } = find(sandbox.webhooks, params.id);
    sandbox.webhooks.delete(id);
    sandbox.webhookKeys.delete(id);
    return noContent();
  },

  getPublicKey: async ({ sandbox }) => ok((await sandboxKey(sandbox)).publicKey),
};
