// One JSON request to a running simulator, for the benchmarks that build their data over HTTP; and a
// load of one request case (bench/load.ts in a process of its own) on a running server.

import type { LoadResult, LoadSpec } from './load.ts';
import { runScript } from './spawn.ts';

export interface Target {
  /** The server's origin, `http://127.0.0.1:PORT`. */
  url: string;
  /** A sandbox's bearer token; '' for the requests that need none (`POST /sim/v1/sandboxes`). */
  token: string;
}

/** Sends `body` as JSON; answers the status and the parsed answer, whatever the status. */
export async function send(target: Target, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** The same, answering only the parsed answer: anything but a 2xx throws with the answer. */
export async function call(target: Target, method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const answer = await send(target, method, path, body);
  if (answer.status < 200 || answer.status > 299) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** One request case, as the load benchmarks send it: JSON with a sandbox's bearer token. */
export interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/** Loads `origin` with `request` (autocannon, bench/load.ts); any answer not 2xx, error or timeout fails it. */
export async function loadCase(origin: string, token: string, request: Case, run: Pick<LoadSpec, 'connections' | 'seconds' | 'warmUpSeconds' | 'amount'>): Promise<LoadResult> {
  const spec: LoadSpec = {
    url: origin + request.path,
    method: request.method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    ...run,
  };
  const result = await runScript<LoadResult>('load.ts', [JSON.stringify(spec)]);
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${request.method} ${spec.url}: ${result.non2xx} answers not 2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return result;
}
