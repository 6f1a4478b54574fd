// The contract suite validates answers with one object per distinct response schema
// (contract-tests/lib/document.ts, sharedSchemas): Prism compiles a validator per schema object, and a
// reading holds hundreds of copies of a few dozen schemas. Sharing must change nothing Prism judges by.

import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { documentOperations, sharedSchemas } from '../../contract-tests/lib/document.ts';
import { validateOutput, type IHttpOperation } from '../../contract-tests/lib/prism.ts';

/** A copy of `value` without Prism's `x-stoplight` ids, which differ between copies of one schema. */
const withoutIds = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, inner: unknown) => (key === 'x-stoplight' ? undefined : inner)));

const schemasOf = (operation: IHttpOperation) => operation.responses.flatMap((response) => (response.contents ?? []).flatMap((content) => (content.schema ? [content.schema] : [])));

describe('response schemas shared across operations', () => {
  for (const [name, reading] of [['full', {}], ['platform', { platform: true }]] as const) {
    it(`the ${name} reading: every operation keeps its responses, schemas and all, and the same schema is one object`, async () => {
      const operations = await documentOperations(reading);
      const before = structuredClone(operations);
      const shared = operations.map(sharedSchemas);
      for (const [index, operation] of shared.entries()) {
        expect(isDeepStrictEqual(withoutIds(operation), withoutIds(operations[index])), operation.iid).toBe(true);
        expect(sharedSchemas(operations[index]!), 'made once per operation').toBe(operation);
      }
      expect(isDeepStrictEqual(operations, before), 'the reading itself is unchanged').toBe(true);
      const copies = shared.flatMap(schemasOf);
      const objects = new Set(copies);
      const texts = new Set(copies.map((schema) => JSON.stringify(withoutIds(schema))));
      expect(objects.size).toBe(texts.size);
      expect(objects.size).toBeLessThan(copies.length / 4);
    });
  }

  it('Prism finds the same faults in an answer through a shared schema as through its own copy', async () => {
    const operations = await documentOperations();
    const answers = [
      { statusCode: 404, headers: { 'content-type': 'application/json' }, body: { __all__: [{ message: 'Not found.' }] } },
      { statusCode: 400, headers: { 'content-type': 'application/json' }, body: { name: 'not a list' } },
      { statusCode: 200, headers: { 'content-type': 'application/json' }, body: { id: 7, unknown: true } },
    ];
    let judged = 0;
    for (const operation of operations) {
      for (const element of answers) {
        if (!operation.responses.some((response) => response.code === String(element.statusCode))) continue;
        const own = validateOutput({ resource: operation, element });
        const through = validateOutput({ resource: sharedSchemas(operation), element });
        expect(through, `${operation.iid} ${element.statusCode}`).toEqual(own);
        judged += 1;
      }
    }
    expect(judged).toBeGreaterThan(100);
  });
});
