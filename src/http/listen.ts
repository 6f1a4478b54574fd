// Listening on a port as a promise: resolves once the server listens, rejects with the system's
// error (EADDRINUSE, EACCES…), which the CLI turns into one line.

import type { Server } from 'node:http';

export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
