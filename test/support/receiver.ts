// A webhook receiver on loopback for the HTTP tests: it records every POST (path, raw body,
// X-Signature) and answers each path's next status from a script (200 once the script is used up).
// `verifies` checks a delivery's signature the way a merchant's receiver would.

import { verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

export interface Received {
  path: string;
  signature: string;
  raw: string;
  body: { id: string; event_type: string; status?: string; checkout_url?: string };
}

/** Whether `key` (a PEM public key) verifies the delivery's X-Signature over its raw body. */
export const verifies = (key: string, r: Pick<Received, 'raw' | 'signature'>): boolean =>
  verify('sha256', Buffer.from(r.raw), key, Buffer.from(r.signature, 'base64'));

export class Receiver {
  readonly received: Received[] = [];
  private readonly scripts = new Map<string, number[]>();
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        this.received.push({ path: req.url!, signature: String(req.headers['x-signature']), raw, body: JSON.parse(raw) });
        res.writeHead(this.scripts.get(req.url!)?.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next answers to POSTs on `path`, e.g. [500] to fail the first delivery once. */
  script(path: string, statuses: number[]): void {
    this.scripts.set(path, statuses);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Deliveries go out after the answer to the request that caused them: wait for `count` of them. */
  async waitFor(path: string, count: number): Promise<Received[]> {
    for (let i = 0; i < 300 && this.at(path).length < count; i += 1) await new Promise((r) => setTimeout(r, 10));
    return this.at(path);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * The receivers a delivery test needs, started before its file's tests and stopped after: `receiver`
 * answers and records; `silent` never answers (its held responses are in `hanging`); `closed` is a
 * loopback address nothing listens on; `dir` is a scratch folder for data files.
 */
export function useReceivers(prefix: string) {
  const fixture = {
    receiver: new Receiver(),
    hanging: [] as ServerResponse[],
    silent: { url: '' },
    closed: { url: '' },
    dir: mkdtempSync(join(tmpdir(), prefix)),
  };
  let server: Server;
  beforeAll(async () => {
    await fixture.receiver.start();
    server = createServer((_req, res) => fixture.hanging.push(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fixture.silent.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/never`;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    fixture.closed.url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/gone`;
    await new Promise((resolve) => closed.close(resolve));
  });
  afterAll(async () => {
    for (const res of fixture.hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await fixture.receiver.stop();
    rmSync(fixture.dir, { recursive: true, force: true });
  });
  return fixture;
}
