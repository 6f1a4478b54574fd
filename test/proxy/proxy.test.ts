// The validating proxy (DESIGN.md §8: "forwards every request to a real server, checks each request
// and response against openapi.yaml and logs every violation"), with the simulator as the real server
// and the contract self-test's fault proxy between them to play a server that breaks the contract.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { startProxy } from '../../src/proxy/proxy.ts';
import type { ProxyReport } from '../../src/proxy/tally.ts';
import { everyObject, type Fault } from '../contract/fault-proxy.ts';
import { clientBody, subscriptionBody } from '../builders/templates.ts';
import { chain, hangingUpstream, send, type Chain } from './support.ts';
import { freePort } from '../support/ports.ts';

let sim: RunningSimulator;
const dir = mkdtempSync(join(tmpdir(), 'billing-sim-proxy-'));
const chains: Chain[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
});
afterAll(async () => {
  await Promise.all(chains.map((c) => c.close()));
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function through(fault?: Fault, options?: Parameters<typeof chain>[3]): Promise<Chain> {
  const made = await chain(sim.url, sim.token, fault, options);
  chains.push(made);
  return made;
}

const report = async (c: Chain): Promise<ProxyReport> => (await send(c.proxy.url, 'GET', '/__proxy/report', undefined)).body as ProxyReport;
const pathOf = (url: string) => url.split('?')[0]!;

describe('valid traffic passes through unchanged and is reported clean', () => {
  it('creates a client and a template and lists templates: three operations, no violation', async () => {
    const c = await through();
    const client = await c.call('POST', '/api/v1/clients/', { body: clientBody({ email: 'proxy@example.com' }) });
    expect(client.status).toBe(201);
    expect(client.body).toMatchObject({ type: 'client', email: 'proxy@example.com' });
    const template = await c.call('POST', '/api/v1/billing_templates/', { body: subscriptionBody(sim.brandId) });
    expect(template.status).toBe(201);
    const list = await c.call('GET', '/api/v1/billing_templates/?page_size=5');
    expect(list.status).toBe(200);
    expect(list.body.results.map((t: { id: string }) => t.id)).toContain(template.body.id);

    const tally = await report(c);
    expect(tally.violations, JSON.stringify(tally, null, 2)).toBe(0);
    expect(tally.exchanges).toBe(3);
    expect(tally.operations).toEqual({
      createBillingTemplate: expect.objectContaining({ method: 'POST', path: '/api/v1/billing_templates/', exchanges: 1, violations: 0, listed: [] }),
      createClient: expect.objectContaining({ method: 'POST', path: '/api/v1/clients/', exchanges: 1, violations: 0, listed: [] }),
      listBillingTemplates: expect.objectContaining({ method: 'GET', path: '/api/v1/billing_templates/', exchanges: 1, violations: 0, listed: [] }),
    });
    expect(c.lines.filter((line) => line.includes('violation'))).toEqual([]);
  });

  it("answers with the upstream's status, headers and bytes", async () => {
    // Straight to the simulator: the fault proxy re-frames what it passes on.
    const proxy = await startProxy({ upstream: sim.url, port: 0, log: () => {} });
    try {
      const created = await send(sim.url, 'POST', '/api/v1/clients/', sim.token, { body: clientBody() });
      const direct = await send(sim.url, 'GET', `/api/v1/clients/${created.body.id}/`, sim.token);
      const proxied = await send(proxy.url, 'GET', `/api/v1/clients/${created.body.id}/`, sim.token);
      expect(proxied.status).toBe(200);
      expect(proxied.text).toBe(direct.text);
      // Both clocks move between the two answers: the wall's (Date) and the default sandbox's, which follows it.
      const { date: _d1, 'billing-sim-clock': _c1, ...directHeaders } = direct.headers;
      const { date: _d2, 'billing-sim-clock': _c2, ...proxiedHeaders } = proxied.headers;
      expect(_c2).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(proxiedHeaders).toEqual(directHeaders);
      expect((await proxy.report()).operations.getClient).toMatchObject({ exchanges: 1, violations: 0 });
    } finally {
      await proxy.stop();
    }
  });

  it('forwards method, path, query, end-to-end headers and body; rewrites Host; drops hop-by-hop headers', async () => {
    let seen: { method?: string; url?: string; headers: Record<string, unknown>; body: string } = { headers: {}, body: '' };
    const echo = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen = { method: req.method, url: req.url, headers: req.headers, body };
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const upstream = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    const proxy = await startProxy({ upstream, port: 0, log: () => {} });
    try {
      const raw = '{"email": "a@example.com",  "full_name": "Ada"}';
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(`${proxy.url}/api/v1/clients/?x=1&x=2`, {
          method: 'POST',
          headers: { authorization: 'Bearer abc', 'content-type': 'application/json', 'x-request-id': 'r-1', connection: 'keep-alive, x-private', 'x-private': 'secret' },
        });
        req.on('response', (res) => res.resume().on('end', resolve));
        req.on('error', reject);
        req.end(raw);
      });
      expect(seen).toMatchObject({ method: 'POST', url: '/api/v1/clients/?x=1&x=2', body: raw });
      expect(seen.headers).toMatchObject({ host: new URL(upstream).host, authorization: 'Bearer abc', 'content-type': 'application/json', 'x-request-id': 'r-1' });
      expect(seen.headers).not.toHaveProperty('x-private');
    } finally {
      await proxy.stop();
      echo.closeAllConnections();
      echo.close();
    }
  });
});

describe('a wrong answer of the upstream is a violation of its operation', () => {
  it('a wrong status code (200 instead of 201 for a created client)', async () => {
    const c = await through({
      name: 'created client answered 200',
      response: (req, res) => {
        if (req.method === 'POST' && /\/api\/v1\/clients\/?$/.test(pathOf(req.path)) && res.status === 201) res.status = 200;
      },
    });
    const answer = await c.call('POST', '/api/v1/clients/', { body: clientBody() });
    // Passed on as the upstream answered it.
    expect(answer.status).toBe(200);
    const tally = await report(c);
    expect(tally.violations).toBe(1);
    expect(tally.operations.createClient).toMatchObject({ exchanges: 1, violations: 1 });
    expect(tally.operations.createClient!.listed).toEqual([
      expect.objectContaining({ side: 'response', part: 'status', method: 'POST', url: '/api/v1/clients/', status: 200, message: expect.stringContaining('201') }),
    ]);
    const logged = c.lines.filter((line) => line.includes(' violation '));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/ violation createClient response status: status 200 is not documented .*\(POST \/api\/v1\/clients\/ → 200\)$/);
  });

  it('a required field missing from the answer (brand_id of every template) names the field', async () => {
    const c = await through({
      name: 'brand_id dropped',
      response: (_req, res) => everyObject(res.body, (o) => void (o.type === 'billing_template' && delete o.brand_id)),
    });
    expect((await c.call('POST', '/api/v1/billing_templates/', { body: subscriptionBody(sim.brandId) })).status).toBe(201);
    expect((await c.call('GET', '/api/v1/billing_templates/?page_size=2')).status).toBe(200);
    const tally = await report(c);
    expect(tally.operations.createBillingTemplate!.listed).toEqual([expect.objectContaining({ side: 'response', part: 'body', field: 'brand_id' })]);
    const listed = tally.operations.listBillingTemplates!.listed;
    expect(listed.map((v) => v.field).sort()).toEqual(['results.0.brand_id', 'results.1.brand_id']);
    expect(c.lines.some((line) => line.includes('violation createBillingTemplate response body brand_id: '))).toBe(true);
  });

  it('an answer that is not JSON where JSON is documented: content type and body', async () => {
    const c = await through({
      name: 'HTML instead of JSON',
      response: (req, res) => {
        if (pathOf(req.path).endsWith('/clients/') && req.method === 'GET') {
          res.headers['content-type'] = 'text/html';
          res.body = '<html>oops</html>';
        }
      },
    });
    expect((await c.call('GET', '/api/v1/clients/')).text).toBe('<html>oops</html>');
    const parts = (await report(c)).operations.listClients!.listed.map((v) => v.part);
    expect(parts).toContain('content-type');
  });
});

describe('a compressed answer', () => {
  it('is passed on compressed and checked decompressed', async () => {
    // A real server gzips its answers for a client that accepts it; the simulator does not.
    const pages = [{ results: [], next: null, previous: null }, { results: [], next: null }];
    const upstream = createHttpServer((req, res) => {
      const page = pages.shift()!;
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify(page)));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const proxy = await startProxy({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, port: 0, log: () => {} });
    try {
      const first = await send(proxy.url, 'GET', '/api/v1/clients/', sim.token, { headers: { 'accept-encoding': 'gzip' } });
      expect(first.headers['content-encoding']).toBe('gzip');
      expect(first.body).toEqual({ results: [], next: null, previous: null });
      await send(proxy.url, 'GET', '/api/v1/clients/', sim.token, { headers: { 'accept-encoding': 'gzip' } });
      const { operations } = await proxy.report();
      expect(operations.listClients).toMatchObject({ exchanges: 2, violations: 1, unchecked: 0 });
      expect(operations.listClients!.listed).toEqual([expect.objectContaining({ side: 'response', part: 'body', field: 'previous' })]);
    } finally {
      await proxy.stop();
      upstream.closeAllConnections();
      upstream.close();
    }
  });
});

describe('requests are checked as the simulator checks them, and forwarded all the same', () => {
  it("a webhook's callback without a scheme: reported in the simulator's words (\"Enter a valid URL. …\"), no regex", async () => {
    const c = await through();
    const answer = await c.call('POST', '/api/v1/webhooks/', { body: { callback: 'localhost:9000/hook', events: ['purchase.paid'] } });
    expect(answer.status).toBe(400);
    const listed = (await report(c)).operations.createWebhook!.listed;
    expect(listed).toContainEqual(expect.objectContaining({ side: 'request', part: 'body', field: 'callback', message: expect.stringMatching(/^Enter a valid URL\. .*\(invalid\)$/) }));
    expect(listed.map((v) => v.message).join('\n')).not.toMatch(/\^|\\S/);
  });

  it('a body with a misspelt field: reported on the request side, and the upstream answers it', async () => {
    const c = await through();
    const answer = await c.call('POST', '/api/v1/clients/', { body: { emial: 'typo@example.com' } });
    // The simulator's own answer: it got the request, ignored the misspelt field as the platform does
    // (DESIGN.md §14) and found no e-mail address.
    expect(answer.status).toBe(400);
    expect(answer.body.email).toEqual([expect.objectContaining({ code: 'required' })]);
    const listed = (await report(c)).operations.createClient!.listed;
    expect(listed).toContainEqual(expect.objectContaining({ side: 'request', part: 'body', field: 'emial', message: expect.stringContaining('unknown_field') }));
    // No `email: required` from the document: a client may have a bank account instead, which only the server checks.
    expect(listed.filter((v) => v.field === 'email')).toEqual([]);
    // The 400 is documented for createClient: nothing on the response side.
    expect(listed.filter((v) => v.side === 'response')).toEqual([]);
    expect(c.lines.some((line) => / violation createClient request body emial: .*unknown_field.*→ 400\)$/.test(line))).toBe(true);
  });

  it('a bad query, a body that is not JSON, a missing token, an unknown path and a wrong method', async () => {
    const c = await through();
    await c.call('GET', '/api/v1/billing_templates/?page_size=5000');
    await c.call('POST', '/api/v1/clients/', { raw: '{"email": ', headers: { 'content-type': 'application/json' } });
    await send(c.proxy.url, 'GET', '/api/v1/purchases/', undefined);
    const unknown = await c.call('GET', '/api/v1/nothing-here/');
    expect(unknown.status).toBe(404);
    await c.call('DELETE', '/api/v1/public_key/');
    const { operations } = await report(c);
    expect(operations.listBillingTemplates!.listed).toEqual([expect.objectContaining({ side: 'request', part: 'query', field: 'page_size' })]);
    expect(operations.createClient!.listed).toEqual([expect.objectContaining({ side: 'request', part: 'body', message: expect.stringMatching(/^Not JSON/) })]);
    expect(operations.listPurchases!.listed).toEqual([expect.objectContaining({ side: 'request', part: 'headers', field: 'Authorization' })]);
    expect(operations['GET /api/v1/nothing-here/']!.listed).toEqual([expect.objectContaining({ side: 'request', part: 'path' })]);
    expect(operations['DELETE /api/v1/public_key/']!.listed).toEqual([expect.objectContaining({ side: 'request', part: 'method', message: expect.stringContaining('GET') })]);
  });

  it('a body over the API\'s 1 MiB: forwarded, answered 413 before it has all come, and reported', async () => {
    // An upstream that answers 413 on the content-length alone, as servers may; the client sends the
    // rest of its body only once it has that answer.
    const upstream = createHttpServer((_req, res) => {
      res.writeHead(413, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ __all__: [{ message: 'Request body is larger than 1 MiB.', code: 'too_large' }] }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const proxy = await startProxy({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, port: 0, log: () => {} });
    try {
      const body = Buffer.from(JSON.stringify(clientBody({ full_name: 'x'.repeat(1024 * 1024) })));
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${proxy.url}/api/v1/clients/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${sim.token}`, 'content-type': 'application/json', 'content-length': body.length },
        });
        req.on('response', (res) => {
          res.resume();
          req.end(body.subarray(64 * 1024));
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.write(body.subarray(0, 64 * 1024));
      });
      expect(status).toBe(413);
      // vi.waitFor gives up after 1 s by default: a hang guard here, as expect.poll has (vitest.config.ts).
      await vi.waitFor(async () => expect((await proxy.report()).exchanges).toBe(1), { timeout: 15_000 });
      expect((await proxy.report()).operations.createClient!.listed).toEqual([
        expect.objectContaining({ side: 'request', part: 'body', message: expect.stringContaining('larger than 1048576 bytes'), status: 413 }),
      ]);
    } finally {
      await proxy.stop();
      upstream.closeAllConnections();
      upstream.close();
    }
  });

  it('a CORS preflight is forwarded and answered, but is no operation to count', async () => {
    const c = await through();
    const answer = await c.call('OPTIONS', '/api/v1/clients/', {
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(await report(c)).toMatchObject({ exchanges: 0, operations: {} });
  });

  it('the proxy\'s own paths are never forwarded', async () => {
    let forwarded = 0;
    const c = await through({ name: 'counts', request: () => void (forwarded += 1) });
    const missing = await send(c.proxy.url, 'GET', '/__proxy/nothing', undefined);
    expect(missing.status).toBe(404);
    expect(missing.body.__all__[0].code).toBe('not_found');
    expect((await send(c.proxy.url, 'POST', '/__proxy/report', undefined, { body: {} })).status).toBe(405);
    expect((await send(c.proxy.url, 'GET', '/__proxy/report', undefined)).status).toBe(200);
    expect(forwarded).toBe(0);
    expect((await report(c)).exchanges).toBe(0);
  });
});

describe('an upstream that fails', () => {
  it('never answering: 502 after the timeout, while other requests are served', async () => {
    // The other request proves something only when it is answered before the timeout ends the held one;
    // on a loaded machine it may not be, and the round runs again with twice the timeout.
    for (let timeoutMs = 1_500; !(await neverAnswering(timeoutMs)); timeoutMs *= 2) {
      expect(timeoutMs, 'the other request was served before the held one timed out').toBeLessThan(24_000);
    }
  });

  it('unreachable: 502 with the error body at once', async () => {
    const port = await freePort();
    const lines: string[] = [];
    const proxy = await startProxy({ upstream: `http://127.0.0.1:${port}`, port: 0, log: (line) => lines.push(line) });
    try {
      const answer = await send(proxy.url, 'GET', '/api/v1/clients/', sim.token);
      expect(answer.status).toBe(502);
      expect(answer.body.__all__).toEqual([expect.objectContaining({ code: 'upstream_unreachable', message: expect.stringContaining('ECONNREFUSED') })]);
      expect(lines.filter((line) => line.includes(' violation '))).toEqual([]);
      expect((await proxy.report()).operations.listClients).toMatchObject({ exchanges: 1, violations: 0, upstream_errors: 1 });
    } finally {
      await proxy.stop();
    }
  });
});

describe('on stop, the report files', () => {
  it('JSON: the tally; JUnit: one test case per operation, failing with its violations', async () => {
    const reportFile = join(dir, 'out', 'report.json');
    const junitFile = join(dir, 'out', 'junit.xml');
    const faulty = await chain(sim.url, sim.token, {
      name: 'created client answered 200',
      response: (req, res) => void (req.method === 'POST' && res.status === 201 && (res.status = 200)),
    }, { reportFile, junitFile });
    await faulty.call('POST', '/api/v1/clients/', { body: clientBody() });
    await faulty.call('GET', '/api/v1/clients/');
    const seen = await report(faulty);
    await faulty.close();

    const written = JSON.parse(readFileSync(reportFile, 'utf8')) as ProxyReport;
    expect(written).toEqual(seen);
    expect(written.operations.createClient).toMatchObject({ violations: 1 });
    const xml = readFileSync(junitFile, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(2);
    expect(xml).toMatch(/<testsuites [^>]*tests="2" failures="1"/);
    expect(xml).toMatch(/<testcase classname="openapi.yaml" name="createClient \(POST \/api\/v1\/clients\/\)">\s*<failure message="1 violation\(s\)[^"]*" type="violation">[^<]*violation createClient response status: status 200 is not documented/);
    expect(xml).toMatch(/<testcase classname="openapi.yaml" name="listClients \(GET \/api\/v1\/clients\/\)">\s*<system-out>/);
    expect(faulty.lines.at(-1)).toMatch(/^billing-sim proxy: 2 exchange\(s\), 1 violation\(s\) in 1 operation\(s\); wrote report .*report\.json, JUnit .*junit\.xml$/);
  });

  it('cuts a hung exchange instead of waiting for it', async () => {
    const hanging = await hangingUpstream(sim.url);
    const reportFile = join(dir, 'hung.json');
    const proxy = await startProxy({ upstream: hanging.url, port: 0, reportFile, log: () => {} });
    const stuck = send(proxy.url, 'GET', '/api/v1/clients/', sim.token, { headers: { 'x-hang': '1' } }).catch((error: Error) => error);
    await hanging.held;
    // The upstream never answers until it is closed, after this: stop() ends only by cutting the exchange.
    await proxy.stop();
    expect(await stuck).toBeInstanceOf(Error);
    // Counted, though unanswered: the proxy cut it, not the upstream.
    expect(JSON.parse(readFileSync(reportFile, 'utf8'))).toMatchObject({ exchanges: 1, violations: 0, operations: { listClients: { upstream_errors: 0 } } });
    await hanging.close();
  });
});

/**
 * A request held by an upstream that never answers, beside another one: the held one is answered 502
 * after `timeoutMs`, with the error body, a log line and the tally's upstream error. True when the other
 * was served while the held one waited; false when the timeout came first (the round proved no overlap).
 */
async function neverAnswering(timeoutMs: number): Promise<boolean> {
  const hanging = await hangingUpstream(sim.url);
  const lines: string[] = [];
  const proxy = await startProxy({ upstream: hanging.url, port: 0, timeoutMs, log: (line) => lines.push(line) });
  try {
    // The proxy's first exchange compiles what checking it needs (seconds on a loaded machine): done
    // before the held request, so that the other one is answered in the time an answer takes.
    for (let tries = 1; (await send(proxy.url, 'GET', '/api/v1/clients/', sim.token)).status !== 200; tries++) {
      expect(tries, 'the proxy answers at all within the timeout').toBeLessThan(10);
    }
    const tally = async () => (await proxy.report()).operations.listClients!;
    const before = await tally();
    const started = performance.now();
    let stuckAnswered = false;
    const stuck = send(proxy.url, 'GET', '/api/v1/clients/', sim.token, { headers: { 'x-hang': '1' } }).finally(() => (stuckAnswered = true));
    // Closed early (a failed expectation below), the held request's reset is not an unhandled rejection.
    stuck.catch(() => undefined);
    await hanging.held;
    const other = await send(proxy.url, 'GET', '/api/v1/clients/', sim.token);
    // On a loaded machine the other request may itself outlast the timeout: then nothing was proven.
    if (other.status === 502 && (other.body as { __all__?: { code: string }[] }).__all__?.[0]?.code === 'upstream_timeout') {
      await stuck;
      return false;
    }
    const servedWhileHeld = !stuckAnswered;
    expect(other.status).toBe(200);
    if (servedWhileHeld) expect(await tally()).toMatchObject({ exchanges: before.exchanges + 1, upstream_errors: before.upstream_errors });

    const answer = await stuck;
    expect(performance.now() - started).toBeGreaterThanOrEqual(timeoutMs);
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual({ __all__: [{ code: 'upstream_timeout', message: expect.stringContaining(`${timeoutMs} ms`) }] });
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(` upstream GET /api/v1/clients/ → 502: The upstream .* did not answer within ${timeoutMs} ms\\. \\(not a violation\\)$`)));
    expect(lines.filter((line) => line.includes(' violation '))).toEqual([]);
    expect(await tally()).toMatchObject({ exchanges: before.exchanges + 2, violations: 0, upstream_errors: before.upstream_errors + 1 });
    return servedWhileHeld;
  } finally {
    await proxy.stop();
    await hanging.close();
  }
}
