// A product's quantity and tax_percent as the real platform answers them: decimal strings with 4 and
// 2 places ("1.0000", "15.00"), in templates and purchases alike, whether a JSON number or a decimal
// string was sent. The spec shows no type for either; the platform's published objects and SDKs do
// (docs/fidelity.md#decimal-strings: its C# and Go SDKs type both as strings and send them so), so
// these checks are normative, but for the error path of too many places, which is billing-sim's (a
// Django REST framework service names a nested field by nesting, not by a dotted path). The totals
// they make are checked by PUR-TOTAL-LINES and BT-TOTAL-*.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { expectError } from '../lib/primitives.ts';
import { createPurchase, mainClient, makeTemplate } from '../lib/scenario.ts';

const cites =
  'docs/fidelity.md#decimal-strings: "a decimal string", "answered as a string with 4 places", "answered as a string with 2 places"; ' +
  'openapi.yaml#/components/schemas/StoredProduct; openapi.yaml#/components/schemas/Product/properties/quantity: "Answered, as the platform does, as a decimal string with 4 places"';

/** The product lines of `purchase`, as [quantity, tax_percent]. */
const decimals = (purchase: { products: Record<string, unknown>[] }) => purchase.products.map((p) => [p.quantity, p.tax_percent]);

describe('purchases', () => {
  check(
    {
      id: 'PUR-DECIMAL-STRINGS-ANSWERED',
      title: 'quantity and tax_percent sent as numbers are answered as decimal strings ("3.0000", "20.00"), in a template and a purchase',
      cites,
    },
    async ({ api }) => {
      const details = {
        currency: 'EUR',
        products: [
          { name: 'Seat', price: 1000, quantity: 3, tax_percent: 20 },
          { name: 'Hours', price: 999, quantity: 1.25, tax_percent: 7.5 },
          { name: 'Fee', price: 100 },
        ],
      };
      const expected = [['3.0000', '20.00'], ['1.2500', '7.50'], ['1.0000', '0.00']];
      const { account, client } = await mainClient(api);
      expect(decimals((await makeTemplate(account, { purchase: details })).purchase), 'the template').toEqual(expected);
      expect(decimals((await createPurchase(account, client.id, { purchase: details })).purchase), 'the purchase').toEqual(expected);
    },
  );

  check(
    {
      id: 'PUR-DECIMAL-STRINGS-ACCEPTED',
      title: 'quantity and tax_percent sent as decimal strings are accepted, count as the numbers they write, and can be sent back as answered',
      cites: `${cites}; openapi.yaml#/components/schemas/Product/properties/quantity: "which a client may send back as it is"`,
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const asNumbers = await createPurchase(account, client.id, { purchase: { currency: 'EUR', products: [{ name: 'Hours', price: 999, quantity: 1.5, tax_percent: 7.5 }] } });
      const asStrings = await createPurchase(account, client.id, { purchase: { currency: 'EUR', products: [{ name: 'Hours', price: 999, quantity: '1.5', tax_percent: '7.5' }] } });
      expect(decimals(asStrings.purchase)).toEqual([['1.5000', '7.50']]);
      expect(asStrings.purchase.total, 'the same total as with numbers').toBe(asNumbers.purchase.total);
      // A GET → POST round trip: the answered lines, total left out, are a valid request.
      const { total, ...details } = asStrings.purchase;
      const again = await createPurchase(account, client.id, { purchase: details });
      expect(again.purchase.products).toEqual(asStrings.purchase.products);
      expect(again.purchase.total).toBe(total);
    },
  );

  check(
    {
      id: 'PUR-DECIMAL-PLACES',
      title: 'a quantity with more than 4 decimal places, or a tax_percent with more than 2 → 400 max_decimal_places',
      cites: 'openapi.yaml#/components/schemas/Product/properties/quantity: "more → 400 max_decimal_places"; openapi.yaml#/components/schemas/Product/properties/tax_percent',
      // A DRF DecimalField of 4 and 2 places, as the platform's answers suggest, refuses these with max_decimal_places
      // too, but names the field by nesting: the dotted path is billing-sim's, and the platform's places are inferred.
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const line = (product: Record<string, unknown>) => ({ brand_id: account.brandId, client_id: client.id, purchase: { currency: 'EUR', products: [{ name: 'Hours', price: 999, ...product }] } });
      expectError(await account.api.post('/purchases/', line({ quantity: '1.00001' })), 'purchase.products.0.quantity', 'max_decimal_places', { alone: true });
      expectError(await account.api.post('/purchases/', line({ tax_percent: 7.125 })), 'purchase.products.0.tax_percent', 'max_decimal_places', { alone: true });
    },
  );
});
