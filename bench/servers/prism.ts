// `prism mock` on the simulator's openapi.yaml, in a process of its own, for the throughput peer:
// Prism's HTTP server with static examples, security and request validation on (as `prism mock`
// runs by default), and no log. Announces itself as the simulator does, `API base URL …/api/v1/`.

import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { createServer } from '@stoplight/prism-http-server';
import { fileURLToPath } from 'node:url';
import pino from 'pino';

const SPEC = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

const operations = await getHttpOperationsFromSpec(SPEC);
const server = createServer(operations, {
  // Prism logs at a custom `success` level of its own.
  components: { logger: pino({ level: 'silent', customLevels: { success: 35 } }) as never },
  cors: true,
  config: {
    mock: { dynamic: false },
    checkSecurity: true,
    validateRequest: true,
    validateResponse: false,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
  },
});
const address = await server.listen(0, '127.0.0.1');
console.log(`API base URL ${address.replace('0.0.0.0', '127.0.0.1')}/api/v1/`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
