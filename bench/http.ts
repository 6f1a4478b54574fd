// One JSON request to a running simulator, for the benchmarks that build their data over HTTP.

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
