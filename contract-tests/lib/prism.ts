// The parts of Prism the contract suite and the proxy check responses with: its reading of an
// OpenAPI 3 document into operations, its router and its output validator. The one module that
// imports Prism. In the package, `npm run build` bundles this module with what it imports into
// dist/ (scripts/build.js), so a user's install has no Prism: @stoplight/prism-http, a development
// dependency, brings a mock server's faker, postman-collection and more (some 70 MB) that these
// parts never load.

import { resolve as resolveUrl } from 'node:url';
import { bundleTarget, decycle } from '@stoplight/json';
import $RefParser from '@stoplight/json-schema-ref-parser';
import { transformOas3Operations } from '@stoplight/http-spec/oas3/operation';
import type { IHttpRequest } from '@stoplight/prism-http';
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js';
import routeRequest from '@stoplight/prism-http/dist/router/index.js';
import type { IHttpOperation } from '@stoplight/types';

export type { IHttpOperation, IHttpRequest };
export { validateOutput };

type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };
type Router = (opts: { resources: IHttpOperation[]; input: IHttpRequest }) => Either<Error, IHttpOperation>;
// A CommonJS module whose `exports.default` is the router: Node's import gives the module, a bundle its default.
const router = routeRequest as unknown as Router | { default: Router };

/** Prism's router: the operation of the document that a request's method and path name. */
export const route: Router = 'default' in router ? router.default : router;

/**
 * json-schema-ref-parser resolves each `$ref` with Node's url.resolve, whose url.parse Node 24 deprecates
 * (DEP0169) with a warning, once per process, for a caller outside node_modules. Where npm installs the
 * package the bundle is inside node_modules and Node says nothing; run from a clone's dist/, every
 * `contract` and `proxy` printed it to stderr. Node marks the warning given on the first call even when
 * deprecation warnings are off: one call here with them off, and the bundle's calls print nothing.
 * Nothing else runs meanwhile, so no other warning is hidden.
 */
function spendUrlParseWarning(): void {
  const { noDeprecation } = process;
  process.noDeprecation = true;
  try {
    resolveUrl('/', '');
  } finally {
    process.noDeprecation = noDeprecation;
  }
}

/**
 * The operations of an OpenAPI 3 document (a file's path, or the document itself), as Prism reads
 * them for its own server: every `$ref` resolved, each operation carrying the document it needs.
 */
export async function operationsOf(document: string | object): Promise<IHttpOperation[]> {
  spendUrlParseWarning();
  const resolved = decycle(await new $RefParser().dereference(document as string)) as Record<string, unknown>;
  return transformOas3Operations(resolved).map(
    (operation) => bundleTarget({ document: { ...resolved, __target__: operation }, path: '#/__target__', cloneDocument: false }) as IHttpOperation,
  );
}
