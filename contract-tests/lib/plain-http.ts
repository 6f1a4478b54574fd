// Requests made outside the checks — the preflight, capability discovery, the cleanup — with no
// document validation and no exchange log: what they learn decides whether and how the checks run,
// so a departure from openapi.yaml here is the checks' business, not a reason to stop. Each request
// has a time limit, so that a target that never answers stops the preflight in seconds, not minutes.

/** One request's time limit: a server that has not answered by then is taken as not answering. */
export const REQUEST_TIMEOUT_MS = 5_000;

export interface Answer {
  status: number;
  /** The parsed JSON body, or undefined when the answer is not JSON. */
  body: any;
  text: string;
}

export interface CallOptions {
  method?: string;
  /** The bearer token; none: no Authorization header. */
  token?: string;
  body?: unknown;
  /** Aborts the request (with its own time limit still applying). */
  signal?: AbortSignal;
}

/** The target did not answer: refused, unknown host, timed out. Its message names the cause (`ECONNREFUSED`). */
export class Unreachable extends Error {
  override name = 'Unreachable';
}

export async function call(url: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
    });
    text = await response.text();
  } catch (error) {
    throw new Unreachable(causeOf(error));
  }
  let body: unknown;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  return { status: response.status, body, text };
}

/** `ECONNREFUSED 127.0.0.1:1`, `no answer within 5 s`, or the error's own message. */
function causeOf(error: unknown): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  return err.cause?.message ?? err.cause?.code ?? err.message;
}

export const is2xx = (answer: Answer): boolean => answer.status >= 200 && answer.status <= 299;

/** A value no other object carries, for telling a real answer from a canned one. */
export function marker(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}
