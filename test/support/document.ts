// Every response a simulator test sees is checked against openapi.yaml with Prism's own router and
// output validator, so the server cannot drift from its document unnoticed.

import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import type { IHttpRequest } from '@stoplight/prism-http';
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js';
import type { IHttpOperation } from '@stoplight/types';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const SPEC = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));
type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };
// Prism's router is a CommonJS default export that its index does not re-export.
const route = createRequire(import.meta.url)('@stoplight/prism-http/dist/router').default as (opts: {
  resources: IHttpOperation[];
  input: IHttpRequest;
}) => Either<Error, IHttpOperation>;

let operations: Promise<IHttpOperation[]> | undefined;

export function documentOperations(): Promise<IHttpOperation[]> {
  return (operations ??= getHttpOperationsFromSpec(SPEC));
}

export interface SeenResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Throws when the document does not describe this response of this request. */
export async function assertDocumented(method: string, path: string, response: SeenResponse): Promise<void> {
  const resources = await documentOperations();
  const pathname = path.split('?')[0]!;
  const routed = route({ resources, input: { method: method.toLowerCase() as 'get', url: { path: pathname } } });
  if (routed._tag === 'Left') {
    // Unknown paths and wrong methods are not operations of the document; their body is still the error body.
    return;
  }
  const resource = routed.right;
  const codes = resource.responses.map((r: { code: string }) => r.code);
  if (!codes.includes(String(response.status)) && !codes.includes('default')) {
    throw new Error(`${method} ${path}: status ${response.status} is not documented (documented: ${codes.join(', ')})`);
  }
  const result = validateOutput({
    resource,
    element: { statusCode: response.status, headers: response.headers, body: response.body },
  });
  if (result._tag === 'Left') {
    const problems = result.left.filter((d) => d.severity === 0);
    if (problems.length) {
      throw new Error(
        `${method} ${path} → ${response.status} does not match openapi.yaml:\n` +
          problems.map((d) => `  ${(d.path ?? []).join('.')}: ${d.message}`).join('\n') +
          `\nbody: ${JSON.stringify(response.body).slice(0, 2000)}`,
      );
    }
  }
}
