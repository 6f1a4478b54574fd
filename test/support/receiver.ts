// A webhook receiver on loopback for the HTTP tests: it records every POST (path, raw body,
// X-Signature) and answers each path's next status from a script (200 once the script is used up).
// `verifies` checks a delivery's signature the way a merchant's receiver would. A test waits for the
// POSTs themselves (`waitFor` is woken by each one), never for a guessed time: CI machines differ
// up to 2.4× in speed and may be loaded.

import { verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * How long a wait for something the simulator does at once (a delivery, a logged answer) may take
 * before it counts as a hang: far above what a loaded, slow machine needs (well under a second), and
 * below vitest's testTimeout (20 s, vitest.config.ts), so a hang fails with the wait's own message
 * (what was awaited, what came) rather than a bare "test timed out".
 */
export const HANG_GUARD_MS = 15_000;

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
  /** Waits of `waitFor`, each checked again as every POST arrives. */
  private readonly waiting = new Set<() => void>();
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
        for (const check of [...this.waiting]) check();
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

  /**
   * Deliveries go out after the answer to the request that caused them: waits until `count` of them
   * have reached `path` and gives all that have (perhaps more). Fails, naming what did arrive, when
   * they have not after `timeoutMs`, which only catches a hang.
   */
  waitFor(path: string, count: number, { timeoutMs = HANG_GUARD_MS } = {}): Promise<Received[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.at(path).length < count) return;
        done();
        resolve(this.at(path));
      };
      const timer = setTimeout(() => {
        done();
        const came = this.at(path).map((r) => r.body.event_type);
        reject(new Error(`waited ${timeoutMs} ms for ${count} POST(s) to ${path}; ${came.length} came: ${came.join(', ') || 'none'}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(check);
      };
      this.waiting.add(check);
      check();
    });
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
