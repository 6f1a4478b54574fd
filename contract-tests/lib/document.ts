// Checks a response against openapi.yaml with Prism's own router and output validator: the status
// must be documented for the operation, and the content type, body schema and documented headers
// must match. Used by the contract suite on every response, and by the simulator's own HTTP tests.
//
// Two readings of the document. The full one (the default) is the simulator's: its own tests hold it
// to every field. The platform's reading (`{ platform: true }`, what the contract suite checks any
// target with) requires no property marked `x-simulator-only: true`: a real server that lacks
// Purchase.service_type conforms, one that answers it with a wrong type does not.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { operationsOf, route, validateOutput, type IHttpOperation } from './prism.ts';

export const SPEC_PATH = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

type Node = Record<string, any>;

let operations: Promise<IHttpOperation[]> | undefined;
let platformOperations: Promise<IHttpOperation[]> | undefined;

export interface Reading {
  /** The platform's reading: no `x-simulator-only` property is required (see the file comment). */
  platform?: boolean;
}

export function documentOperations({ platform = false }: Reading = {}): Promise<IHttpOperation[]> {
  if (platform) return (platformOperations ??= operationsOf(withoutSimulatorOnlyRequired(parse(readFileSync(SPEC_PATH, 'utf8')))));
  return (operations ??= operationsOf(SPEC_PATH));
}

/**
 * The document with every property marked `x-simulator-only: true` (on the property, or on the
 * component schema it refers to) left out of the `required` of each object that has it, its own or
 * through `allOf` (Purchase requires `service_type`, which PurchaseFields marks). Changes and returns
 * `document`.
 */
export function withoutSimulatorOnlyRequired(document: Node): Node {
  const schemas = (document.components?.schemas ?? {}) as Node;
  const referred = (node: Node): Node | undefined => {
    const name = typeof node.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(node.$ref)?.[1] : undefined;
    return name === undefined ? undefined : (schemas[name] as Node | undefined);
  };
  const marked = (node: unknown): boolean => {
    if (!node || typeof node !== 'object') return false;
    return (node as Node)['x-simulator-only'] === true || referred(node as Node)?.['x-simulator-only'] === true;
  };
  /** The names of the properties a schema marks simulator-only, its own and its allOf's. */
  const simulatorOnly = (node: Node, seen = new Set<Node>()): Set<string> => {
    const names = new Set<string>();
    if (seen.has(node)) return names;
    seen.add(node);
    for (const [name, property] of Object.entries((node.properties ?? {}) as Node)) if (marked(property)) names.add(name);
    const parts = [...(Array.isArray(node.allOf) ? node.allOf : []), ...(node.$ref ? [node] : [])] as Node[];
    for (const part of parts) {
      const target = part === node ? referred(node) : (referred(part) ?? part);
      if (target) for (const name of simulatorOnly(target, seen)) names.add(name);
    }
    return names;
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const object = node as Node;
    if (Array.isArray(object.required)) {
      const names = simulatorOnly(object);
      if (names.size) object.required = object.required.filter((name: string) => !names.has(name));
    }
    Object.values(object).forEach(visit);
  };
  visit(document);
  return document;
}

export interface SeenResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The operation of the document a request addresses (path as written in the document), if any. */
export async function operationOf(method: string, documentPath: string, reading: Reading = {}): Promise<IHttpOperation | undefined> {
  const resources = await documentOperations(reading);
  const pathname = documentPath.split('?')[0]!;
  for (const path of pathname.endsWith('/') ? [pathname] : [pathname, `${pathname}/`]) {
    const routed = route({ resources, input: { method: method.toLowerCase() as 'get', url: { path } } });
    if (routed._tag === 'Right') return routed.right;
  }
  return undefined;
}

/**
 * What in this response the document does not allow; empty when it conforms. Requests to paths or
 * methods the document lacks have no operation to check against and yield nothing here.
 */
export async function documentViolations(method: string, documentPath: string, response: SeenResponse, reading: Reading = {}): Promise<string[]> {
  const resource = await operationOf(method, documentPath, reading);
  if (!resource) return [];
  const codes = resource.responses.map((r) => r.code);
  if (!codes.includes(String(response.status)) && !codes.includes('default')) {
    return [`status ${response.status} is not documented for ${resource.iid ?? resource.id} (documented: ${codes.join(', ')})`];
  }
  const result = validateOutput({ resource, element: { statusCode: response.status, headers: response.headers, body: response.body } });
  if (result._tag === 'Right') return [];
  return result.left.filter((d) => d.severity === 0).map((d) => `${(d.path ?? []).join('.') || 'response'}: ${d.message}`);
}

/** Throws when the document does not describe this response of this request. */
export async function assertDocumented(method: string, documentPath: string, response: SeenResponse): Promise<void> {
  const problems = await documentViolations(method, documentPath, response);
  if (problems.length) {
    throw new Error(
      `${method} ${documentPath} → ${response.status} does not match openapi.yaml:\n  ${problems.join('\n  ')}\n` +
        `body: ${JSON.stringify(response.body).slice(0, 2000)}`,
    );
  }
}

/** Where in a response a departure from the document lies. */
export interface ResponseIssue {
  part: 'status' | 'content-type' | 'headers' | 'body';
  /** The body field (`['purchase', 'products', '0', 'price']`, a missing property included) or the header; empty for the whole part. */
  path: string[];
  message: string;
}

/**
 * documentViolations, located: for the validating proxy (src/proxy/), which reports each departure by
 * operation and field. Undefined when the document has no operation for the request.
 */
export async function responseIssues(
  method: string,
  documentPath: string,
  response: SeenResponse,
  reading: Reading = {},
): Promise<{ operationId: string; issues: ResponseIssue[] } | undefined> {
  const resource = await operationOf(method, documentPath, reading);
  if (!resource) return undefined;
  const operationId = resource.iid ?? resource.id;
  const codes = resource.responses.map((r) => r.code);
  if (!codes.includes(String(response.status)) && !codes.includes('default')) {
    const message = `status ${response.status} is not documented for ${operationId} (documented: ${codes.join(', ')})`;
    return { operationId, issues: [{ part: 'status', path: [], message }] };
  }
  const result = validateOutput({ resource, element: { statusCode: response.status, headers: response.headers, body: response.body } });
  if (result._tag === 'Right') return { operationId, issues: [] };
  const issues = result.left
    .filter((d) => d.severity === 0)
    .map((d): ResponseIssue => {
      const [where, ...path] = (d.path ?? []).map(String);
      if (where === 'header') return { part: 'headers', path, message: d.message };
      // Prism reports a missing property at its parent (`body`, "must have required property 'brand_id'");
      // it is named here as the error body names it (src/contract/ajv-errors.ts).
      const missing = /must have required property '([^']+)'/.exec(d.message)?.[1];
      if (where === 'body') return { part: 'body', path: missing === undefined ? path : [...path, missing], message: d.message };
      // The media-type diagnostic is the one without a path.
      return { part: /media type/.test(d.message) ? 'content-type' : 'body', path: [], message: d.message };
    });
  return { operationId, issues };
}
