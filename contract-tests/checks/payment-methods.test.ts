// GET /payment_methods/ in the real platform's form: brand_id and currency required, and the answer's
// shape (available_payment_methods, by_country, country_names, names, logos, card_methods). The spec
// only says whitelists take "Payment method names as returned by GET /payment_methods/" (checked in
// billing-templates-create.test.ts); the rest follows the platform's API reference and SDKs
// (docs/fidelity.md#payment-methods): normative where they state it, informative where billing-sim
// decides (the one pseudo-country `any`, the error bodies).

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { brandId, expectError, expectRejected, expectStatus, paymentMethods, paymentMethodsPath, UNKNOWN_ID } from '../lib/primitives.ts';

const PLATFORM = 'docs/fidelity.md#payment-methods: "brand_id and currency required", "available_payment_methods, by_country, country_names, names, logos, card_methods"; openapi.yaml#listPaymentMethods';
const cites = 'openapi.yaml#listPaymentMethods; docs/fidelity.md#payment-methods';

describe('payment methods', () => {
  check(
    {
      id: 'PM-PLATFORM-SHAPE',
      title: 'GET /payment_methods/?brand_id&currency answers the platform\'s fields; every method has a name; the card methods are available ones',
      cites: PLATFORM,
    },
    async ({ api }) => {
      const body = expectStatus(await api.get(paymentMethodsPath(await brandId(api))), 200, 'payment methods');
      expect(Object.keys(body)).toEqual(expect.arrayContaining(['available_payment_methods', 'by_country', 'card_methods', 'country_names', 'logos', 'names']));
      const methods = body.available_payment_methods as string[];
      expect(Object.keys(body.names).sort()).toEqual(expect.arrayContaining([...methods].sort()));
      for (const name of body.card_methods as string[]) expect(methods, 'a card method is an available one').toContain(name);
    },
  );

  check(
    {
      id: 'PM-BY-COUNTRY-ANY',
      title: 'GET /payment_methods/ answers exactly its fields, every method in by_country.any, named in country_names',
      // How the platform groups its methods by country the sources do not show: billing-sim's one pseudo-country.
      cites: `${cites}: "every method under one pseudo-country"`,
      level: 'informative',
    },
    async ({ api }) => {
      const body = expectStatus(await api.get(paymentMethodsPath(await brandId(api))), 200, 'payment methods');
      expect(Object.keys(body).sort()).toEqual(['available_payment_methods', 'by_country', 'card_methods', 'country_names', 'logos', 'names']);
      const methods = body.available_payment_methods as string[];
      expect(Object.keys(body.names).sort()).toEqual([...methods].sort());
      expect([...body.by_country.any].sort()).toEqual([...methods].sort());
      expect(body.country_names).toMatchObject({ any: expect.any(String) });
    },
  );

  check(
    {
      id: 'PM-REQUIRED-PARAMS',
      title: 'GET /payment_methods/ without brand_id, or without currency, is rejected',
      cites: PLATFORM,
    },
    async ({ api }) => {
      const brand = await brandId(api);
      expectRejected(await api.get('/payment_methods/?currency=EUR'), 'payment methods without brand_id');
      expectRejected(await api.get(`/payment_methods/?brand_id=${brand}`), 'payment methods without currency');
    },
  );

  check(
    {
      id: 'PM-REQUIRED-PARAMS-CODE',
      title: 'GET /payment_methods/ without brand_id, or without currency → 400 naming the missing parameter: required',
      cites,
      level: 'informative',
    },
    async ({ api }) => {
      const brand = await brandId(api);
      expectError(await api.get('/payment_methods/?currency=EUR'), 'brand_id', 'required', { alone: true });
      expectError(await api.get(`/payment_methods/?brand_id=${brand}`), 'currency', 'required', { alone: true });
    },
  );

  check(
    {
      id: 'PM-UNKNOWN-BRAND',
      title: 'GET /payment_methods/ with a brand_id that is not the account\'s → 400 brand_id does_not_exist',
      // What the platform answers for another account's brand is not published.
      cites,
      level: 'informative',
    },
    async ({ api }) => {
      expectError(await api.get(paymentMethodsPath(UNKNOWN_ID)), 'brand_id', 'does_not_exist', { alone: true });
    },
  );

  check(
    {
      id: 'PM-RECURRING',
      title: 'GET /payment_methods/ with recurring=true answers only methods that can save a token, some of all',
      cites: `${PLATFORM}; docs/fidelity.md#payment-methods: "recurring=true keeps the methods that can save a token"`,
    },
    async ({ api }) => {
      const all = await paymentMethods(api);
      const recurring = expectStatus(await api.get(paymentMethodsPath(await brandId(api), 'EUR', { recurring: 'true' })), 200, 'recurring methods');
      const names = recurring.available_payment_methods as string[];
      expect(names.length, 'at least one method saves a token').toBeGreaterThan(0);
      for (const name of names) expect(all).toContain(name);
    },
  );
});
