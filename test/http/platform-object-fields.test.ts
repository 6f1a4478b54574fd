// The fields of the platform's own objects that the simulator makes when it answers (DESIGN.md §14,
// src/present/): where each comes from, that none is stored, that a request cannot set any of them,
// and that the same object is answered the same way by the API, a webhook, /sim/v1/events and after
// a snapshot's round trip. The list of fields and their sources is docs/fidelity.md, "Objects".

import { describe, expect, it } from 'vitest';
import { documentFindings } from '../../contract-tests/lib/document.ts';
import { useHarness } from '../support/harness.ts';
import { advance, createPurchase, events, expectRejected, getPurchase, makeClient, payPurchase, sandboxAt, tokenBox, type Box, type Purchase } from '../builders/engine.ts';

const h = useHarness();
const NOW = '2026-12-31T23:30:00Z';

type Answered = Purchase & Record<string, unknown>;

const BRAND = {
  brand_name: 'Kedai Contoh',
  legal_name: 'Kedai Contoh Sdn. Bhd.',
  registration_number: '202401012345',
  legal_street_address: '12 Jalan Ampang',
  legal_city: 'Kuala Lumpur',
  legal_zip_code: '50450',
  legal_country: 'MY',
  bank_accounts: [{ bank_account: '514011223344', bank_code: 'MBB' }],
};

describe('purchases answer the fields of the platform\'s own purchases', () => {
  it('issuer_details are the brand\'s legal details given by POST /sim/v1/sandboxes {brand}; the fields left out take the defaults', async () => {
    const { token, brandId } = await h.newSandbox({ now: NOW, brand: BRAND });
    const box = tokenBox(h, token, brandId);
    const purchase = (await createPurchase(box, (await makeClient(box)).id)) as Answered;
    expect(purchase.issuer_details).toEqual({ ...BRAND, tax_number: '', website: '' });
    // A sandbox created without one shows a fictitious company under the brand's name.
    const plain = await sandboxAt(h, NOW);
    const other = (await createPurchase(plain, (await makeClient(plain)).id)) as Answered;
    expect(other.issuer_details).toMatchObject({ brand_name: 'Sandbox brand', legal_country: 'MY', bank_accounts: [expect.objectContaining({ bank_code: expect.any(String) })] });
  });

  it('a brand with a bad field is refused, naming it, and no sandbox is made', async () => {
    const bad = await h.request('POST', '/sim/v1/sandboxes', { token: null, body: { brand: { legal_country: 'Malaysia', bank_accounts: [{ bank_code: 'MBB' }] } } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body as object).sort()).toEqual(['brand.bank_accounts.0.bank_account', 'brand.legal_country']);
  });

  it('company_id is the sandbox\'s; created_from_ip the address that created it; reference_generated is made from the id, the same on every answer', async () => {
    const box = await sandboxAt(h, NOW);
    const client = await makeClient(box);
    const first = (await createPurchase(box, client.id)) as Answered;
    const second = (await createPurchase(box, client.id)) as Answered;
    expect(first.company_id).toBe(second.company_id);
    expect(first.created_from_ip).toBe('127.0.0.1');
    expect(first.reference_generated).toMatch(/^CH\d+$/);
    expect(first.reference_generated).not.toBe(second.reference_generated);
    // Made anew, not read from a cache of answers: after a change (paid), and in the event's payload.
    const paid = (await payPurchase(box, first.id, { method: 'visa' })) as Answered;
    expect(paid.reference_generated).toBe(first.reference_generated);
    const created = (await events(box)).find((event) => event.object_id === first.id && event.event_type === 'purchase.created')!;
    expect((created.payload as Answered).reference_generated).toBe(first.reference_generated);
    expect(first).toMatchObject({ user_id: null, order_id: null, product: 'purchases', invoice_url: null, can_retrieve: false, can_chargeback: false });
    // Direct Post (DESIGN.md §14): the purchase's card form target, beside its checkout page.
    expect(first.direct_post_url).toBe(`${h.origin}/direct_post/${first.id}/`);
  });

  it('viewed_on is null until the checkout page is first opened, then that instant, kept after payment', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = (await createPurchase(box, (await makeClient(box)).id)) as Answered;
    expect(purchase.viewed_on).toBeNull();
    expect((await fetch(purchase.checkout_url)).status).toBe(200);
    const viewed = (await getPurchase(box, purchase.id)) as Answered;
    expect(viewed.viewed_on).toBe(Date.parse(NOW) / 1000);
    const paid = (await payPurchase(box, purchase.id, { method: 'visa' })) as Answered;
    expect(paid.viewed_on).toBe(viewed.viewed_on);
  });

  it('a purchase a billing made was created by no request: created_from_ip ""', async () => {
    const box = await sandboxAt(h, NOW);
    const client = await makeClient(box);
    const template = await box.req('POST', '/api/v1/billing_templates/', {
      brand_id: box.brandId,
      is_subscription: false,
      due: Date.parse('2027-01-31T00:00:00Z') / 1000,
      purchase: { currency: 'MYR', products: [{ name: 'Plan', price: 1000 }] },
    });
    const invoice = await box.req('POST', `/api/v1/billing_templates/${(template.body as { id: string }).id}/send_invoice/`, { client_id: client.id });
    expect(invoice.status, invoice.text).toBe(201);
    expect((invoice.body as Answered).created_from_ip).toBe('');
  });
});

describe('a refund\'s Payment answers the fields of the platform\'s payment.refunded', () => {
  it('related_to.reference is the purchase\'s own reference when the merchant sent one (OpenCart takes it as its order id in its payment.refunded handler)', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = await createPurchase(box, (await makeClient(box)).id, { reference: '1042' });
    await payPurchase(box, purchase.id, { method: 'visa' });
    const payment = (await box.req('POST', `/api/v1/purchases/${purchase.id}/refund/`, {})).body as Record<string, any>;
    expect(payment.related_to).toEqual({ type: 'purchase', id: purchase.id, reference: '1042' });
    const delivered = (await events(box)).find((event) => event.event_type === 'payment.refunded')!;
    expect((delivered.payload as Record<string, any>).related_to.reference).toBe('1042');
  });

  it('its references name the purchase, its extra the card that paid and the amount refunded', async () => {
    const box = await sandboxAt(h, NOW);
    const purchase = await createPurchase(box, (await makeClient(box, { full_name: 'Siti' })).id);
    const paid = (await payPurchase(box, purchase.id, { method: 'visa' })) as Answered;
    const refund = await box.req('POST', `/api/v1/purchases/${purchase.id}/refund/`, { amount: 500 });
    expect(refund.status, refund.text).toBe(200);
    const payment = refund.body as Record<string, any>;
    expect(payment.related_to).toEqual({ type: 'purchase', id: purchase.id, reference: paid.reference_generated });
    expect(payment.payment.description).toBe(`Refund: ${paid.reference_generated}`);
    expect(payment.reference_generated).toMatch(/^\d+$/);
    expect(payment.transaction_data.extra).toEqual({ ...(paid.transaction_data.extra as object), amount: 500 });
    expect(payment.client).toMatchObject({ client_id: null, first_name: '', last_name: '', full_name: 'Siti', client_type: null });
    expect(payment).toMatchObject({ user_id: null, reference: '', fee_amount: 0, refund_availability: 'none', account_extra: {}, audit_log_entries: [], account_fx_rate: null });
    // /sim/v1/events shows the same Payment as the answer.
    const recorded = (await events(box)).find((event) => event.event_type === 'payment.refunded')!;
    expect(recorded.payload).toEqual(payment);
  });
});

describe('what an answer makes is never taken from a request', () => {
  const strictBox = async (): Promise<Box> => {
    const { token, brandId } = await h.newSandbox({ now: NOW, strict: true });
    return tokenBox(h, token, brandId);
  };

  for (const [field, value] of [
    ['company_id', '6b042125-686a-43e0-8a68-23cf5bee102e'],
    ['order_id', '1001'],
    ['reference_generated', 'CH1'],
    ['issuer_details', { ...BRAND, tax_number: '', website: '' }],
    ['viewed_on', 1],
  ] as const) {
    it(`${field} on create: ignored by default, 400 read_only in a strict sandbox`, async () => {
      const box = await sandboxAt(h, NOW);
      const client = await makeClient(box);
      const body = { brand_id: box.brandId, client_id: client.id, purchase: { products: [{ name: 'A', price: 100 }] }, [field]: value };
      const made = await box.req('POST', '/api/v1/purchases/', body);
      expect(made.status, made.text).toBe(201);
      expect((made.body as Answered)[field]).not.toEqual(value);
      expect(made.headers['billing-sim-ignored']).toBe(field);
      const strict = await strictBox();
      expectRejected(await strict.req('POST', '/api/v1/purchases/', { ...body, brand_id: strict.brandId, client_id: (await makeClient(strict)).id }), field, 'read_only');
    });
  }

  it('the checkout fields of purchase details and the client\'s delivery_methods: 400 read_only in a strict sandbox, nothing created', async () => {
    const strict = await strictBox();
    const client = await makeClient(strict);
    const base = { brand_id: strict.brandId, client_id: client.id, purchase: { products: [{ name: 'A', price: 100 }] } };
    expectRejected(await strict.req('POST', '/api/v1/purchases/', { ...base, purchase: { ...base.purchase, shipping_options: [] } }), 'purchase.shipping_options', 'read_only');
    expectRejected(
      await strict.req('POST', '/api/v1/purchases/', { brand_id: strict.brandId, client: { email: 'a@example.com', delivery_methods: [] }, purchase: base.purchase }),
      'client.delivery_methods',
      'read_only',
    );
    expect(((await strict.req('GET', '/api/v1/purchases/')).body as { results: unknown[] }).results).toEqual([]);
  });
});

describe('an answer is its own sandbox\'s', () => {
  it('a fork of a checkpoint answers the purchases it shares with its origin with its own company and checkout links', async () => {
    const { token, brandId } = await h.newSandbox({ now: NOW, seed: 5 });
    const origin = tokenBox(h, token, brandId);
    const purchase = await createPurchase(origin, (await makeClient(origin)).id);
    const checkpoint = await origin.req('POST', '/sim/v1/checkpoints', {});
    expect(checkpoint.status, checkpoint.text).toBe(201);
    const forked = await h.request('POST', '/sim/v1/sandboxes', { token, body: { from_checkpoint: (checkpoint.body as { id: string }).id } });
    expect(forked.status, forked.text).toBe(201);
    const fork = tokenBox(h, (forked.body as { token: string }).token, (forked.body as { brand_id: string }).brand_id);
    const read = async (box: Box) => (await box.req('GET', '/api/v1/purchases/?page_size=1')).body as { results: Answered[] };
    // The origin answers first: whatever it made of the purchase is not the fork's answer.
    const inOrigin = (await getPurchase(origin, purchase.id)) as Answered;
    const [inFork] = (await read(fork)).results;
    const companyOf = async (box: Box) =>
      ((await box.req('POST', '/api/v1/billing_templates/', { brand_id: box.brandId, is_subscription: false, due: 1900000000, purchase: { products: [{ name: 'A', price: 1 }] } })).body as { company_id: string }).company_id;
    expect(inOrigin.company_id).toBe(await companyOf(origin));
    expect(inFork!.company_id).toBe(await companyOf(fork));
    expect(inFork!.checkout_url).toContain(`/checkout/${(forked.body as { id: string }).id}/`);
    expect(inOrigin.checkout_url).not.toBe(inFork!.checkout_url);
  });
});

describe('the fixtures give the brand legal details', () => {
  it('a sandbox created with fixtures shows its brand\'s seeded legal details as issuer_details, the same for the same seed', async () => {
    const issuer = async () => {
      const { token, brandId } = await h.newSandbox({ now: NOW, fixtures: true, seed: 3 });
      const box = tokenBox(h, token, brandId);
      const clients = (await box.req('GET', '/api/v1/clients/')).body as { results: { id: string }[] };
      return ((await createPurchase(box, clients.results[0]!.id)) as Answered).issuer_details as Record<string, unknown>;
    };
    const first = await issuer();
    expect(first).toMatchObject({ brand_name: 'Sandbox brand', legal_name: expect.stringMatching(/ Sdn\. Bhd\.$/), legal_country: 'MY', bank_accounts: [{ bank_account: expect.stringMatching(/^\d{12}$/), bank_code: 'MBB' }] });
    expect(await issuer()).toEqual(first);
  });
});

describe("a settled purchase answers the acquirer's details of the platform's purchase.settled (issue 42)", () => {
  type Acquired = Record<string, any>;
  const SETTLED_AT = Date.parse(NOW) / 1000 + 3600;

  /** A purchase of MYR 12.34 paid with `method` by a client named Test Buyer, settled an hour later, and its purchase.settled event. */
  async function settledPurchase(box: Box, method: string) {
    expect((await box.req('PUT', '/sim/v1/processing', { settlement: 'PT1H' })).status).toBe(200);
    const purchase = await createPurchase(box, (await makeClient(box, { full_name: 'Test Buyer' })).id, { purchase: { currency: 'MYR', products: [{ name: 'Box', price: 1234 }] } });
    const paid = (await payPurchase(box, purchase.id, { method })) as Answered;
    await advance(box, { by: 'PT1H' });
    const settled = (await getPurchase(box, purchase.id)) as Answered;
    const event = (await events(box)).find((entry) => entry.object_id === purchase.id && entry.event_type === 'purchase.settled')!;
    return { paid, settled, delivered: event.payload as Answered };
  }

  const ACQUIRER_KEYS = ['acquirer', 'terminal_id', 'terminal_uid', 'processing_tx_id'];
  const ATTEMPT_KEYS = [...ACQUIRER_KEYS, 'is_internal', 'markup_amount', 'processing_fee', 'pricing_details', 'processing_status', 'pricing_calculated', 'related_payment_id'];

  it('FPX: acquirer fpx, terminal EX and 8 digits, a 7-digit transaction number, on the transaction data and the paying attempt; none of it before settlement', async () => {
    const box = await sandboxAt(h, NOW);
    const { paid, settled, delivered } = await settledPurchase(box, 'fpx');
    // purchase.paid of the platform has none of these; neither has the paid purchase here.
    for (const key of ACQUIRER_KEYS) expect(paid.transaction_data).not.toHaveProperty(key);
    for (const key of ATTEMPT_KEYS) expect(paid.transaction_data.attempts[0]).not.toHaveProperty(key);
    expect(paid).not.toHaveProperty('can_mark_as_refunded');
    expect(paid.transaction_data.extra).toEqual({});

    const data = settled.transaction_data as Acquired;
    expect(data).toMatchObject({ acquirer: 'fpx', terminal_id: expect.stringMatching(/^EX\d{8}$/), processing_tx_id: expect.stringMatching(/^[1-9]\d{6}$/) });
    expect(data.terminal_uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const [attempt] = data.attempts as Acquired[];
    expect(attempt).toMatchObject({
      type: 'execute',
      successful: true,
      acquirer: 'fpx',
      terminal_id: data.terminal_id,
      terminal_uid: data.terminal_uid,
      processing_tx_id: data.processing_tx_id,
      is_internal: false,
      markup_amount: 0,
      processing_fee: 0,
      pricing_details: 'ok',
      processing_status: '00',
      pricing_calculated: true,
      related_payment_id: null,
    });
    expect(settled).toMatchObject({ status: 'paid', can_mark_as_refunded: false, audit_log_entries: [] });
    expect(delivered.transaction_data).toEqual(settled.transaction_data);
  });

  it("FPX: the AR and AC messages name the purchase, its amount, the terminal and the payment's instant (UTC for the seller, Malaysian for FPX), in both extras", async () => {
    const box = await sandboxAt(h, NOW);
    const { settled } = await settledPurchase(box, 'fpx');
    const data = settled.transaction_data as Acquired;
    const paidOn = (settled.payment as { paid_on: number }).paid_on;
    const utc = new Date(paidOn * 1000).toISOString().slice(0, 19).replace(/\D/g, '');
    const myt = new Date((paidOn + 8 * 3600) * 1000).toISOString().slice(0, 19).replace(/\D/g, '');
    const { settlement, user_web_browser_data: request, webhook_payload: answer } = data.extra;
    expect(settlement).toEqual({ settled_on: SETTLED_AT });
    expect(request).toMatchObject({
      fpx_msgType: 'AR',
      fpx_version: '7.0',
      fpx_msgToken: '01',
      fpx_sellerOrderNo: settled.id,
      fpx_sellerExOrderNo: data.processing_tx_id,
      fpx_sellerExId: data.terminal_id,
      fpx_sellerId: expect.stringMatching(/^SE\d{8}$/),
      fpx_txnAmount: '12.34',
      fpx_txnCurrency: 'MYR',
      fpx_sellerTxnTime: utc,
      fpx_buyerName: 'Test Buyer',
      fpx_buyerBankId: 'TEST0021',
      fpx_checkSum: expect.stringMatching(/^[0-9A-F]{512}$/),
    });
    expect(answer).toMatchObject({
      fpx_msgType: ['AC'],
      fpx_debitAuthCode: ['00'],
      fpx_creditAuthCode: ['00'],
      fpx_sellerId: [request.fpx_sellerId],
      fpx_sellerOrderNo: [settled.id],
      fpx_sellerExOrderNo: [data.processing_tx_id],
      fpx_txnAmount: ['12.34'],
      fpx_sellerTxnTime: [utc],
      fpx_fpxTxnTime: [myt],
      fpx_fpxTxnId: [expect.stringMatching(new RegExp(`^${myt.slice(2)}\\d{4}$`))],
    });
    for (const values of Object.values(answer as Record<string, unknown>)) expect(values).toEqual([expect.any(String)]);
    for (const value of Object.values(request as Record<string, unknown>)) expect(typeof value).toBe('string');
    // The attempt that paid carries the same messages, without the settlement.
    expect(data.attempts[0].extra).toEqual({ user_web_browser_data: request, webhook_payload: answer });
  });

  it('the details follow from the sandbox and the purchase: the same seed answers the same; another purchase of the sandbox has the same terminal and its own transaction number', async () => {
    const seeded = async () => {
      const { token, brandId } = await h.newSandbox({ now: NOW, seed: 42 });
      return (await settledPurchase(tokenBox(h, token, brandId), 'fpx')).settled.transaction_data as Acquired;
    };
    const first = await seeded();
    expect(await seeded()).toEqual(first);
    const box = await sandboxAt(h, NOW);
    const one = (await settledPurchase(box, 'fpx')).settled.transaction_data as Acquired;
    const two = (await settledPurchase(box, 'fpx')).settled.transaction_data as Acquired;
    expect([two.terminal_id, two.terminal_uid]).toEqual([one.terminal_id, one.terminal_uid]);
    expect(two.processing_tx_id).not.toBe(one.processing_tx_id);
  });

  it('a card: the acquirer is the method, the terminal 8 digits, the card and the settlement in extra and no FPX messages; a captured hold carries them on its capture', async () => {
    const box = await sandboxAt(h, NOW);
    const { settled } = await settledPurchase(box, 'visa');
    const data = settled.transaction_data as Acquired;
    expect(data).toMatchObject({ acquirer: 'visa', terminal_id: expect.stringMatching(/^\d{8}$/) });
    expect(data.extra).toMatchObject({ card_brand: 'visa', settlement: { settled_on: SETTLED_AT } });
    expect(data.extra).not.toHaveProperty('webhook_payload');
    expect(data.attempts[0]).toMatchObject({ acquirer: 'visa', processing_tx_id: data.processing_tx_id, extra: { card_brand: 'visa' } });

    const held = await createPurchase(box, (await makeClient(box)).id, { skip_capture: true });
    await payPurchase(box, held.id, { method: 'mastercard' });
    expect((await box.req('POST', `/api/v1/purchases/${held.id}/capture/`, {})).status).toBe(200);
    await advance(box, { by: 'PT1H' });
    const [capture, authorize] = ((await getPurchase(box, held.id)) as Answered).transaction_data.attempts as Acquired[];
    expect(capture).toMatchObject({ type: 'capture', acquirer: 'mastercard' });
    expect(authorize!.type).toBe('authorize');
    expect(authorize).not.toHaveProperty('acquirer');
  });

  it('openapi.yaml validates the settled purchase as GET answers it and as purchase.settled delivers it', async () => {
    const box = await sandboxAt(h, NOW);
    const { settled, delivered } = await settledPurchase(box, 'fpx');
    for (const { event_type: _event, ...body } of [settled, delivered]) {
      const findings = await documentFindings('GET', `/api/v1/purchases/${settled.id}/`, { status: 200, headers: { 'content-type': 'application/json' }, body });
      expect(findings.violations).toEqual([]);
    }
  });
});
