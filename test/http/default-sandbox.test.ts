// The dashboard's one-click start (src/ui/default-sandbox.ts): POST /ui/default-sandbox answers the
// default sandbox's token, the one `serve` prints, to the dashboard page of this server opened on this
// machine, and to nothing else: not to a page of another origin (a localhost app on another port or
// an origin --cors-origin admits included), not under a Host that is not a loopback name, not to a
// peer that is not this machine; and never with Access-Control-Allow-Origin. fetch() cannot set
// Host, so these requests go through node:http. The browser's side is test/browser/dashboard-gateway.test.ts.

import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { DEFAULT_SANDBOX_PATH, oneClickRefusal } from '../../src/ui/default-sandbox.ts';
import { useHarness } from '../support/harness.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request to `address:port` with exactly these headers (node:http sends Host as given). */
function send(address: string, port: number, method: string, path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: address, port, method, path, headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** What the dashboard page at `http://{host}` sends when the user clicks "Use the default sandbox". */
const fromPage = (host: string): Record<string, string> => ({ host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' });

/** A refusal: 403 (or the host check's), no token anywhere in it, no Access-Control-Allow-Origin. */
function expectNoToken(res: Raw, sim: RunningSimulator, code: string, label: string): void {
  expect(res.status, label).toBe(403);
  expect(JSON.parse(res.text).__all__[0].code, label).toBe(code);
  expect(res.text, label).not.toContain(sim.token);
  expect(res.headers['access-control-allow-origin'], label).toBeUndefined();
}

const OTHER_ORIGIN = 'https://app.example.test';

describe('the dashboard\'s one-click default sandbox (POST /ui/default-sandbox)', () => {
  let sim: RunningSimulator;
  let port: number;
  beforeAll(async () => {
    // An origin CORS admits and a host name the host check admits: the endpoint must keep both out all the same.
    sim = await startSimulator({ port: 0, quiet: true, corsOrigins: [OTHER_ORIGIN], allowedHosts: ['mybox.test'] });
    port = Number(new URL(sim.url).port);
  }, 120_000);
  afterAll(() => sim?.stop());

  const post = (headers: Record<string, string>) => send('127.0.0.1', port, 'POST', DEFAULT_SANDBOX_PATH, headers);

  it('the dashboard page of this server on a loopback name gets the default sandbox\'s token, the one printed at start, and it works', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const res = await post(fromPage(host));
      expect(res.status, host).toBe(200);
      expect(JSON.parse(res.text), host).toEqual({ token: sim.token, sandbox_id: sim.sandboxId, brand_id: sim.brandId });
      expect(res.headers['access-control-allow-origin'], host).toBeUndefined();
      expect(res.headers['cache-control'], host).toBe('no-store');
    }
    const templates = await fetch(`${sim.url}/api/v1/billing_templates/`, { headers: { authorization: `Bearer ${sim.token}` } });
    expect(templates.status).toBe(200);
  });

  it('a request through a reverse proxy on this machine (Forwarded, X-Forwarded-For, Via) gets no token, though its peer, Host and Origin are loopback ones', async () => {
    for (const relay of [{ forwarded: 'for=203.0.113.9' }, { 'x-forwarded-for': '203.0.113.9' }, { via: '1.1 nginx' }] as Record<string, string>[]) {
      expectNoToken(await post({ ...fromPage(`127.0.0.1:${port}`), ...relay }), sim, 'forbidden', JSON.stringify(relay));
    }
  });

  it('a page of another origin gets no token and no Access-Control-Allow-Origin, even one CORS admits elsewhere; nor does a request without Origin', async () => {
    const host = `127.0.0.1:${port}`;
    // Control: elsewhere, CORS lets these origins read answers.
    for (const origin of [OTHER_ORIGIN, 'http://localhost:5173']) {
      const health = await send('127.0.0.1', port, 'GET', '/healthz', { host, origin });
      expect(health.headers['access-control-allow-origin'], origin).toBe(origin);
    }
    const requests: Record<string, Record<string, string>> = {
      'a site on the web': { host, origin: 'https://evil.example' },
      'a --cors-origin origin': { host, origin: OTHER_ORIGIN },
      'a localhost app on another port': { host, origin: 'http://localhost:5173' },
      'the same host name on another port': { host, origin: `http://127.0.0.1:${port + 1}` },
      'https on the same host and port': { host, origin: `https://127.0.0.1:${port}` },
      'a sandboxed frame': { host, origin: 'null' },
      'no Origin (no page of a browser: curl, a script)': { host },
      'the right Origin but a cross-site fetch': { ...fromPage(host), 'sec-fetch-site': 'cross-site' },
    };
    for (const [label, headers] of Object.entries(requests)) expectNoToken(await post(headers), sim, 'forbidden', label);
  });

  it('a Host that is not a loopback name gets no token: a rebound name is refused by the host check, an --allowed-host name and a subdomain of localhost by the endpoint', async () => {
    const rebound = await post(fromPage(`evil.example:${port}`));
    expectNoToken(rebound, sim, 'forbidden_host', 'evil.example');
    for (const host of [`mybox.test:${port}`, `app.localhost:${port}`]) {
      const res = await post(fromPage(host));
      expectNoToken(res, sim, 'forbidden', host);
      expect(JSON.parse(res.text).__all__[0].message, host).toContain('not as localhost, 127.0.0.1 or [::1]');
    }
  });
});

/** An address of this machine that is not loopback (a LAN or container interface), if it has one. */
const lanAddress = Object.values(networkInterfaces()).flat().find((net) => net && net.family === 'IPv4' && !net.internal)?.address;

describe('the one-click default sandbox from another machine\'s address', () => {
  it.skipIf(!lanAddress)('a request that reaches the server over a LAN address gets no token, though its Host and Origin say loopback', async () => {
    // Bound to every interface, as in a container or for a phone on the LAN.
    const sim = await startSimulator({ port: 0, quiet: true, host: '0.0.0.0' });
    try {
      const port = Number(new URL(sim.url).port);
      const headers = fromPage(`127.0.0.1:${port}`);
      const res = await send(lanAddress!, port, 'POST', DEFAULT_SANDBOX_PATH, headers);
      expectNoToken(res, sim, 'forbidden', lanAddress!);
      expect(JSON.parse(res.text).__all__[0].message).toContain(`came from ${lanAddress}`);
      // The same request over loopback gets it.
      expect(JSON.parse((await send('127.0.0.1', port, 'POST', DEFAULT_SANDBOX_PATH, headers)).text).token).toBe(sim.token);
    } finally {
      await sim.stop();
    }
  });

  it('the peer must be a loopback address: 127.x.x.x, ::1, or 127.x.x.x mapped into IPv6', () => {
    const page = { host: '127.0.0.1:4010', origin: 'http://127.0.0.1:4010', fetchSite: 'same-origin' };
    for (const peer of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1']) expect(oneClickRefusal({ ...page, peer }), peer).toBeUndefined();
    for (const peer of ['192.0.2.7', '::ffff:192.0.2.7', 'fd00::2', '0.0.0.0', undefined]) expect(oneClickRefusal({ ...page, peer }), String(peer)).toMatch(/^The request came from/);
  });
});

describe('the one-click default sandbox on a server without one', () => {
  const h = useHarness();

  it('a server whose store has no default sandbox (createApp alone) answers 404 with what to do instead', async () => {
    const port = Number(new URL(h.origin).port);
    const res = await send('127.0.0.1', port, 'POST', DEFAULT_SANDBOX_PATH, fromPage(`127.0.0.1:${port}`));
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).__all__[0]).toEqual({ code: 'not_found', message: expect.stringContaining('New sandbox with fixtures') });
  });
});
