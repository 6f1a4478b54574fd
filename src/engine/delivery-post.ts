// One POST of a delivery (a webhook's or a success_callback's), as it goes on the wire. The header
// names' case matters: the signature once went out as `x-signature`, and a receiver that reads it by
// its documented name (PHP's getallheaders()['X-Signature'], as the platform's own example does)
// found nothing. So the POST is made with node:http, which sends a name as it is written here; the
// Fetch standard's Headers lowercase names, and undici keeps their case only as a detail of its own.
// The receiver has ATTEMPT_TIMEOUT_MS for the whole exchange, and only MAX_ANSWER_BYTES of its
// answer are read: only the status matters.

import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** How long a receiver has to answer an attempt, in wall time for the POST and in sandbox time for the last one. */
export const ATTEMPT_TIMEOUT_MS = 5_000;
/** How much of a receiver's answer is read: only its status matters, and an endless body must not fill memory. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** What a POST sends. */
export interface Outgoing {
  url: string;
  body: string;
  signature: string;
}

/** What came of one POST. */
export interface Answer {
  status: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * The headers as they go on the wire, names in the platform's casing: `X-Signature` is the name the
 * platform documents and its SDKs' examples read.
 */
export function wireHeaders(out: Outgoing): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(out.body)),
    'X-Signature': out.signature,
    'User-Agent': 'billing-sim webhooks',
  };
}

/** What a failed POST is logged as: the few causes a receiver's developer meets, else the error's own words. */
function describeFailure(error: unknown): string {
  const failure = error as { code?: string; message?: string };
  switch (failure.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    default:
      return failure.message ?? String(error);
  }
}

/** The sender for the URL's scheme; an address that is no http(s) URL is a failure to log, not a throw. */
function sender(url: string): { send: (url: URL, options: RequestOptions) => ClientRequest; target: URL } | string {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return `not a URL: ${url}`;
  }
  if (target.protocol === 'http:') return { send: httpRequest, target };
  if (target.protocol === 'https:') return { send: httpsRequest, target };
  return `not an http(s) URL: ${url}`;
}

/** Makes the POST within the time the receiver has, and says what came of it. Never throws, never rejects. */
export function post(out: Outgoing): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    let status: number | null = null;
    let settled = false;
    let req: ClientRequest | undefined;
    let res: IncomingMessage | undefined;
    const timer = setTimeout(() => end('timeout'), ATTEMPT_TIMEOUT_MS);
    /** `whole`: the answer was read to its end, so the connection may serve the next POST. */
    function end(error: string | null, whole = false): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Whatever is still open (a body that never ends, a receiver that never answers) is closed.
      if (!whole) {
        res?.destroy();
        req?.destroy();
      }
      resolve({ status, error, durationMs: Math.round(performance.now() - started) });
    }
    const how = sender(out.url);
    if (typeof how === 'string') return end(how);
    req = how.send(how.target, { method: 'POST', headers: wireHeaders(out) });
    req.on('error', (error) => end(describeFailure(error)));
    req.on('response', (answer) => {
      res = answer;
      status = answer.statusCode ?? null;
      let read = 0;
      answer.on('data', (chunk: Buffer) => {
        read += chunk.byteLength;
        if (read >= MAX_ANSWER_BYTES) end(null);
      });
      answer.on('end', () => end(null, true));
      answer.on('error', (error) => end(describeFailure(error)));
      // Closed by the receiver before the body ended.
      answer.on('close', () => end(answer.complete ? null : 'connection reset'));
    });
    req.end(out.body);
  });
}
