// GET /payment_methods/ as the platform has it (DESIGN.md §9, §11): `brand_id` and `currency` required,
// a brand of the caller's sandbox only, the answer in the platform's shape (available_payment_methods,
// by_country, country_names, names, logos, card_methods), the platform's method names per currency
// (MYR: CHIP's; ZAR: Revio's; any other: the card schemes), and `?recurring=true` for the methods whose
// payment saves a token. The names are what payment_method_whitelist accepts, and what the checkout
// page and POST /sim/v1/purchases/{id}/pay offer for the purchase's currency, but the umbrella `razer`,
// which stands for the razer_* wallets.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  createPurchase,
  expectRejected,
  getPurchase,
  makeClient,
  makeOneTimeTemplate,
  makeTemplate,
  payPurchase,
  sandboxAt,
  subscriberBody,
  addSubscriber,
  tokensOf,
  type Box,
} from '../builders/engine.ts';

interface PaymentMethods {
  available_payment_methods: string[];
  by_country: Record<string, string[]>;
  country_names: Record<string, string>;
  names: Record<string, string>;
  logos: Record<string, string>;
  card_methods: string[];
}

const h = useHarness();

const NOW = '2026-01-30T12:00:00Z';
const CARDS = ['visa', 'mastercard', 'maestro'];
/** CHIP's names (its WooCommerce gateway's method list, and its other integrations' dnqr, shopee_pay, crypto_coin, razer), the cards first. */
const CHIP_MYR = [
  ...CARDS,
  'fpx',
  'fpx_b2b1',
  'duitnow_qr',
  'dnqr',
  'mpgs_google_pay',
  'mpgs_apple_pay',
  'razer',
  'razer_atome',
  'razer_grabpay',
  'razer_maybankqr',
  'razer_shopeepay',
  'razer_tng',
  'shopee_pay',
  'crypto_coin',
];
/** The razer_* wallets, which the umbrella name `razer` stands for. */
const RAZER_WALLETS = ['razer_atome', 'razer_grabpay', 'razer_maybankqr', 'razer_shopeepay', 'razer_tng'];
const REVIO_ZAR = ['visa', 'mastercard', 'eft', 'capitec_pay'];

const list = (box: Box, query: string) => box.req('GET', `/api/v1/payment_methods/${query}`);

async function methods(box: Box, currency = 'EUR', extra = ''): Promise<PaymentMethods> {
  const res = await list(box, `?brand_id=${box.brandId}&currency=${currency}${extra}`);
  expect(res.status, res.text).toBe(200);
  return res.body as PaymentMethods;
}

/** A purchase in `currency` (one product), with `overrides` on the body. */
async function purchaseIn(box: Box, currency: string, overrides: Record<string, unknown> = {}) {
  const client = await makeClient(box, { email: `${currency.toLowerCase()}@example.com` });
  return createPurchase(box, client.id, { purchase: { currency, products: [{ name: 'Hour', price: 1200 }] }, ...overrides });
}

describe('GET /payment_methods/', () => {
  it('brand_id and currency are required: a missing one → 400 required naming it', async () => {
    const box = await sandboxAt(h, NOW);
    expectRejected(await list(box, '?currency=EUR'), 'brand_id', 'required');
    expectRejected(await list(box, `?brand_id=${box.brandId}`), 'currency', 'required');
    const neither = await list(box, '');
    expect(neither.status).toBe(400);
    expect(Object.keys(neither.body as object).sort()).toEqual(['brand_id', 'currency']);
  });

  it('a brand of another sandbox → 400 does_not_exist on brand_id; a currency that is not 3 capitals → 400 invalid', async () => {
    const box = await sandboxAt(h, NOW);
    const foreign = await sandboxAt(h, NOW);
    expectRejected(await list(box, `?brand_id=${foreign.brandId}&currency=EUR`), 'brand_id', 'does_not_exist');
    expectRejected(await list(box, `?brand_id=${box.brandId}&currency=eur`), 'currency', 'invalid');
  });

  it('offers the platform\'s method names for MYR, in the platform\'s shape, each with its name and logo', async () => {
    const box = await sandboxAt(h, NOW);
    const body = await methods(box, 'MYR');
    expect(Object.keys(body)).toEqual(['available_payment_methods', 'by_country', 'country_names', 'names', 'logos', 'card_methods']);
    expect(body.available_payment_methods).toEqual(CHIP_MYR);
    expect(body.by_country).toEqual({ any: CHIP_MYR });
    expect(body.country_names).toEqual({ any: 'Other' });
    expect(body.names).toMatchObject({ fpx: 'FPX', fpx_b2b1: 'FPX B2B1', duitnow_qr: 'DuitNow QR', razer_tng: "Touch 'n Go eWallet", mpgs_apple_pay: 'Apple Pay' });
    expect(Object.keys(body.names)).toEqual(CHIP_MYR);
    expect(Object.keys(body.logos)).toEqual(CHIP_MYR);
    for (const [name, logo] of Object.entries(body.logos)) {
      expect(logo).toMatch(/^data:image\/svg\+xml,/);
      expect(decodeURIComponent(logo)).toContain(`>${body.names[name]}</text>`);
    }
    expect(body.card_methods).toEqual(CARDS);
    expect(body).not.toHaveProperty('supports_recurring');
  });

  it('offers Revio\'s for ZAR (cards, the eft debit order, Capitec Pay), and the card schemes alone for any other currency', async () => {
    const box = await sandboxAt(h, NOW);
    const zar = await methods(box, 'ZAR');
    expect(zar.available_payment_methods).toEqual(REVIO_ZAR);
    expect(zar.names).toEqual({ visa: 'Visa', mastercard: 'Mastercard', eft: 'EFT debit order', capitec_pay: 'Capitec Pay' });
    expect(zar.card_methods).toEqual(['visa', 'mastercard']);
    for (const currency of ['EUR', 'USD', 'JPY']) {
      const body = await methods(box, currency);
      expect(body.available_payment_methods, currency).toEqual(CARDS);
      expect(body.card_methods, currency).toEqual(CARDS);
    }
  });

  it('recurring=true answers only the methods that save a token, in every field: the cards, and Revio\'s eft debit order', async () => {
    const box = await sandboxAt(h, NOW);
    const myr = await methods(box, 'MYR', '&recurring=true');
    expect(myr.available_payment_methods).toEqual(CARDS);
    expect(myr.by_country.any).toEqual(CARDS);
    expect(Object.keys(myr.names)).toEqual(CARDS);
    expect(Object.keys(myr.logos)).toEqual(CARDS);
    expect(myr.card_methods).toEqual(CARDS);
    expect((await methods(box, 'ZAR', '&recurring=true')).available_payment_methods).toEqual(['visa', 'mastercard', 'eft']);
    expect((await methods(box, 'EUR', '&recurring=true')).available_payment_methods).toEqual(CARDS);
    expect((await methods(box, 'MYR', '&recurring=false')).available_payment_methods).toEqual(CHIP_MYR);
  });

  it('the platform\'s other parameters (country, skip_capture, preauthorization, language, amount) are accepted and select nothing', async () => {
    const box = await sandboxAt(h, NOW);
    const plain = await methods(box, 'MYR');
    expect(await methods(box, 'MYR', '&country=MY&skip_capture=true&preauthorization=false&language=en&amount=1200')).toEqual(plain);
    expectRejected(await list(box, `?brand_id=${box.brandId}&currency=EUR&amount=-1`), 'amount', 'min_value');
  });
});

describe('payment_method_whitelist takes the platform\'s names', () => {
  it('a whitelist naming fpx is accepted; a misspelt method is refused with invalid_choice (purchase, send_invoice, subscriber)', async () => {
    const box = await sandboxAt(h, NOW);
    const client = await makeClient(box);
    const purchase = await purchaseIn(box, 'MYR', { payment_method_whitelist: ['fpx', 'duitnow_qr'] });
    expect(purchase.payment_method_whitelist).toEqual(['fpx', 'duitnow_qr']);
    const misspelt = { brand_id: box.brandId, client_id: client.id, purchase: { currency: 'MYR', products: [{ name: 'Hour', price: 1200 }] } };
    expectRejected(await box.req('POST', '/api/v1/purchases/', { ...misspelt, payment_method_whitelist: ['fpx', 'fxp'] }), 'payment_method_whitelist.1', 'invalid_choice');
    // The names the simulator used to offer are not the platform's: refused like any other unknown name.
    expectRejected(await box.req('POST', '/api/v1/purchases/', { ...misspelt, payment_method_whitelist: ['bank_transfer'] }), 'payment_method_whitelist.0', 'invalid_choice');

    const oneTime = await makeOneTimeTemplate(box);
    const sendInvoice = (whitelist: string[]) =>
      box.req('POST', `/api/v1/billing_templates/${oneTime.id}/send_invoice/`, { client_id: client.id, payment_method_whitelist: whitelist });
    const sent = await sendInvoice(['fpx_b2b1']);
    expect(sent.status, sent.text).toBe(201);
    expect((sent.body as { payment_method_whitelist: string[] }).payment_method_whitelist).toEqual(['fpx_b2b1']);
    expectRejected(await sendInvoice(['fpx_b2b']), 'payment_method_whitelist.0', 'invalid_choice');

    const template = await makeTemplate(box);
    const added = await addSubscriber(box, template.id, subscriberBody(client.id, '2026-02-03', { payment_method_whitelist: ['visa', 'eft'] }));
    expect(added.status, added.text).toBe(201);
    expectRejected(
      await addSubscriber(box, template.id, subscriberBody(client.id, '2026-02-03', { payment_method_whitelist: ['Visa'] })),
      'payment_method_whitelist.0',
      'invalid_choice',
    );
  });

  it('every name listed for a currency is accepted by the whitelist and paid by the simulated checkout, but the umbrella razer, paid with a wallet', async () => {
    const box = await sandboxAt(h, NOW);
    for (const currency of ['MYR', 'ZAR', 'EUR']) {
      const { available_payment_methods: names } = await methods(box, currency);
      for (const method of names.filter((name) => name !== 'razer')) {
        const purchase = await purchaseIn(box, currency, { payment_method_whitelist: names });
        const paid = await payPurchase(box, purchase.id, { method });
        expect(paid, `${currency} ${method}`).toMatchObject({ status: 'paid', payment: { payment_method: method } });
      }
    }
  });

  it('the checkout offers the methods of the purchase\'s currency that its whitelist allows: a MYR method on a EUR purchase is refused', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = await purchaseIn(box, 'EUR', { payment_method_whitelist: ['visa', 'fpx'] });
    expectRejected(await box.req('POST', `/sim/v1/purchases/${purchase.id}/pay`, { method: 'fpx' }), 'method', 'invalid_choice');
    expect(await payPurchase(box, purchase.id)).toMatchObject({ status: 'paid', payment: { payment_method: 'visa' } });

    const nothing = await purchaseIn(box, 'EUR', { payment_method_whitelist: ['fpx'] });
    expectRejected(await box.req('POST', `/sim/v1/purchases/${nothing.id}/pay`, {}), 'method', 'invalid');
    const page = await (await fetch(nothing.checkout_url)).text();
    expect(page).toContain('No method this purchase allows is offered in EUR.');
    expect(page).not.toContain('value="method:');
  });
});

describe('the names CHIP\'s other integrations send: dnqr, shopee_pay, crypto_coin and the umbrella razer', () => {
  /** The methods the checkout page offers, in order (its radio buttons' values). */
  const offered = async (checkoutUrl: string) =>
    [...(await (await fetch(checkoutUrl)).text()).matchAll(/name="pay_with" id="[^"]+" value="method:([^"]+)"/g)].map((m) => m[1]);

  it('a Magento-style whitelist with dnqr, shopee_pay and crypto_coin is accepted, and the checkout offers them with their names', async () => {
    const box = await sandboxAt(h, NOW);
    const body = await methods(box, 'MYR');
    expect(body.names).toMatchObject({ dnqr: 'DuitNow QR', shopee_pay: 'ShopeePay', crypto_coin: 'Crypto Coin', razer: 'Razer e-wallets' });
    // Magento resolves dnqr/shopee_pay against the list (dnqr over duitnow_qr, shopee_pay over razer_shopeepay) and sends the rest as configured.
    const whitelist = ['fpx', 'visa', 'mastercard', 'maestro', 'crypto_coin', 'dnqr', 'shopee_pay'];
    const purchase = await purchaseIn(box, 'MYR', { payment_method_whitelist: whitelist });
    expect(purchase.payment_method_whitelist).toEqual(whitelist);
    expect(await offered(purchase.checkout_url)).toEqual(['visa', 'mastercard', 'maestro', 'fpx', 'dnqr', 'shopee_pay', 'crypto_coin']);
    const page = await (await fetch(purchase.checkout_url)).text();
    for (const label of ['>DuitNow QR</label>', '>ShopeePay</label>', '>Crypto Coin</label>']) expect(page).toContain(label);
    for (const method of ['dnqr', 'shopee_pay', 'crypto_coin']) {
      const one = await purchaseIn(box, 'MYR', { payment_method_whitelist: whitelist });
      expect(await payPurchase(box, one.id, { method }), method).toMatchObject({ status: 'paid', payment: { payment_method: method } });
    }
    // None saves a token: they are not cards.
    expect((await methods(box, 'MYR', '&recurring=true')).available_payment_methods).toEqual(CARDS);
  });

  it('a whitelist ["razer"] offers every razer_* wallet and pays with one (the first by default); razer itself is never a method to pay with', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = await purchaseIn(box, 'MYR', { payment_method_whitelist: ['razer'] });
    expect(purchase.payment_method_whitelist).toEqual(['razer']);
    expect(await offered(purchase.checkout_url)).toEqual(RAZER_WALLETS);
    expectRejected(await box.req('POST', `/sim/v1/purchases/${purchase.id}/pay`, { method: 'razer' }), 'method', 'invalid_choice');
    expect(await payPurchase(box, purchase.id, { method: 'razer_tng' })).toMatchObject({ status: 'paid', payment: { payment_method: 'razer_tng' } });

    const byDefault = await purchaseIn(box, 'MYR', { payment_method_whitelist: ['razer'] });
    expect(await payPurchase(box, byDefault.id)).toMatchObject({ status: 'paid', payment: { payment_method: 'razer_atome' } });
    // No whitelist: every method but the umbrella, and each twin (dnqr, shopee_pay) folded into its older name's entry.
    expect(await offered((await purchaseIn(box, 'MYR')).checkout_url)).toEqual(CHIP_MYR.filter((name) => !['razer', 'dnqr', 'shopee_pay'].includes(name)));
  });

  it('razer beside the wallets the merchant picked (as EDD, Perfex and AbanteCart send it) offers those wallets alone', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = await purchaseIn(box, 'MYR', { payment_method_whitelist: ['fpx', 'razer_grabpay', 'razer_tng', 'razer'] });
    expect(await offered(purchase.checkout_url)).toEqual(['fpx', 'razer_grabpay', 'razer_tng']);
    expectRejected(await box.req('POST', `/sim/v1/purchases/${purchase.id}/pay`, { method: 'razer_atome' }), 'method', 'invalid_choice');
    expect(await payPurchase(box, purchase.id, { method: 'razer_grabpay' })).toMatchObject({ status: 'paid', payment: { payment_method: 'razer_grabpay' } });
    // A EUR purchase whitelisting razer offers nothing: the wallets are MYR's.
    const eur = await purchaseIn(box, 'EUR', { payment_method_whitelist: ['razer'] });
    expectRejected(await box.req('POST', `/sim/v1/purchases/${eur.id}/pay`, {}), 'method', 'invalid');
  });
});

describe('the checkout page\'s labels: no two methods share one', () => {
  /** The checkout page's method choices of `url`: value, label and whether it is chosen on load. */
  async function choices(url: string) {
    const page = await (await fetch(url)).text();
    return [...page.matchAll(/value="method:([^"]+)"( checked)?>\s*<label for="pay-method-[^"]+">([^<]+)<\/label>/g)].map((m) => ({ name: m[1]!, label: m[3]!, checked: m[2] !== undefined }));
  }

  it('in MYR, ZAR and EUR, with no whitelist and with one of every name, each label appears once: one DuitNow QR, one ShopeePay', async () => {
    const box = await sandboxAt(h, NOW);
    const everyName = [...new Set([...CHIP_MYR, ...REVIO_ZAR])];
    for (const currency of ['MYR', 'ZAR', 'EUR']) {
      for (const whitelist of [null, everyName]) {
        const listed = await choices((await purchaseIn(box, currency, { payment_method_whitelist: whitelist })).checkout_url);
        const labels = listed.map((choice) => choice.label);
        expect(labels.length, currency).toBeGreaterThan(1);
        expect(new Set(labels).size, `${currency}: ${labels.join(', ')}`).toBe(labels.length);
      }
    }
    const myr = await choices((await purchaseIn(box, 'MYR')).checkout_url);
    expect(myr.filter((choice) => ['DuitNow QR', 'ShopeePay'].includes(choice.label)).map((choice) => choice.name)).toEqual(['duitnow_qr', 'razer_shopeepay']);
  });

  it('?preferred=dnqr (the iOS SDK\'s link) puts dnqr in DuitNow QR\'s entry, chosen, and paying it pays with dnqr', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = await purchaseIn(box, 'MYR');
    const listed = await choices(`${purchase.checkout_url}?preferred=dnqr`);
    expect(listed.filter((choice) => choice.label === 'DuitNow QR')).toEqual([{ name: 'dnqr', label: 'DuitNow QR', checked: true }]);
    expect(listed.filter((choice) => choice.checked).map((choice) => choice.name)).toEqual(['dnqr']);
    const paid = await fetch(purchase.checkout_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'pay_with=method%3Adnqr&outcome=approve',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(await getPurchase(box, purchase.id)).toMatchObject({ status: 'paid', transaction_data: { payment_method: 'dnqr' } });
  });
});

describe('which methods save a token', () => {
  it('a card payment saves a token; fpx and duitnow_qr do not: force_recurring pays without one, save_token → 400', async () => {
    const box = await sandboxAt(h, NOW);
    const byFpx = await purchaseIn(box, 'MYR', { force_recurring: true });
    expect(await payPurchase(box, byFpx.id, { method: 'fpx' })).toMatchObject({ status: 'paid', is_recurring_token: false });
    expect(await tokensOf(box, byFpx.client_id)).toEqual([]);

    const byQr = await purchaseIn(box, 'MYR');
    expectRejected(await box.req('POST', `/sim/v1/purchases/${byQr.id}/pay`, { method: 'duitnow_qr', save_token: true }), 'save_token', 'invalid');

    const byCard = await purchaseIn(box, 'MYR', { force_recurring: true });
    expect(await payPurchase(box, byCard.id, { method: 'maestro' })).toMatchObject({ status: 'paid', is_recurring_token: true });
    expect((await tokensOf(box, byCard.client_id)).map((token) => [token.id, token.payment_method])).toEqual([[byCard.id, 'maestro']]);
  });

  it('a MYR purchase paid without a method is paid by card (visa), so a force_recurring one saves its token', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = await purchaseIn(box, 'MYR', { force_recurring: true });
    expect(await payPurchase(box, purchase.id)).toMatchObject({ is_recurring_token: true, payment: { payment_method: 'visa' } });
  });
});
