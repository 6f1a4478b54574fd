// The contract suite validates an answer in the platform's reading only when the full reading finds
// something (contract-tests/lib/document.ts, examine): the platform's reading only opens schemas
// (withUndocumentedFieldsAllowed) and requires less (withoutSimulatorOnlyRequired), so it allows every
// answer the full one does. That holds while neither change reaches a schema whose match makes another
// apply or fail (`if`, `not`, `oneOf`, `contains`, …): opened there, it would make the answer stricter.
// Checked here on openapi.yaml itself, and on answers.

import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { documentFindings, readDocument, withoutSimulatorOnlyRequired, withUndocumentedFieldsAllowed } from '../../contract-tests/lib/document.ts';

type Node = Record<string, unknown>;

/** The client openapi.yaml shows as GET /clients/{id}/'s answer, an answer the document allows. */
const CLIENT = (readDocument().components.examples.ClientResponse as { value: Node & { id: string } }).value;

/** Keywords whose subschema's match turns another rule on or off, or the answer's verdict around. */
const CONDITIONAL = ['if', 'not', 'oneOf', 'contains', 'propertyNames', 'dependentSchemas'];

/** Every subtree of `node` under a conditional keyword, each with its JSON pointer. */
function conditionalParts(node: unknown, at = ''): [string, unknown][] {
  if (Array.isArray(node)) return node.flatMap((item, index) => conditionalParts(item, `${at}/${index}`));
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node as Node).flatMap(([key, value]): [string, unknown][] =>
    CONDITIONAL.includes(key) ? [[`${at}/${key}`, value]] : conditionalParts(value, `${at}/${key}`),
  );
}

describe("the platform's reading allows every answer the full reading allows", () => {
  it('neither of its changes reaches a subschema under if, not, oneOf, contains, propertyNames or dependentSchemas', () => {
    const full = readDocument();
    const platform = withUndocumentedFieldsAllowed(withoutSimulatorOnlyRequired(readDocument()));
    const parts = conditionalParts(full);
    // The document has such subschemas: the check is not empty.
    expect(parts.length).toBeGreaterThan(0);
    const changed = new Map(conditionalParts(platform));
    expect(parts.filter(([at, part]) => !isDeepStrictEqual(part, changed.get(at))).map(([at]) => at)).toEqual([]);
  });

  it('the check itself sees a closing keyword under an `if` that the reading takes out', () => {
    const document = { components: { schemas: { A: { if: { additionalProperties: false, properties: { x: {} } }, then: { required: ['y'] } } } } };
    const opened = withUndocumentedFieldsAllowed(structuredClone(document));
    expect(isDeepStrictEqual(conditionalParts(document), conditionalParts(opened))).toBe(false);
  });

  it('an answer the full reading passes has no violation and no note in the platform reading; one with a field the document does not name has its note', async () => {
    const client = { ...CLIENT };
    const clean = await documentFindings('GET', `/api/v1/clients/${client.id}/`, { status: 200, headers: { 'content-type': 'application/json' }, body: client }, { platform: true });
    expect(clean).toEqual({ violations: [], notes: [], operationId: 'getClient' });
    const extra = await documentFindings('GET', `/api/v1/clients/${client.id}/`, { status: 200, headers: { 'content-type': 'application/json' }, body: { ...client, company_id: 'c' } }, { platform: true });
    expect(extra.violations).toEqual([]);
    expect(extra.notes.map((note) => note.path)).toEqual([['company_id']]);
    const strict = await documentFindings('GET', `/api/v1/clients/${client.id}/`, { status: 200, headers: { 'content-type': 'application/json' }, body: { ...client, company_id: 'c' } }, { platform: true, strict: true });
    expect(strict.violations).toHaveLength(1);
  });
});
