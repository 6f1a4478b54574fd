// Webhook registrations (DESIGN.md §4.14, §9; the spec shows no events or webhooks): a callback URL
// and the event types it receives, or `all_events`. Create and PUT take the whole registration; the
// schema (openapi.yaml WebhookCreate) has limited `events` to the platform's names (events.ts), and
// the platform's "either this or all_events" is checked here: as an if/else in the schema it let
// ajv's unevaluatedProperties pass every Object.prototype name as a defined field. `public_key` is the server's, like `id`: sent
// back unchanged it passes, any other value is rejected with `read_only`.

import { unixSeconds, type Context } from './context.ts';
import { ErrorCollector, errors } from './errors.ts';
import { mergeWritable, rejectChanges, SERVER_FIELDS } from './fields.ts';
import type { Input, Webhook } from './types.ts';

const WRITABLE = ['title', 'callback', 'all_events', 'events'] as const;
type Writable = Pick<Webhook, (typeof WRITABLE)[number]>;

const DEFAULTS: Writable = { title: '', callback: '', all_events: false, events: [] };

const READ_ONLY = [...SERVER_FIELDS, 'public_key'] as const;

/** The webhook a create or PUT makes; `publicKey` is the public half of its key pair. */
export function writeWebhook(mode: 'create' | 'put', stored: Webhook | undefined, input: Input, ctx: Context, publicKey: string): Webhook {
  const errs = new ErrorCollector();
  // On create nothing is stored yet: any value of a read-only field is one the client made up.
  rejectChanges(errs, input, stored ?? {}, READ_ONLY, 'set by the server');
  if (input.all_events !== true) {
    if (!('events' in input)) errs.add('events', errors.required());
    else if ((input.events as unknown[]).length === 0) errs.add('events', errors.minItems(1));
  }
  errs.throwIfAny();
  const now = unixSeconds(ctx.clock.now());
  return {
    id: stored?.id ?? ctx.ids.uuid(),
    type: 'webhook',
    created_on: stored?.created_on ?? now,
    updated_on: now,
    ...mergeWritable<Writable>(mode, DEFAULTS, stored, input, WRITABLE),
    public_key: publicKey,
  };
}

/** Whether the webhook receives events of this (platform) type. */
export const subscribes = (webhook: Webhook, eventType: string): boolean => webhook.all_events || webhook.events.includes(eventType);
