// Request throughput and start-up time of the simulator beside `prism mock` (Prism's HTTP server
// on the same openapi.yaml), measured with autocannon in one run: 10 connections, a few seconds per
// case. Prints one JSON line for bench/run.ts.

import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { createServer as createPrismServer } from '@stoplight/prism-http-server';
import autocannon from 'autocannon';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { startSimulator } from '../src/index.ts';

const SPEC = fileURLToPath(new URL('../openapi.yaml', import.meta.url));
const SECONDS = Number(process.argv[2] ?? 4);

async function timed<T>(start: () => Promise<T>, firstAnswer: (started: T) => Promise<unknown>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await start();
  await firstAnswer(value);
  return { value, ms: Math.round(performance.now() - t0) };
}

async function load(url: string, token: string, method: 'GET' | 'POST', body?: unknown): Promise<number> {
  const result = await autocannon({
    url,
    method,
    connections: 10,
    duration: SECONDS,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (result.non2xx > 0) throw new Error(`${method} ${url}: ${result.non2xx} answers were not 2xx`);
  return Math.round(result.requests.average);
}

const sim = await timed(
  () => startSimulator({ port: 0, quiet: true }),
  (s) => fetch(`${s.url}/healthz`),
);
const prism = await timed(
  async () => {
    const operations = await getHttpOperationsFromSpec(SPEC);
    const server = createPrismServer(operations, {
      // Prism logs at a custom `success` level of its own.
      components: { logger: pino({ level: 'silent', customLevels: { success: 35 } }) as never },
      cors: true,
      config: { mock: { dynamic: false }, checkSecurity: true, validateRequest: true, validateResponse: false, errors: false, upstreamProxy: undefined, isProxy: false },
    });
    const address = await server.listen(0, '127.0.0.1');
    return { server, url: address.replace('0.0.0.0', '127.0.0.1') };
  },
  (p) => fetch(`${p.url}/healthz`),
);

const client = { email: 'load@example.com', full_name: 'Load Test' };
const cases = {
  'GET /api/v1/billing_templates/': [
    await load(`${sim.value.apiUrl}/billing_templates/`, sim.value.token, 'GET'),
    await load(`${prism.value.url}/api/v1/billing_templates/`, sim.value.token, 'GET'),
  ],
  'POST /api/v1/clients/': [
    await load(`${sim.value.apiUrl}/clients/`, sim.value.token, 'POST', client),
    await load(`${prism.value.url}/api/v1/clients/`, sim.value.token, 'POST', client),
  ],
};
await sim.value.stop();
await prism.value.server.close();
console.log(JSON.stringify({ startupMs: [sim.ms, prism.ms], cases }));
