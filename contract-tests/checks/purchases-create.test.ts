// Purchases: POST /purchases/, get, list, the computed total, cancel, and payment at the simulated
// checkout. The spec shows no Purchase payload ("Their payloads: not shown"); where the platform's
// published objects and API reference show a field or a rule (docs/fidelity.md), a check of it is
// normative, and what billing-sim decides alone (its list, its defaults, its error codes) is informative.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { settledHistory } from '../lib/purchase-actions.ts';
import { IGNORED_OR_REFUSED } from '../lib/citations.ts';
import { expectNotTaken, expectRefusedOrIgnored } from '../lib/ignored-fields.ts';
import {
  expectAbsoluteUrl,
  expectError,
  expectStatus,
  paymentMethods,
  purchaseBody,
  UNKNOWN_ID,
} from '../lib/primitives.ts';
import {
  createPurchase,
  expectPurchasesOf,
  getClient,
  getPurchase,
  listAll,
  mainAccount,
  mainClient,
  pay,
  type Purchase,
} from '../lib/scenario.ts';

const PURCHASE_FIELDS = 'docs/behaviour.md#field-names: "Purchase: brand_id, client_id"; docs/behaviour.md#purchases: "creates a purchase (status created, no e-mail)"; openapi.yaml#createPurchase';

describe('purchases', () => {
  // ----------------------------------------------------------------------------- create, get, list
  check(
    {
      id: 'PUR-CREATE-CHECKOUT-URL',
      title: 'POST /purchases/ creates a Purchase for the client with a checkout_url to redirect the client to',
      cites: 'docs/behaviour.md#purchases: "for a client to pay at its checkout_url"; docs/behaviour.md#formats: "checkout_url is an absolute URL on the origin the client called"',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const purchase = await createPurchase(account, client.id);
      expect(purchase.client_id).toBe(client.id);
      expectAbsoluteUrl(purchase.checkout_url);
    },
  );

  check(
    {
      id: 'PUR-CREATE',
      title: 'POST /purchases/ → 201: status created, no template, no payment, no recurring token, GET returns the same',
      cites: `${PURCHASE_FIELDS}; docs/fidelity.md#objects: "every field of the platform's published objects"; docs/fidelity.md#sources: "POST /purchases/ → 201"`,
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const res = await account.api.post('/purchases/', purchaseBody(account.brandId, client.id));
      const purchase = expectStatus(res, 201, 'create purchase') as Purchase;
      expect(purchase).toMatchObject({
        type: 'purchase',
        brand_id: account.brandId,
        client_id: client.id,
        billing_template_id: null,
        status: 'created',
        force_recurring: false,
        is_recurring_token: false,
        recurring_token: null,
        payment: null,
      });
      // service_type is the simulator's own (x-simulator-only): checked where the target has it.
      if ('service_type' in purchase) expect(purchase.service_type).toBeNull();
      expect(purchase.status_history.map((s) => s.status)).toEqual(['created']);
      expect(purchase.client).toMatchObject({ email: client.email });
      expect(await getPurchase(account, purchase.id)).toEqual(purchase);
    },
  );

  check(
    {
      id: 'PUR-CREATE-CLIENT-OBJECT',
      title: 'POST /purchases/ with a client object instead of client_id creates the client with the purchase',
      cites: 'docs/behaviour.md#purchases: "or client (the details of a new client, created with it)"; docs/behaviour.md#field-names: "client_id (or, on create, a client object)"',
      level: 'informative',
    },
    async ({ api }) => {
      const account = await mainAccount(api);
      const { client_id: _none, ...body } = purchaseBody(account.brandId, UNKNOWN_ID);
      const email = `contract.new.${Date.now().toString(36)}@example.com`;
      const res = await account.api.post('/purchases/', { ...body, client: { email, full_name: 'New Customer' } });
      const purchase = expectStatus(res, 201, 'create purchase with a client object') as Purchase;
      expect(purchase.client).toMatchObject({ email, full_name: 'New Customer' });
      expect(await getClient(account, purchase.client_id)).toMatchObject({ id: purchase.client_id, email, full_name: 'New Customer' });
    },
  );

  check(
    {
      id: 'PUR-CREATE-CLIENT-NEITHER',
      title: 'POST /purchases/ with neither client_id nor client → 400 __all__; nothing is created',
      cites: 'docs/behaviour.md#purchases: "neither → 400 under __all__"; openapi.yaml#createPurchase',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      // Both together is not checked: the platform's Go SDK always sends its client struct beside a client_id.
      const { client_id: _none, ...neither } = purchaseBody(account.brandId, client.id);
      const res = await account.api.post('/purchases/', neither);
      expect(res.status, res.text).toBe(400);
      expect(Object.keys(res.body)).toEqual(['__all__']);
      await expectPurchasesOf(account, client.id, []);
    },
  );

  check(
    {
      id: 'PUR-LIST-GET',
      title: 'GET /purchases/?client_id lists the client\'s purchases newest first; GET /purchases/{id}/ returns one; an unknown id → 404',
      cites: 'docs/behaviour.md#lists: "newest first"; docs/behaviour.md#status-codes: "404 | an unknown path, an unknown id"; openapi.yaml#listPurchases: "Only the purchases of this client."',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const first = await createPurchase(account, client.id);
      const second = await createPurchase(account, client.id);
      // Narrowed to the check's own client: other checks create purchases in the account meanwhile.
      const mine = await listAll<Purchase>(account.api, `/purchases/?client_id=${client.id}`);
      expect(mine.map((p) => p.id)).toEqual([second.id, first.id]);
      expect(mine[1]).toEqual(await getPurchase(account, first.id));
      expectStatus(await account.api.get(`/purchases/${UNKNOWN_ID}/`), 404, 'unknown purchase');
    },
  );

  check(
    {
      id: 'PUR-TOTAL',
      title: 'total is computed from products: round(price × quantity) − discount, plus tax_percent of that line',
      // Tax on the discounted line and the rounding are billing-sim's (docs/fidelity.md#decimal-strings); PUR-TOTAL-LINES checks the platform's rules.
      cites:
        'docs/behaviour.md#formats: "purchase.total is the sum over products of (round(price × quantity) − discount), each line plus round(that line × tax_percent / 100)", ' +
        '"quantity may be fractional (default 1)"; openapi.yaml#/components/schemas/PurchaseDetailsFields/properties/total',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const products = [
        { name: 'Seat', price: 1000, quantity: 3, discount: 500, tax_percent: 20 },
        { name: 'Support', price: 250, quantity: 1.5 },
        { name: 'Fee', price: 999, tax_percent: 7.5 },
      ];
      // (3000 − 500) + 500 tax = 3000; 375; 999 + round(74.925) = 1074.
      const purchase = await createPurchase(account, client.id, { purchase: { currency: 'EUR', products } });
      expect(purchase.purchase.total).toBe(3000 + 375 + 1074);
      // Answered as the platform does: quantity and tax_percent as decimal strings (PUR-DECIMAL-STRINGS-*).
      expect(purchase.purchase.products).toEqual([
        { name: 'Seat', price: 1000, quantity: '3.0000', discount: 500, tax_percent: '20.00', category: '' },
        { name: 'Support', price: 250, quantity: '1.5000', discount: 0, tax_percent: '0.00', category: '' },
        { name: 'Fee', price: 999, quantity: '1.0000', discount: 0, tax_percent: '7.50', category: '' },
      ]);
    },
  );

  // The fields a create sends that are always the server's, or that the operation does not define:
  // production code sends them (the Java SDK `status: "created"`, the example apps `order_id`). Each
  // alone, so that a target refusing one and ignoring another passes both ways.
  const SERVER_FIELDS: Record<string, unknown> = {
    id: '5f0c2a9e-6b1d-4f7a-9c3e-2d8b7a6e1f40',
    status: 'paid',
    created_on: 1,
    company_id: '0b8e7f5c-3a2d-4e1f-8c6b-9d7a5e3f1c20',
    order_id: 'ORDER-CT-1',
  };

  check(
    {
      id: 'PUR-CREATE-SERVER-FIELDS',
      title: 'POST /purchases/ with id, status "paid", created_on, company_id or order_id: refused, or ignored — never taken (the purchase is created, its id and times the server\'s)',
      cites: `${PURCHASE_FIELDS}; ${IGNORED_OR_REFUSED}`,
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      for (const [field, sent] of Object.entries(SERVER_FIELDS)) {
        const reply = await account.api.post('/purchases/', purchaseBody(account.brandId, client.id, { [field]: sent }));
        if (expectRefusedOrIgnored(reply, { [field]: sent }) === 'refused') continue;
        expectNotTaken(reply.body, { [field]: sent }, `the purchase created with ${field} ${JSON.stringify(sent)}`);
        const stored = await getPurchase(account, reply.body.id);
        expectNotTaken(stored, { [field]: sent }, `the purchase read back, created with ${field} ${JSON.stringify(sent)}`);
        if (field === 'status') expect(stored.status, 'a purchase created with status "paid"').toBe('created');
        if (field === 'id') expect((await account.api.get(`/purchases/${sent}/`)).status, 'GET of the id sent').toBe(404);
      }
    },
  );

  check(
    {
      id: 'PUR-TOTAL-READ-ONLY',
      title: 'a total sent that differs from the computed one → 400 purchase.total read_only with nothing created, or ignored (the total is computed)',
      cites:
        'openapi.yaml#/components/schemas/PurchaseDetailsFields/properties/total: "Read-only: a sent value must equal the stored total"; ' +
        `docs/behaviour.md#read-only-fields: "purchase.total is computed: send it back unchanged, or leave it out"; ${IGNORED_OR_REFUSED}`,
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const wrong = await account.api.post('/purchases/', purchaseBody(account.brandId, client.id, { purchase: { currency: 'EUR', total: 1, products: [{ name: 'A', price: 1200 }] } }));
      if (expectRefusedOrIgnored(wrong, { 'purchase.total': 1 }, ['read_only']) === 'refused') {
        expectError(wrong, 'purchase.total', 'read_only', { alone: true });
        await expectPurchasesOf(account, client.id, []);
      } else {
        expect(wrong.body.purchase.total, 'the total of a purchase sent with total 1').toBe(1200);
        expectNotTaken(await getPurchase(account, wrong.body.id), { 'purchase.total': 1 }, 'the purchase read back');
      }
      const same = await createPurchase(account, client.id, { purchase: { currency: 'EUR', total: 1200, products: [{ name: 'A', price: 1200 }] } });
      expect(same.purchase.total).toBe(1200);
    },
  );

  // ----------------------------------------------------------------------------------- cancel
  check(
    {
      id: 'PUR-CANCEL',
      title: 'POST /purchases/{id}/cancel/ → 200 cancelled (status_history created, cancelled); GET returns the same',
      cites: 'docs/fidelity.md#purchase-actions: "Cancel a pending Purchase", "200 Purchase", "status_history created, cancelled"; openapi.yaml#cancelPurchase',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const purchase = await createPurchase(account, client.id);
      const cancelled = expectStatus(await account.api.post(`/purchases/${purchase.id}/cancel/`), 200, 'cancel') as Purchase;
      expect(cancelled).toMatchObject({ id: purchase.id, status: 'cancelled', payment: null });
      expect(cancelled.status_history.map((s) => s.status)).toEqual(['created', 'cancelled']);
      expect(await getPurchase(account, purchase.id)).toEqual(cancelled);
    },
  );

  check(
    {
      id: 'PUR-CANCEL-AGAIN',
      title: 'cancelling a cancelled purchase → 400 __all__ invalid_state; it stays as it was',
      // The platform does not say what a second cancel answers: billing-sim refuses it, as any other action out of state.
      cites: 'docs/behaviour.md#purchases: "created, sent, viewed, error and overdue can be paid, charged and cancelled", "Any other status → 400 invalid_state for those actions"; openapi.yaml#cancelPurchase',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const purchase = await createPurchase(account, client.id);
      const cancelled = expectStatus(await account.api.post(`/purchases/${purchase.id}/cancel/`), 200, 'cancel') as Purchase;
      expectError(await account.api.post(`/purchases/${purchase.id}/cancel/`), '__all__', 'invalid_state', { alone: true });
      expect(await getPurchase(account, purchase.id)).toEqual(cancelled);
    },
  );

  // ---------------------------------------------------------------------- paying at checkout
  check(
    {
      id: 'PUR-PAY-STATUS-PAYMENT',
      title: 'after payment: status paid, status_history created → paid (pending_execute between, for a card, as on the platform, or not), payment {amount = total, currency, paid_on}, the method in transaction_data',
      cites:
        'docs/behaviour.md#field-names: "status_history ([{status, timestamp}])", "payment ({amount, currency, payment_method, paid_on}, null until paid)"; ' +
        'docs/behaviour.md#simulated-payments: "success → paid"; docs/fidelity.md#purchase-statuses: "payment.paid_on that of its paid entry in status_history"; ' +
        'openapi.yaml#/components/schemas/PaymentDetails; openapi.yaml#/components/schemas/TransactionData',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const [method] = await paymentMethods(account.api);
      const purchase = await createPurchase(account, client.id, {
        purchase: { currency: 'GBP', products: [{ name: 'A', price: 1000, tax_percent: 10 }] },
        payment_method_whitelist: [method],
      });
      expect(purchase.payment).toBeNull();
      const paid = await pay(account, purchase.id);
      expect(paid.status).toBe('paid');
      // net_amount is the amount less the platform's fee, which only a target with fees takes (the simulator's is 0).
      expect(paid.payment).toMatchObject({ is_outgoing: false, payment_type: 'purchase', amount: 1100, currency: 'GBP', paid_on: expect.any(Number) });
      // payment.payment_method is the simulator's own (x-simulator-only); the platform's is transaction_data's.
      if ('payment_method' in paid.payment!) expect(paid.payment!.payment_method).toBe(method);
      expect(paid.transaction_data).toMatchObject({ payment_method: method, attempts: [expect.objectContaining({ type: 'execute', successful: true })] });
      // A card payment shows the platform's pending_execute in its history before paid, or may not.
      expect(settledHistory(paid)).toEqual(['created', 'paid']);
      const times = paid.status_history.map((s) => s.timestamp);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(paid.status_history.at(-1)!.timestamp).toBe(paid.payment!.paid_on);
      expect(await getPurchase(account, purchase.id)).toEqual(paid);
    },
  );
});
