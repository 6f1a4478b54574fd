// The platform's purchase actions and statuses (DESIGN.md §9) over HTTP: capture and release of a
// skip_capture hold, full and partial refunds, mark_as_paid, resend_invoice, `expired` for a
// due_strict purchase past its due, and a declined charge answered 400 purchase_charge_error with
// the attempt in transaction_data. The spec is silent on all of these; the tests are named after
// the platform's words.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  advance,
  at,
  createPurchase,
  eventTypesOf,
  expectRejected,
  getPurchase,
  makeClient,
  outbox,
  payPurchase,
  receivedPayment,
  sandboxWithClient,
  sandboxWithTemplate,
  saveToken,
  subscribe,
  subscriberBody,
  getSubscriber,
  tokenBox,
  type Box,
  type Purchase,
} from '../builders/engine.ts';

const h = useHarness();

const NOW = '2026-01-30T12:00:00Z';

/** EUR 20.00 + 10 % tax = 2200. */
const TWENTY_TWO = { purchase: { currency: 'EUR', products: [{ name: 'Ticket', price: 2000, tax_percent: 10 }] } };

const act = (box: Box, purchase: Purchase, action: string, body?: unknown) => box.req('POST', `/api/v1/purchases/${purchase.id}/${action}/`, body);

async function ok(box: Box, purchase: Purchase, action: string, body?: unknown): Promise<any> {
  const res = await act(box, purchase, action, body);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/**
 * A purchase of 2200 paid with skip_capture: its money is on `hold`. `strict`: in a sandbox that
 * refuses unknown fields and reads no value as another type, as every sandbox once did.
 */
async function held(sendReceipt = false, strict = false) {
  const { box, client } = strict ? await strictSandboxWithClient() : await sandboxWithClient(h, NOW);
  const purchase = await createPurchase(box, client.id, { ...TWENTY_TWO, skip_capture: true, send_receipt: sendReceipt });
  const hold = await payPurchase(box, purchase.id, { method: 'visa' });
  expect(hold.status).toBe('hold');
  return { box, client, purchase: hold };
}

async function strictSandboxWithClient() {
  const { token, brandId } = await h.newSandbox({ now: NOW, frozen: true, strict: true });
  const box = tokenBox(h, token, brandId);
  return { box, client: await makeClient(box) };
}

/** A purchase of 2200 paid by card. */
async function paid() {
  const { box, client } = await sandboxWithClient(h, NOW);
  const purchase = await payPurchase(box, (await createPurchase(box, client.id, TWENTY_TWO)).id, { method: 'mastercard' });
  return { box, client, purchase };
}

describe('a new purchase carries the platform\'s fields', () => {
  it('transaction_data with no attempts, refundable_amount 0, refund_availability none, marked_as_paid false', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const purchase = await createPurchase(box, client.id);
    expect(purchase).toMatchObject({
      // "" where nothing was tried, as the platform's published purchase.created; its flow `payform`.
      transaction_data: { payment_method: '', flow: 'payform', country: '', attempts: [] },
      refundable_amount: 0,
      refund_availability: 'none',
      marked_as_paid: false,
    });
  });

  it('a payment at checkout records an `execute` attempt and the platform\'s PaymentDetails; all of it is refundable', async () => {
    const { purchase } = await paid();
    // The platform's 3D Secure test card, the default of a mastercard payment.
    const card = expect.objectContaining({ card_brand: 'mastercard', masked_pan: '555555******4444', card_type: 'credit' });
    // The country is the card's issuing country (the client's, else MY), as on the platform's card payments.
    expect(purchase.transaction_data).toEqual({
      payment_method: 'mastercard',
      flow: 'payform',
      country: 'MY',
      attempts: [{ type: 'execute', successful: true, payment_method: 'mastercard', flow: 'payform', country: 'MY', client_ip: '', processing_time: 0, fee_amount: 20, extra: card, error: null }],
      extra: card,
    });
    expect(purchase.payment).toEqual(receivedPayment(2200, 'EUR', 'mastercard', at(NOW)));
    expect(purchase).toMatchObject({ refundable_amount: 2200, refund_availability: 'all' });
  });

  it('a failed payment at checkout records a failed `execute` attempt, newest first, and the next success goes before it', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const purchase = await createPurchase(box, client.id);
    const failed = await payPurchase(box, purchase.id, { outcome: 'failure', method: 'visa' });
    expect(failed.status).toBe('error');
    expect(failed.transaction_data.attempts).toEqual([expect.objectContaining({ type: 'execute', successful: false, error: expect.objectContaining({ code: 'insufficient_funds' }) })]);
    const later = await payPurchase(box, purchase.id, { method: 'maestro' });
    expect(later.transaction_data.attempts.map((a: { successful: boolean }) => a.successful)).toEqual([true, false]);
    expect(later.transaction_data.payment_method).toBe('maestro');
  });
});

describe('POST /purchases/{id}/capture/', () => {
  it('"Capture funds reserved for a Purchase (status == hold)": the whole amount by default → paid, events purchase.captured then purchase.paid, a receipt when send_receipt', async () => {
    const { box, purchase } = await held(true);
    expect(purchase.transaction_data.attempts[0]).toMatchObject({ type: 'authorize', successful: true, payment_method: 'visa' });
    const captured = await ok(box, purchase, 'capture');
    expect(captured).toMatchObject({ status: 'paid', refundable_amount: 2200, refund_availability: 'all' });
    expect(captured.payment).toMatchObject({ amount: 2200, payment_method: 'visa' });
    expect(captured.transaction_data.attempts.map((a: { type: string }) => a.type)).toEqual(['capture', 'authorize']);
    // As the platform's purchase.captured: the card processed (pending_execute), held, pending_capture, paid.
    expect(captured.status_history.map((s: { status: string }) => s.status)).toEqual(['created', 'pending_execute', 'hold', 'pending_capture', 'paid']);
    expect((await eventTypesOf(box, purchase.id)).slice(0, 3)).toEqual(['purchase.paid', 'purchase.captured', 'purchase.pending_capture']);
    expect((await outbox(box)).map((e) => e.kind)).toEqual(['receipt']);
  });

  it('a partial amount is captured as asked; more than the purchase\'s total → 400 __all__ purchase_capture_error and nothing changes', async () => {
    const { box, purchase } = await held();
    expectRejected(await act(box, purchase, 'capture', { amount: 2201 }), '__all__', 'purchase_capture_error');
    expect(await getPurchase(box, purchase.id)).toEqual(purchase);
    const captured = await ok(box, purchase, 'capture', { amount: 1500 });
    expect(captured.payment.amount).toBe(1500);
    expect(captured.refundable_amount).toBe(1500);
  });

  it('amount 0, a fraction or a string → 400 naming amount; an unknown field → 400 unknown_field (strict)', async () => {
    const { box, purchase } = await held(false, true);
    for (const amount of [0, 1.5, '100']) expect(Object.keys((await act(box, purchase, 'capture', { amount })).body as object)).toEqual(['amount']);
    expectRejected(await act(box, purchase, 'capture', { amount: 100, reason: 'x' }), 'reason', 'unknown_field');
    expect((await getPurchase(box, purchase.id)).status).toBe('hold');
  });

  it('outside a strict sandbox amount 0 or a fraction is still refused, "1.5" too; an integral string is read as the amount and an unknown field is ignored', async () => {
    const { box, purchase } = await held();
    for (const amount of [0, 1.5, '1.5']) expect(Object.keys((await act(box, purchase, 'capture', { amount })).body as object)).toEqual(['amount']);
    expect((await getPurchase(box, purchase.id)).status).toBe('hold');
    const captured = await act(box, purchase, 'capture', { amount: '100', reason: 'x' });
    expect(captured.status, captured.text).toBe(200);
    expect(captured.headers['billing-sim-ignored']).toBe('reason');
    expect((captured.body as Purchase).payment!.amount).toBe(100);
  });

  it('only a purchase on hold can be captured: created, paid and released → 400 __all__ purchase_capture_error', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const created = await createPurchase(box, client.id);
    expectRejected(await act(box, created, 'capture'), '__all__', 'purchase_capture_error');
    const { box: box2, purchase } = await paid();
    expectRejected(await act(box2, purchase, 'capture'), '__all__', 'purchase_capture_error');
    const hold = await held();
    await ok(hold.box, hold.purchase, 'release');
    expectRejected(await act(hold.box, hold.purchase, 'capture'), '__all__', 'purchase_capture_error');
  });
});

describe('POST /purchases/{id}/release/', () => {
  it('"Release funds on hold": → released, event purchase.released, nothing paid; a second release → 400 __all__ purchase_release_error', async () => {
    const { box, purchase } = await held();
    const released = await ok(box, purchase, 'release');
    expect(released).toMatchObject({ status: 'released', payment: null, refundable_amount: 0 });
    expect(released.transaction_data.attempts[0]).toMatchObject({ type: 'release', successful: true });
    expect((await eventTypesOf(box, purchase.id))[0]).toBe('purchase.released');
    expectRejected(await act(box, purchase, 'release'), '__all__', 'purchase_release_error');
    expectRejected(await box.req('POST', `/sim/v1/purchases/${purchase.id}/pay`, {}), '__all__', 'invalid_state');
  });

  it('takes no body: a field → 400 unknown_field (strict)', async () => {
    const { box, purchase } = await held(false, true);
    expectRejected(await act(box, purchase, 'release', { amount: 100 }), 'amount', 'unknown_field');
    expect((await getPurchase(box, purchase.id)).status).toBe('hold');
  });

  it('takes no body: outside a strict sandbox a field sent is ignored and named, and the hold is released in full', async () => {
    const { box, purchase } = await held();
    const released = await act(box, purchase, 'release', { amount: 100 });
    expect(released.status, released.text).toBe(200);
    expect(released.headers['billing-sim-ignored']).toBe('amount');
    expect((released.body as Purchase).status).toBe('released');
  });
});

describe('POST /purchases/{id}/refund/', () => {
  it('a full refund: the purchase is refunded, the answer is the Payment (is_outgoing, refund, related_to the purchase, status success as the WooCommerce plugin reads it), event payment.refunded carries it', async () => {
    const { box, purchase } = await paid();
    const payment = await ok(box, purchase, 'refund');
    expect(payment).toMatchObject({
      type: 'payment',
      status: 'success',
      brand_id: box.brandId,
      is_test: true,
      client: purchase.client,
      related_to: { type: 'purchase', id: purchase.id },
      payment: { is_outgoing: true, payment_type: 'refund', amount: 2200, currency: 'EUR', paid_on: at(NOW) },
      transaction_data: { payment_method: 'mastercard', attempts: [expect.objectContaining({ type: 'refund', successful: true })] },
    });
    const after = await getPurchase(box, purchase.id);
    expect(after).toMatchObject({ status: 'refunded', refundable_amount: 0, refund_availability: 'none' });
    expect(await eventTypesOf(box, payment.id)).toEqual(['payment.refunded']);
    expect((await eventTypesOf(box, purchase.id))[0]).toBe('purchase.refunded');
    expectRejected(await act(box, purchase, 'refund'), '__all__', 'purchase_refund_error');
  });

  it('a partial refund leaves the purchase paid with refundable_amount lowered; refunds add up to what was paid and no further', async () => {
    const { box, purchase } = await paid();
    expect((await ok(box, purchase, 'refund', { amount: 700 })).payment.amount).toBe(700);
    expect(await getPurchase(box, purchase.id)).toMatchObject({ status: 'paid', refundable_amount: 1500, refund_availability: 'all' });
    expectRejected(await act(box, purchase, 'refund', { amount: 1501 }), '__all__', 'purchase_refund_error');
    expect((await getPurchase(box, purchase.id)).refundable_amount).toBe(1500);
    expect((await ok(box, purchase, 'refund', { amount: 1500 })).payment.amount).toBe(1500);
    expect(await getPurchase(box, purchase.id)).toMatchObject({ status: 'refunded', refundable_amount: 0 });
  });

  it('a partially captured purchase refunds at most what was captured', async () => {
    const { box, purchase } = await held();
    await ok(box, purchase, 'capture', { amount: 1000 });
    expectRejected(await act(box, purchase, 'refund', { amount: 1001 }), '__all__', 'purchase_refund_error');
    expect((await ok(box, purchase, 'refund')).payment.amount).toBe(1000);
  });

  it('only a paid purchase can be refunded: created, hold and a purchase marked as paid → 400 __all__ purchase_refund_error', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const created = await createPurchase(box, client.id);
    expectRejected(await act(box, created, 'refund'), '__all__', 'purchase_refund_error');
    const hold = await held();
    expectRejected(await act(hold.box, hold.purchase, 'refund'), '__all__', 'purchase_refund_error');
    await ok(box, created, 'mark_as_paid');
    const refused = await act(box, created, 'refund');
    expectRejected(refused, '__all__', 'purchase_refund_error');
    expect(JSON.stringify(refused.body)).toContain('marked as paid');
  });
});

describe('POST /purchases/{id}/mark_as_paid/', () => {
  it('paid outside the gateway: marked_as_paid true, payment_method null, nothing refundable, event purchase.paid, a receipt when send_receipt', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const purchase = await createPurchase(box, client.id, { send_receipt: true });
    const marked = await ok(box, purchase, 'mark_as_paid');
    expect(marked).toMatchObject({ status: 'paid', marked_as_paid: true, refundable_amount: 0, refund_availability: 'none' });
    expect(marked.payment).toMatchObject({ amount: 1200, payment_method: null, paid_on: at(NOW) });
    expect(marked.transaction_data.attempts).toEqual([]);
    expect((await eventTypesOf(box, purchase.id))[0]).toBe('purchase.paid');
    expect((await outbox(box)).map((e) => e.kind)).toEqual(['receipt']);
    expectRejected(await act(box, purchase, 'mark_as_paid'), '__all__', 'invalid_state');
  });

  it('paid_on in the past is kept; after now on the sandbox clock → 400 max_value on paid_on and nothing changes', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const purchase = await createPurchase(box, client.id);
    expectRejected(await act(box, purchase, 'mark_as_paid', { paid_on: at(NOW) + 1 }), 'paid_on', 'max_value');
    expect(await getPurchase(box, purchase.id)).toEqual(purchase);
    const yesterday = at(NOW) - 86_400;
    expect((await ok(box, purchase, 'mark_as_paid', { paid_on: yesterday })).payment.paid_on).toBe(yesterday);
  });

  it('marks an expired purchase as paid, but not a cancelled one', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const due = at('2026-02-01T00:00:00Z');
    const strict = await createPurchase(box, client.id, { due, purchase: { currency: 'EUR', due_strict: true, products: [{ name: 'A', price: 100 }] } });
    const cancelled = await createPurchase(box, client.id);
    await ok(box, cancelled, 'cancel');
    await advance(box, { to: '2026-02-02T00:00:00Z' });
    expect((await getPurchase(box, strict.id)).status).toBe('expired');
    expect((await ok(box, strict, 'mark_as_paid')).status).toBe('paid');
    expectRejected(await act(box, cancelled, 'mark_as_paid'), '__all__', 'invalid_state');
  });

  it('a pending subscriber\'s first purchase marked as paid starts the subscription, as a payment does', async () => {
    const { box, client, template } = await sandboxWithTemplate(h, NOW);
    const { subscriber, purchase } = await subscribe(box, template.id, subscriberBody(client.id, '2026-02-10'));
    expect(subscriber.status).toBe('pending');
    await ok(box, purchase!, 'mark_as_paid');
    expect((await getSubscriber(box, template.id, subscriber.id)).status).toBe('active');
  });
});

describe('POST /purchases/{id}/resend_invoice/', () => {
  it('e-mails the invoice again: a created purchase becomes sent, a sent one stays sent, each time one more invoice', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const purchase = await createPurchase(box, client.id);
    expect((await ok(box, purchase, 'resend_invoice')).status).toBe('sent');
    expect((await ok(box, purchase, 'resend_invoice')).status).toBe('sent');
    const emails = await outbox(box);
    expect(emails.map((e) => [e.kind, e.purchase_id, e.to])).toEqual([
      ['invoice', purchase.id, client.email],
      ['invoice', purchase.id, client.email],
    ]);
  });

  it('a paid or cancelled purchase has no invoice to resend → 400 invalid_state, no e-mail', async () => {
    const { box, purchase } = await paid();
    expectRejected(await act(box, purchase, 'resend_invoice'), '__all__', 'invalid_state');
    expect(await outbox(box)).toEqual([]);
  });
});

describe('expired and overdue', () => {
  it('"expired: Purchase is past its due and payment for it isn\'t possible anymore" with due_strict; "overdue" stays payable without it — across the turn of the year', async () => {
    const { box, client } = await sandboxWithClient(h, '2026-12-30T10:00:00Z');
    const due = at('2027-01-01T00:00:00Z');
    const strict = await createPurchase(box, client.id, { due, purchase: { currency: 'EUR', due_strict: true, products: [{ name: 'A', price: 100 }] } });
    const lenient = await createPurchase(box, client.id, { due });
    const { processed } = await advance(box, { to: '2027-01-01T00:00:00Z' });
    expect(processed).toMatchObject({ expired: 1, overdue: 1 });
    expect((await getPurchase(box, strict.id)).status).toBe('expired');
    expect((await getPurchase(box, lenient.id)).status).toBe('overdue');
    expect((await eventTypesOf(box, strict.id))[0]).toBe('purchase.expired');
    expectRejected(await box.req('POST', `/sim/v1/purchases/${strict.id}/pay`, {}), '__all__', 'invalid_state');
    expectRejected(await act(box, strict, 'cancel'), '__all__', 'invalid_state');
    expect((await payPurchase(box, lenient.id)).status).toBe('paid');
  });

  it('expired is the one past due: a purchase due at 00:00 Feb 29 in Pacific/Auckland is payable at 23:59 Feb 28 local time, expired a minute later', async () => {
    const { box, client } = await sandboxWithClient(h, '2028-02-27T00:00:00Z');
    // 2028-02-29T00:00 in Auckland (UTC+13) is 2028-02-28T11:00Z.
    const due = at('2028-02-28T11:00:00Z');
    const strict = await createPurchase(box, client.id, { due, purchase: { currency: 'NZD', timezone: 'Pacific/Auckland', due_strict: true, products: [{ name: 'A', price: 100 }] } });
    await advance(box, { to: '2028-02-28T10:59:00Z' });
    expect((await getPurchase(box, strict.id)).status).toBe('created');
    await advance(box, { to: '2028-02-28T11:00:00Z' });
    expect((await getPurchase(box, strict.id)).status).toBe('expired');
  });
});

describe('POST /purchases/{id}/charge/ declined', () => {
  it('"you will receive HTTP response code 400 with error code purchase_charge_error": the status is kept, the attempt is in transaction_data.attempts, event purchase.payment_failure', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const token = await saveToken(box, client.id, { tokenOutcome: 'failure' });
    const purchase = await createPurchase(box, client.id);
    const res = await box.req('POST', `/api/v1/purchases/${purchase.id}/charge/`, { recurring_token: token });
    expectRejected(res, '__all__', 'purchase_charge_error');
    const after = await getPurchase(box, purchase.id);
    expect(after.status).toBe('created');
    expect(after.payment).toBeNull();
    expect(after.transaction_data.attempts).toEqual([
      // The declined card is the token's: the one that paid the purchase that saved it.
      {
        type: 'recurring_execute',
        successful: false,
        payment_method: 'visa',
        flow: 'payform',
        country: 'MY',
        client_ip: '',
        processing_time: 0,
        fee_amount: 20,
        extra: expect.objectContaining({ card_brand: 'visa', masked_pan: '444433******1111' }),
        error: expect.objectContaining({ code: 'insufficient_funds' }),
      },
    ]);
    expect((await eventTypesOf(box, purchase.id))[0]).toBe('purchase.payment_failure');
    // Still payable, by another card.
    expect((await payPurchase(box, purchase.id)).status).toBe('paid');
  });

  it('deleting the token records a delete_recurring_token attempt on the purchase that saved it', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const token = await saveToken(box, client.id);
    const res = await box.req('POST', `/api/v1/purchases/${token}/delete_recurring_token/`);
    expect(res.status, res.text).toBe(200);
    expect((res.body as Purchase).transaction_data.attempts.map((a) => a.type)).toEqual(['delete_recurring_token', 'execute']);
  });

  it('a successful charge records a recurring_execute attempt', async () => {
    const { box, client } = await sandboxWithClient(h, NOW);
    const token = await saveToken(box, client.id);
    const purchase = await createPurchase(box, client.id);
    const res = await box.req('POST', `/api/v1/purchases/${purchase.id}/charge/`, { recurring_token: token });
    expect(res.status, res.text).toBe(200);
    expect((res.body as Purchase).transaction_data.attempts[0]).toMatchObject({ type: 'recurring_execute', successful: true });
  });
});
