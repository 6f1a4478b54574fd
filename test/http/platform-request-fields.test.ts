// DESIGN.md §11, "Request surface": every request field that the platform's SDK models, API
// reference and WooCommerce plugin document is accepted, stored and answered, and a misspelt one is
// still refused. The bodies below are written from those field lists (CHIP's Go SDK `Client` and
// `PurchaseOption` structs, its PHP SDK `ClientDetails`, the plugin's checkout parameters), as each
// sends them: the Go SDK sends its whole client struct, `cc`/`bcc` null and every string empty.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

/** Every field of the Go SDK's `Client` struct, as `json.Marshal` sends an unset one. */
const GO_EMPTY_CLIENT = {
  description: '',
  email: '',
  phone: '',
  full_name: '',
  personal_code: '',
  street_address: '',
  country: '',
  city: '',
  zip_code: '',
  state: '',
  shipping_street_address: '',
  shipping_country: '',
  shipping_city: '',
  shipping_zip_code: '',
  shipping_state: '',
  cc: null,
  bcc: null,
  legal_name: '',
  brand_name: '',
  registration_number: '',
  tax_number: '',
};

/** The platform's ClientDetails with a value in each field (docs, clients/create; PHP SDK ClientDetails). */
const FULL_CLIENT = {
  email: 'siti@example.com',
  phone: '+60 12 345 6789',
  full_name: 'Siti Aminah',
  personal_code: '900101-14-5678',
  street_address: '1 Jalan Ampang',
  country: 'MY',
  city: 'Kuala Lumpur',
  zip_code: '50450',
  state: 'WP',
  shipping_street_address: '9 Lorong Maarof',
  shipping_country: 'MY',
  shipping_city: 'Bangsar',
  shipping_zip_code: '59000',
  shipping_state: 'WP',
  cc: ['accounts@example.com'],
  bcc: [],
  legal_name: 'Aminah Trading Sdn Bhd',
  brand_name: 'Aminah Batik',
  registration_number: '201901000001',
  tax_number: 'W10-1808-32000001',
  bank_account: '514253123456',
  bank_code: 'MBBEMYKL',
};

interface Purchase {
  id: string;
  client_id: string;
  client: Record<string, unknown>;
  checkout_url: string;
  reference: string;
  creator_agent: string;
  platform: string;
  success_callback: string | null;
  success_redirect: string | null;
  failure_redirect: string | null;
  cancel_redirect: string | null;
  upsell_campaigns: string[];
  referral_campaign_id: string | null;
  purchase: { currency: string; total: number; language: string; total_override: number | null; [field: string]: unknown };
}

const purchaseBody = (extra: Record<string, unknown> = {}) => ({
  brand_id: h.brandId,
  purchase: { products: [{ name: 'Batik scarf', price: 4500 }] },
  ...extra,
});

describe('the platform\'s client details (ClientDetails)', () => {
  it('POST /clients/ accepts, stores and answers every ClientDetails field of the platform', async () => {
    const created = await h.request('POST', '/api/v1/clients/', { body: FULL_CLIENT });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...FULL_CLIENT, description: '' });
    const read = await h.request('GET', `/api/v1/clients/${(created.body as { id: string }).id}/`);
    expect(read.body).toEqual(created.body);
  });

  it('cc and bcc sent as null, as the Go SDK sends an unset list, are stored as empty lists', async () => {
    const created = await h.request('POST', '/api/v1/clients/', { body: { ...GO_EMPTY_CLIENT, email: 'go@example.com', full_name: 'Go Pher' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: 'go@example.com', cc: [], bcc: [], personal_code: '', shipping_city: '' });
  });

  it('"Either an email or (bank_account and bank_code)": a bank account with its code stands for the e-mail', async () => {
    const banked = await h.request('POST', '/api/v1/clients/', { body: { full_name: 'No Mail', bank_account: '514253123456', bank_code: 'MBBEMYKL' } });
    expect(banked.status).toBe(201);
    expect(banked.body).toMatchObject({ email: '', bank_account: '514253123456' });

    const before = ((await h.request('GET', '/api/v1/clients/')).body as { results: unknown[] }).results.length;
    const neither = await h.request('POST', '/api/v1/clients/', { body: { full_name: 'Nobody', bank_account: '514253123456' } });
    expect(neither.status).toBe(400);
    expect(neither.body).toEqual({ email: [{ code: 'required', message: expect.stringContaining('bank_code') }] });
    const bad = await h.request('POST', '/api/v1/clients/', { body: { email: 'not an address' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body as object)).toEqual(['email']);
    expect(((await h.request('GET', '/api/v1/clients/')).body as { results: unknown[] }).results).toHaveLength(before);
  });
});

describe('POST /purchases/ as the platform\'s client code sends it', () => {
  it('Go SDK CreatePurchase with a client_id: the whole client struct is sent empty beside it, and the client_id pays', async () => {
    const client = (await h.request('POST', '/api/v1/clients/', { body: { email: 'known@example.com', full_name: 'Known Client' } })).body as { id: string };
    const created = await h.request('POST', '/api/v1/purchases/', { body: purchaseBody({ client: GO_EMPTY_CLIENT, client_id: client.id }) });
    expect(created.status).toBe(201);
    const purchase = created.body as Purchase;
    expect(purchase.client_id).toBe(client.id);
    expect(purchase.client).toMatchObject({ email: 'known@example.com', full_name: 'Known Client' });
  });

  it('Go SDK CreatePurchase with a client struct and no purchase.currency: the currency is the platform\'s MYR', async () => {
    const created = await h.request('POST', '/api/v1/purchases/', {
      body: {
        ...purchaseBody({ client: { ...GO_EMPTY_CLIENT, email: 'john.doe@example.com', full_name: 'John Doe' } }),
        purchase: { products: [{ name: 'abcd', quantity: 1, price: 100 }], notes: 'notes' },
        success_redirect: 'http://example.com/redirect?status=success',
        failure_redirect: 'http://example.com/redirect?status=fail',
        cancel_redirect: 'http://example.com/redirect?status=cancel',
        // The Go SDK's own example: `%d` is no percent-encoding, and the platform takes the URL as it is.
        success_callback: 'http://example.com/callback?status=success&tnxId=%d',
      },
    });
    expect(created.status).toBe(201);
    const purchase = created.body as Purchase;
    expect(purchase.purchase.currency).toBe('MYR');
    expect(purchase.purchase.total).toBe(100);
    expect(purchase.success_callback).toBe('http://example.com/callback?status=success&tnxId=%d');
    expect(purchase.cancel_redirect).toBe('http://example.com/redirect?status=cancel');
    expect(purchase.client).toMatchObject({ email: 'john.doe@example.com', cc: [], bcc: [] });
  });

  it('WooCommerce checkout: success_callback, the redirects, creator_agent, reference, platform and total_override come back as sent', async () => {
    const callback = 'https://shop.example.com/?wc-api=wc_gateway_chip&id=1234';
    const created = await h.request('POST', '/api/v1/purchases/?time=1795700000', {
      body: {
        success_callback: callback,
        success_redirect: callback,
        failure_redirect: callback,
        cancel_redirect: callback,
        force_recurring: false,
        send_receipt: false,
        creator_agent: 'WooCommerce: 1.9.0',
        // The plugin sends its order id as a JSON number.
        reference: 1234,
        platform: 'woocommerce',
        purchase: {
          total_override: 4990,
          due_strict: true,
          timezone: 'Asia/Kuala_Lumpur',
          currency: 'MYR',
          language: 'ms',
          products: [{ name: 'Batik scarf', price: 2000, quantity: 2 }, { name: 'Shipping', price: 990 }],
          notes: 'Please gift wrap',
        },
        brand_id: h.brandId,
        client: { email: 'siti@example.com', phone: '0123456789', full_name: 'Siti Aminah', street_address: '1 Jalan Ampang ', country: 'MY', city: 'Kuala Lumpur', zip_code: '50450', state: 'WP', shipping_street_address: '9 Lorong Maarof ', shipping_country: 'MY', shipping_city: 'Bangsar', shipping_zip_code: '59000', shipping_state: 'WP' },
        due: Math.floor(h.wall.now() / 1000) + 3600,
      },
    });
    expect(created.status).toBe(201);
    const purchase = created.body as Purchase;
    expect(purchase).toMatchObject({
      success_callback: callback,
      cancel_redirect: callback,
      creator_agent: 'WooCommerce: 1.9.0',
      reference: '1234',
      platform: 'woocommerce',
      client: { shipping_city: 'Bangsar', shipping_country: 'MY' },
    });
    // total_override sets the total; the products alone make 4990 - 0 too, so one with another sum shows it.
    expect(purchase.purchase).toMatchObject({ total: 4990, total_override: 4990, language: 'ms', notes: 'Please gift wrap' });
    const overridden = await h.request('POST', '/api/v1/purchases/', {
      body: purchaseBody({ client: { email: 'a@example.com' }, purchase: { products: [{ name: 'Order #7', price: 100 }], total_override: 2550 } }),
    });
    expect((overridden.body as Purchase).purchase.total).toBe(2550);
    expect((await h.request('GET', `/api/v1/purchases/${purchase.id}/`)).body).toEqual(purchase);
  });

  it('the platform\'s PurchaseDetails overrides, debt and request_client_details are stored and answered', async () => {
    const details = { debt: 500, subtotal_override: 4000, total_tax_override: 240, total_discount_override: 100, request_client_details: ['email', 'shipping_address'] };
    const created = await h.request('POST', '/api/v1/purchases/', {
      body: purchaseBody({ client: { email: 'a@example.com' }, purchase: { products: [{ name: 'Plan', price: 4500 }], ...details } }),
    });
    expect(created.status).toBe(201);
    // Only total_override changes the total: the others are shown on the platform's invoice.
    expect((created.body as Purchase).purchase).toMatchObject({ ...details, total: 4500, total_override: null });
  });

  it('defaults of the platform\'s fields on a purchase that sends none', async () => {
    const purchase = (await h.request('POST', '/api/v1/purchases/', { body: purchaseBody({ client: { email: 'a@example.com' } }) })).body as Purchase;
    // An unset URL is answered "", as the platform's published purchases show it (DESIGN.md §14).
    expect(purchase).toMatchObject({ reference: '', creator_agent: '', platform: 'api', success_callback: '', cancel_redirect: '', upsell_campaigns: [], referral_campaign_id: null });
    expect(purchase.client).toMatchObject({ personal_code: '', shipping_street_address: '', brand_name: '', bank_account: '', bank_code: '' });
  });

  it('a misspelt field is still refused with unknown_field in a strict sandbox, and nothing is created', async () => {
    const { token, brandId } = await h.newSandbox({ strict: true });
    const count = async () => ((await h.request('GET', '/api/v1/purchases/', { token })).body as { results: unknown[] }).results.length;
    const before = await count();
    const misspelt = await h.request('POST', '/api/v1/purchases/', {
      token,
      body: { ...purchaseBody({ client: { email: 'a@example.com', shiping_city: 'KL' } }), brand_id: brandId, succes_callback: 'https://x.example/', purchase: { products: [{ name: 'A', price: 1 }], total_overide: 1 } },
    });
    expect(misspelt.status).toBe(400);
    expect(Object.keys(misspelt.body as object).sort()).toEqual(['client.shiping_city', 'purchase.total_overide', 'succes_callback']);
    expect(Object.values(misspelt.body as Record<string, { code: string }[]>).every((list) => list[0]!.code === 'unknown_field')).toBe(true);
    expect(await count()).toBe(before);
  });

  it('elsewhere a misspelt field is ignored, as the platform ignores it: named in Billing-Sim-Ignored, and it sets nothing', async () => {
    const created = await h.request('POST', '/api/v1/purchases/', {
      body: { ...purchaseBody({ client: { email: 'a@example.com', shiping_city: 'KL' } }), succes_callback: 'https://x.example/', purchase: { products: [{ name: 'A', price: 1 }], total_overide: 1 } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.headers['billing-sim-ignored']!.split(', ').sort()).toEqual(['client.shiping_city', 'purchase.total_overide', 'succes_callback']);
    const purchase = created.body as Purchase;
    expect([purchase.client.shipping_city, purchase.success_callback, purchase.purchase.total_override, purchase.purchase.total]).toEqual(['', '', null, 1]);
  });

  it('a redirect or callback must be an http(s) URL without spaces', async () => {
    for (const url of ['javascript:alert(1)', 'ftp://files.example.com/x', 'https://shop.example.com/a b', 'https://']) {
      const refused = await h.request('POST', '/api/v1/purchases/', { body: purchaseBody({ client: { email: 'a@example.com' }, success_callback: url }) });
      expect(refused.status, url).toBe(400);
      expect(Object.keys(refused.body as object), url).toEqual(['success_callback']);
    }
  });

  it('a purchase from `client` details without an e-mail or a bank account is refused on client.email', async () => {
    const refused = await h.request('POST', '/api/v1/purchases/', { body: purchaseBody({ client: { full_name: 'Nameless' } }) });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body as object)).toEqual(['client.email']);
  });
});

describe('wire details', () => {
  it('a `//` inside a path is read as `/`, as the Node SDK joins its base URL `…/api/v1/` with `/payment_methods/`', async () => {
    const single = await h.request('GET', `/api/v1/payment_methods/?brand_id=${h.brandId}&currency=MYR`);
    const doubled = await h.request('GET', `/api/v1//payment_methods/?brand_id=${h.brandId}&currency=MYR`);
    expect(doubled.status).toBe(200);
    expect(doubled.body).toEqual(single.body);
    const created = await h.request('POST', '/api/v1//purchases//', { body: purchaseBody({ client: { email: 'a@example.com' } }) });
    expect(created.status).toBe(201);
  });

  it('the checkout page offers the purchase\'s cancel_redirect, and following it changes nothing', async () => {
    const purchase = (await h.request('POST', '/api/v1/purchases/', {
      body: purchaseBody({ client: { email: 'a@example.com' }, cancel_redirect: 'https://shop.example.com/cart?cancelled=1&order=7' }),
    })).body as Purchase;
    const page = await (await fetch(purchase.checkout_url)).text();
    expect(page).toContain('id="cancel"');
    expect(page).toContain('href="https://shop.example.com/cart?cancelled=1&amp;order=7"');
    const plain = (await h.request('POST', '/api/v1/purchases/', { body: purchaseBody({ client: { email: 'a@example.com' } }) })).body as Purchase;
    expect(await (await fetch(plain.checkout_url)).text()).not.toContain('id="cancel"');
  });
});
