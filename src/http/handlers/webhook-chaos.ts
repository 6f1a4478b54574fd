// /sim/v1/webhook_chaos: the sandbox's delivery chaos (engine/delivery-chaos.ts), read, replaced and
// turned off. Unlike a fault, it is part of the sandbox: saved with it, in snapshots and data files.

import { setWebhookChaos, webhookChaosView, type WebhookChaosView } from '../../engine/delivery-chaos.ts';
import { noContent, ok, type SandboxHandler } from '../handler.ts';

export const webhookChaosHandlers: Record<string, SandboxHandler> = {
  getWebhookChaos: ({ sandbox }) => ok(webhookChaosView(sandbox)),

  replaceWebhookChaos: ({ sandbox, body, ctx }) => ok(setWebhookChaos(sandbox, body as Partial<WebhookChaosView>, ctx.clock.now())),

  deleteWebhookChaos: ({ sandbox }) => {
    sandbox.webhookChaos = null;
    return noContent();
  },
};
