// Checks a response against openapi.yaml with Prism's own router and output validator: the status
// must be documented for the operation, and the content type, body schema and documented headers
// must match. Used by the contract suite on every response, and by the simulator's own HTTP tests.

import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import type { IHttpRequest } from '@stoplight/prism-http';
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js';
import type { IHttpOperation } from '@stoplight/types';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const SPEC_PATH = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };
// Prism's router is a CommonJS default export that its index does not re-export.
const route = createRequire(import.meta.url)('@stoplight/prism-http/dist/router').default as (opts: {
  resources: IHttpOperation[];
  input: IHttpRequest;
}) => Either<Error, IHttpOperation>;

let operations: Promise<IHttpOperation[]> | undefined;

export function documentOperations(): Promise<IHttpOperation[]> {
  return (operations ??= getHttpOperationsFromSpec(SPEC_PATH));
}

export interface SeenResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The operation of the document a request addresses (path as written in the document), if any. */
export async function operationOf(method: string, documentPath: string): Promise<IHttpOperation | undefined> {
  const resources = await documentOperations();
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
export async function documentViolations(method: string, documentPath: string, response: SeenResponse): Promise<string[]> {
  const resource = await operationOf(method, documentPath);
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
): Promise<{ operationId: string; issues: ResponseIssue[] } | undefined> {
  const resource = await operationOf(method, documentPath);
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
