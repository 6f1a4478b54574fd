// A small fault-injecting proxy for proving the contract suite: it forwards every request to the
// simulator and lets one fault rewrite the request on the way in or the response on the way out.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import { KEEP_ALIVE_MS } from '../../src/http/listen.ts';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface Fault {
  name: string;
  request?(request: ProxiedRequest): void;
  response?(request: ProxiedRequest, response: ProxiedResponse): void;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const parse = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
};

export async function startProxy(upstream: string, fault: Fault | undefined): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    delete headers.host;
    delete headers['content-length'];
    const request: ProxiedRequest = { method: req.method!, path: req.url!, headers, body: parse(text) };
    fault?.request?.(request);
    const body = request.body === undefined ? undefined : typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    const upstreamResponse = await fetch(upstream + request.path, { method: request.method, headers: request.headers, body });
    const response: ProxiedResponse = {
      status: upstreamResponse.status,
      headers: Object.fromEntries(upstreamResponse.headers.entries()),
      body: parse(await upstreamResponse.text()),
    };
    fault?.response?.(request, response);
    delete response.headers['content-length'];
    delete response.headers['content-encoding'];
    delete response.headers['transfer-encoding'];
    res.writeHead(response.status, response.headers);
    res.end(response.body === undefined ? undefined : typeof response.body === 'string' ? response.body : JSON.stringify(response.body));
  });
  // As the simulator's (src/http/listen.ts KEEP_ALIVE_MS): no reused connection meets one just closed.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
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
