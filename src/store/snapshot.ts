// JSON snapshots of one sandbox (DESIGN.md §6): the document GET /sim/v1/snapshot answers, that
// POST /sim/v1/sandboxes {"snapshot"} and `billing-sim import` load, and `billing-sim export` writes.
// Its schema is `SandboxSnapshot` in openapi.yaml: {"billing_sim_snapshot": 1, "sandbox": …}, where
// `sandbox` is the store's own form (store.ts toSnapshot: each Map as [key, record] pairs in insertion
// order) with three changes that make a copy faithful wherever it is loaded:
// - the clock is written as the API shows it, {now, frozen}, at the instant of export: a running
//   clock's offset from wall time means nothing in another process, its current instant does;
// - a purchase has its checkout_url, absolute on the sandbox's last origin, as the API answers it
//   (the store keeps it empty: present/purchases.ts checkoutPath), in purchases and events' payloads;
// - jobs are listed in the order they fall due, not in the queue's heap order.
// An import gets a new sandbox id, so it never replaces a sandbox, and `seededIds` false, so a reset
// of the copy does not draw the default sandbox's ids again. Objects keep their ids, unless one of
// them is already taken in the store (the same snapshot imported twice): then every UUID of the copy
// is renamed, consistently, since a checkout link (`/checkout/{purchase_id}/`, no token) must lead
// to exactly one purchase. Sandboxes created with a seed share ids by design (their links name the
// sandbox: `/checkout/{sandbox_id}/{purchase_id}/`); a copy of one keeps its own sequence
// (`origin.ownIds`, `idsDrawn`), so the same requests give the copy the ids they gave the original.

import { LATEST_DATE_MS } from '../domain/clock-bounds.ts';
import type { ValidateFunction } from 'ajv';
import type { Clock, Ids } from '../domain/context.ts';
import { errors, type ErrorDetail } from '../domain/errors.ts';
import type { Purchase, PurchaseView, SimEvent } from '../domain/types.ts';
import { withCheckoutUrl, type CheckoutScope } from '../present/purchases.ts';
import { toFieldErrors } from '../contract/ajv-errors.ts';
import { compileComponent } from '../contract/schemas.ts';
import type { OpenAPIV3_1 } from 'openapi-types';
import { clockAt, clockView, sandboxNow, type SandboxClockState } from '../domain/sandbox-clock.ts';
import { findInconsistency } from './snapshot-checks.ts';
import { inSlices } from './slices.ts';
import { upgradeSnapshotDocument } from './upgrade.ts';
import { fromSnapshot, MAPS, toSnapshot, type MapField, type Sandbox, type SandboxOrigin, type SandboxSnapshot, type Store } from './store.ts';

/**
 * The value of `billing_sim_snapshot`: the format's version, changed with any change of the format.
 * 2 since the platform's purchase fields, decimal strings and webhook keys; a format 1 document is
 * upgraded when it is read (upgrade.ts).
 */
export const SNAPSHOT_FORMAT = 2;

export type SnapshotSandbox = Omit<SandboxSnapshot, 'clock'> & { clock: { now: string; frozen: boolean } };

export interface SnapshotDocument {
  billing_sim_snapshot: typeof SNAPSHOT_FORMAT;
  sandbox: SnapshotSandbox;
}

/** The first bad value of a snapshot: its dotted path in the document (`sandbox.purchases.3.1.status`) and why. */
export interface SnapshotProblem {
  path: string;
  detail: ErrorDetail;
}


export function exportSnapshot(sandbox: Sandbox, wall: Clock): SnapshotDocument {
  return snapshotOf(toSnapshot(sandbox), wall);
}

/** The snapshot document of a sandbox's store form: its own, or one held by a checkpoint. */
export function snapshotOf(state: SandboxSnapshot, wall: Clock): SnapshotDocument {
  return { billing_sim_snapshot: SNAPSHOT_FORMAT, sandbox: documentForm(state, wall) };
}

/** Characters of JSON text per piece of snapshotText: a socket write of 64 KiB, a fraction of a millisecond to make. */
const PIECE_CHARS = 64 * 1024;

const recordCopies = (entries: [string, unknown][]): [string, unknown][] => entries.map(([key, record]) => [key, { ...(record as object) }]);

/**
 * A store form that later turns of the sandbox cannot change: what they change in place is copied.
 * That is subscribers and schedules (a billing updates them), queued jobs (moved to their next date),
 * and the lists of events and e-mails (appended and trimmed). Everything else is a record that is
 * replaced, never changed, so holding it is enough: a checkpoint of 1.2 million purchases holds the
 * same purchase objects as its sandbox, not copies of them.
 */
export function held(state: SandboxSnapshot): SandboxSnapshot {
  return {
    ...state,
    subscribers: recordCopies(state.subscribers),
    schedules: recordCopies(state.schedules),
    jobs: state.jobs.map((job) => ({ ...job })),
    events: state.events.slice(),
    outbox: state.outbox.slice(),
  };
}

/**
 * The text of JSON.stringify(exportSnapshot(sandbox, wall)), in pieces of about PIECE_CHARS, made as
 * they are read: GET /sim/v1/snapshot. Ten years of 10,000 monthly subscribers make some 2.4 GB of
 * it. As one string it passed V8's longest (about 512 MB) and failed with a 500, after holding every
 * sandbox for half a minute; the pieces are sent between other requests, and only those in flight
 * are in memory.
 *
 * The sandbox is taken as it is now, within the caller's turn (`held`), and read later, between
 * other turns. The 1.2 million purchases of such a sandbox are held as one array of values, not as
 * entries: each is kept under its own id (savePurchase; an import checks it), which gives its key back.
 */
export function snapshotText(sandbox: Sandbox, wall: Clock): Iterable<string> {
  const taken = held(toSnapshot(sandbox, ['purchases']) as SandboxSnapshot);
  const { purchaseEntry, event } = itemForms(taken);
  const lists: Record<string, List> = {
    purchases: { items: [...sandbox.purchases.values()], form: (purchase: Purchase) => purchaseEntry([purchase.id, purchase]) },
    events: { items: taken.events, form: event },
    outbox: { items: taken.outbox, form: same },
  };
  return jsonPieces(snapshotOf({ ...taken, purchases: [], events: [], outbox: [] }, wall), lists);
}

/** A list written item by item, each in the form `form` gives it. */
interface List {
  items: readonly unknown[];
  form: (item: never) => unknown;
}

const same = (item: unknown) => item;

/**
 * JSON.stringify(document) in pieces: the sandbox's arrays item by item (each item by
 * JSON.stringify), those of `lists` from their own items, everything else whole.
 */
function* jsonPieces(document: SnapshotDocument, lists: Record<string, List>): Generator<string> {
  let text = `{"billing_sim_snapshot":${JSON.stringify(document.billing_sim_snapshot)},"sandbox":{`;
  let comma = '';
  for (const [field, value] of Object.entries(document.sandbox)) {
    if (value === undefined) continue;
    text += `${comma}${JSON.stringify(field)}:`;
    comma = ',';
    const list = lists[field] ?? (Array.isArray(value) ? { items: value, form: same } : undefined);
    if (!list) {
      text += JSON.stringify(value);
      continue;
    }
    text += '[';
    for (let i = 0; i < list.items.length; i += 1) {
      // As in JSON.stringify: an item with no JSON form is written null.
      text += (i > 0 ? ',' : '') + (JSON.stringify(list.form(list.items[i] as never)) ?? 'null');
      if (text.length >= PIECE_CHARS) {
        yield text;
        text = '';
      }
    }
    text += ']';
  }
  yield `${text}}}`;
}

/**
 * A new sandbox of the store from a checked document (see createSnapshotValidator, or
 * findInconsistency after the request's schema); the caller puts it in the store. Its ids are
 * rewritten in slices that let other requests run (a fork of a checkpoint can be any size).
 */
export async function importSnapshot(document: SnapshotDocument, store: Store, ids: Ids, wall: Clock): Promise<Sandbox> {
  const named = sharesIds(document, store) ? await renamed(document, ids) : document;
  const id = newSandboxId(store, ids);
  const { sandbox } = named.sandbox.origin.ownIds ? await withCheckoutSandbox(named, id) : named;
  return fromSnapshot({
    ...sandbox,
    id,
    origin: { ...sandbox.origin, seededIds: false },
    clock: clockAt(Date.parse(sandbox.clock.now), sandbox.clock.frozen, wall),
    purchases: sandbox.purchases.map(([key, purchase]) => [key, storedPurchase(purchase as PurchaseView)]),
    events: sandbox.events.map((event) => (isPurchase(event.payload) ? { ...event, payload: storedPurchase(event.payload) } : event)),
  });
}

/**
 * A sandbox created with a seed names itself in its checkout paths (`/checkout/{sandbox_id}/{id}/`,
 * present/purchases.ts checkoutPath): in the copy they name the copy, `id`, wherever they occur. A
 * purchase's own checkout_url is emptied on import and derived again; those in the JSON of queued
 * webhook bodies are text, and are rewritten here.
 */
function withCheckoutSandbox(document: SnapshotDocument, id: string): Promise<SnapshotDocument> {
  const exported = `/checkout/${document.sandbox.id}/`;
  return rewritten(document, (text) => text.replaceAll(exported, `/checkout/${id}/`));
}

/**
 * The document with `rewrite` applied to the JSON text of each part of its sandbox, a list one item
 * at a time, in slices (slices.ts): the order of the text is the whole document's, so a rewrite that
 * numbers what it meets (renamed) meets it in the same order.
 */
async function rewritten(document: SnapshotDocument, rewrite: (text: string) => string): Promise<SnapshotDocument> {
  const copy = (value: unknown) => JSON.parse(rewrite(JSON.stringify(value))) as unknown;
  // Keyed by the document's own field names: no prototype, so none of them can be one's.
  const sandbox: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const parts = Object.entries(document.sandbox).filter(([, value]) => value !== undefined);
  let part = 0;
  let item = 0;
  await inSlices(() => {
    const [field, value] = parts[part]!;
    if (!Array.isArray(value)) sandbox[field] = copy(value);
    else if (item < value.length) ((sandbox[field] ??= []) as unknown[]).push(copy(value[item++]));
    else sandbox[field] ??= [];
    if (Array.isArray(value) && item < value.length) return true;
    item = 0;
    return ++part < parts.length;
  });
  return { ...document, sandbox: sandbox as SnapshotSandbox };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Whether a sandbox of the store already holds an object with one of the document's ids. */
function sharesIds(document: SnapshotDocument, store: Store): boolean {
  const taken = (key: string) => {
    for (const sandbox of store.all()) if (MAPS.some((field) => sandbox[field].has(key))) return true;
    return false;
  };
  // A snapshot of an earlier version may lack a collection added since (webhookKeys).
  return MAPS.some((field) => (document.sandbox[field] ?? []).some(([key]) => taken(key)));
}

/**
 * The document with every UUID replaced by a fresh one, the same replacement wherever it occurs:
 * keys, references, events' payloads, jobs, checkout URLs and the JSON of queued webhook bodies.
 */
function renamed(document: SnapshotDocument, ids: Ids): Promise<SnapshotDocument> {
  const fresh = new Map<string, string>();
  return rewritten(document, (text) =>
    text.replace(UUID, (found) => {
      const id = found.toLowerCase();
      let next = fresh.get(id);
      if (next === undefined) fresh.set(id, (next = ids.uuid()));
      return next;
    }),
  );
}

/**
 * An id no sandbox of the store has. A seeded id source could repeat another process's ids (a data
 * file exported under `--seed 1` and served again under it), and an import adds, never replaces.
 */
function newSandboxId(store: Store, ids: Ids): string {
  let id = ids.uuid();
  while (store.get(id)) id = ids.uuid();
  return id;
}

/**
 * The snapshot's form of a sandbox, from the store's. Also applied to what a data file holds, which
 * may be anything: a value this cannot convert is passed on as it is, for the schema to name. A data
 * file's check skips copying the logs: the schema takes any object as an event's payload, and the
 * document is dropped once checked.
 */
function documentForm(snapshot: SandboxSnapshot, wall: Clock, { copyLogs = true } = {}): SnapshotSandbox {
  const { purchaseEntry, event } = itemForms(snapshot);
  const { id, companyId, brands, publicOrigin, jobSeq, signingKey } = snapshot;
  return {
    // The schema's order, so that a file reads from the header down.
    id,
    companyId,
    brands,
    origin: snapshot.origin,
    clock: clockForm(snapshot.clock, wall),
    publicOrigin,
    jobSeq,
    idsDrawn: snapshot.idsDrawn ?? 0,
    webhookChaos: snapshot.webhookChaos ?? null,
    processing: snapshot.processing ?? null,
    signingKey,
    ...Object.fromEntries(MAPS.map((field) => [field, snapshot[field]])),
    purchases: mapArray(snapshot.purchases, purchaseEntry),
    // Copies of what the engine changes in place (queues and logs grow), so the document stays as exported.
    deliveryQueues: mapArray(snapshot.deliveryQueues, (entry) => (Array.isArray(entry) && Array.isArray(entry[1]) ? [entry[0], [...entry[1]]] : entry)),
    events: copyLogs ? mapArray(snapshot.events, event) : snapshot.events,
    outbox: copyLogs ? mapArray(snapshot.outbox, (email) => email) : snapshot.outbox,
    jobs: Array.isArray(snapshot.jobs) ? [...snapshot.jobs].sort((a, b) => a?.at - b?.at || a?.seq - b?.seq) : snapshot.jobs,
  } as SnapshotSandbox;
}

const mapArray = <T>(value: T[], map: (item: T) => unknown): T[] => (Array.isArray(value) ? (value.map(map) as T[]) : value);

/**
 * How a purchase entry and an event appear in the document: a purchase (an event's payload too)
 * with its absolute checkout_url. Anything else, or a data file's garbage, is passed on as it is.
 */
function itemForms(snapshot: SandboxSnapshot) {
  const origin = typeof snapshot.publicOrigin === 'string' ? snapshot.publicOrigin : '';
  // A data file's header may be anything too: without an `origin` object, the short form of the path.
  const scope: CheckoutScope = { id: snapshot.id, origin: { ownIds: (snapshot.origin as Partial<SandboxOrigin> | undefined)?.ownIds === true } };
  const present = (value: unknown) => (isPurchase(value) ? withCheckoutUrl(value, scope, origin) : value);
  return {
    purchaseEntry: (entry: unknown) => (Array.isArray(entry) ? [entry[0], present(entry[1])] : entry),
    event: (event: SimEvent) => (isPurchase(event?.payload) ? { ...event, payload: present(event.payload) } : event),
  };
}

function isPurchase(value: unknown): value is Purchase {
  return typeof value === 'object' && value !== null && (value as Purchase).type === 'purchase' && typeof (value as Purchase).id === 'string';
}

/** The API's view of a clock, or (a data file's garbage) the value as it is. */
function clockForm(clock: unknown, wall: Clock): unknown {
  const { frozen, nowMs, offsetMs } = (clock ?? {}) as Partial<SandboxClockState>;
  if (typeof frozen !== 'boolean' || typeof nowMs !== 'number' || typeof offsetMs !== 'number') return clock;
  return Math.abs(sandboxNow(clock as SandboxClockState, wall)) <= LATEST_DATE_MS ? clockView(clock as SandboxClockState, wall) : clock;
}

/** The purchase as the store keeps it: its checkout_url, which names the sandbox and origin it was exported from, emptied. */
function storedPurchase(purchase: Purchase | PurchaseView): Purchase {
  return { ...purchase, checkout_url: '' };
}

export interface SnapshotValidator {
  /** The first bad value of a document from outside (a file), or null when it can be imported. */
  check(document: unknown): SnapshotProblem | null;
  /** SqliteStore's `validate` hook: what is wrong with a sandbox read from a data file, as "path: reason". */
  checkStored(snapshot: SandboxSnapshot): string | null;
}

/** Compiles the `SandboxSnapshot` schema of openapi.yaml once; the validator checks any number of documents. */
export function createSnapshotValidator(spec: OpenAPIV3_1.Document, wall: Clock): SnapshotValidator {
  const schema: ValidateFunction = compileComponent(spec, 'SandboxSnapshot');
  const check = (document: unknown): SnapshotProblem | null => {
    upgradeSnapshotDocument(document);
    if (!schema(document)) {
      const [path, details] = Object.entries(toFieldErrors(schema.errors ?? []))[0]!;
      return { path, detail: details[0] ?? errors.invalid() };
    }
    return findInconsistency(document as SnapshotDocument);
  };
  return {
    check,
    checkStored(snapshot) {
      const problem = check({ billing_sim_snapshot: SNAPSHOT_FORMAT, sandbox: documentForm(snapshot, wall, { copyLogs: false }) });
      return problem && `${problem.path.replace(/^sandbox\./, '')}: ${problem.detail.message}`;
    },
  };
}
