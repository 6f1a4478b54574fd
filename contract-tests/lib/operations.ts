// The operations of openapi.yaml as data, for checks derived from the document itself:
// authentication on every operation, schema bounds on every request body. An operation marked
// `x-simulator-only: true` (on itself or its path), or under /sim/v1/, is billing-sim's own: the real
// platform lacks it, and the suite never requires it (client.ts).

import { readDocument } from './document.ts';

export interface DocumentOperation {
  operationId: string;
  method: string;
  /** As written in the document, e.g. /api/v1/clients/{id}/. */
  path: string;
  secured: boolean;
  area: 'api' | 'sim' | 'other';
  /** The path relative to its area's base (`/clients/{id}/`, `/clock`). */
  relativePath: string;
  /** Only the simulator has it (`x-simulator-only: true`, or the control API). */
  simulatorOnly: boolean;
}

type Node = Record<string, any>;

export const document: Node = readDocument();

export const operations: DocumentOperation[] = Object.entries(document.paths as Node).flatMap(([path, item]) =>
  ['get', 'put', 'post', 'delete', 'patch']
    .filter((method) => (item as Node)[method])
    .map((method) => {
      const operation = (item as Node)[method] as Node;
      const area = path.startsWith('/api/v1/') ? 'api' : path.startsWith('/sim/v1/') ? 'sim' : 'other';
      return {
        operationId: operation.operationId as string,
        method: method.toUpperCase(),
        path,
        secured: (operation.security ?? document.security ?? []).length > 0,
        area,
        relativePath: area === 'other' ? path : path.slice('/api/v1'.length),
        simulatorOnly: area === 'sim' || (item as Node)['x-simulator-only'] === true || operation['x-simulator-only'] === true,
      } as DocumentOperation;
    }),
);

/** A component schema with its `$ref`s and `allOf`s resolved one level at a time, by name. */
export function schema(name: string): Node {
  return document.components.schemas[name] as Node;
}

/** Replaces every `{param}` of a path with the given id. */
export const fillPath = (path: string, id: string): string => path.replace(/\{[^}]+\}/g, id);

/** The operationIds of what only the simulator has (see the file comment). */
export const simulatorOnlyOperations = new Set(operations.filter((op) => op.simulatorOnly).map((op) => op.operationId));
