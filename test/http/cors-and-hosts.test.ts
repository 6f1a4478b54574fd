// DESIGN.md §6 "Browsers": a web page the developer visits must not drive the simulator. CORS
// answers localhost origins (and --cors-origin ones); a Host header that is not a loopback name,
// the --host value or an --allowed-host name gets 403 `forbidden_host` (DNS rebinding). fetch()
// cannot set Host, so these requests go through node:http.

import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertDocumented } from '../../contract-tests/lib/document.ts';
import { createApp } from '../../src/http/app.ts';
import { parseAllowedHost, parseCorsOrigin } from '../../src/http/hosts.ts';
import { createIds } from '../../src/engine/ids.ts';
import { MAX_EVENTS_PER_SANDBOX } from '../../src/engine/limits.ts';
import { MemoryStore } from '../../src/store/store.ts';
import { startHarness, useHarness, type Harness } from '../support/harness.ts';
import { CLI } from '../support/cli.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request to 127.0.0.1:port with these headers, `host` among them (node:http sends it as given). */
function send(port: number, method: string, path: string, headers: Record<string, string> & { host: string }, body?: unknown): Promise<Raw> {
  const all: Record<string, string> = body === undefined ? headers : { ...headers, 'content-type': 'application/json' };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: all }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text && (res.headers['content-type'] ?? '').includes('json') ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The status code of a request written byte for byte, for what node:http will not send (HTTP/1.0, an empty Host). */
function sendBytes(port: number, text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.\d (\d{3})/.exec(answer)?.[1])));
    socket.on('error', reject);
  });
}

const portOf = (h: Harness): number => Number(new URL(h.origin).port);
const preflight = (origin: string) => ({ origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' });

function expectForbiddenHost(res: Raw): void {
  expect(res.status).toBe(403);
  expect(res.headers['access-control-allow-origin']).toBeUndefined();
  expect(res.body.__all__[0].code).toBe('forbidden_host');
  expect(res.body.__all__[0].message).toContain('--allowed-host');
}

describe('CORS: localhost origins by default', () => {
  const h = useHarness();
  const LOCAL = ['http://localhost:5173', 'https://localhost:8443', 'http://127.0.0.1:3000', 'http://[::1]:5173', 'http://app.localhost:5173', 'http://localhost'];
  const FOREIGN = ['https://evil.example', 'http://localhost.evil.example', 'http://192.168.1.20:5173', 'http://127.0.0.1.evil.example:3000', 'null'];

  it('a preflight from a localhost origin is 204 with that origin, the methods and the headers', async () => {
    for (const origin of LOCAL) {
      const res = await h.request('OPTIONS', '/api/v1/billing_templates/', { token: null, headers: preflight(origin) });
      expect(res.status, origin).toBe(204);
      expect(res.headers['access-control-allow-origin'], origin).toBe(origin);
      expect(res.headers['access-control-allow-methods']).toBe('GET,HEAD,POST,PUT,PATCH,DELETE');
      expect(res.headers['access-control-allow-headers']).toBe('Authorization,Content-Type');
      expect(res.headers.vary).toContain('Origin');
    }
  });

  it('a preflight from any other origin is refused: 403 forbidden_origin and no Access-Control-Allow-Origin', async () => {
    for (const origin of FOREIGN) {
      const res = await h.request('OPTIONS', '/api/v1/webhooks/', { token: null, headers: preflight(origin) });
      expect(res.status, origin).toBe(403);
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(res.headers['access-control-allow-methods'], origin).toBeUndefined();
      expect((res.body as any).__all__[0]).toMatchObject({ code: 'forbidden_origin' });
      expect((res.body as any).__all__[0].message).toContain('--cors-origin');
    }
    expect(h.logs.at(-1)).toMatch(/^\S+Z - OPTIONS \/api\/v1\/webhooks\/ 403 .* __all__: forbidden_origin$/);
  });

  it('an actual request from a localhost origin carries its origin, errors included', async () => {
    const ok = await h.request('GET', '/api/v1/clients/', { headers: { origin: 'http://localhost:5173' } });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    const unauthenticated = await h.request('GET', '/api/v1/clients/', { token: null, headers: { origin: 'http://127.0.0.1:3000' } });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000');
  });

  it('an actual request from another origin is answered without Access-Control-Allow-Origin, so the browser keeps it from the page', async () => {
    const res = await h.request('GET', '/api/v1/clients/', { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a request without Origin (an API client, not a browser) gets Vary: Origin and no Access-Control-Allow-Origin, a POST as a GET', async () => {
    const read = await h.request('GET', '/api/v1/clients/');
    expect(read.status).toBe(200);
    expect(read.headers.vary).toBe('Origin');
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    const write = await h.request('POST', '/api/v1/clients/', { body: { email: 'no-origin@example.com' } });
    expect(write.status).toBe(201);
    expect(write.headers.vary).toBe('Origin');
    expect(write.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('an OPTIONS that is not a preflight (no Origin) is still a 204', async () => {
    const res = await h.request('OPTIONS', '/api/v1/clients/', { token: null });
    expect(res.status).toBe(204);
  });
});

describe('Host: loopback names and the --host value only', () => {
  const h = useHarness();

  it('loopback names are served, with any port, in any case, with or without the trailing dot', async () => {
    const port = portOf(h);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `app.localhost:${port}`, 'LOCALHOST', `localhost.:${port}`, `127.0.0.2:${port}`, '[0:0:0:0:0:0:0:1]']) {
      const res = await send(port, 'GET', '/healthz', { host });
      expect(res.status, host).toBe(200);
    }
  });

  it('a request naming another host gets 403 forbidden_host, the pages and /healthz included', async () => {
    const port = portOf(h);
    for (const path of ['/healthz', '/api/v1/clients/', '/sim/v1/clock', '/', '/docs', '/checkout/6b042125-686a-43e0-8a68-23cf5bee102e/']) {
      const res = await send(port, 'GET', path, { host: `evil.example:${port}`, authorization: `Bearer ${h.token}` });
      expectForbiddenHost(res);
      await assertDocumented('GET', path, { status: res.status, headers: res.headers as Record<string, string>, body: res.body });
    }
    expect(h.logs.at(-1)).toMatch(/ 403 .* __all__: forbidden_host$/);
  });

  it('names that merely contain a loopback name, other addresses and malformed Host headers are refused', async () => {
    const port = portOf(h);
    for (const host of ['localhost.evil.example', '127.0.0.1.evil.example', 'evil.example@localhost', `192.168.1.20:${port}`, '[::2]', `localhost:${port}:1`, 'localhost/x']) {
      expectForbiddenHost(await send(port, 'GET', '/healthz', { host }));
    }
    expect(await sendBytes(port, 'GET /healthz HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n')).toBe(403);
  });

  it('a refused request changes nothing, and a refused preflight never reaches CORS', async () => {
    const port = portOf(h);
    const created = await send(port, 'POST', '/api/v1/clients/', { host: 'evil.example', authorization: `Bearer ${h.token}` }, { email: 'rebound@example.com' });
    expectForbiddenHost(created);
    await assertDocumented('POST', '/api/v1/clients/', { status: created.status, headers: created.headers as Record<string, string>, body: created.body });
    const sandbox = await send(port, 'POST', '/sim/v1/sandboxes', { host: 'evil.example' }, {});
    expectForbiddenHost(sandbox);
    const list = await h.request('GET', '/api/v1/clients/');
    expect((list.body as any).results.map((c: { email: string }) => c.email)).not.toContain('rebound@example.com');
    expectForbiddenHost(await send(port, 'OPTIONS', '/api/v1/clients/', { host: 'evil.example', ...preflight('http://localhost:5173') }));
  });

  it('a request without Host (an HTTP/1.0 probe; no browser sends one) passes', async () => {
    expect(await sendBytes(portOf(h), 'GET /healthz HTTP/1.0\r\n\r\n')).toBe(200);
  });
});

describe('--allowed-host and --cors-origin widen the defaults', () => {
  const h = useHarness({ deps: { allowedHosts: ['MyBox.local', '.example.test'], corsOrigins: ['https://app.example.test:8443/', 'http://mybox.local:5173'] } });

  it('allowed names and the subdomains of a leading-dot entry are served; other names are not', async () => {
    const port = portOf(h);
    for (const host of [`mybox.local:${port}`, 'example.test', `api.example.test:${port}`, `localhost:${port}`]) {
      expect((await send(port, 'GET', '/healthz', { host })).status, host).toBe(200);
    }
    for (const host of ['other.local', 'notexample.test', 'mybox.local.evil.example']) expectForbiddenHost(await send(port, 'GET', '/healthz', { host }));
  });

  it('the extra origins get CORS, localhost ones still do, others still do not', async () => {
    for (const origin of ['https://app.example.test:8443', 'http://mybox.local:5173', 'http://localhost:5173']) {
      const res = await h.request('OPTIONS', '/api/v1/clients/', { token: null, headers: preflight(origin) });
      expect(res.status, origin).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
    }
    for (const origin of ['https://app.example.test', 'http://mybox.local:5174', 'https://evil.example']) {
      const res = await h.request('OPTIONS', '/api/v1/clients/', { token: null, headers: preflight(origin) });
      expect(res.status, origin).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});

describe('* opens either check', () => {
  const h = useHarness({ deps: { allowedHosts: ['*'], corsOrigins: ['*'] } });

  it('--cors-origin * answers every origin with *; --allowed-host * serves every name', async () => {
    const res = await h.request('OPTIONS', '/api/v1/clients/', { token: null, headers: preflight('https://evil.example') });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    // Without an Origin too: `*` is the answer to every request.
    expect((await h.request('GET', '/api/v1/clients/')).headers['access-control-allow-origin']).toBe('*');
    expect((await send(portOf(h), 'GET', '/healthz', { host: 'anything.example' })).status).toBe(200);
  });
});

describe('--host 0.0.0.0 (all interfaces)', () => {
  // As startSimulator passes it: the --host value is one of the allowed hosts.
  const h = useHarness({ deps: { allowedHosts: ['0.0.0.0'] } });

  it('serves any IP address, since the machine\'s addresses are unknown and an address cannot be rebound, but names only as allowed', async () => {
    const port = portOf(h);
    for (const host of [`0.0.0.0:${port}`, `192.168.1.20:${port}`, '10.0.0.7', `[fe80::1]:${port}`, 'localhost']) {
      expect((await send(port, 'GET', '/healthz', { host })).status, host).toBe(200);
    }
    expectForbiddenHost(await send(port, 'GET', '/healthz', { host: `mybox.local:${port}` }));
  });
});

describe('parsing --cors-origin and --allowed-host entries', () => {
  it('an origin is scheme://host[:port], canonicalised as browsers send it', () => {
    expect(parseCorsOrigin('*')).toBe('*');
    expect(parseCorsOrigin('https://App.Example.test:8443/')).toBe('https://app.example.test:8443');
    expect(parseCorsOrigin('http://example.test:80')).toBe('http://example.test');
    for (const bad of ['app.example.test', 'https://a.test/app', 'ftp://a.test', 'https://a.test?x', 'null', '']) {
      expect(() => parseCorsOrigin(bad), bad).toThrow(/is not an origin/);
    }
  });

  it('an allowed host is a name or an address without a port, `.name` or *', () => {
    expect(parseAllowedHost('MyBox.Local.')).toBe('mybox.local');
    expect(parseAllowedHost('.Example.test')).toBe('.example.test');
    expect(parseAllowedHost('::')).toBe('[::]');
    expect(parseAllowedHost('*')).toBe('*');
    for (const bad of ['mybox:4010', 'http://mybox', 'my box', '[::1]:80', '']) {
      expect(() => parseAllowedHost(bad), bad).toThrow(/is not a host name/);
    }
  });

  it('createApp refuses a bad entry at once, instead of serving with a policy nobody asked for', () => {
    const deps = { store: new MemoryStore(), clock: { now: () => 0 }, ids: createIds(1) };
    expect(() => createApp({ ...deps, corsOrigins: ['app.example.test'] })).toThrow(/is not an origin/);
    expect(() => createApp({ ...deps, allowedHosts: ['mybox:4010'] })).toThrow(/is not a host name/);
  });

  it('--max-events reaches the engine: a sandbox keeps that many events, the newest; MAX_EVENTS_PER_SANDBOX without it', async () => {
    const deps = { store: new MemoryStore(), clock: { now: () => 0 }, ids: createIds(1) };
    expect(createApp(deps).services.background.runOptions.maxEvents).toBe(MAX_EVENTS_PER_SANDBOX);
    const small = await startHarness({ deps: { maxEvents: 2 } });
    try {
      const client = (await small.request('POST', '/api/v1/clients/', { body: { email: 'kept@example.com' } })).body as { id: string };
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const purchase = await small.request('POST', '/api/v1/purchases/', { body: { brand_id: small.brandId, client_id: client.id, purchase: { currency: 'EUR', products: [{ name: 'x', price: 100 }] } } });
        expect(purchase.status).toBe(201);
        ids.push((purchase.body as { id: string }).id);
      }
      const events = ((await small.request('GET', '/sim/v1/events')).body as { results: { object_id: string }[] }).results;
      expect(events.map((event) => event.object_id)).toEqual([ids[2], ids[1]]);
    } finally {
      await small.close();
    }
  });
});

describe('billing-sim serve: the flags and the environment', () => {
  const children: ChildProcess[] = [];

  /** Runs the CLI until it prints its last start-up line (or exits); returns what it printed. */
  function serve(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; stdout: string; stderr: string; code: number | null }> {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--quiet', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    return new Promise((resolve) => {
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('try: curl')) resolve({ child, stdout, stderr, code: null });
      });
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('exit', (code) => resolve({ child, stdout, stderr, code }));
    });
  }

  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  });

  let started: Awaited<ReturnType<typeof serve>>;
  let port = 0;
  beforeAll(async () => {
    started = await serve(['--host', '0.0.0.0', '--cors-origin', 'https://app.example.test', '--cors-origin', 'https://two.example.test'], {
      BILLING_SIM_ALLOWED_HOST: 'mybox.local, .example.test',
      // Ignored: the flag wins.
      BILLING_SIM_CORS_ORIGIN: 'https://env.example.test',
      BILLING_SIM_MAX_EVENTS: '5',
    });
    port = Number(/control API\s+http:\/\/[^/]+:(\d+)\//.exec(started.stdout)?.[1]);
  }, 30_000);

  it('takes repeated --cors-origin flags, and BILLING_SIM_ALLOWED_HOST comma-separated', async () => {
    expect(started.code, started.stderr).toBeNull();
    for (const origin of ['https://app.example.test', 'https://two.example.test']) {
      const res = await send(port, 'OPTIONS', '/api/v1/clients/', { host: `127.0.0.1:${port}`, ...preflight(origin) });
      expect(res.status, origin).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
    }
    expect((await send(port, 'OPTIONS', '/api/v1/clients/', { host: `127.0.0.1:${port}`, ...preflight('https://env.example.test') })).status).toBe(403);
    for (const host of [`mybox.local:${port}`, `api.example.test:${port}`, `192.168.1.20:${port}`]) {
      expect((await send(port, 'GET', '/healthz', { host })).status, host).toBe(200);
    }
    expectForbiddenHost(await send(port, 'GET', '/healthz', { host: `evil.example:${port}` }));
  });

  it('on all interfaces, says at start which names it answers to', () => {
    expect(started.stdout).toMatch(/host names\s+all interfaces: any IP address, localhost and --allowed-host names/);
    expect(started.stdout).toContain(`--allowed-host mybox.local`);
  });

  it('a bad entry or count is a usage error: exit 2 with one line naming it', async () => {
    const badOrigin = await serve(['--cors-origin', 'app.example.test']);
    expect(badOrigin.code).toBe(2);
    expect(badOrigin.stderr).toBe('billing-sim: CORS origin "app.example.test" is not an origin (scheme://host[:port], e.g. https://app.example.test, or *) (see billing-sim serve --help)\n');
    const badHost = await serve([], { BILLING_SIM_ALLOWED_HOST: 'mybox:4010' });
    expect(badHost.code).toBe(2);
    expect(badHost.stderr).toMatch(/^billing-sim: allowed host "mybox:4010" is not a host name/);
    const badCount = await serve(['--max-events', 'many']);
    expect(badCount.code).toBe(2);
    expect(badCount.stderr).toMatch(/^billing-sim: --max-events must be a non-negative integer, got "many"/);
  }, 30_000);
});
