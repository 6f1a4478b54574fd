// The composition root: createApp wires the store, the wall clock, the id source and the compiled
// contract into one Express app. The CLI, startSimulator() and every test build the server here.

import express, { type Express, type RequestHandler } from 'express';
import type { Clock, Ids } from '../domain/context.ts';
import { buildRouteTable } from '../contract/routes.ts';
import type { OpenAPIV3_1 } from 'openapi-types';
import { loadSpec } from '../contract/spec.ts';
import type { Store } from '../store/store.ts';
import { Background, SandboxSerial } from '../engine/background.ts';
import { DEFAULT_SECRET, TokenService } from './auth.ts';
import { CLOCK_HEADER, dispatcher } from './dispatch.ts';
import { IGNORED_HEADER, Leniency } from './lenient.ts';
import { FaultRegistry } from './faults.ts';
import { faultHandlers } from './handlers/faults.ts';
import { errorHandler, MAX_BODY, notFoundHandler, requireJson } from './errors.ts';
import { MAX_EVENTS_PER_SANDBOX } from '../engine/limits.ts';
import type { Services } from './handler.ts';
import { bodyUpgrades, publicHandlers, sandboxHandlers } from './handlers/index.ts';
import { corsPolicy, hostCheck } from './hosts.ts';
import { requestLog } from './request-log.ts';
import { uiRouter } from '../ui/index.ts';

export interface AppDeps {
  store: Store;
  /** Wall time (each sandbox's clock is derived from it). */
  clock: Clock;
  ids: Ids;
  /** The parsed openapi.yaml; loaded from the project root when omitted. */
  spec?: OpenAPIV3_1.Document;
  /** Signs and verifies sandbox tokens (HS256). */
  secret?: string;
  /** Request log lines; omitted = no log. */
  log?: (line: string) => void;
  /** Unexpected errors (500s), with their stack. */
  logError?: (line: string) => void;
  /** Origins allowed by CORS beside localhost ones (`https://app.example.test`), or `*` for any (--cors-origin). */
  corsOrigins?: string[];
  /**
   * Host names served beside loopback ones (--allowed-host; `.example.test` adds subdomains, `*` any).
   * startSimulator adds the --host value; 0.0.0.0 or :: there admits every IP address too (hosts.ts).
   */
  allowedHosts?: string[];
  /** Events kept per sandbox, newest (--max-events); default MAX_EVENTS_PER_SANDBOX. */
  maxEvents?: number;
  /** Every sandbox refuses unknown and read-only /api/v1 body fields (--strict); otherwise only those created strict. */
  strict?: boolean;
  /** The default sandbox, whose token the server printed at start (the dashboard's one-click start); none for a bare app. */
  defaultSandboxId?: string;
}

export interface App {
  express: Express;
  services: Services;
  /** Compiles every operation's validators in small steps (RouteTable.warmUp); otherwise each compiles on first use. */
  warmUp(signal?: AbortSignal): Promise<void>;
}

/** Prefixes of the API and the control API, under which no page is served. */
const API_PREFIXES = ['/api/', '/sim/'];

/**
 * The pages (checkout, dashboard, docs) only for paths outside the APIs: their routers are a dozen
 * layers that every `GET /api/v1/billing_templates/` used to walk and match in vain.
 */
function pagesOutsideApi(pages: RequestHandler): RequestHandler {
  return (req, res, next) => (API_PREFIXES.some((prefix) => req.path.startsWith(prefix)) ? next() : pages(req, res, next));
}

/**
 * A `//` inside a request's path read as `/` (DESIGN.md §11): the platform's Node SDK joins its
 * base URL, which its README gives as `…/api/v1/`, and `/payment_methods/` into
 * `/api/v1//payment_methods/`, which the platform answers. The query is left as it is.
 */
const collapseSlashes: RequestHandler = (req, _res, next) => {
  const url = req.url;
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  if (path.includes('//')) req.url = path.replace(/\/{2,}/g, '/') + (query < 0 ? '' : url.slice(query));
  next();
};

/** A page of an allowed origin may read which body fields were ignored (lenient.ts); cors set the origin just before. */
const exposeIgnored: RequestHandler = (_req, res, next) => {
  if (res.hasHeader('Access-Control-Allow-Origin')) res.setHeader('Access-Control-Expose-Headers', `${IGNORED_HEADER}, ${CLOCK_HEADER}`);
  next();
};

/**
 * Middleware that every request passes, run one after the other within one Express layer: the
 * router matches and dispatches each layer anew per request, a fair part of a small request's cost.
 * Each handler answers or calls `next` (now or later); one that returns a promise has its rejection
 * passed on, as Express does.
 */
function inOneLayer(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null) return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.then(undefined, (rejected: unknown) => next(rejected ?? new Error('Rejected promise')));
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

export function createApp(deps: AppDeps): App {
  const spec = deps.spec ?? loadSpec();
  const routes = buildRouteTable(spec);
  const serial = new SandboxSerial();
  const logError = deps.logError ?? ((line: string) => console.error(line));
  const services: Services = {
    store: deps.store,
    clock: deps.clock,
    ids: deps.ids,
    tokens: new TokenService(deps.secret ?? DEFAULT_SECRET, deps.clock),
    serial,
    background: new Background(deps.store, deps.clock, deps.ids, serial, logError, deps.maxEvents ?? MAX_EVENTS_PER_SANDBOX),
    defaultSandboxId: deps.defaultSandboxId,
  };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (deps.log) app.use(requestLog(deps.log));
  // The host check before everything else, the pages and /healthz included: a rebound name gets nothing (hosts.ts).
  app.use(inOneLayer(collapseSlashes, hostCheck(deps.allowedHosts), corsPolicy(deps.corsOrigins), exposeIgnored, pagesOutsideApi(uiRouter(services)), requireJson));
  // Not strict: any JSON value parses, so `42` or `null` where an object belongs is a schema error
  // naming what was expected, not a "parse error" on valid JSON.
  app.use(express.json({ limit: MAX_BODY, strict: false, type: ['application/json', 'application/*+json'] }));
  // In memory beside the dispatcher, one per app: faults are no sandbox state (faults.ts).
  const faults = new FaultRegistry(routes.operations, (sandboxId) => deps.store.get(sandboxId) !== undefined);
  const handlers = { ...sandboxHandlers, ...faultHandlers(faults) };
  const leniency = deps.strict ? undefined : new Leniency(spec);
  app.use(dispatcher({ routes, publicHandlers, sandboxHandlers: handlers, bodyUpgrades, faults, logError, leniency }, services));
  app.use(notFoundHandler);
  app.use(errorHandler(logError));
  return { express: app, services, warmUp: (signal) => routes.warmUp(signal) };
}
