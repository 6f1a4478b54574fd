// The route table compiled from openapi.yaml: one entry per path, each with its operations and
// their ready validators. API requests are dispatched through it in one middleware instead of one
// Express route per operation, which DESIGN.md §5 measured as a large part of Express's cost.

import type { ValidateFunction } from 'ajv';
import type { OpenAPIV3_1 } from 'openapi-types';
import { onFirstUse } from './lazy.ts';
import { documentDigest, precompiled } from './precompiled.ts';
import { compile, createSchemaSet } from './schemas.ts';
import { HTTP_METHODS, resolveRef } from './spec.ts';

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  /** false for the few operations declared with `security: []` (health, sandbox creation). */
  secured: boolean;
  pathParams: string[];
  /**
   * Validates the JSON body; undefined when the operation takes none. Compiled on the first call
   * and kept: a start compiles nothing (about half of it was compiling every operation).
   */
  body: () => ValidateFunction | undefined;
  bodyRequired: boolean;
  /** Validates (and coerces) the query string; undefined without query parameters. Compiled as `body`. */
  query: () => ValidateFunction | undefined;
  /** The schemas `body` and `query` validate with, as compiled (write-validators.ts compiles them at build time). */
  schemas: Partial<Record<'body' | 'query', OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject>>;
}


interface Route {
  /** As openapi.yaml writes it: `/api/v1/clients/{id}/`. */
  path: string;
  pattern: RegExp;
  params: string[];
  staticSegments: number;
  operations: Map<string, Operation>;
}

export type RouteMatch =
  | { kind: 'operation'; operation: Operation; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'not_found' };

export class RouteTable {
  /**
   * Routes without path parameters by their path without its trailing slash (`/api/v1/clients`):
   * one lookup instead of trying each pattern in turn. They come first in `routes` anyway, so a
   * static `/api/v1/public_key/` still wins over any templated route that would match it.
   */
  private readonly byStaticPath = new Map<string, Route>();
  /**
   * Routes with path parameters by their number of segments, in the document's order: a path is
   * tried against the few of its own length, not every pattern (some forty regular expressions).
   */
  private readonly templated = new Map<number, Route[]>();

  constructor(private readonly routes: Route[]) {
    for (const route of routes) {
      if (route.params.length === 0) this.byStaticPath.set(route.path.replace(/\/$/, ''), route);
      else {
        const length = segmentsOf(route.path);
        this.templated.set(length, [...(this.templated.get(length) ?? []), route]);
      }
    }
  }

  get operations(): Operation[] {
    return this.routes.flatMap((route) => [...route.operations.values()]);
  }

  /**
   * Compiles every operation's validators, one operation per turn of the event loop, so that a
   * server that has just started answers its first requests at once and soon pays no compile on
   * any. Resolves when all are compiled, or when `signal` aborts (the server stopped).
   */
  async warmUp(signal?: AbortSignal): Promise<void> {
    for (const operation of this.operations) {
      await new Promise((resolve) => setImmediate(resolve));
      if (signal?.aborted) return;
      operation.body();
      operation.query();
    }
  }

  match(method: string, path: string): RouteMatch {
    const route = this.byStaticPath.get(path.endsWith('/') ? path.slice(0, -1) : path);
    if (route) return this.operationOf(route, method, []);
    for (const route of this.templated.get(segmentsOf(path)) ?? []) {
      const found = route.pattern.exec(path);
      if (found) return this.operationOf(route, method, found.slice(1));
    }
    return { kind: 'not_found' };
  }

  private operationOf(route: Route, method: string, segments: string[]): RouteMatch {
    const operation = route.operations.get(method.toLowerCase());
    if (!operation) return { kind: 'method_not_allowed', allowed: [...route.operations.keys()].map((m) => m.toUpperCase()) };
    const params: Record<string, string> = {};
    for (const [index, name] of route.params.entries()) {
      const value = decoded(segments[index]!);
      // `/api/v1/clients/%ZZ/` names no object; decodeURIComponent throws on it (once a 500).
      if (value === undefined) return { kind: 'not_found' };
      params[name] = value;
    }
    return { kind: 'operation', operation, params };
  }
}

/** How many `/`-separated segments a path has, a trailing slash not counted: `/api/v1/clients/x/` has 4. */
function segmentsOf(path: string): number {
  let slashes = 0;
  for (let i = 0; i < path.length - 1; i += 1) if (path.charCodeAt(i) === 47) slashes += 1;
  return slashes;
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `/api/v1/clients/{id}/` → /^\/api\/v1\/clients\/([^/]+)\/?$/: the trailing slash is optional. */
function compilePath(path: string): Pick<Route, 'pattern' | 'params' | 'staticSegments'> {
  const params: string[] = [];
  let staticSegments = 0;
  const source = path
    .replace(/\/$/, '')
    .split('/')
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      if (!param) {
        staticSegments += 1;
        return escapeRegExp(segment);
      }
      params.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}/?$`), params, staticSegments };
}

/** The schema of an operation's query string: an object of its query parameters; undefined without any. */
function querySchema(parameters: OpenAPIV3_1.ParameterObject[]): OpenAPIV3_1.SchemaObject | undefined {
  const query = parameters.filter((parameter) => parameter.in === 'query');
  if (query.length === 0) return undefined;
  return {
    type: 'object',
    // openapi-types gives a parameter the schema type of OpenAPI 3.0; in a 3.1 document it is a 3.1 schema.
    properties: Object.fromEntries(query.map((parameter) => [parameter.name, (parameter.schema ?? {}) as OpenAPIV3_1.SchemaObject])),
    required: query.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  };
}

/**
 * Route tables by the digest of their document's text. Every simulator of a process shares one
 * document's table and its validators: each start of an app compiled them all again, a second of CPU
 * for every simulator a test file or a program starts, though validators keep no state between calls.
 */
const tables = new Map<string, RouteTable>();

/** The route table of `doc`, made once per process for each document text (see `tables`). */
export function buildRouteTable(doc: OpenAPIV3_1.Document): RouteTable {
  const document = documentDigest(doc);
  let table = tables.get(document);
  if (!table) tables.set(document, (table = routeTableOf(doc, document)));
  return table;
}

/** The route table of `doc`, whose JSON text has the digest `document`. */
function routeTableOf(doc: OpenAPIV3_1.Document, document: string): RouteTable {
  const schemas = createSchemaSet(doc);
  /** An operation's validator of `kind`: compiled at build time for this document, else now. */
  const validator = (kind: 'body' | 'query', operationId: string, schema: OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject | undefined, where: string) =>
    schema && (precompiled(kind, document, operationId) ?? compile(schemas[kind](), schema, `${where} ${kind}`));
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!item) continue;
    const shared = (item.parameters ?? []).map((p) => resolveRef<OpenAPIV3_1.ParameterObject>(doc, p));
    const operations = new Map<string, Operation>();
    for (const method of HTTP_METHODS) {
      const raw = item[method];
      if (!raw) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (!raw.operationId) throw new Error(`openapi.yaml: ${where} has no operationId, which names its handler`);
      const parameters = [...shared, ...(raw.parameters ?? []).map((p) => resolveRef<OpenAPIV3_1.ParameterObject>(doc, p))];
      const requestBody = raw.requestBody && resolveRef<OpenAPIV3_1.RequestBodyObject>(doc, raw.requestBody);
      const bodySchema = requestBody?.content['application/json']?.schema;
      const query = querySchema(parameters);
      const operationId = raw.operationId;
      operations.set(method, {
        operationId: raw.operationId,
        method,
        path,
        secured: (raw.security ?? doc.security ?? []).length > 0,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        body: onFirstUse(() => validator('body', operationId, bodySchema, where)),
        bodyRequired: requestBody?.required ?? false,
        query: onFirstUse(() => validator('query', operationId, query, where)),
        schemas: { body: bodySchema, query },
      });
    }
    routes.push({ path, ...compilePath(path), operations });
  }
  // Static segments before templated ones: `/api/v1/public_key/` must never be read as an id,
  // and a path with more fixed segments is the more specific one.
  routes.sort((a, b) => a.params.length - b.params.length || b.staticSegments - a.staticSegments);
  return new RouteTable(routes);
}
