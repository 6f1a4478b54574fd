// Webhook registrations: a callback URL and the event types it receives (DESIGN.md §4.14; the
// spec shows no events or webhooks). Create and PUT take the whole registration.

import { resourceWriter } from './fields.ts';
import type { Webhook } from './types.ts';

const WRITABLE = ['title', 'callback', 'events'] as const;

export const writeWebhook = resourceWriter<Webhook, (typeof WRITABLE)[number]>('webhook', WRITABLE, { title: '', callback: '', events: [] });
