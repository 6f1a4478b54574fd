// `prism mock` serving openapi.yaml, started in-process as bench/throughput.ts starts it: a server
// that answers every documented operation from the document's examples, with no state behind them.

import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { createServer } from '@stoplight/prism-http-server';
import { fileURLToPath } from 'node:url';
import pino from 'pino';

const SPEC = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

export async function startPrismMock(): Promise<{ url: string; close(): Promise<void> }> {
  const operations = await getHttpOperationsFromSpec(SPEC);
  const server = createServer(operations, {
    // Prism logs at a custom `success` level of its own.
    components: { logger: pino({ level: 'silent', customLevels: { success: 35 } }) as never },
    cors: true,
    config: { mock: { dynamic: false }, checkSecurity: true, validateRequest: true, validateResponse: false, errors: false, upstreamProxy: undefined, isProxy: false },
  });
  const address = await server.listen(0, '127.0.0.1');
  return { url: address.replace('0.0.0.0', '127.0.0.1').replace(/\/+$/, ''), close: () => server.close() };
}
