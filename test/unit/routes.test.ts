// The route table compiled from openapi.yaml: a path id that is not valid percent-encoding names
// no object (404), instead of decodeURIComponent throwing (once a 500).

import { describe, expect, it } from 'vitest';
import { buildRouteTable } from '../../src/contract/routes.ts';
import { loadSpec } from '../../src/contract/spec.ts';

const routes = buildRouteTable(loadSpec());
const ID = '6b042125-686a-43e0-8a68-23cf5bee102e';

describe('route table', () => {
  it('every operation of openapi.yaml has validators that compile (the server compiles each on first use)', () => {
    expect(routes.operations.length).toBeGreaterThan(40);
    const withBody = routes.operations.filter((operation) => operation.body() !== undefined);
    const withQuery = routes.operations.filter((operation) => operation.query() !== undefined);
    expect(withBody.map((operation) => operation.operationId)).toEqual(expect.arrayContaining(['createClient', 'createBillingTemplate', 'createPurchase']));
    expect(withQuery.map((operation) => operation.operationId)).toEqual(expect.arrayContaining(['listClients', 'listPurchases']));
    // Compiled once: the second call hands out the same function.
    for (const operation of withBody) expect(operation.body()).toBe(operation.body());
  });

  it('every path of the document, its ids filled in, with and without its trailing slash, names its own operation', () => {
    for (const operation of routes.operations) {
      const path = operation.path.replace(/\{[^}]+\}/g, ID);
      for (const variant of [path, path.replace(/\/$/, '')]) {
        const match = routes.match(operation.method.toUpperCase(), variant);
        expect(match.kind === 'operation' && match.operation.operationId, `${operation.method} ${variant}`).toBe(operation.operationId);
      }
      // A segment more or fewer is another path: never this operation.
      for (const other of [`${path.replace(/\/?$/, '/')}${ID}/`, path.replace(/[^/]+\/?$/, '')]) {
        const match = routes.match(operation.method.toUpperCase(), other);
        expect(match.kind === 'operation' && match.operation.operationId, `${operation.method} ${other}`).not.toBe(operation.operationId);
      }
    }
  });

  it('answers not_found for a malformed percent-encoding in a path id', () => {
    for (const bad of ['%ZZ', '%', '%E0%A4%A', '%C3%28', '%uD800']) {
      expect(routes.match('GET', `/api/v1/clients/${bad}/`), bad).toEqual({ kind: 'not_found' });
      expect(routes.match('DELETE', `/api/v1/clients/${ID}/recurring_tokens/${bad}/`).kind, bad).toBe('not_found');
    }
  });

  it('still decodes well-formed escapes, which then fail the UUID check in the dispatcher', () => {
    const match = routes.match('GET', `/api/v1/clients/${encodeURIComponent('a/b%')}/`);
    expect(match).toMatchObject({ kind: 'operation', params: { id: 'a/b%' } });
  });
});
