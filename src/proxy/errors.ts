// What the proxy itself answers, in the API's error body (DESIGN.md §3): `{"__all__": [{message, code}]}`,
// so a client behind the proxy reads a failed upstream as it reads any other error.

import type { ServerResponse } from 'node:http';
import { ALL, type ErrorDetail } from '../domain/errors.ts';

export const proxyErrors = {
  upstreamUnreachable: (upstream: string, why: string): ErrorDetail => ({
    message: `The upstream ${upstream} could not be reached: ${why}.`,
    code: 'upstream_unreachable',
  }),
  upstreamTimeout: (upstream: string, ms: number): ErrorDetail => ({
    message: `The upstream ${upstream} did not answer within ${ms} ms.`,
    code: 'upstream_timeout',
  }),
  notFound: (path: string): ErrorDetail => ({
    message: `The proxy has no ${path}; it answers GET /__proxy/report.`,
    code: 'not_found',
  }),
  methodNotAllowed: (method: string): ErrorDetail => ({ message: `Method "${method}" not allowed.`, code: 'method_not_allowed' }),
  originFormOnly: (target: string): ErrorDetail => ({
    message: `The request target "${target.slice(0, 200)}" is not a path; send requests to the proxy as to the server itself.`,
    code: 'invalid',
  }),
};

/** Answers the error; returns what it sent, for a recording of the exchange. */
export function sendError(res: ServerResponse, status: number, detail: ErrorDetail, headers: Record<string, string> = {}): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({ [ALL]: [detail] });
  const sent = { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) };
  res.writeHead(status, sent);
  res.end(body);
  return { headers: sent, body };
}
