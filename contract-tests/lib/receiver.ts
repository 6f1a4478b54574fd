// A webhook receiver the suite starts for one check: an HTTP server on 127.0.0.1 (a free port) that
// answers every POST 200 and keeps what came, the raw body as sent, since a signature is over those
// exact bytes. Only a target on this machine can reach it: on a target elsewhere a delivery that never
// comes skips the check (`awaitDelivery`), where on a local one it fails it.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  /** The raw body, as the target sent it. */
  raw: string;
  /** The body parsed, or undefined when it is not JSON. */
  body: any;
  /** The X-Signature header. */
  signature: string | undefined;
}

export interface Receiver {
  /** The callback URL to register, e.g. http://127.0.0.1:41234/hook/abc. */
  url(path: string): string;
  /** Deliveries so far to `path`, oldest first. */
  deliveries(path: string): Delivery[];
  close(): Promise<void>;
}

/** The most of one delivery's body the receiver keeps: a webhook body is one object, far below this. */
export const MAX_DELIVERY_BYTES = 1024 * 1024;

/** How long a check waits for a delivery: the simulator POSTs right after its answer. */
export const DELIVERY_WAIT_MS = 5_000;

export async function startReceiver(): Promise<Receiver> {
  const received = new Map<string, Delivery[]>();
  const server: Server = createServer((req, res) => {
    // The target is any server: a body past MAX_DELIVERY_BYTES is cut there (its signature then fails
    // to verify, which the check reports) rather than held in memory whole.
    const chunks: Buffer[] = [];
    let kept = 0;
    req.on('data', (chunk: Buffer) => {
      if (kept >= MAX_DELIVERY_BYTES) return;
      const part = chunk.subarray(0, MAX_DELIVERY_BYTES - kept);
      chunks.push(part);
      kept += part.length;
    });
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '/').split('?')[0]!;
      received.set(path, [...(received.get(path) ?? []), { raw, body, signature: req.headers['x-signature'] as string | undefined }]);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path) => `${origin}${path}`,
    deliveries: (path) => received.get(path) ?? [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Whether a target at this base URL runs on this machine, and so can reach the receiver. */
export function isLocal(baseUrl: string): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(baseUrl).hostname);
}

/** Polls until `found` answers something other than undefined, or the wait is over (undefined). */
export async function awaitDelivery<T>(found: () => T | undefined, ms = DELIVERY_WAIT_MS): Promise<T | undefined> {
  const until = Date.now() + ms;
  for (;;) {
    const value = found();
    if (value !== undefined || Date.now() >= until) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
