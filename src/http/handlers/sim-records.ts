// /sim/v1: what a sandbox recorded, for a QA engineer to check. Events and e-mails filtered by
// `type`, `object_id` and `since` (an e-mail with its text and links); the delivery log (webhooks and success_callbacks), filtered by
// `status`, `kind`, `webhook_id` and `event_type`, with a resend. Lists are newest first; `next` and `previous` keep the filters.

import { emailBody } from '../../domain/emails.ts';
import { errors, fieldError } from '../../domain/errors.ts';
import type { OutboxEmail, SimEvent } from '../../domain/types.ts';
import { deliveryMatches } from '../../engine/delivery-log.ts';
import { cancelPath, hasCancelLink } from '../../engine/subscription-cancel.ts';
import { resendDelivery } from '../../engine/webhooks.ts';
import { checkoutPath } from '../../present/purchases.ts';
import type { Delivery, DeliveryKind, DeliveryStatus, Sandbox } from '../../store/store.ts';
import { created, ok, type SandboxHandler } from '../handler.ts';
import { paginate } from '../pagination.ts';
import { presentEvent } from '../present.ts';

/** The filters of GET /sim/v1/events and /sim/v1/outbox, once checked: `since` in Unix seconds. */
interface RecordFilters {
  type?: string;
  objectId?: string;
  since?: number;
}

/**
 * The schema has checked the values; what it cannot: an RFC 3339 instant that Date cannot hold (a
 * leap second, `…T23:59:60Z`) is refused, naming the parameter, rather than matching nothing.
 */
function recordFilters(query: Record<string, unknown>): RecordFilters {
  const since = query.since === undefined ? undefined : Date.parse(query.since as string);
  if (since !== undefined && Number.isNaN(since)) throw fieldError('since', errors.invalid('Enter an ISO-8601 instant a JavaScript Date can hold (no leap second).'));
  // created_on and sent_on are whole seconds: one at or after `since` is the next whole second or later.
  return { type: query.type as string | undefined, objectId: query.object_id as string | undefined, since: since === undefined ? undefined : Math.ceil(since / 1000) };
}

/** The test a record must pass, for paginate; none when nothing filters the list. */
function matcher<T>(filters: RecordFilters, matches: (filters: RecordFilters) => (record: T) => boolean): ((record: T) => boolean) | undefined {
  return Object.values(filters).every((value) => value === undefined) ? undefined : matches(filters);
}

const eventMatches = (filters: RecordFilters) => (event: SimEvent) =>
  (filters.type === undefined || event.event_type === filters.type) &&
  (filters.objectId === undefined || event.object_id === filters.objectId) &&
  (filters.since === undefined || event.created_on >= filters.since);

const emailMatches = (filters: RecordFilters) => (email: OutboxEmail) =>
  (filters.type === undefined || email.kind === filters.type) &&
  (filters.objectId === undefined || email.purchase_id === filters.objectId) &&
  (filters.since === undefined || email.sent_on >= filters.since);

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * An e-mail as GET /sim/v1/outbox shows it (`OutboxEmail` in openapi.yaml): as stored, with its
 * `cancel_url` (an e-mail about a subscription's purchase; null otherwise) and its `body`, made now
 * on the origin the caller used, as a purchase's checkout_url is.
 */
function presentEmail(email: OutboxEmail, sandbox: Sandbox, origin: string) {
  const purchase = sandbox.purchases.get(email.purchase_id);
  const cancel = purchase && hasCancelLink(sandbox, purchase) ? origin + cancelPath(sandbox, purchase.id) : null;
  const body = emailBody(email.kind, email.subject, { checkout: origin + checkoutPath(sandbox, email.purchase_id), cancel });
  return { ...email, cancel_url: cancel, body };
}

/** A delivery as GET /sim/v1/webhook_deliveries shows it (`WebhookDelivery` in openapi.yaml). */
function presentDelivery(delivery: Delivery) {
  return {
    id: delivery.id,
    kind: delivery.kind ?? 'webhook',
    webhook_id: delivery.webhookId,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    object_id: delivery.objectId,
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.tries.map((tried) => ({ at: new Date(tried.at).toISOString(), status: tried.status, error: tried.error, duration_ms: tried.durationMs })),
    next_attempt_at: isoOrNull(delivery.nextAttemptAt),
    created_on: delivery.createdOn,
    chaos: delivery.chaos ?? [],
    duplicate_of: delivery.duplicateOf ?? null,
  };
}

export const simRecordHandlers: Record<string, SandboxHandler> = {
  listEvents: ({ sandbox, query, url, origin }) => {
    const page = paginate(sandbox.events, query, url, matcher(recordFilters(query), eventMatches));
    return ok({ ...page, results: page.results.map((event) => presentEvent(event, sandbox, origin)) });
  },

  listOutbox: ({ sandbox, query, url, origin }) => {
    const page = paginate(sandbox.outbox, query, url, matcher(recordFilters(query), emailMatches));
    return ok({ ...page, results: page.results.map((email) => presentEmail(email, sandbox, origin)) });
  },

  listWebhookDeliveries: ({ sandbox, query, url }) => {
    const filters = {
      status: query.status as DeliveryStatus | undefined,
      kind: query.kind as DeliveryKind | undefined,
      webhookId: query.webhook_id as string | undefined,
      eventType: query.event_type as string | undefined,
    };
    const page = paginate(sandbox.deliveries.inOrder(), query, url, deliveryMatches(filters));
    return ok({ ...page, results: page.results.map(presentDelivery) });
  },

  resendWebhookDelivery: ({ sandbox, params, ctx }) => created(presentDelivery(resendDelivery(sandbox, params.id!, ctx))),
};
