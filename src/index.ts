// The programmatic API: startSimulator(options) → { url, token, brandId, stop() }. The CLI and the
// contract suite start the simulator through it; it owns the listening socket and the store.

import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import type { Clock } from './domain/context.ts';
import { DEFAULT_HOST, DEFAULT_PORT } from './defaults.ts';
import { createDefaultSandbox, DEFAULT_SEED } from './engine/sandboxes.ts';
import { createIds, type CountedIds } from './engine/ids.ts';
import { loadSpec } from './contract/spec.ts';
import { createSnapshotValidator } from './store/snapshot.ts';
import type { SqliteStore } from './store/sqlite.ts';
import { createApp } from './http/app.ts';
import { parseAllowedHost, parseCorsOrigin } from './http/hosts.ts';
import { MemoryStore, type Store } from './store/store.ts';
import { listen } from './http/listen.ts';

export interface SimulatorOptions {
  port?: number;
  host?: string;
  /**
   * Keep every sandbox in this SQLite database (created 0600 if missing) and load it at start.
   * A file that cannot be used makes startSimulator reject with a DataFileError naming it.
   */
  dataFile?: string;
  /** Seed of the default sandbox's fixtures and ids; also makes every other id deterministic. */
  seed?: number;
  secret?: string;
  /** No request log. */
  quiet?: boolean;
  /** Wall clock; tests inject one. */
  clock?: Clock;
  /** Origins allowed by CORS beside localhost ones, or `*` (--cors-origin). */
  corsOrigins?: string[];
  /** Host names served beside loopback ones and `host` (--allowed-host); see AppDeps.allowedHosts. */
  allowedHosts?: string[];
  /** Events kept per sandbox (--max-events); default MAX_EVENTS_PER_SANDBOX. */
  maxEvents?: number;
  /**
   * Every sandbox refuses an /api/v1 body field the operation does not define or a read-only one
   * (400 `unknown_field` / `read_only`) instead of ignoring it as the platform does (--strict).
   */
  strict?: boolean;
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

export { DEFAULT_HOST, DEFAULT_PORT };

/** How long after listening the validators start compiling (see startSimulator). */
const WARM_UP_AFTER_MS = 500;

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  // Checked before a data file opens, so that a bad entry leaves nothing open behind its error.
  const corsOrigins = options.corsOrigins?.map(parseCorsOrigin);
  const allowedHosts = options.allowedHosts?.map(parseAllowedHost) ?? [];
  const clock = options.clock ?? { now: () => Date.now() };
  const seed = options.seed ?? DEFAULT_SEED;
  const logError = (line: string) => console.error(line);
  // Read once: for the app's routes, and to check each sandbox of a data file as a snapshot is checked.
  const spec = loadSpec();
  // With --seed, every id comes from seed + 1 too; the data file says how far an earlier run drew.
  let ids: CountedIds | undefined;
  // The data file's modules (better-sqlite3 among them) load only when there is one.
  const dataStore: SqliteStore | undefined = options.dataFile
    ? await (await import('./store/sqlite.ts')).SqliteStore.open(options.dataFile, {
        idsPosition: options.seed === undefined ? undefined : () => ids?.drawn() ?? 0,
        validate: createSnapshotValidator(spec, clock).checkStored,
        report: logError,
      })
    : undefined;
  const store: Store = dataStore ?? new MemoryStore();
  ids = createIds(options.seed === undefined ? undefined : seed + 1, dataStore && options.seed !== undefined ? dataStore.idsDrawn : 0);
  const defaultId = createIds(seed).uuid();
  if (!store.get(defaultId)) store.put(createDefaultSandbox(seed, clock, createIds(seed)));
  const sandbox = store.get(defaultId)!;

  const host = options.host ?? DEFAULT_HOST;
  const app = createApp({
    store,
    spec,
    clock,
    ids,
    logError,
    secret: options.secret,
    log: options.quiet ? undefined : (line) => console.log(line),
    corsOrigins,
    // The name the simulator was told to listen on is one its clients use.
    allowedHosts: [host, ...allowedHosts],
    maxEvents: options.maxEvents,
    strict: options.strict,
    defaultSandboxId: defaultId,
  });
  const server = createServer(app.express);
  // Running clocks bill as wall time passes, requests or not.
  for (const sandbox of store.all()) app.services.background.wake(sandbox.id);
  await listen(server, options.port ?? DEFAULT_PORT, host);
  // Listening first, and compiling the validators a moment later, one operation per turn: the
  // first requests after a start are answered at once (each compiles only its own validators), and
  // none waits behind the ajv instance the first step builds. A stop ends it.
  const warming = new AbortController();
  const warmUp = setTimeout(() => void app.warmUp(warming.signal), WARM_UP_AFTER_MS);
  warmUp.unref();
  warming.signal.addEventListener('abort', () => clearTimeout(warmUp));
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return {
    url,
    apiUrl: `${url}/api/v1`,
    token: await app.services.tokens.sign(sandbox.id),
    brandId: sandbox.brands[0]!.id,
    sandboxId: sandbox.id,
    async stop() {
      warming.abort();
      app.services.background.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      // A turn still running commits before the file closes.
      await app.services.serial.idle();
      await store.close();
    },
  };
}

