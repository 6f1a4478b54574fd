// State lives in sandboxes, each one isolated merchant account. The Store interface is all the
// engine and HTTP layers see. A sandbox keeps its objects in Maps (insertion order = creation
// order, so "newest first" is a reverse walk); MemoryStore holds sandboxes and nothing else, and
// SqliteStore (sqlite.ts) also saves each turn's changes, which the Maps note (changes.ts).

import type {
  BillingTemplate,
  BillingTemplateClient,
  Brand,
  Client,
  CompanyStatement,
  OutboxEmail,
  Purchase,
  RecurringToken,
  SimEvent,
  Webhook,
} from '../domain/types.ts';
import type { DeclineCode } from '../domain/decline-codes.ts';
import type { Job } from '../domain/jobs.ts';
import type { ChaosMark, WebhookChaos } from '../domain/webhook-chaos.ts';
import type { Processing } from '../domain/processing.ts';
import type { SandboxClockState } from '../domain/sandbox-clock.ts';
import { ChangeSet, TrackedMap } from './changes.ts';

export interface SandboxOrigin {
  /** Whether the sandbox was seeded from fixtures/, so that a reset seeds it again. */
  fixtures: boolean;
  seed: number;
  /** The default sandbox: its ids, fixtures' included, are drawn from `seed` too. */
  seededIds: boolean;
  /**
   * Created with `seed` (POST /sim/v1/sandboxes): every object id is drawn from the sandbox's own
   * sequence (engine/ids.ts seededUuid), so the same requests give the same ids on every run and in
   * every sandbox of that seed. Absent in data of earlier versions: false.
   */
  ownIds?: boolean;
  /**
   * Created with `strict` (POST /sim/v1/sandboxes): an /api/v1 body field the operation does not
   * define, or a read-only one, is refused (400 `unknown_field` / `read_only`) rather than ignored
   * (http/lenient.ts). Written only when true; absent (data of earlier versions too): false.
   */
  strict?: boolean;
}

/** What the billing engine keeps of a subscriber beyond its public fields. */
export interface SubscriberSchedule {
  /** Launch date L (DESIGN.md §4.1); null while pending. */
  launch: string | null;
  /** Index k of the next billing date L + k·period to run. */
  next: number;
  /** Index of the first billing date that creates a purchase (trials before it). */
  firstCharged: number;
}

/** One attempt of a delivery, as GET /sim/v1/webhook_deliveries shows it. */
export interface DeliveryTry {
  /** When it started, ms on the sandbox clock. */
  at: number;
  /** The receiver's HTTP status; null when none came (an error, or the answer is not in yet). */
  status: number | null;
  /** Why no usable answer came (`timeout`, `connection refused`, …); null otherwise. */
  error: string | null;
  /** Wall-clock ms from the POST to its answer or failure; null while the POST is out. */
  durationMs: number | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * What a delivery goes to: a webhook (signed with its own key), or the `success_callback` of a paid
 * purchase (signed with the sandbox's key, the one GET /public_key/ answers).
 */
export type DeliveryKind = 'webhook' | 'success_callback';

/**
 * One event on its way to one webhook or success_callback; retried until a 2xx or the last attempt.
 * Done ones stay, as the delivery log, up to MAX_DELIVERIES_KEPT per sandbox (engine/delivery-log.ts).
 */
export interface Delivery {
  id: string;
  /** Absent for a webhook's delivery (all that data of earlier versions holds), so none needs upgrading. */
  kind?: DeliveryKind;
  /** The webhook it goes to; null for a success_callback. */
  webhookId: string | null;
  objectId: string;
  /**
   * The queue a webhook's delivery waits in (engine/webhooks.ts queueKey): its webhook's deliveries
   * of one purchase and the Payments related to it. Absent for a success_callback's, and for one of
   * an earlier version, whose queue is its object's (`objectId`).
   */
  queue?: string;
  /** The signed body: the object's JSON as the API returns it, plus `event_type`. */
  body: string;
  /** Attempts started (the retry schedule counts them). */
  attempts: number;
  /** The event delivered; null for a delivery saved before deliveries named it. */
  eventId: string | null;
  eventType: string;
  /** Where the last attempt went (the webhook's callback then, or the purchase's success_callback); where the first will go while none has. */
  url: string;
  status: DeliveryStatus;
  tries: DeliveryTry[];
  /** When the next attempt is due (ms, sandbox clock); null when done or waiting behind the object's earlier delivery. */
  nextAttemptAt: number | null;
  /** Unix seconds on the sandbox clock. */
  createdOn: number;
  /** Why delivery chaos disturbed it (domain/webhook-chaos.ts); absent when it did not. */
  chaos?: ChaosMark[];
  /** For a duplicate: the delivery it copies. */
  duplicateOf?: string;
  /** Reordered and not yet passed: the object's next delivery goes before it (engine/delivery-chaos.ts). */
  held?: boolean;
  /** Delayed or held back: its first attempt is due no earlier than this (ms, sandbox clock). */
  notBefore?: number;
}

/** An RSA key pair (PEM): the sandbox's (GET /public_key/) or one webhook's, which signs its deliveries. */
export interface SigningKey {
  publicKey: string;
  privateKey: string;
}

/**
 * How a charge with a saved token goes (`token_outcomes` of the payment that saved it): accepted, or
 * declined with a decline code; `failure` is a decline with the default code (insufficient_funds).
 * Kept as sent, so a sequence reads back as it was given.
 */
export type TokenOutcome = 'success' | 'failure' | DeclineCode;

export interface Sandbox {
  id: string;
  companyId: string;
  brands: Brand[];
  origin: SandboxOrigin;
  clock: SandboxClockState;
  clients: TrackedMap<Client>;
  templates: TrackedMap<BillingTemplate>;
  subscribers: TrackedMap<BillingTemplateClient>;
  schedules: TrackedMap<SubscriberSchedule>;
  purchases: TrackedMap<Purchase>;
  tokens: TrackedMap<RecurringToken>;
  /** Token id → the outcomes of its next charges, in order; the last one repeats (engine/tokens.ts). */
  tokenOutcomes: TrackedMap<TokenOutcome[]>;
  /** Purchase id → the pending subscriber that its payment launches. */
  firstPurchases: TrackedMap<string>;
  /** The newest events, at most the server's `--max-events`. */
  events: SimEvent[];
  /** How many older events were dropped: event n of the sandbox's history is `events[n - eventsDropped]`. */
  eventsDropped: number;
  /** How many older e-mails were dropped, as `eventsDropped` (limits.ts trimLogs). */
  outboxDropped: number;
  outbox: OutboxEmail[];
  webhooks: TrackedMap<Webhook>;
  /**
   * Webhook id → the key pair that signs its deliveries (its `public_key`). Data of earlier
   * versions has none: their webhooks are signed with `signingKey`.
   */
  webhookKeys: TrackedMap<SigningKey>;
  deliveries: TrackedMap<Delivery>;
  /** Statement requests (`POST /company_statements/`). Data of earlier versions has none. */
  statements: TrackedMap<CompanyStatement>;
  /**
   * Deliveries waiting per queue (a webhook and a purchase: engine/webhooks.ts queueKey; an object's
   * id in data of earlier versions), oldest first: a purchase's events arrive in order.
   */
  deliveryQueues: TrackedMap<string[]>;
  /** The sandbox's key pair (GET /public_key/), made when first needed. */
  signingKey: SigningKey | null;
  /** The origin clients last called, for absolute URLs in webhook bodies delivered later. */
  publicOrigin: string;
  /** Scheduled work as a binary heap ordered by (at, seq): see engine/queue.ts. */
  jobs: Job[];
  jobSeq: number;
  /** How many ids the sandbox's own sequence has given (`origin.ownIds`); 0 otherwise. */
  idsDrawn: number;
  /** Delivery chaos (PUT /sim/v1/webhook_chaos) and its position; null when deliveries are left alone. */
  webhookChaos: WebhookChaos | null;
  /** How long pending steps last and when payments settle (PUT /sim/v1/processing); null: DEFAULT_PROCESSING. */
  processing: Processing | null;
  /** What changed since the store last saved the sandbox; not part of its state. */
  changes: ChangeSet;
  /** Checkpoints taken of it, oldest first (store/checkpoints.ts): not part of its state, so no snapshot holds them. */
  checkpoints: Checkpoint[];
}

/**
 * The whole sandbox at one instant, to go back to (POST /sim/v1/checkpoints/{id}/restore) or copy
 * (POST /sim/v1/sandboxes {"from_checkpoint"}).
 */
export interface Checkpoint {
  id: string;
  name: string | null;
  /** When it was taken: Unix seconds of wall time (the sandbox's own instant is `clock.now`). */
  created_on: number;
  /** The sandbox's clock when it was taken, as the API shows it. */
  clock: { now: string; frozen: boolean };
  /** The sandbox as it was: its store form, with copies of what later turns change in place (snapshot.ts `held`). */
  state: SandboxSnapshot;
}

/**
 * The sandbox's keyed collections, in the order a snapshot lists them. A snapshot or data file of
 * an earlier version may lack a later one (`webhookKeys`, `statements`): it is read as empty.
 */
export const MAPS = [
  'clients',
  'templates',
  'subscribers',
  'schedules',
  'purchases',
  'tokens',
  'tokenOutcomes',
  'firstPurchases',
  'webhooks',
  'webhookKeys',
  'deliveries',
  'deliveryQueues',
  'statements',
] as const;
export type MapField = (typeof MAPS)[number];

export interface Store {
  /** Whether commits write to a file: each dropped event and e-mail is then a row to delete. */
  readonly durable: boolean;
  get(id: string): Sandbox | undefined;
  /**
   * Adds a sandbox, or replaces the one with the same id (a reset). A durable store has saved it
   * when this returns, or throws a 503 `storage_unavailable` and keeps what it had; the rows of the
   * sandbox it replaced are removed in slices after, and the promise returned settles once they are.
   */
  put(sandbox: Sandbox): void | Promise<void>;
  /**
   * Adds a new sandbox (POST /sim/v1/sandboxes): as `put`, but a durable store writes it in slices
   * that let other sandboxes' requests run, and has saved it when this settles.
   */
  add(sandbox: Sandbox): void | Promise<void>;
  all(): Iterable<Sandbox>;
  /**
   * Saves what the sandbox's turn changed, at the end of every turn and before its answer. A
   * durable store that cannot write puts back the sandbox as last saved and throws a 503
   * `storage_unavailable`, so the failed turn's changes are nowhere to be seen.
   */
  commit(sandbox: Sandbox): void;
  /**
   * Removes a sandbox and everything in it (DELETE /sim/v1/sandbox). A durable store has removed
   * it from the file when this returns, or throws a 503 `storage_unavailable` and keeps it; its
   * rows go in slices after, and the promise returned settles once they are gone.
   */
  delete(id: string): void | Promise<void>;
  /**
   * Saves a checkpoint just taken of the sandbox (and the sandbox as it is). A durable store has
   * written it when this settles, or rejects with a 503 `storage_unavailable` and the caller keeps
   * nothing of it. A durable store's work runs in slices that let other sandboxes' requests run.
   */
  saveCheckpoint(sandbox: Sandbox, checkpoint: Checkpoint): void | Promise<void>;
  /** Replaces a sandbox by `restored`, made from its checkpoint `checkpointId` (store/checkpoints.ts), as `put` would. */
  restore(restored: Sandbox, checkpointId: string): void | Promise<void>;
  /** Removes one checkpoint of the sandbox, as `delete` removes a sandbox. */
  deleteCheckpoint(sandboxId: string, checkpointId: string): void | Promise<void>;
  close(): Promise<void>;
}

type Collections = { [K in MapField]: Sandbox[K] };

function trackedCollections(changes: ChangeSet, entries?: Partial<Record<MapField, Iterable<readonly [string, unknown]>>>): Collections {
  const collections = {} as Record<MapField, TrackedMap<unknown>>;
  for (const field of MAPS) collections[field] = TrackedMap.of(field, changes, entries?.[field]);
  return collections as unknown as Collections;
}

export function emptySandbox(fields: Pick<Sandbox, 'id' | 'companyId' | 'brands' | 'origin' | 'clock'>): Sandbox {
  const changes = new ChangeSet();
  return {
    ...fields,
    ...trackedCollections(changes),
    events: [],
    eventsDropped: 0,
    outboxDropped: 0,
    outbox: [],
    signingKey: null,
    publicOrigin: 'http://127.0.0.1:4010',
    jobs: [],
    jobSeq: 0,
    idsDrawn: 0,
    webhookChaos: null,
    processing: null,
    changes,
    checkpoints: [],
  };
}

export class MemoryStore implements Store {
  readonly durable: boolean = false;
  private readonly sandboxes = new Map<string, Sandbox>();

  get(id: string): Sandbox | undefined {
    return this.sandboxes.get(id);
  }

  put(sandbox: Sandbox): void {
    this.sandboxes.set(sandbox.id, sandbox);
  }

  all(): Iterable<Sandbox> {
    return this.sandboxes.values();
  }

  commit(): void {}

  delete(id: string): void {
    this.sandboxes.delete(id);
  }

  add(sandbox: Sandbox): void {
    this.put(sandbox);
  }

  saveCheckpoint(): void {}

  restore(restored: Sandbox): void {
    this.put(restored);
  }

  deleteCheckpoint(): void {}

  async close(): Promise<void> {}
}

/** Collections that data of earlier versions may lack, read as empty (see MAPS). */
type LaterMap = 'webhookKeys' | 'statements';

/**
 * The JSON form of a sandbox: each Map becomes an array of [key, value] entries in insertion order.
 * Snapshots and data files of earlier versions may lack a collection added since (`LaterMap`).
 */
export type SandboxSnapshot = Omit<Sandbox, MapField | 'changes' | 'idsDrawn' | 'webhookChaos' | 'processing' | 'checkpoints'> & { idsDrawn?: number; webhookChaos?: WebhookChaos | null; processing?: Processing | null } & { [K in Exclude<MapField, LaterMap>]: [string, unknown][] } & {
  [K in LaterMap]?: [string, unknown][];
};

/** The scalar part of a sandbox: everything but its collections, events, e-mails, jobs and key. */
export type SandboxHeader = Pick<Sandbox, 'id' | 'companyId' | 'brands' | 'origin' | 'clock' | 'publicOrigin' | 'jobSeq' | 'eventsDropped' | 'outboxDropped' | 'idsDrawn' | 'webhookChaos' | 'processing'>;

export function sandboxHeader(sandbox: Sandbox | SandboxSnapshot): SandboxHeader {
  const { id, companyId, brands, origin, clock, publicOrigin, jobSeq } = sandbox;
  // Files and snapshots written before events (or e-mails) were capped have no count: none was dropped; nor
  // before sandboxes had their own ids: none was drawn; nor before delivery chaos or processing: none is set.
  return {
    id,
    companyId,
    brands,
    origin,
    clock,
    publicOrigin,
    jobSeq,
    eventsDropped: sandbox.eventsDropped ?? 0,
    outboxDropped: sandbox.outboxDropped ?? 0,
    idsDrawn: sandbox.idsDrawn ?? 0,
    webhookChaos: sandbox.webhookChaos ?? null,
    processing: sandbox.processing ?? null,
  };
}

/** The sandbox's JSON form; the collections of `except` are left out, for a caller that takes them its own way. */
export function toSnapshot(sandbox: Sandbox, except: readonly MapField[] = []): SandboxSnapshot {
  const snapshot = { ...sandboxHeader(sandbox), signingKey: sandbox.signingKey, events: sandbox.events, outbox: sandbox.outbox, jobs: sandbox.jobs } as Record<string, unknown>;
  for (const field of MAPS) if (!except.includes(field)) snapshot[field] = [...sandbox[field].entries()];
  return snapshot as SandboxSnapshot;
}

/** A sandbox from its JSON form (trusted: validate a snapshot from outside first). Tracking is off. */
export function fromSnapshot(snapshot: SandboxSnapshot): Sandbox {
  const changes = new ChangeSet();
  return {
    ...sandboxHeader(snapshot),
    ...trackedCollections(changes, snapshot as unknown as Record<MapField, [string, unknown][]>),
    signingKey: snapshot.signingKey ?? null,
    events: snapshot.events ?? [],
    outbox: snapshot.outbox ?? [],
    jobs: snapshot.jobs ?? [],
    changes,
    checkpoints: [],
  };
}
