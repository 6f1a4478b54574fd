// A request checked as the simulator checks it: the route table and ajv validators of
// src/contract (the same compiled operations src/http/dispatch.ts serves from), with ajv's errors
// turned into the error body's field paths by ajv-errors.ts. What the simulator would answer with a
// 4xx is a violation of the request here; the request is forwarded all the same.

import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { ValidateFunction } from 'ajv';
import { toFieldErrors } from '../contract/ajv-errors.ts';
import { beyondSchema } from '../contract/beyond-schema.ts';
import { validateWithin } from '../contract/error-budget.ts';
import type { Operation, RouteTable } from '../contract/routes.ts';
import { ALL, type FieldErrors } from '../domain/errors.ts';
import type { KeptBody } from './body.ts';
import { MAX_REQUEST_BODY_BYTES } from './limits.ts';
import type { Finding, OperationRef } from './tally.ts';

export interface SeenRequest {
  method: string;
  /** The path as sent, without the query. */
  pathname: string;
  /** The query string without its `?`. */
  search: string;
  headers: IncomingHttpHeaders;
  /** The body as sent, decoded from its content-encoding. */
  body: KeptBody;
}

export interface CheckedRequest {
  operation: OperationRef;
  /** The operation of the document, when the request names one. */
  documented?: Operation;
  findings: Finding[];
}

/** Methods whose body the simulator ignores when the operation takes none (dispatch.ts). */
const BODY_IGNORED = new Set(['GET', 'HEAD', 'DELETE']);

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

export function checkRequest(routes: RouteTable, request: SeenRequest): CheckedRequest {
  // HEAD is answered as GET, as the simulator answers it.
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const match = routes.match(method, request.pathname);
  if (match.kind === 'not_found') {
    return {
      operation: { name: `${request.method} ${request.pathname}`, method: request.method, path: request.pathname, inDocument: false },
      findings: [{ part: 'path', message: `${request.pathname} is not a path of openapi.yaml.` }],
    };
  }
  if (match.kind === 'method_not_allowed') {
    const path = documentPathOf(routes, request.pathname, match.allowed);
    return {
      operation: { name: `${request.method} ${path}`, method: request.method, path, inDocument: false },
      findings: [{ part: 'method', message: `openapi.yaml has no ${request.method} for this path (it has ${match.allowed.join(', ')}).` }],
    };
  }
  const { operation } = match;
  const ref: OperationRef = { name: operation.operationId, method: operation.method.toUpperCase(), path: operation.path, inDocument: true };
  const findings = [...authFindings(operation, request.headers), ...queryFindings(operation, request.search), ...bodyFindings(operation, request)];
  return { operation: ref, documented: operation, findings };
}

/** The document's path of a route that matched without the method: that of one of the methods it has. */
function documentPathOf(routes: RouteTable, pathname: string, allowed: string[]): string {
  const match = allowed[0] === undefined ? undefined : routes.match(allowed[0], pathname);
  return match?.kind === 'operation' ? match.operation.path : pathname;
}

function authFindings(operation: Operation, headers: IncomingHttpHeaders): Finding[] {
  if (!operation.secured || /^Bearer \S/i.test(headers.authorization ?? '')) return [];
  return [{ part: 'headers', field: 'Authorization', message: 'The operation needs `Authorization: Bearer <token>`; the server answers 401.' }];
}

function queryFindings(operation: Operation, search: string): Finding[] {
  const validate = operation.query();
  if (!validate) return [];
  // Parsed as Express 5 parses it (querystring), into a map without a prototype: `?__proto__=1` is a plain entry.
  const query = Object.assign(Object.create(null) as Record<string, unknown>, parseQuery(search));
  return fieldFindings('query', validated(validate, query));
}

function bodyFindings(operation: Operation, request: SeenRequest): Finding[] {
  if (request.body.kind === 'too_large') {
    return [{ part: 'body', message: `The body is larger than ${MAX_REQUEST_BODY_BYTES} bytes; the server answers 413.` }];
  }
  if (request.body.kind === 'unreadable') return [{ part: 'body', message: `Not readable: ${request.body.why}.` }];
  const bytes = request.body.bytes;
  const validate = operation.body();
  const sent = bytes.length > 0;
  if (!validate && (!sent || BODY_IGNORED.has(request.method))) return [];
  const type = request.headers['content-type'];
  if (sent && !JSON_TYPE.test(type ?? '')) {
    return [{ part: 'content-type', message: `A body of type ${type ?? '(none)'}; the operation takes application/json.` }];
  }
  let body: unknown = {};
  if (sent) {
    try {
      body = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      return [{ part: 'body', message: `Not JSON: ${(error as Error).message}` }];
    }
  }
  if (!validate) return unexpectedBody(body);
  return fieldFindings('body', validated(validate, body));
}

/** The operation takes no body: every field sent is one it does not define (dispatch.ts rejectUnexpectedBody). */
function unexpectedBody(body: unknown): Finding[] {
  if (body !== null && typeof body === 'object' && Object.keys(body).length === 0) return [];
  const fields = body !== null && typeof body === 'object' ? Object.keys(body) : [];
  if (fields.length === 0) return [{ part: 'body', message: 'The operation takes no body.' }];
  return fields.map((field) => ({ part: 'body', field, message: 'This field is not defined for this operation. (unknown_field)' }));
}

/** ajv's errors and what no schema refuses (beyond-schema.ts), as the simulator's error body would list them. */
function validated(validate: ValidateFunction, data: unknown): FieldErrors {
  const { errors, stopped } = validateWithin(validate, data);
  const beyond = beyondSchema(data);
  return errors.length === 0 && beyond.length === 0 ? {} : toFieldErrors([...beyond, ...errors], stopped);
}

function fieldFindings(part: string, fields: FieldErrors): Finding[] {
  return Object.entries(fields).flatMap(([field, details]) =>
    details.map((detail) => ({ part, ...(field === ALL ? {} : { field }), message: `${detail.message} (${detail.code})` })),
  );
}
