// A small fault-injecting proxy for proving the contract suite: it forwards every request to the
// simulator and lets faults rewrite the request on the way in or the response on the way out, or
// answer in the server's place. A fault with `catches` is injected only into the requests of those
// checks (the suite names the asking check in its User-Agent, contract-tests/lib/client.ts), as
// StrykerJS runs only the tests that cover a mutant: several such faults on disjoint checks run in
// one suite run without masking each other. `delayMs` holds every answer that long (a server far away).
// A request no fault touches is passed on as it came, its bodies neither parsed nor written again, over
// node:http with kept connections (fetch and the parse took some 4 s of CPU in a whole run of the suite).

import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { KEEP_ALIVE_MS } from '../../src/http/listen.ts';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** The body as it came, for passing on what no fault changed as it was (a JSON string keeps its quotes). */
  text?: string;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  text?: string;
}

export interface Fault {
  /** The bug, as a reader of the test's output should see it: `a refund above the paid amount accepted`. */
  name: string;
  /**
   * The ids of the normative checks that must fail because of it; the fault touches only their
   * requests. Without it, every request of the run.
   */
  catches?: string[];
  /** Caught by the document alone (an answer openapi.yaml does not allow), not as behaviour: the first, broad faults only. */
  bySchema?: boolean;
  /** Changes the request before it is forwarded; an answer returned here is sent instead of forwarding. */
  request?(request: ProxiedRequest, upstream: Upstream): void | ProxiedResponse | Promise<void | ProxiedResponse>;
  response?(request: ProxiedRequest, response: ProxiedResponse, upstream: Upstream): void | Promise<void>;
}

/** A request a fault makes to the simulator itself (to read state it needs), with the asking request's headers. */
export type Upstream = (method: string, path: string, body?: unknown) => Promise<ProxiedResponse>;

/** The check a request of the suite came from, by its User-Agent: `billing-sim-contract (check CLI-GET)`. */
export const checkOf = (request: ProxiedRequest): string | undefined => /\(check ([^)]+)\)/.exec(request.headers['user-agent'] ?? '')?.[1];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A body as faults see it: JSON parsed (a JSON string is that string), anything else as its text. */
const parse = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
};

/**
 * A body to send: an object as JSON; a string as it came when no fault changed it (a JSON string
 * "template" keeps its quotes), else as the fault wrote it (`<html>oops</html>`).
 */
const serialize = ({ body, text }: { body: unknown; text?: string }): string | undefined => {
  if (body === undefined) return undefined;
  if (typeof body !== 'string') return JSON.stringify(body);
  return text !== undefined && parse(text) === body ? text : body;
};

/**
 * The upstream's answer to `request` over `agent` (the proxy's connections, kept open between requests),
 * its body as text; `body` is set to it parsed unless `raw`.
 */
function forward(upstream: string, agent: Agent, request: ProxiedRequest, raw = false): Promise<ProxiedResponse> {
  const body = raw ? request.text || undefined : serialize(request);
  const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(upstream + request.path, { method: request.method, headers: { ...request.headers, ...length }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
        resolve({ status: res.statusCode!, headers, body: raw ? text : parse(text), text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface ProxyOptions {
  /** Every answer is held this long before it is sent. */
  delayMs?: number;
}

export interface Proxy {
  url: string;
  /** The most requests of the suite's checks that were in the proxy at once. */
  peakInFlight(): number;
  close(): Promise<void>;
}

/** Answers `response` with `body`, after `delayMs`; the framing headers are the proxy's own. */
async function send(res: ServerResponse, response: ProxiedResponse, body: string | undefined, delayMs = 0): Promise<void> {
  if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
  delete response.headers['content-length'];
  delete response.headers['content-encoding'];
  delete response.headers['transfer-encoding'];
  // The connection's own (hop by hop): the proxy's connection to its client is not the upstream's.
  delete response.headers.connection;
  delete response.headers['keep-alive'];
  res.writeHead(response.status, response.headers);
  res.end(body);
}

/** A proxy in front of `upstream` injecting `faults` (one, several, or none). */
export async function startProxy(upstream: string, faults: Fault | Fault[] | undefined, options: ProxyOptions = {}): Promise<Proxy> {
  const all = faults === undefined ? [] : Array.isArray(faults) ? faults : [faults];
  let inFlight = 0;
  let peak = 0;
  const agent = new Agent({ keepAlive: true });
  const server: Server = createServer(async (req, res) => {
    const counted = /\(check /.test(req.headers['user-agent'] ?? '');
    if (counted) peak = Math.max(peak, ++inFlight);
    res.on('close', () => counted && inFlight--);
    const text = await readBody(req);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    delete headers.host;
    delete headers['content-length'];
    const request: ProxiedRequest = { method: req.method!, path: req.url!, headers, body: undefined, text };
    const check = checkOf(request);
    const active = all.filter((fault) => !fault.catches || (check !== undefined && fault.catches.includes(check)));
    // A request no fault touches passes as it came, both ways: its bodies are neither parsed nor written again.
    if (active.length === 0) {
      const response = await forward(upstream, agent, request, true);
      return send(res, response, response.text, options.delayMs);
    }
    request.body = parse(text);
    const ask: Upstream = (method, path, body) => forward(upstream, agent, { method, path, headers: { authorization: headers.authorization ?? '', 'content-type': 'application/json' }, body });
    let response: ProxiedResponse | undefined;
    for (const fault of active) response ??= (await fault.request?.(request, ask)) ?? undefined;
    response ??= await forward(upstream, agent, request);
    for (const fault of active) await fault.response?.(request, response, ask);
    await send(res, response, serialize(response), options.delayMs);
  });
  // As the simulator's (src/http/listen.ts KEEP_ALIVE_MS): no reused connection meets one just closed.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    peakInFlight: () => peak,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Applies `change` to every object in a JSON value (nested results, subscriber responses, …). */
export function everyObject(value: unknown, change: (object: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) value.forEach((item) => everyObject(item, change));
  else if (value && typeof value === 'object') {
    change(value as Record<string, unknown>);
    Object.values(value).forEach((item) => everyObject(item, change));
  }
}
