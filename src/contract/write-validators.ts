// `npm run build` writes the validator modules that precompiled.ts loads: for each kind of validator,
// ajv's standalone code of every schema the route table compiles (each operation's body and query
// string, by operationId) and of the snapshot's component, from the document the package carries.

import { writeFileSync } from 'node:fs';
import type { OpenAPIV3_1 } from 'openapi-types';
import { requireLater } from './lazy.ts';
import { documentDigest, fileOf } from './precompiled.ts';
import { buildRouteTable } from './routes.ts';
import { componentId, createAjv, PRECOMPILED_PARAMETERS, rewriteRefs, type SchemaKind } from './schemas.ts';

/** The components compiled on their own (compileComponent): the snapshot's, for data files and imports. */
export const PRECOMPILED_COMPONENTS = ['SandboxSnapshot'];

/** Writes each kind's module into `folder` (a file: URL ending in `/`). */
export function writeValidators(doc: OpenAPIV3_1.Document, folder: URL): void {
  const { default: standaloneCode } = requireLater('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js');
  const operations = buildRouteTable(doc).operations;
  const document = documentDigest(doc);
  for (const kind of ['body', 'query', 'snapshot'] as const satisfies SchemaKind[]) {
    const ajv = createAjv(doc, kind, true);
    /** Export name → the id of the schema it validates with. */
    const exports: Record<string, string> = {};
    if (kind === 'snapshot') for (const name of PRECOMPILED_COMPONENTS) exports[name] = componentId(name);
    else {
      for (const operation of operations) {
        const schema = operation.schemas[kind];
        if (!schema) continue;
        const id = componentId(`precompiled/${kind}/${operation.operationId}`);
        ajv.addSchema(rewriteRefs(schema) as object, id);
        exports[operation.operationId] = id;
      }
    }
    writeFileSync(
      new URL(fileOf(kind), folder),
      [
        `// Written by npm run build (src/contract/write-validators.ts): ajv's standalone code of the ${kind} validators of openapi.yaml.`,
        `module.exports = function validators(${PRECOMPILED_PARAMETERS.join(', ')}) {`,
        'const exports = {};',
        standaloneCode(ajv, exports),
        'return exports;',
        '};',
        `module.exports.document = ${JSON.stringify(document)};`,
        '',
      ].join('\n'),
    );
  }
}
