// Black-box HTTP harness: createApp() on a random port with a wall clock the test controls and
// seeded ids, plus a fresh frozen sandbox. Every response is checked against openapi.yaml.

import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createApp, type AppDeps } from '../../src/http/app.ts';
import { KEEP_ALIVE_MS } from '../../src/http/listen.ts';
import { createIds } from '../../src/engine/ids.ts';
import { MemoryStore } from '../../src/store/store.ts';
import { assertDocumented, type SeenResponse } from '../../contract-tests/lib/document.ts';

export interface Call extends SeenResponse {
  text: string;
}

// The same request options as the contract suite's client: a body, or a raw one; a token, or none.
export type { RequestOptions } from '../../contract-tests/lib/client.ts';
import type { RequestOptions } from '../../contract-tests/lib/client.ts';

export interface Harness {
  origin: string;
  token: string;
  brandId: string;
  sandboxId: string;
  wall: { ms: number; now(): number };
  logs: string[];
  request(method: string, path: string, options?: RequestOptions): Promise<Call>;
  /** A second sandbox: another merchant account on the same server. */
  newSandbox(body?: Record<string, unknown>): Promise<{ token: string; brandId: string; id: string }>;
  close(): Promise<void>;
}

export const DEFAULT_NOW = '2026-01-30T12:00:00Z';

export interface HarnessOptions {
  now?: string;
  seed?: number;
  /** Passed to createApp as they are. */
  deps?: Pick<AppDeps, 'corsOrigins' | 'allowedHosts' | 'maxEvents'>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const wall = { ms: Date.parse(options.now ?? DEFAULT_NOW), now: () => wall.ms };
  const logs: string[] = [];
  const app = createApp({ store: new MemoryStore(), clock: wall, ids: createIds(options.seed ?? 7), log: (line) => logs.push(line), ...options.deps });
  const server: Server = createServer(app.express);
  // As the CLI's server (src/http/listen.ts KEEP_ALIVE_MS): no reused connection meets one just closed.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<Call> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token !== null && (opts.token ?? harness.token)) headers.authorization = `Bearer ${opts.token ?? harness.token}`;
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(origin + path, { method, headers, body });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const call: Call = {
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      text,
      body: text && type.includes('json') ? JSON.parse(text) : undefined,
    };
    await assertDocumented(method, path, call);
    return call;
  };

  const newSandbox = async (body: Record<string, unknown> = {}) => {
    const created = await request('POST', '/sim/v1/sandboxes', { token: null, body: { now: new Date(wall.ms).toISOString(), ...body } });
    if (created.status !== 201) throw new Error(`sandbox creation failed: ${created.text}`);
    const { token, brand_id, id } = created.body as { token: string; brand_id: string; id: string };
    return { token, brandId: brand_id, id };
  };

  const harness: Harness = {
    origin,
    token: '',
    brandId: '',
    sandboxId: '',
    wall,
    logs,
    request,
    newSandbox,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const first = await newSandbox();
  Object.assign(harness, { token: first.token, brandId: first.brandId, sandboxId: first.id });
  return harness;
}

/**
 * The harness of a test file: started before its tests, closed after them. Usable at module level
 * (`const h = useHarness();`) because the returned object is filled in when the harness is up.
 */
export function useHarness(options: HarnessOptions = {}): Harness {
  const shell = {} as Harness;
  // The first harness of a worker compiles openapi.yaml twice (the app's validators, the document
  // check's): 6-13 s on a loaded 2-core machine, past vitest's 10 s for a hook. A hang guard, then.
  beforeAll(async () => {
    Object.assign(shell, await startHarness(options));
  }, 120_000);
  afterAll(() => shell.close?.());
  return shell;
}
