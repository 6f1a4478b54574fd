// What the webhook checks share: webhooks registered for one check and deleted after it, with a
// receiver (receiver.ts) that answers every delivery, the platform's event names, and signatures.
//
// Every webhook a check registers calls back a live receiver, never a dead address, and the receiver
// stays up until every check of the file has ended (`closeReceiver`, in its afterAll): a target may
// deliver an object's events in order across webhooks (the simulator does), so one delivery that
// failed and waits for its retry — to a dead address, or to a receiver closed while the POST was out —
// would hold back the deliveries of the same purchase to another check's webhook, and the checks of
// a file run at once. Each check has its own paths on the receiver. A target elsewhere cannot reach
// the receiver on 127.0.0.1: its webhooks are registered with a merchant's URL instead (it may refuse
// a private address), and the checks that need a delivery are skipped there before they send anything.

import { createVerify } from 'node:crypto';
import type { CheckContext } from './check.ts';
import type { ApiClient } from './client.ts';
import { resolve } from './limits-schema.ts';
import { schema } from './operations.ts';
import { expectStatus, unique } from './primitives.ts';
import { awaitDelivery, DELIVERY_WAIT_MS, isLocal, startReceiver, type Delivery, type Receiver } from './receiver.ts';
import { createPurchase, mainClient } from './scenario.ts';

/** The event names a webhook may subscribe to and receive: the platform's (openapi.yaml, WebhookFields.events, PlatformEvent). */
export const platformEvents = (): string[] => resolve(schema('WebhookFields').properties.events.items).enum ?? [];

/** A PEM public key (SubjectPublicKeyInfo), as the platform answers it. */
export const PEM = /^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/;

/** Registers a webhook that must be created (2xx; its answer): `callback` defaults to the check's receiver. */
export type Make = (body: Record<string, unknown>) => Promise<Record<string, any>>;

export interface Hooks {
  make: Make;
  receiver: Receiver;
  /** A callback URL the target can call for `path`: the receiver's on a local target, a merchant's elsewhere. */
  callback(path: string): string;
}

let shared: Promise<Receiver> | undefined;

/** Closes the receiver the checks of a file shared: in the file's afterAll, once none of them runs. */
export async function closeReceiver(): Promise<void> {
  const open = shared;
  shared = undefined;
  if (open) await (await open).close();
}

/** The file's receiver, seen through paths of one check's own (`/ct…/one`). */
async function ownPaths(): Promise<Receiver> {
  const receiver = await (shared ??= startReceiver());
  const prefix = `/${unique('hook')}`;
  return { url: (path) => receiver.url(prefix + path), deliveries: (path) => receiver.deliveries(prefix + path), close: async () => {} };
}

/**
 * Runs `work` with a receiver and a maker of webhooks, and deletes the webhooks after: a webhook left
 * in the account would receive the whole run's events.
 */
export async function withWebhooks({ api, target }: Pick<CheckContext, 'api' | 'target'>, work: (hooks: Hooks) => Promise<void>): Promise<void> {
  const receiver = await ownPaths();
  const local = isLocal(target.baseUrl);
  const callback = (path: string) => (local ? receiver.url(path) : `https://shop.example.com${path}`);
  const made: string[] = [];
  try {
    await work({
      receiver,
      callback,
      make: async (body) => {
        const res = await api.post('/webhooks/', { title: 'contract', callback: callback('/hook'), ...body });
        if (res.status < 200 || res.status > 299) expectStatus(res, 201, 'create webhook');
        made.push(res.body.id);
        return res.body;
      },
    });
  } finally {
    for (const id of made) await api.delete(`/webhooks/${id}/`);
  }
}

/** Whether the target reaches the receiver, proven once per file (`reachable`); undefined until asked. */
let reach: Promise<string | undefined> | undefined;

/**
 * Why the target cannot deliver to the receiver on this machine, or undefined when a delivery of a
 * probe webhook came. An address on 127.0.0.1 proves nothing: a server in a container, published on
 * the host's loopback, answers there but cannot call back (its own 127.0.0.1 is the container's).
 * The suite's own simulator runs in this process, so it always can.
 */
function unreachable(ctx: Pick<CheckContext, 'api' | 'target'>): Promise<string | undefined> {
  if (!isLocal(ctx.target.baseUrl)) return Promise.resolve(`the target at ${ctx.target.origin} cannot reach a receiver on this machine (127.0.0.1), where deliveries are received`);
  if (ctx.target.selfHosted) return Promise.resolve(undefined);
  return (reach ??= (async () => {
    let came: Delivery | undefined;
    await withWebhooks(ctx, async ({ make, receiver }) => {
      await make({ events: ['purchase.created'], callback: receiver.url('/probe') });
      const { account, client } = await mainClient(ctx.api);
      await createPurchase(account, client.id);
      came = await awaitDelivery(() => receiver.deliveries('/probe')[0]);
    });
    return came ? undefined : `no delivery of a webhook registered on a receiver at 127.0.0.1 came within ${DELIVERY_WAIT_MS / 1000} s: the target, though answering on this machine, cannot call it (a container's own loopback is not the host's)`;
  })());
}

/**
 * `withWebhooks` for a check that needs deliveries: skipped, before it sends anything of its own, on a
 * target that cannot reach the receiver on this machine.
 */
export async function withDeliveries(ctx: Pick<CheckContext, 'api' | 'target' | 'skip'>, work: (hooks: Hooks) => Promise<void>): Promise<void> {
  const why = await unreachable(ctx);
  if (why) ctx.skip(why);
  await withWebhooks(ctx, work);
}

/** Whether `publicKey` verifies the delivery's X-Signature: base64 RSA PKCS#1 v1.5 over SHA-256 of the raw body. */
export const verifies = (delivery: Delivery, publicKey: string): boolean =>
  delivery.signature !== undefined && createVerify('sha256').update(delivery.raw).verify(publicKey, delivery.signature, 'base64');

/** The deliveries of one object (`body.id`) to a receiver's path, oldest first. */
export const deliveriesOf = (receiver: Receiver, path: string, objectId: string): Delivery[] => receiver.deliveries(path).filter((d) => d.body?.id === objectId);

/** The event types delivered to `path` for one object, oldest first. */
export const eventTypes = (receiver: Receiver, path: string, objectId: string): string[] => deliveriesOf(receiver, path, objectId).map((d) => d.body?.event_type);

/**
 * Waits until every path of `wanted` has received, for the object, each of its event types (the
 * target POSTs after it answers); answers whether they all came.
 */
export async function awaitEvents(receiver: Receiver, objectId: string, wanted: Record<string, string[]>): Promise<boolean> {
  const all = () => Object.entries(wanted).every(([path, types]) => types.every((type) => eventTypes(receiver, path, objectId).includes(type)));
  return (await awaitDelivery(() => (all() ? true : undefined))) === true;
}

/** The account's key: GET /public_key/, a bare JSON string. */
export async function accountKey(api: ApiClient): Promise<string> {
  return expectStatus(await api.get('/public_key/'), 200, 'GET /public_key/') as string;
}
