// The replay's requests to the simulator: a recorded request sent again as it was (its body's text
// and content type, a form as a form), the answer kept with its headers (the sandbox's clock is in
// `Billing-Sim-Clock`). Nothing else of the recorded headers is sent: they were the client's.

/** A replay cannot run: the origin does not answer, is not a simulator, or refuses the token. */
export class ReplayError extends Error {}

/**
 * One answer may take this long. An advance over months of subscribers takes seconds; a server
 * that hangs must still not hang CI for ever (the same guard as the scenario runner's).
 */
const REQUEST_TIMEOUT_MS = 120_000;

export interface SimRequest {
  method: string;
  /** Path and query. */
  target: string;
  token?: string;
  /** A body already as text, sent with `type`. */
  text?: string;
  type?: string;
}

export interface SimAnswer {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
}

export async function send(origin: string, request: SimRequest): Promise<SimAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  if (request.text !== undefined) headers['content-type'] = request.type ?? 'application/json';
  let response: Response;
  let text: string;
  try {
    response = await fetch(new URL(request.target, origin), { method: request.method, headers, body: request.text, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    text = await response.text();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new ReplayError(`${request.method} ${request.target}: no answer from ${origin} (${cause ?? (error as Error).message})`);
  }
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text, headers: response.headers };
}

/** `send` with a JSON body. */
export const sendJson = (origin: string, method: string, target: string, token: string | undefined, body?: unknown): Promise<SimAnswer> =>
  send(origin, { method, target, token, ...(body === undefined ? {} : { text: JSON.stringify(body) }) });
