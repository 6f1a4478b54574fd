// Request bodies the suite sends, as plain data: the checks use them through primitives.ts, and
// the preflight, which runs before vitest, directly.

type Node = Record<string, any>;

/** A PurchaseDetails object: one product (EUR 29.00 unless overridden). */
export function purchaseDetails(overrides: Node = {}): Node {
  return { currency: 'EUR', products: [{ name: 'Pro plan', price: 2900 }], ...overrides };
}

/**
 * A monthly subscription template (is_subscription true) with the four cycle fields and the due
 * period: UTC, due 7 days, charged at the start of each month, no trial, so a new subscriber is
 * pending.
 */
export function monthlyTemplate(brand: string, overrides: Node = {}): Node {
  return {
    brand_id: brand,
    title: 'Contract check, monthly',
    is_subscription: true,
    purchase: purchaseDetails(),
    subscription_period: 1,
    subscription_period_units: 'months',
    subscription_due_period: 7,
    subscription_due_period_units: 'days',
    subscription_charge_period_end: false,
    subscription_trial_periods: 0,
    ...overrides,
  };
}

