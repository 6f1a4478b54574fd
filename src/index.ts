// The programmatic API: startSimulator(options) → { url, token, brandId, stop() }. The CLI and the
// contract suite start the simulator through it; it owns the listening socket and the store.

import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { Clock } from './domain/context.ts';
import { createDefaultSandbox, DEFAULT_SEED } from './engine/sandboxes.ts';
import { createIds } from './engine/ids.ts';
import { createApp } from './http/app.ts';
import { JsonFileStore } from './store/json-file.ts';
import { MemoryStore, type Store } from './store/store.ts';

export interface SimulatorOptions {
  port?: number;
  host?: string;
  /** Persist every sandbox to this JSON file (and load it at start). */
  dataFile?: string;
  /** Seed of the default sandbox's fixtures and ids; also makes every other id deterministic. */
  seed?: number;
  secret?: string;
  /** No request log. */
  quiet?: boolean;
  /** Wall clock; tests inject one. */
  clock?: Clock;
}

export interface RunningSimulator {
  /** Origin, e.g. http://127.0.0.1:4010; the API is under /api/v1, the control API under /sim/v1. */
  url: string;
  apiUrl: string;
  token: string;
  brandId: string;
  sandboxId: string;
  stop(): Promise<void>;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const clock = options.clock ?? { now: () => Date.now() };
  const seed = options.seed ?? DEFAULT_SEED;
  const store: Store = options.dataFile ? await JsonFileStore.open(options.dataFile) : new MemoryStore();
  const defaultId = createIds(seed).uuid();
  if (!store.get(defaultId)) {
    store.put(createDefaultSandbox(seed, clock, createIds(seed)));
    store.changed();
  }
  const sandbox = store.get(defaultId)!;

  const app = createApp({
    store,
    clock,
    ids: createIds(options.seed === undefined ? undefined : seed + 1),
    secret: options.secret,
    log: options.quiet ? undefined : (line) => console.log(line),
  });
  const server = createServer(app.express);
  // Running clocks bill as wall time passes, requests or not.
  for (const sandbox of store.all()) app.services.background.wake(sandbox.id);
  await listen(server, options.port ?? DEFAULT_PORT, options.host ?? DEFAULT_HOST);
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return {
    url,
    apiUrl: `${url}/api/v1`,
    token: await app.services.tokens.sign(sandbox.id),
    brandId: sandbox.brands[0]!.id,
    sandboxId: sandbox.id,
    async stop() {
      app.services.background.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      await store.close();
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export { createApp } from './http/app.ts';
export type { AppDeps } from './http/app.ts';
