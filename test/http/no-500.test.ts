// "No client input may produce a 500": every operation of openapi.yaml that takes a body gets
// bodies of the wrong shape, and every one of its top-level fields gets values of every JSON type.

import { describe, expect, it } from 'vitest';
import { loadSpec, type OpenApiOperation } from '../../src/contract/spec.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

const doc = loadSpec();
const WEIRD = [null, true, 0, -1, 1.5, 1e308, '', 'x'.repeat(300), '2026-02-30', [], [null], {}, { nested: { deeper: [1] } }];

/** Top-level property names of a request schema, following allOf and $ref into components. */
function fieldsOf(schema: Record<string, unknown> | undefined, seen = new Set<string>()): string[] {
  if (!schema) return [];
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').at(-1)!;
    if (seen.has(name)) return [];
    seen.add(name);
    return fieldsOf(doc.components?.schemas?.[name], seen);
  }
  const own = Object.keys((schema.properties as object | undefined) ?? {});
  const inherited = ((schema.allOf as Record<string, unknown>[] | undefined) ?? []).flatMap((part) => fieldsOf(part, seen));
  return [...new Set([...own, ...inherited])];
}

const ID = '6b042125-686a-43e0-8a68-23cf5bee102e';
const withBody = Object.entries(doc.paths).flatMap(([path, item]) =>
  (['post', 'put', 'patch'] as const)
    .filter((method) => item[method])
    .map((method) => ({ path: path.replace(/\{[^}]+\}/g, ID), method, operation: item[method] as OpenApiOperation })),
);

describe('no client input produces a 500', () => {
  for (const { path, method, operation } of withBody) {
    it(`${operation.operationId}: bodies of every shape and fields of every type`, async () => {
      const fields = fieldsOf(operation.requestBody?.content?.['application/json']?.schema);
      const bodies: unknown[] = [[], 'text', 42, null, { unknown_field: 1 }, ...fields.flatMap((field) => WEIRD.map((value) => ({ [field]: value })))];
      for (const body of bodies) {
        const res = await h.request(method.toUpperCase(), path, { raw: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        expect(res.status, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}`).not.toBe(500);
        expect(res.status).toBeLessThan(502);
      }
    });
  }
});
