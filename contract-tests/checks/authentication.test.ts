// Authentication (docs/behaviour.md#authentication; the API spec: "Requests carry a bearer credential
// in JWT form."). Every secured operation of openapi.yaml is tried without a token and with a bad one,
// and must answer 401, as the platform, a Django REST framework service with bearer keys, answers it
// (docs/behaviour.md#status-codes): not 403, which Django REST framework answers instead when its
// authentication sends no WWW-Authenticate challenge, nor 404 for the unknown id in the path, which a
// server that looks the object up first would answer.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { ApiClient } from '../lib/client.ts';
import { fillPath, operations } from '../lib/operations.ts';
import { UNKNOWN_ID } from '../lib/primitives.ts';

const FORGED = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJmb3JnZWQifQ.c2lnbmF0dXJlLW9mLW5vYm9keQ';

const area = (api: ApiClient, which: string) => (which === 'sim' ? api.sim : api);

describe('authentication', () => {
  for (const operation of operations.filter((op) => op.secured && op.area !== 'other')) {
    const path = fillPath(operation.relativePath, UNKNOWN_ID);
    check(
      {
        id: `AUTH-NONE-${operation.operationId}`,
        title: `${operation.method} ${operation.path} without a token → 401`,
        cites: 'docs/behaviour.md#authentication: "No header → 401 not_authenticated"; docs/behaviour.md#status-codes: "401 without valid credentials"; openapi.yaml#/components/securitySchemes/bearerAuth',
        requires: operation.area === 'sim' ? ['clock'] : [],
      },
      async ({ api }) => {
        const res = await area(api, operation.area).request(operation.method, path, { token: null, body: operation.method === 'GET' || operation.method === 'DELETE' ? undefined : {} });
        expect(res.status).toBe(401);
      },
    );
    check(
      {
        id: `AUTH-BAD-${operation.operationId}`,
        title: `${operation.method} ${operation.path} with a forged token → 401`,
        cites: 'docs/behaviour.md#authentication: "a malformed or badly signed token … → 401 authentication_failed"; docs/behaviour.md#status-codes: "401 without valid credentials"; openapi.yaml#/components/securitySchemes/bearerAuth',
        requires: operation.area === 'sim' ? ['clock'] : [],
      },
      async ({ api }) => {
        const res = await area(api, operation.area).request(operation.method, path, { token: FORGED, body: operation.method === 'GET' || operation.method === 'DELETE' ? undefined : {} });
        expect(res.status).toBe(401);
      },
    );
  }
});
