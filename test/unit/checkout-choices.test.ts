// What the checkout page lists and chooses on load, as a pure domain function (checkoutChoices): no two
// entries share a label in any currency, whatever the whitelist (DuitNow QR and ShopeePay, each known by
// two names, appear once), and a checkout link's `?preferred=` / `?active=` picks the method it names
// when the purchase offers it: the method itself, its twin, `card` (a card scheme) or the umbrella
// `razer` (a Razer wallet), as CHIP's iOS SDK and Perfex CRM module send them. Anything else picks nothing.

import { describe, expect, it } from 'vitest';
import { checkoutChoices, methodsFor, offeredMethods, PAYMENT_METHODS } from '../../src/domain/payment-methods.ts';

const CURRENCIES = ['MYR', 'ZAR', 'EUR'];
const ALL_NAMES = PAYMENT_METHODS.map((method) => method.name);

const names = (currency: string, whitelist: readonly string[] | null, preferred?: string) => {
  const choices = checkoutChoices(offeredMethods(currency, whitelist), preferred);
  return { names: choices.methods.map((method) => method.name), selected: choices.selected };
};

describe('no two methods of a checkout share a label', () => {
  it('in every currency, with no whitelist, a whitelist of every name, and each name preferred', () => {
    for (const currency of CURRENCIES) {
      for (const whitelist of [null, ALL_NAMES]) {
        for (const preferred of [undefined, ...methodsFor(currency).map((method) => method.name)]) {
          const labels = checkoutChoices(offeredMethods(currency, whitelist), preferred).methods.map((method) => method.displayName);
          expect(new Set(labels).size, `${currency} ${preferred}: ${labels.join(', ')}`).toBe(labels.length);
        }
      }
    }
  });

  it('DuitNow QR and ShopeePay, each known by two names, are one entry each, in the first name\'s place; a whitelist of one name lists that one', () => {
    const myr = names('MYR', null).names;
    expect(myr.filter((name) => ['duitnow_qr', 'dnqr', 'razer_shopeepay', 'shopee_pay'].includes(name))).toEqual(['duitnow_qr', 'razer_shopeepay']);
    expect(myr.length).toBe(offeredMethods('MYR', null).length - 2);
    expect(names('MYR', ['fpx', 'dnqr', 'shopee_pay']).names).toEqual(['fpx', 'dnqr', 'shopee_pay']);
  });
});

describe('?preferred= / ?active= picks the method it names when the purchase offers it', () => {
  it('an offered method is chosen; a later twin stands in its older twin\'s place', () => {
    expect(names('MYR', null, 'fpx').selected).toBe('fpx');
    const dnqr = names('MYR', null, 'dnqr');
    expect(dnqr.selected).toBe('dnqr');
    expect(dnqr.names.indexOf('dnqr')).toBe(names('MYR', null).names.indexOf('duitnow_qr'));
    expect(dnqr.names).not.toContain('duitnow_qr');
    expect(names('MYR', null, 'shopee_pay').names.filter((name) => name.includes('shopee'))).toEqual(['shopee_pay']);
  });

  it('a twin the purchase does not offer picks the one it does: duitnow_qr → dnqr, razer_shopeepay → shopee_pay, and back', () => {
    expect(names('MYR', ['dnqr', 'shopee_pay'], 'duitnow_qr').selected).toBe('dnqr');
    expect(names('MYR', ['dnqr', 'shopee_pay'], 'razer_shopeepay').selected).toBe('shopee_pay');
    expect(names('MYR', ['duitnow_qr'], 'dnqr').selected).toBe('duitnow_qr');
  });

  it('Perfex\'s `card` picks the first card offered, its `razer` the first Razer wallet offered', () => {
    expect(names('MYR', null, 'card').selected).toBe('visa');
    expect(names('MYR', ['fpx', 'mastercard', 'maestro'], 'card').selected).toBe('mastercard');
    expect(names('MYR', null, 'razer').selected).toBe('razer_atome');
    expect(names('MYR', ['fpx', 'razer_tng', 'razer'], 'razer').selected).toBe('razer_tng');
  });

  it('a method not offered (outside the whitelist or the currency), an unknown name, "" or none picks nothing and changes no entry', () => {
    const plain = names('MYR', ['visa', 'fpx']).names;
    for (const [currency, whitelist, preferred] of [
      ['MYR', ['visa', 'fpx'], 'mastercard'],
      ['MYR', ['visa', 'fpx'], 'razer'],
      ['EUR', null, 'fpx'],
      ['MYR', ['visa', 'fpx'], 'paypal'],
      ['MYR', ['visa', 'fpx'], ''],
      ['MYR', ['visa', 'fpx'], undefined],
    ] as const) {
      const chosen = names(currency, whitelist, preferred);
      expect(chosen.selected, `${currency} ${preferred}`).toBeUndefined();
      if (currency === 'MYR') expect(chosen.names).toEqual(plain);
    }
  });
});
