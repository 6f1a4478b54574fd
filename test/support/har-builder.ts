// Recordings for tests, made without the proxy: a client that sends requests to a simulator (createApp
// on a random port, as test/support/harness.ts) and keeps each exchange as a HAR entry, the way
// `billing-sim proxy --record` writes them (DESIGN.md §15): the full URL, the body as text, the
// response's headers (Billing-Sim-Clock among them) and the bearer token replaced by its pseudonym,
// `Bearer scrubbed-token-1`. What the test does outside the recording (the payer's page, a clock moved
// by someone else) goes through `direct`, which records nothing.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Entry, Har } from '../../src/recording/har-file.ts';
import { createApp } from '../../src/http/app.ts';
import { KEEP_ALIVE_MS } from '../../src/http/listen.ts';
import { createIds } from '../../src/engine/ids.ts';
import { MemoryStore } from '../../src/store/store.ts';
import { entry } from './har-recorder.ts';

export interface Exchange {
  status: number;
  body: unknown;
  text: string;
}

export interface HarBuilder {
  origin: string;
  /** The token of the sandbox the recording created (set by `createSandbox`). */
  token: string;
  brandId: string;
  /** The recording so far. */
  har(): Har;
  /** POST /sim/v1/sandboxes, recorded; later calls use its token. */
  createSandbox(body: Record<string, unknown>): Promise<Exchange>;
  /** One recorded exchange with the sandbox's token (a JSON body, or a form's fields with `form`). */
  send(method: string, path: string, options?: { body?: unknown; form?: Record<string, string>; token?: string | null }): Promise<Exchange>;
  /** The same, unrecorded: what happened outside the recording. */
  direct(method: string, path: string, body?: unknown): Promise<Exchange>;
  /** An entry as written, for the cases a live server does not give (no answer, a preflight). */
  push(entry: Entry): void;
  close(): Promise<void>;
}

const PSEUDONYM = 'Bearer scrubbed-token-1';

export async function startHarBuilder(seed = 11): Promise<HarBuilder> {
  // The wall clock stands still: only the sandbox's virtual clock matters, and it is frozen.
  const app = createApp({ store: new MemoryStore(), clock: { now: () => Date.parse('2026-01-30T12:00:00Z') }, ids: createIds(seed), log: () => undefined });
  const server: Server = createServer(app.express);
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entries: Entry[] = [];

  const exchange = async (method: string, path: string, options: { body?: unknown; form?: Record<string, string>; token?: string | null }, record: boolean) => {
    const token = options.token === undefined ? builder.token : options.token;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    let text: string | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      text = new URLSearchParams(options.form).toString();
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      text = JSON.stringify(options.body);
    }
    const started = new Date();
    const response = await fetch(origin + path, { method, headers, body: text });
    const answer = await response.text();
    if (record) entries.push(entryOf(origin + path, method, headers, text, response, answer, started));
    const json = answer !== '' && (response.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(answer) as unknown) : undefined;
    return { status: response.status, body: json, text: answer };
  };

  const builder: HarBuilder = {
    origin,
    token: '',
    brandId: '',
    har: () => ({ log: { version: '1.2', creator: { name: 'har-builder', version: '1' }, pages: [], entries: [...entries] } }),
    async createSandbox(body) {
      const created = await exchange('POST', '/sim/v1/sandboxes', { body, token: null }, true);
      const sandbox = created.body as { token: string; brand_id: string };
      Object.assign(builder, { token: sandbox.token, brandId: sandbox.brand_id });
      return created;
    },
    send: (method, path, options = {}) => exchange(method, path, options, true),
    direct: (method, path, body) => exchange(method, path, { body }, false),
    push: (entry) => entries.push(entry),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return builder;
}

function entryOf(url: string, method: string, headers: Record<string, string>, text: string | undefined, response: Response, answer: string, started: Date): Entry {
  return entry(method, url, started, {
    headers: Object.entries(headers).map(([name, value]) => ({ name, value: name === 'authorization' ? PSEUDONYM : value })),
    text,
    requestType: headers['content-type'],
    status: response.status,
    statusText: response.statusText,
    responseType: response.headers.get('content-type') ?? '',
    responseHeaders: [...response.headers].map(([name, value]) => ({ name, value })),
    answer,
  });
}
