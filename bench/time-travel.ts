// One sandbox, N monthly subscribers who paid their first purchase with a saved card, advanced
// 10 years: N × 120 billings, each with a purchase, a charge, events and a receipt e-mail.
// Prints one JSON line; bench/run.ts runs it per size in a fresh process so peak RSS is its own.

import { createTemplate } from '../src/domain/billing-templates.ts';
import { writeClient } from '../src/domain/clients.ts';
import type { Context } from '../src/domain/context.ts';
import { addSubscriber } from '../src/engine/billing.ts';
import { sandboxClock } from '../src/engine/clock.ts';
import { createIds } from '../src/engine/ids.ts';
import { payAtCheckout } from '../src/engine/payments.ts';
import { createSandbox } from '../src/engine/sandboxes.ts';
import { advance } from '../src/engine/time.ts';

const subscribers = Number(process.argv[2] ?? 1000);
const years = Number(process.argv[3] ?? 10);
const wall = { now: () => Date.parse('2026-01-30T09:00:00Z') };
// Unseeded, as `npm start` runs: crypto's UUIDs.
const ids = createIds();
const sandbox = createSandbox({ nowMs: wall.now(), frozen: true, fixtures: false, seed: 1 }, wall, ids);
const ctx: Context = { clock: sandboxClock(sandbox.clock, wall), ids };

const template = createTemplate(
  {
    brand_id: sandbox.brands[0]!.id,
    title: 'Monthly plan',
    is_subscription: true,
    purchase: { currency: 'EUR', products: [{ name: 'Plan', price: 1999, tax_percent: 20 }] },
    subscription_period: 1,
    subscription_period_units: 'months',
    subscription_due_period: 7,
    subscription_due_period_units: 'days',
    subscription_charge_period_end: false,
    subscription_trial_periods: 0,
  },
  { brandIds: [sandbox.brands[0]!.id], companyId: sandbox.companyId },
  ctx,
);
sandbox.templates.set(template.id, template);

for (let i = 0; i < subscribers; i += 1) {
  const client = writeClient('create', undefined, { email: `client${i}@example.com` }, ctx);
  sandbox.clients.set(client.id, client);
  const { purchase } = addSubscriber(
    sandbox,
    sandbox.templates.get(template.id)!,
    { client_id: client.id, subscription_deduction_date: '2026-02-05', mandate_expiry_date: '2040-01-01' },
    ctx,
  );
  payAtCheckout(sandbox, purchase!, { method: 'visa', save_token: true }, ctx);
}

const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const processed = await advance(sandbox, { by: `P${years}Y` }, wall, ids);
const ms = performance.now() - started;
console.log(
  JSON.stringify({
    subscribers,
    years,
    ms: Math.round(ms),
    billings: processed.billings,
    charges: processed.charges,
    purchases: sandbox.purchases.size,
    events: sandbox.events.length,
    emails: sandbox.outbox.length,
    billingsPerSecond: Math.round(processed.billings / (ms / 1000)),
    rssBeforeMb: Math.round(rssBefore / 2 ** 20),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
