// Loads openapi.yaml, the single source of truth, parsed once per process. Everything the server knows
// about paths, methods, bodies and query strings is derived from this document at start-up. Its
// TypeScript shape is `OpenAPIV3_1` of the openapi-types package; only 3.1 documents are loaded.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { OpenAPIV3_1 } from 'openapi-types';

export const DEFAULT_SPEC_PATH = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));
/**
 * The same document as JSON, which `npm run build` writes beside the compiled modules' copy of
 * openapi.yaml (dist/): parsing the YAML took a third of a start. The sources have none.
 */
const BUILT_JSON_PATH = fileURLToPath(new URL('../../openapi.json', import.meta.url));

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The text last read from each file, and the document in it as JSON text. A process that starts many
 * simulators or proxies (a test file, a user's program run with tsx) parsed openapi.yaml at each start: 0.2 s
 * of CPU each time, some 50 s over `npm test`. Now each later call parses the kept JSON (2–3 ms, as a compiled
 * start parses openapi.json, which the build writes the same way), and each caller still gets a document of
 * its own, to change as it likes. A file whose text has changed is parsed again.
 */
const read = new Map<string, { text: string; json: string }>();

export function loadSpec(path = DEFAULT_SPEC_PATH): OpenAPIV3_1.Document {
  const file = path === DEFAULT_SPEC_PATH && existsSync(BUILT_JSON_PATH) ? BUILT_JSON_PATH : path;
  const text = readFileSync(file, 'utf8');
  const kept = read.get(file);
  if (kept?.text === text) return JSON.parse(kept.json) as OpenAPIV3_1.Document;
  const built = file === BUILT_JSON_PATH;
  const doc = (built ? JSON.parse(text) : parseYaml(text)) as OpenAPIV3_1.Document | null;
  if (!doc?.openapi?.startsWith('3.1') || typeof doc.paths !== 'object') {
    throw new Error(`${path} is not an OpenAPI 3.1 document`);
  }
  read.set(file, { text, json: built ? text : JSON.stringify(doc) });
  return doc;
}

/** The yaml package, loaded only when YAML is read (a compiled start reads JSON). */
function parseYaml(text: string): unknown {
  return (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);
}

/** Resolves a local `#/components/...` reference, as used for shared parameters and request bodies. */
export function resolveRef<T>(doc: OpenAPIV3_1.Document, value: T | OpenAPIV3_1.ReferenceObject): T {
  if (value && typeof value === 'object' && '$ref' in value) {
    const pointer = value.$ref.replace(/^#\//, '').split('/');
    let node: unknown = doc;
    for (const key of pointer) node = (node as Record<string, unknown>)[key];
    if (node === undefined) throw new Error(`openapi.yaml: unresolved reference ${value.$ref}`);
    return node as T;
  }
  return value as T;
}
