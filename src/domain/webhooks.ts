// Webhook registrations: a callback URL and the event types it receives (DESIGN.md §4.14; the
// spec shows no events or webhooks). Create and PUT take the whole registration.

import { ErrorCollector } from './errors.ts';
import { mergeWritable, rejectChanges, SERVER_FIELDS, type WriteMode } from './fields.ts';
import { unixSeconds, type Context } from './context.ts';
import type { Input, Webhook } from './types.ts';

const WRITABLE = ['title', 'callback', 'events'] as const;
type Registration = Pick<Webhook, (typeof WRITABLE)[number]>;
const DEFAULTS: Registration = { title: '', callback: '', events: [] };

export function writeWebhook(mode: WriteMode, stored: Webhook | undefined, input: Input, ctx: Context): Webhook {
  const errs = new ErrorCollector();
  rejectChanges(errs, input, stored ?? {}, SERVER_FIELDS, 'set by the server');
  errs.throwIfAny();
  const now = unixSeconds(ctx.clock.now());
  return {
    id: stored?.id ?? ctx.ids.uuid(),
    type: 'webhook',
    created_on: stored?.created_on ?? now,
    updated_on: now,
    ...mergeWritable(mode, DEFAULTS, stored, input, WRITABLE),
  };
}
