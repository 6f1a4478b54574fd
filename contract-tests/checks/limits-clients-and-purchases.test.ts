// Limits of POST /clients/ (ClientCreate) and POST /purchases/ (PurchaseCreate), derived from
// openapi.yaml by limits-cases.ts. The spec's tables cover neither request and the platform publishes
// no bounds of its own for them, so the bounds, enums and requirements are billing-sim's (informative);
// a value of the wrong JSON type for a top-level field is refused by the platform too (Django REST
// framework), so those cases are normative.

import { describe } from 'vitest';
import {
  brandId,
  clientBody,
  DAY,
  expectNotListed,
  nowSeconds,
  purchaseDetails,
  setPath,
  unique,
} from '../lib/primitives.ts';
import { makeClient } from '../lib/scenario.ts';
import { casesOf, checks, feasible } from '../lib/limits-cases.ts';
import { readBack, related, type Node, type Subject } from '../lib/limits-schema.ts';

const client: Subject = {
  schema: 'ClientCreate',
  async prepare(g, path) {
    const { api } = g.ctx;
    const marker = unique();
    const body = clientBody({ email: `${marker}@example.com` });
    const slot = related(path, 'email') ? 'full_name' : 'email';
    if (slot === 'full_name') body.full_name = marker;
    return {
      body,
      send: (b) => api.post('/clients/', b),
      read: (reply) => readBack(g, `/clients/${reply.body.id}/`),
      nothingCreated: () => expectNotListed(api, '/clients/', slot, marker),
    };
  },
};

const purchase: Subject = {
  schema: 'PurchaseCreate',
  async prepare(g, path) {
    const { api } = g.ctx;
    const body: Node = { brand_id: await brandId(api), purchase: purchaseDetails() };
    // Exactly one of client_id or client: the client object when it is the field under test.
    if (path[0] === 'client') body.client = { email: `${unique()}@example.com` };
    else body.client_id = (await makeClient(api)).id;
    // A service_type needs force_recurring and a due that leaves its execution time
    // (docs/behaviour.md#service-types).
    if (path[0] === 'service_type') Object.assign(body, { force_recurring: true, due: (await nowSeconds(g.ctx)) + 7 * DAY });
    const marker = unique();
    const slot = related(path, 'purchase.notes') ? 'success_redirect' : 'purchase.notes';
    setPath(body, slot.split('.'), slot === 'success_redirect' ? `https://shop.example.com/${marker}` : marker);
    return {
      body,
      send: (b) => api.post('/purchases/', b),
      read: (reply) => readBack(g, `/purchases/${reply.body.id}/`),
      nothingCreated: () => expectNotListed(api, '/purchases/', slot, marker),
    };
  },
};

describe('limits', () => {
  checks(client, casesOf(client).filter(feasible));
  checks(purchase, casesOf(purchase).filter(feasible));
});
