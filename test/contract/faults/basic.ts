// The first faults the suite was proven on: an answer that breaks the document, a bound not kept, a
// state or a date wrong. Those that only the document catches say so (`bySchema`).

import { everyObject, type Fault } from '../fault-proxy.ts';

const path = (url: string) => url.split('?')[0]!;

/** A calendar day moved by `days`: "2026-01-30" → "2026-01-31". */
const shifted = (day: string, days: number) => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

export const FAULTS: Fault[] = [
  {
    name: 'a wrong status code (200 instead of 201 for a created client)',
    catches: ['CLI-CREATE'],
    bySchema: true,
    response: (req, res) => {
      if (req.method === 'POST' && /\/api\/v1\/clients\/?$/.test(path(req.path)) && res.status === 201) res.status = 200;
    },
  },
  {
    name: 'a bad input accepted (subscription_period over 256 passed on as 256)',
    catches: ['LIM-BillingTemplateCreate-subscription_period-max+1'],
    request: (req) => {
      const body = req.body as Record<string, unknown> | undefined;
      if (req.method === 'POST' && body && typeof body.subscription_period === 'number' && body.subscription_period > 256) body.subscription_period = 256;
    },
  },
  {
    name: 'a wrong subscriber status (pending reported as active)',
    catches: ['SUB-STATE-PENDING'],
    response: (_req, res) => everyObject(res.body, (o) => void (o.type === 'billing_template_client' && o.status === 'pending' && (o.status = 'active'))),
  },
  {
    name: 'a billing on the wrong date (generated purchases issued a day late)',
    catches: ['TIME-PERIOD-START-SAME-DAY', 'TIME-MONTH-END-FEB-29'],
    response: (_req, res) =>
      everyObject(res.body, (o) => {
        if (o.type === 'purchase' && o.billing_template_id && typeof o.issued === 'string') o.issued = shifted(o.issued, 1);
      }),
  },
];

/** A fault that needs the accounts' tokens: the second account's look-ups by id answered as the first's. */
export function foreignObjectLeaked(one: string, two: string): Fault {
  const objectPath = /^\/api\/v1\/[a-z_]+\/[0-9a-f-]{36}\//;
  return {
    // A lookup by id that ignores the account: the lists stay the account's own.
    name: "a foreign object leaked (the second account's requests for an object by id answered as the first's)",
    catches: ['ISO-CLIENT-GET', 'ISO-PURCHASE-GET'],
    request: (req) => {
      if (req.headers.authorization === `Bearer ${two}` && objectPath.test(path(req.path))) req.headers.authorization = `Bearer ${one}`;
    },
  };
}
