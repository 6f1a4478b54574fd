// The platform's own objects, held against openapi.yaml as the answers of the operations that return
// them (DESIGN.md §14: "openapi.yaml describes these objects and accepts the platform's own"). The
// objects are the platform's published sample webhook deliveries and its API reference's examples,
// recorded in test/platform-objects/ with their sources (its README). A delivery is the object plus
// `event_type`; the object is what `GET /purchases/{id}/` (a purchase) or `refund/` (a Payment)
// answers. Read in the simulator's own reading, the strictest: every field the platform sends must
// be named by the document, with its type, and nothing the platform leaves out may be required.

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentFindings } from '../../contract-tests/lib/document.ts';

interface Recorded {
  source: string;
  kind: 'webhook' | 'api-example';
  event_type: string | null;
  /** The operation whose answer it is, for an example of the API reference. */
  operation: string | null;
  object: Record<string, unknown> & { type: string; id: string };
}

const folder = new URL('../platform-objects/', import.meta.url);

/**
 * The one recorded object not held: the body the platform's SDKs verify a signature over. It was
 * written for that test (empty ids, `issued: ""`), not sent by the platform, so the document's
 * uuid and date formats do not describe it; its field names are the older set of the deliveries.
 */
const WRITTEN_FOR_A_TEST = 'purchase.created.signed-sdk-test.json';

const recorded = readdirSync(folder)
  .filter((name) => name.endsWith('.json') && name !== WRITTEN_FOR_A_TEST)
  .map((name) => ({ name, ...(JSON.parse(readFileSync(new URL(name, folder), 'utf8')) as Recorded) }));

const ANY_ID = '3c90c3cc-0d44-4b50-8888-8dd25736052a';

/** The answer an object is: the operation that returns it, as a request line (a refund's is a Payment). */
function operationOf(item: Recorded): [string, string] {
  const payment = item.object.type === 'payment' || item.operation?.includes('/refund/');
  return payment ? ['POST', `/api/v1/purchases/${ANY_ID}/refund/`] : ['GET', `/api/v1/purchases/${ANY_ID}/`];
}

describe("the platform's published objects pass openapi.yaml as the answers that return them", () => {
  it('holds the 17 published webhook deliveries and the reference examples', () => {
    expect(recorded.filter((item) => item.kind === 'webhook')).toHaveLength(17);
    expect(recorded.filter((item) => item.kind === 'api-example').length).toBeGreaterThanOrEqual(1);
  });

  // The deliveries are what the platform sent: held whole, every value against its field's rules.
  for (const item of recorded.filter((entry) => entry.kind === 'webhook')) {
    it(`${item.event_type}: ${item.name}`, async () => {
      const { event_type: _delivered, ...object } = item.object;
      const [method, path] = operationOf(item);
      const findings = await documentFindings(method, path, { status: 200, headers: { 'content-type': 'application/json' }, body: object });
      expect(findings.operationId).toBeDefined();
      expect(findings.violations).toEqual([]);
    });
  }

  // The reference's example has generated values ("<string>" for a currency, an id that is no UUID) and
  // the Go SDK's mock values written for its tests ("https: //example.com"): their field names and
  // nesting are the platform's, their values are not. Every field they have is one the document names.
  for (const item of recorded.filter((entry) => entry.kind === 'api-example')) {
    it(`every field of ${item.name} is one the document names`, async () => {
      const [method, path] = operationOf(item);
      const findings = await documentFindings(method, path, { status: 200, headers: { 'content-type': 'application/json' }, body: item.object }, { platform: true });
      expect(findings.operationId).toBeDefined();
      expect(findings.notes).toEqual([]);
    });
  }
});
