// The one middleware that serves every operation of openapi.yaml: match the route table, check the
// token, validate path, query and body with the operation's precompiled validators, call the handler.
// Between the token check and the rest, the sandbox's injected faults (faults.ts) may answer instead.
// An /api/v1 body of a sandbox that is not strict is read as the platform reads it first (lenient.ts).

import type { NextFunction, Request, Response } from 'express';
import type { ValidateFunction } from 'ajv';
import { validateWithin, type Validation } from '../contract/error-budget.ts';
import { ALL, ApiError, emptyFieldErrors, errors, fieldError, notFound } from '../domain/errors.ts';
import type { Input } from '../domain/types.ts';
import { toFieldErrors } from '../contract/ajv-errors.ts';
import { beyondSchema } from '../contract/beyond-schema.ts';
import { MAX_ERRORS } from '../contract/limits.ts';
import type { Operation, RouteTable } from '../contract/routes.ts';
import { sandboxGone } from './auth.ts';
import { sandboxNow } from '../domain/sandbox-clock.ts';
import { applyFaults, type FaultRegistry } from './faults.ts';
import type { PublicHandler, SandboxHandler, Services } from './handler.ts';
import { IGNORED_HEADER, IgnoredPaths, type Leniency } from './lenient.ts';
import { sendReply } from './send.ts';
import { inSandboxTurn } from './turn.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const READS = new Set(['GET', 'HEAD']);
/** The sandbox's clock when it answered (ISO-8601), on every answer to a request with a sandbox token. */
export const CLOCK_HEADER = 'Billing-Sim-Clock';

export interface DispatchTables {
  routes: RouteTable;
  publicHandlers: Record<string, PublicHandler>;
  sandboxHandlers: Record<string, SandboxHandler>;
  /** Per operation: brings a body written for an older version to today's shape, in place, before it is validated. */
  bodyUpgrades?: Record<string, (body: unknown) => void>;
  /** The sandboxes' injected faults; none when omitted. */
  faults?: FaultRegistry;
  /** Where a failure after the answer has begun is reported (a body in pieces: send.ts); stderr when omitted. */
  logError?: (line: string) => void;
  /** Reads /api/v1 bodies of sandboxes that are not strict as the platform does; omitted, every sandbox is strict (--strict). */
  leniency?: Leniency;
}

/**
 * Validates (and, for a query, coerces) `data`, then looks for what no schema refuses (non-finite
 * numbers, deep nesting); the query is looked at after coercion, which turns `page_size=1e400`
 * into Infinity.
 */
function check(validate: ValidateFunction, data: unknown, validation: Validation = validateWithin(validate, data)): void {
  const { errors: invalid, stopped } = validation;
  const beyond = beyondSchema(data);
  if (invalid.length === 0 && beyond.length === 0) return;
  throw new ApiError(400, toFieldErrors([...beyond, ...invalid], stopped));
}

/**
 * A body sent to a POST/PUT/PATCH that takes none is refused field by field, like any unknown field
 * (`POST /purchases/{id}/cancel/ {"reason": …}` must not look accepted). GET and DELETE ignore bodies.
 */
function rejectUnexpectedBody(body: unknown): void {
  if (body === undefined || (typeof body === 'object' && body !== null && Object.keys(body).length === 0)) return;
  const fields = emptyFieldErrors();
  // One more than the body lists, so that it says the rest were cut.
  const names = typeof body === 'object' && body !== null ? Object.keys(body).slice(0, MAX_ERRORS + 1) : [ALL];
  for (const field of names) fields[field] = [errors.unknownField()];
  throw new ApiError(400, fields);
}

/** What a lenient reading ignored, named in the answer's header and its log line (request-log.ts). */
function nameIgnored(res: Response, ignored: IgnoredPaths): void {
  if (ignored.count === 0) return;
  const named = ignored.header();
  res.setHeader(IGNORED_HEADER, named);
  res.locals.ignored = named;
}

function validatedInput(
  operation: Operation,
  req: Request,
  res: Response,
  params: Record<string, string>,
  leniency: Leniency | undefined,
  upgrade?: (body: unknown) => void,
) {
  // Ids are UUIDs (spec: "Path parameters are UUID strings"); anything else names no object: 404.
  if (operation.pathParams.some((name) => !UUID.test(params[name] ?? ''))) throw notFound();
  // Query names are the client's, like body keys: `?__proto__=1` stays a plain entry.
  // Express parses the query string when first asked for it: a URL without one has none to parse.
  const query = Object.create(null) as Record<string, unknown>;
  if (req.url.includes('?')) Object.assign(query, req.query);
  const queryValidator = operation.query();
  if (queryValidator) check(queryValidator, query);
  const bodyValidator = operation.body();
  // A read takes no body: nothing of it to ignore.
  const ignored = leniency && !READS.has(req.method) ? new IgnoredPaths() : undefined;
  if (!bodyValidator) {
    // A DELETE's body is ignored as the platform ignores it, and named like any ignored field; strict refuses none there.
    if (!READS.has(req.method) && !leniency?.ignoreAll(req.body, ignored!) && req.method !== 'DELETE') rejectUnexpectedBody(req.body);
    if (ignored) nameIgnored(res, ignored);
    return { query, body: {} as Input };
  }
  // No body at all where openapi.yaml requires one (PATCH /clients/{id}/ with nothing): the schema of a PATCH
  // takes any subset, `{}` included, so the missing body is named here rather than answered as a change of nothing.
  if (req.body === undefined && operation.bodyRequired) throw fieldError(ALL, errors.required('A JSON body is required.'));
  const body = req.body === undefined ? {} : req.body;
  upgrade?.(body);
  if (!ignored) check(bodyValidator, body);
  else {
    const validation = leniency!.read(operation, bodyValidator, body, ignored);
    // Named on a refusal too: what was ignored is not what the error body names.
    nameIgnored(res, ignored);
    check(bodyValidator, body, validation);
  }
  return { query, body: body as Input };
}

export function dispatcher(tables: DispatchTables, services: Services) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const match = tables.routes.match(method, req.path);
    if (match.kind === 'not_found') return next();
    if (match.kind === 'method_not_allowed') {
      res.setHeader('Allow', match.allowed.join(', '));
      throw new ApiError(405, { [ALL]: [errors.methodNotAllowed(req.method)] });
    }
    const { operation, params } = match;
    const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    const url = origin + req.path;

    // The control API (/sim/v1) is the simulator's own: its bodies stay strict (openapi.yaml, "Requests").
    const leniency = operation.path.startsWith('/api/') ? tables.leniency : undefined;
    if (!operation.secured) {
      const { query, body } = validatedInput(operation, req, res, params, leniency, tables.bodyUpgrades?.[operation.operationId]);
      const handler = tables.publicHandlers[operation.operationId];
      if (!handler) throw notImplemented(operation);
      const authorization = req.get('authorization');
      return sendReply(req, res, await handler({ params, query, body, url, origin, ip: callerIp(req), services, authorization }), { logError: tables.logError });
    }

    // A token verified before, and a turn with nothing to wait for, are answered without a promise hop.
    const authorization = req.get('authorization');
    const sandboxId = services.tokens.known(authorization) ?? (await services.tokens.verify(authorization));
    res.locals.sandboxId = sandboxId;
    // Before the body is validated and outside the turn: an injected 503 answers a malformed body as a
    // real outage would, and an injected delay holds up no other request of the sandbox.
    if (tables.faults?.has(sandboxId) && !(await applyFaults(tables.faults, sandboxId, operation.operationId, res))) return;
    const turn = inSandboxTurn(
      services,
      sandboxId,
      (sandbox, ctx) => {
        sandbox.publicOrigin = origin;
        // The sandbox's instant, for a recording to replay at (src/recording/): a refusal carries it too.
        const stamp = () => res.setHeader(CLOCK_HEADER, new Date(sandboxNow(sandbox.clock, services.clock)).toISOString());
        stamp();
        // Input is validated even for an operation not simulated yet: a bad request is a 400 either way.
        const lenient = sandbox.origin.strict === true ? undefined : leniency;
        const { query, body } = validatedInput(operation, req, res, params, lenient, tables.bodyUpgrades?.[operation.operationId]);
        const handler = tables.sandboxHandlers[operation.operationId];
        if (!handler) throw notImplemented(operation);
        const reply = handler({ params, query, body, url, origin, ip: callerIp(req), services, sandbox, ctx });
        // After the handler too: a clock advance or a restored checkpoint answers at the instant it moved to.
        if (reply instanceof Promise) return reply.finally(stamp);
        stamp();
        return reply;
      },
      () => {
        throw sandboxGone();
      },
    );
    const reply = turn instanceof Promise ? await turn : turn;
    // Deliveries the change queued go out after the answer, not before it.
    if (!READS.has(req.method) && reply.status < 400) services.background.changed(sandboxId);
    // Written now, before the sandbox's next turn can start (it waits in services.serial behind this
    // one): records that a later billing changes in place are serialised as this turn left them.
    sendReply(req, res, reply, { logError: tables.logError });
  };
}

/** The address the request came from, an IPv4 one without the `::ffff:` that a dual-stack socket gives it. */
const callerIp = (req: Request): string => (req.socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.)/, '');

function notImplemented(operation: Operation): ApiError {
  return new ApiError(501, {
    [ALL]: [errors.notImplemented(`${operation.operationId} is described in openapi.yaml but not simulated yet.`)],
  });
}
