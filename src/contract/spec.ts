// Loads openapi.yaml, the single source of truth, once per process. Everything the server knows
// about paths, methods, bodies and query strings is derived from this document at start-up.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const DEFAULT_SPEC_PATH = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

export type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

export interface OpenApiOperation {
  operationId: string;
  parameters?: (OpenApiParameter | { $ref: string })[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
}

export interface OpenApiDocument {
  openapi: string;
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, JsonSchema>; parameters?: Record<string, OpenApiParameter> };
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export function loadSpec(path = DEFAULT_SPEC_PATH): OpenApiDocument {
  const doc = parse(readFileSync(path, 'utf8')) as OpenApiDocument;
  if (!doc?.openapi?.startsWith('3.1') || typeof doc.paths !== 'object') {
    throw new Error(`${path} is not an OpenAPI 3.1 document`);
  }
  return doc;
}

/** Resolves a local `#/components/...` reference, as used for shared parameters. */
export function resolveRef<T>(doc: OpenApiDocument, value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value) {
    const pointer = value.$ref.replace(/^#\//, '').split('/');
    let node: unknown = doc;
    for (const key of pointer) node = (node as Record<string, unknown>)[key];
    if (node === undefined) throw new Error(`openapi.yaml: unresolved reference ${value.$ref}`);
    return node as T;
  }
  return value as T;
}
