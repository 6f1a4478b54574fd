// Builders of request bodies: a valid body by default, overridden field by field in each test.

export const subscriptionBody = (brandId: string, overrides: Record<string, unknown> = {}) => ({
  brand_id: brandId,
  title: 'Gym membership',
  is_subscription: true,
  purchase: { currency: 'EUR', products: [{ name: 'Monthly membership', price: 2990 }] },
  subscription_period: 1,
  subscription_period_units: 'months',
  subscription_due_period: 7,
  subscription_due_period_units: 'days',
  subscription_charge_period_end: false,
  subscription_trial_periods: 0,
  ...overrides,
});

/** A one-time template; `due` is an instant in Unix seconds (2026-02-14T00:00:00Z by default). */
export const oneTimeBody = (brandId: string, overrides: Record<string, unknown> = {}) => ({
  brand_id: brandId,
  title: 'Setup fee',
  is_subscription: false,
  purchase: { currency: 'EUR', products: [{ name: 'Setup', price: 4900 }] },
  due: 1_771_027_200,
  ...overrides,
});

export const clientBody = (overrides: Record<string, unknown> = {}) => ({
  email: 'ada@example.com',
  full_name: 'Ada Lovelace',
  ...overrides,
});
