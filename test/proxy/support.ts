// The validating proxy's test bench: the simulator, the contract self-test's fault-injecting proxy in
// front of it (test/contract/fault-proxy.ts), and the validating proxy in front of that, so a fault
// the fault proxy injects reaches the validating proxy as an upstream's answer would.

import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startProxy as startFaultProxy, type Fault } from '../contract/fault-proxy.ts';
import { startProxy, type ProxyOptions, type RunningProxy } from '../../src/proxy/proxy.ts';

export interface Chain {
  proxy: RunningProxy;
  /** What the validating proxy logged. */
  lines: string[];
  /** One request through the validating proxy; `raw` is sent as is. */
  call(method: string, path: string, options?: { body?: unknown; raw?: string; headers?: Record<string, string> }): Promise<Answer>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: any;
}

export async function send(origin: string, method: string, path: string, token: string | undefined, options: { body?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  let body = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(origin + path, { method, headers, body, signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  const parsed = text && (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined;
  return { status: response.status, headers: Object.fromEntries(response.headers.entries()), text, body: parsed };
}

/** simulator ← fault proxy (with `fault`) ← validating proxy; the proxy's log collected. */
export async function chain(simUrl: string, token: string, fault: Fault | undefined, options: Partial<ProxyOptions> = {}): Promise<Chain> {
  const faulty = await startFaultProxy(simUrl, fault);
  const lines: string[] = [];
  const proxy = await startProxy({ upstream: faulty.url, port: 0, log: (line) => lines.push(line), ...options });
  return {
    proxy,
    lines,
    call: (method, path, callOptions) => send(proxy.url, method, path, token, callOptions),
    async close() {
      await proxy.stop();
      await faulty.close();
    },
  };
}

/**
 * An upstream that forwards to `target` but never answers a request carrying `x-hang`: it reads it
 * and keeps the connection open, as a server stuck on a lock would.
 */
export async function hangingUpstream(target: string): Promise<{ url: string; held: Promise<void>; close(): Promise<void> }> {
  let hold!: () => void;
  const held = new Promise<void>((resolve) => (hold = resolve));
  const server: Server = createServer((req, res) => {
    if (req.headers['x-hang'] !== undefined) {
      req.resume();
      return hold();
    }
    const out = request(target + req.url, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Resolves once a request is being held. */
    held,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
