// Listening on a port as a promise: resolves once the server listens, rejects with the system's
// error (EADDRINUSE, EACCES…), which the CLI turns into one line.

import type { Server } from 'node:http';

/**
 * How long an idle keep-alive connection stays open. Node's 5 s races its clients: fetch (undici)
 * reuses a connection idle up to 4 s by its own timer, and on a loaded machine, or after a long
 * synchronous turn, that timer fires late, so a request goes out on a socket the server has just
 * closed (ECONNRESET, "fetch failed": seen in the test suite under load). A minute is what load
 * balancers commonly keep; stopping closes every connection anyway (index.ts, proxy.ts).
 */
export const KEEP_ALIVE_MS = 65_000;

export function listen(server: Server, port: number, host: string): Promise<void> {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
