// A sandbox of N monthly subscribers who paid their first purchase with a saved card on Feb 5,
// 2026, built through the engine directly (no HTTP): the starting point of long advances in the
// bounded-work tests and the time-travel bench.

import { createTemplate } from '../../src/domain/billing-templates.ts';
import { writeClient } from '../../src/domain/clients.ts';
import type { Clock, Context, Ids } from '../../src/domain/context.ts';
import { addSubscriber } from '../../src/engine/billing.ts';
import { sandboxClock } from '../../src/domain/sandbox-clock.ts';
import { payAtCheckout } from '../../src/engine/payments.ts';
import { createSandbox } from '../../src/engine/sandboxes.ts';
import type { Sandbox } from '../../src/store/store.ts';

export function busySandbox(subscribers: number, wall: Clock, ids: Ids, period: { units: 'days' | 'weeks' | 'months'; every: number } = { units: 'months', every: 1 }): Sandbox {
  const sandbox = createSandbox({ nowMs: wall.now(), frozen: true, fixtures: false, seed: 1 }, wall, ids);
  const ctx: Context = { clock: sandboxClock(sandbox.clock, wall), ids };
  const template = createTemplate(
    {
      brand_id: sandbox.brands[0]!.id,
      title: 'Plan',
      is_subscription: true,
      purchase: { currency: 'EUR', products: [{ name: 'Plan', price: 1999, tax_percent: 20 }] },
      subscription_period: period.every,
      subscription_period_units: period.units,
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
      { client_id: client.id, subscription_deduction_date: '2026-02-05', mandate_expiry_date: '2200-01-01' },
      ctx,
    );
    payAtCheckout(sandbox, purchase!, { method: 'visa', save_token: true }, ctx);
  }
  return sandbox;
}
