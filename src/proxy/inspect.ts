// An exchange the proxy forwarded, checked on both sides once the client has its answer: the request
// as the simulator checks it (check-request.ts), the answer as the contract suite checks it
// (check-response.ts), whose fields the document does not name are notes, not violations. A side
// that was not seen whole (the client went away, the upstream did not answer) is not checked.

import type { IncomingHttpHeaders } from 'node:http';
import type { RouteTable } from '../contract/routes.ts';
import { checkRequest } from './check-request.ts';
import { checkResponse } from './check-response.ts';
import type { Forwarded } from './forward.ts';
import type { Exchange, Finding, Violation } from './tally.ts';

export interface SentRequest {
  method: string;
  /** The request target as sent: path and query. */
  url: string;
  headers: IncomingHttpHeaders;
}

export async function inspect(routes: RouteTable, sent: SentRequest, forwarded: Forwarded, now: Date): Promise<Exchange> {
  const queryAt = sent.url.indexOf('?');
  const pathname = queryAt === -1 ? sent.url : sent.url.slice(0, queryAt);
  const search = queryAt === -1 ? '' : sent.url.slice(queryAt + 1);
  const checked = checkRequest(routes, { method: sent.method, pathname, search, headers: sent.headers, body: forwarded.requestBody });
  const { answer } = forwarded;
  const located = (side: Violation['side']) => (finding: Finding): Violation => ({
    side,
    ...finding,
    method: sent.method,
    url: sent.url,
    ...(answer ? { status: answer.status } : {}),
    time: now.toISOString(),
  });
  const violations = forwarded.requestComplete ? checked.findings.map(located('request')) : [];
  const notes: Violation[] = [];
  // An answer to a request outside the document has nothing to be checked against.
  if (answer && checked.documented) {
    const response = await checkResponse(sent.method, pathname, answer);
    violations.push(...response.violations.map(located('response')));
    notes.push(...response.notes.map(located('response')));
  }
  return {
    operation: checked.operation,
    violations,
    notes,
    upstreamError: forwarded.failure !== undefined && forwarded.failure.kind !== 'client_gone',
    unchecked: forwarded.requestBody.kind === 'unreadable' || (answer !== undefined && answer.body.kind !== 'kept'),
  };
}
