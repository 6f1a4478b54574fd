// `billing-sim proxy` before the real platform, as its own objects show it (DESIGN.md §14: "openapi.yaml
// describes these objects and accepts the platform's own"). A stand-in upstream answers each of the
// platform's 17 published webhook deliveries (test/platform-objects/, with their sources) as the
// answer of the operation that returns that object: a purchase as `GET /purchases/{id}/`, the refund's
// Payment as `POST /purchases/{id}/refund/`. The proxy must find no violation in any of them.

import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type RunningProxy } from '../../src/proxy/proxy.ts';
import { send } from './support.ts';

interface Recorded {
  kind: string;
  event_type: string | null;
  object: { id: string; type: string; related_to?: { id: string } } & Record<string, unknown>;
}

const folder = new URL('../platform-objects/', import.meta.url);
const deliveries = readdirSync(folder)
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(new URL(name, folder), 'utf8')) as Recorded)
  .filter((item) => item.kind === 'webhook' && item.object.id !== '');

/**
 * What the stand-in answers at each request line: the delivered object without its `event_type`.
 * Several deliveries are of one purchase in later states, so each is asked for under an id of its own
 * (the path's id is the request's; the body is the platform's object as published).
 */
const answers = new Map<string, unknown>();
deliveries.forEach(({ object }, index) => {
  const { event_type: _delivered, ...body } = object;
  const id = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
  answers.set(object.type === 'payment' ? `POST /api/v1/purchases/${id}/refund/` : `GET /api/v1/purchases/${id}/`, body);
});

let upstream: Server;
let proxy: RunningProxy;
const lines: string[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = answers.get(`${req.method} ${req.url}`);
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body ?? { __all__: [{ message: 'Not found.', code: 'not_found' }] }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  proxy = await startProxy({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, port: 0, log: (line) => lines.push(line) });
  // A hang guard, not vitest's 10 s for a hook: startProxy reads the document with Prism (about a second
  // of CPU) and this worker's first ajv compiles, which took over 10 s on a loaded 2-core machine.
}, 120_000);

afterAll(async () => {
  await proxy.stop();
  await new Promise((resolve) => upstream.close(resolve));
});

describe('the proxy before a server that answers the platform\'s published objects', () => {
  it('reports no violation in any of the 17 (notes allowed)', async () => {
    expect(deliveries).toHaveLength(17);
    expect(answers.size).toBe(17);
    for (const line of answers.keys()) {
      const [method, path] = line.split(' ') as [string, string];
      const answer = await send(proxy.url, method, path, 'platform-secret-key', method === 'POST' ? { body: {} } : {});
      expect(answer.status, line).toBe(200);
    }
    const report = await proxy.report();
    expect(report.violations, JSON.stringify(report.operations, null, 1)).toBe(0);
    expect(report.operations.getPurchase?.exchanges).toBe(16);
    expect(report.operations.refundPurchase?.exchanges).toBe(1);
    expect(lines.filter((line) => / violation /.test(line))).toEqual([]);
  });
});
