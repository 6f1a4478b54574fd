// Purchases: POST /purchases/, get, list, cancel, totals, the simulated checkout, charging with a
// recurring token, the spec's rules on default_service_type, and one-time templates' send_invoice.
// The spec shows no Purchase payload ("Their payloads: not shown"), so most of the resource is
// DESIGN.md's (informative); the service-type rules and send_invoice are the spec's (normative).

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import type { ApiClient } from '../lib/client.ts';
import {
  ACTIVE_AT_ONCE,
  at,
  DAY,
  expectAbsoluteUrl,
  expectError,
  expectStatus,
  expectSuccess,
  paymentMethods,
  purchaseBody,
  UNKNOWN_ID,
  wallInstant,
} from '../lib/primitives.ts';
import {
  advanceTo,
  charge,
  createPurchase,
  getClient,
  getPurchase,
  getTemplate,
  listAll,
  mainAccount,
  mainClient,
  makeClient,
  makeOneTimeTemplate,
  makeTemplate,
  outbox,
  pay,
  purchasesOf,
  refusal,
  refusedCharge,
  sandbox,
  saveToken,
  sendInvoice,
  subscribersOf,
  tokenAndPurchase,
  typed,
  type Purchase,
} from '../lib/scenario.ts';

const DESIGN_PURCHASE = 'DESIGN.md §3 Field names (Purchase) and Endpoints; the spec shows no Purchase payload ("Their payloads: not shown")';
const SERVICE_RULES = 'Spec, Rules on default_service_type';

/** A sandbox frozen at 2026-01-30T12:00:00Z with one client ("tomorrow" is 2026-01-31T12:00:00Z). */
const NOW = '2026-01-30T12:00:00Z';
async function setupAt(api: ApiClient, now = NOW) {
  const account = await sandbox(api, now);
  const client = await makeClient(account);
  return { account, client };
}

/** A due instant far ahead of any target's clock, long enough for either service type. */
const FAR_DUE = () => wallInstant(60);

describe('purchases', () => {
  // ----------------------------------------------------------------------------- create, get, list
  check(
    {
      id: 'PUR-CREATE-CHECKOUT-URL',
      title: 'POST /purchases/ creates a Purchase for the client with a checkout_url to redirect the client to',
      cites: 'Spec, Other operations referenced: "POST /purchases/ (the client is redirected to purchase.checkout_url)"',
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
      title: 'POST /purchases/ → 201: status created, no template, no payment, no service type, GET returns the same',
      cites: DESIGN_PURCHASE,
      level: 'informative',
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
        due: null,
        force_recurring: false,
        is_recurring_token: false,
        service_type: null,
        recurring_token: null,
        payment: null,
      });
      expect(purchase.status_history.map((s) => s.status)).toEqual(['created']);
      expect(purchase.client).toMatchObject({ email: client.email });
      expect(await getPurchase(account, purchase.id)).toEqual(purchase);
    },
  );

  check(
    {
      id: 'PUR-CREATE-CLIENT-OBJECT',
      title: 'POST /purchases/ with a client object instead of client_id creates the client with the purchase',
      cites: 'DESIGN.md §3 Field names (Purchase: "client_id (or, on create, a client object)")',
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
      id: 'PUR-CREATE-CLIENT-BOTH-OR-NEITHER',
      title: 'POST /purchases/ with both client_id and client, or neither → 400 __all__; nothing is created',
      cites: 'openapi.yaml createPurchase ("both or neither → 400 under __all__")',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const both = await account.api.post('/purchases/', { ...purchaseBody(account.brandId, client.id), client: { email: 'both@example.com' } });
      const { client_id: _none, ...neither } = purchaseBody(account.brandId, client.id);
      for (const res of [both, await account.api.post('/purchases/', neither)]) {
        expect(res.status, res.text).toBe(400);
        expect(Object.keys(res.body)).toEqual(['__all__']);
      }
      expect(await purchasesOf(account, client.id)).toEqual([]);
    },
  );

  check(
    {
      id: 'PUR-LIST-GET',
      title: 'GET /purchases/ lists purchases newest first; GET /purchases/{id}/ returns one; an unknown id → 404',
      cites: 'DESIGN.md §3 Formats ("Lists … newest first") and Errors ("404 unknown or foreign id")',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const first = await createPurchase(account, client.id);
      const second = await createPurchase(account, client.id);
      const all = await listAll<Purchase>(account.api, '/purchases/');
      const mine = all.filter((p) => p.client_id === client.id);
      expect(mine.map((p) => p.id)).toEqual([second.id, first.id]);
      expect(mine[1]).toEqual(await getPurchase(account, first.id));
      expectStatus(await account.api.get(`/purchases/${UNKNOWN_ID}/`), 404, 'unknown purchase');
    },
  );

  check(
    {
      id: 'PUR-TOTAL',
      title: 'total is computed from products: round(price × quantity) − discount, plus tax_percent of that line',
      cites: 'Spec, BillingTemplate table, purchase: "products, total, currency"; DESIGN.md §3 Field names (Purchase: "total computed and read-only") and openapi.yaml PurchaseDetails.total',
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
      expect(purchase.purchase.products).toEqual([
        { name: 'Seat', price: 1000, quantity: 3, discount: 500, tax_percent: 20, category: '' },
        { name: 'Support', price: 250, quantity: 1.5, discount: 0, tax_percent: 0, category: '' },
        { name: 'Fee', price: 999, quantity: 1, discount: 0, tax_percent: 7.5, category: '' },
      ]);
    },
  );

  check(
    {
      id: 'PUR-TOTAL-READ-ONLY',
      title: 'a total sent that differs from the computed one → 400 purchase.total read_only; nothing is created',
      cites: 'openapi.yaml PurchaseDetails.total ("Read-only: a sent value must equal the stored total"); DESIGN.md §4.10 read_only',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const wrong = await account.api.post('/purchases/', purchaseBody(account.brandId, client.id, { purchase: { currency: 'EUR', total: 1, products: [{ name: 'A', price: 1200 }] } }));
      expectError(wrong, 'purchase.total', 'read_only', { alone: true });
      expect(await purchasesOf(account, client.id)).toEqual([]);
      const same = await createPurchase(account, client.id, { purchase: { currency: 'EUR', total: 1200, products: [{ name: 'A', price: 1200 }] } });
      expect(same.purchase.total).toBe(1200);
    },
  );

  // ----------------------------------------------------------------------------------- cancel
  check(
    {
      id: 'PUR-CANCEL',
      title: 'POST /purchases/{id}/cancel/ → 200 cancelled (status_history created, cancelled); cancelling again → 400 __all__ invalid_state',
      cites: 'DESIGN.md §3 Endpoints and Field names (Purchase statuses); openapi.yaml cancelPurchase',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const purchase = await createPurchase(account, client.id);
      const cancelled = expectStatus(await account.api.post(`/purchases/${purchase.id}/cancel/`), 200, 'cancel') as Purchase;
      expect(cancelled).toMatchObject({ id: purchase.id, status: 'cancelled', payment: null });
      expect(cancelled.status_history.map((s) => s.status)).toEqual(['created', 'cancelled']);
      expect(await getPurchase(account, purchase.id)).toEqual(cancelled);
      expectError(await account.api.post(`/purchases/${purchase.id}/cancel/`), '__all__', 'invalid_state', { alone: true });
      expect(await getPurchase(account, purchase.id)).toEqual(cancelled);
    },
  );

  check(
    {
      id: 'PUR-CANCEL-PAID',
      title: 'a paid purchase cannot be cancelled → 400 __all__ invalid_state; it stays paid',
      cites: 'openapi.yaml cancelPurchase ("Only an unpaid purchase can be cancelled")',
      level: 'informative',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const purchase = await createPurchase(account, client.id);
      const paid = await pay(account, purchase.id);
      expectError(await account.api.post(`/purchases/${purchase.id}/cancel/`), '__all__', 'invalid_state', { alone: true });
      expect(await getPurchase(account, purchase.id)).toEqual(paid);
    },
  );

  // ---------------------------------------------------------------------- paying at checkout
  check(
    {
      id: 'PUR-PAY-STATUS-PAYMENT',
      title: 'after payment: status paid, status_history created → paid, payment {amount = total, currency, payment_method, paid_on}',
      cites: 'DESIGN.md §3 Field names (Purchase: status, status_history, "payment (null until paid)"); openapi.yaml Payment',
      level: 'informative',
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
      expect(paid.payment).toEqual({ amount: 1100, currency: 'GBP', payment_method: method, paid_on: expect.any(Number) });
      expect(paid.status_history.map((s) => s.status)).toEqual(['created', 'paid']);
      const times = paid.status_history.map((s) => s.timestamp);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(paid.status_history.at(-1)!.timestamp).toBe(paid.payment!.paid_on);
      expect(await getPurchase(account, purchase.id)).toEqual(paid);
    },
  );

  // ------------------------------------------------------------------- charging with a token
  check(
    {
      id: 'PUR-CHARGE-TOKEN',
      title: 'a client recurring token is "Used as recurring_token in POST /purchases/{id}/charge/": the charge is accepted and the Purchase is paid',
      cites: 'Spec, Client recurring token: "Used as recurring_token in POST /purchases/{id}/charge/"; Spec, What the service does 3',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, token, purchase } = await tokenAndPurchase(api);
      const charged = expectSuccess(await charge(account, purchase.id, token), 'charge') as Purchase;
      expect(charged.status).toBe('paid');
      expect((await getPurchase(account, purchase.id)).status).toBe('paid');
    },
  );

  check(
    {
      id: 'PUR-CHARGE-TOKEN-FIELDS',
      title: 'a charge → 200 with recurring_token set and payment {amount, currency, payment_method of the token}',
      cites: 'DESIGN.md §3 Field names (Purchase: "recurring_token (id of the token that paid it, or null)", payment); openapi.yaml chargePurchase',
      level: 'informative',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, token, purchase } = await tokenAndPurchase(api, { method: 'mastercard' });
      const charged = expectStatus(await charge(account, purchase.id, token), 200, 'charge') as Purchase;
      expect(charged).toMatchObject({ id: purchase.id, status: 'paid', recurring_token: token, payment: { amount: 1200, currency: 'EUR', payment_method: 'mastercard' } });
    },
  );

  check(
    {
      id: 'PUR-CHARGE-DECLINED',
      title: 'a token whose later charges are declined: 200 with status error and no payment; the purchase can still be paid',
      cites: 'DESIGN.md §3 Simulator control (pay: token_outcome); openapi.yaml chargePurchase ("A charge declined … answers 200 with status error")',
      level: 'informative',
      requires: ['payments'],
    },
    async ({ api }) => {
      const { account, token, purchase } = await tokenAndPurchase(api, { tokenOutcome: 'failure' });
      const declined = expectStatus(await charge(account, purchase.id, token), 200, 'declined charge') as Purchase;
      expect(declined).toMatchObject({ status: 'error', payment: null });
      expect((await pay(account, purchase.id)).status).toBe('paid');
    },
  );

  refusal(
    {
      id: 'PUR-CHARGE-OTHER-CLIENT-TOKEN',
      title: 'a charge with another client\'s token is rejected; the purchase is unchanged',
      cites: 'openapi.yaml chargePurchase ("a token of another client" → 400) and ChargeRequest ("a usable recurring token of the purchase\'s client")',
      level: 'informative',
      requires: ['payments'],
      field: 'recurring_token',
      code: 'does_not_exist',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const other = await makeClient(account);
      const token = await saveToken(account, other.id);
      const purchase = await createPurchase(account, client.id);
      return refusedCharge(account, purchase.id, token);
    },
  );

  // ------------------------------------------------------------------ service types (spec rules)
  check(
    {
      id: 'PUR-SERVICE-TYPE-NEEDS-FORCE-RECURRING',
      title: '"force_recurring must be true to use the default_service_type": a Purchase created with service_type and no force_recurring gets no service type',
      cites: `${SERVICE_RULES} 4: "When creating a Purchase, force_recurring must be true to use the default_service_type."`,
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      for (const flags of [{}, { force_recurring: false }]) {
        const res = await account.api.post('/purchases/', purchaseBody(account.brandId, client.id, { service_type: 'ONEDAY', due: FAR_DUE(), ...flags }));
        if (res.status >= 200 && res.status < 300) expect((res.body as Purchase).service_type, JSON.stringify(flags)).toBeNull();
        else expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      }
      const forced = await createPurchase(account, client.id, typed('ONEDAY', FAR_DUE()));
      expect(forced).toMatchObject({ force_recurring: true, service_type: 'ONEDAY' });
    },
  );

  check(
    {
      id: 'PUR-SERVICE-TYPE-NEEDS-FORCE-RECURRING-CODE',
      title: 'POST /purchases/ with service_type and no force_recurring → 400 service_type invalid; nothing is created',
      cites: 'DESIGN.md §4.8 ("POST /purchases/ with a service_type and no force_recurring → 400")',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      for (const flags of [{}, { force_recurring: false }]) {
        expectError(await account.api.post('/purchases/', purchaseBody(account.brandId, client.id, { service_type: 'ONEDAY', due: FAR_DUE(), ...flags })), 'service_type', 'invalid', { alone: true });
      }
      expect(await purchasesOf(account, client.id)).toEqual([]);
    },
  );

  refusal(
    {
      id: 'PUR-TWODAY-DUE-TOMORROW-CREATE',
      title: '"A Purchase due tomorrow cannot be created … with a TWODAY type"; ONEDAY due tomorrow and TWODAY due in two days can',
      cites: `${SERVICE_RULES} 1: "A Purchase due must be valid for at least the execution time of the service type used to collect it. A Purchase due tomorrow cannot be created or charged with a TWODAY type or token."`,
      requires: ['clock'],
      field: 'service_type',
      code: 'invalid',
    },
    async ({ api }) => {
      const { account, client } = await setupAt(api);
      const tomorrow = at(NOW) + DAY;
      return {
        attempt: () => account.api.post('/purchases/', purchaseBody(account.brandId, client.id, typed('TWODAY', tomorrow))),
        state: () => purchasesOf(account, client.id),
        after: async () => {
          expect((await createPurchase(account, client.id, typed('ONEDAY', tomorrow))).service_type).toBe('ONEDAY');
          expect((await createPurchase(account, client.id, typed('TWODAY', tomorrow + DAY))).service_type).toBe('TWODAY');
        },
      };
    },
  );

  refusal(
    {
      id: 'PUR-TWODAY-DUE-TOMORROW-CHARGE',
      title: '"A Purchase due tomorrow cannot be … charged with a TWODAY … token"; the same purchase two days before due can',
      cites: `${SERVICE_RULES} 1: "A Purchase due tomorrow cannot be created or charged with a TWODAY type or token."`,
      requires: ['clock', 'payments'],
      field: 'recurring_token',
      code: 'invalid',
    },
    async ({ api }) => {
      const { account, client } = await setupAt(api);
      const token = await saveToken(account, client.id, { serviceType: 'TWODAY' });
      const due = at('2026-02-02T12:00:00Z');
      const early = await createPurchase(account, client.id, typed('TWODAY', due));
      const late = await createPurchase(account, client.id, typed('TWODAY', due));
      await advanceTo(account, '2026-01-31T12:00:00Z');
      expectSuccess(await charge(account, early.id, token), 'charge two days before due');
      // Now the purchase is due tomorrow.
      await advanceTo(account, '2026-02-01T12:00:00Z');
      return refusedCharge(account, late.id, token);
    },
  );

  refusal(
    {
      id: 'PUR-ONEDAY-NEEDS-ONEDAY-TOKEN',
      title: '"A ONEDAY Purchase needs a ONEDAY token": a TWODAY token is rejected; a ONEDAY token is accepted',
      cites: `${SERVICE_RULES} 3: "A recurring token can only charge a Purchase of the same service type. A ONEDAY Purchase needs a ONEDAY token."`,
      requires: ['payments'],
      field: 'recurring_token',
      code: 'invalid',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const twoDay = await saveToken(account, client.id, { serviceType: 'TWODAY' });
      const oneDay = await saveToken(account, client.id, { serviceType: 'ONEDAY' });
      const purchase = await createPurchase(account, client.id, typed('ONEDAY', FAR_DUE()));
      return {
        ...refusedCharge(account, purchase.id, twoDay),
        after: async () => {
          const charged = expectSuccess(await charge(account, purchase.id, oneDay), 'charge with the ONEDAY token') as Purchase;
          expect(charged.id).toBe(purchase.id);
        },
      };
    },
  );

  for (const { id, title, token, purchase } of [
    { id: 'PUR-ONEDAY-UNTYPED-TOKEN', title: 'a ONEDAY Purchase cannot be charged with a token that has no service type', token: {}, purchase: () => typed('ONEDAY', FAR_DUE()) },
    { id: 'PUR-UNTYPED-ONEDAY-TOKEN', title: 'a Purchase without a service type cannot be charged with a ONEDAY token', token: { serviceType: 'ONEDAY' as const }, purchase: () => ({}) },
  ]) {
    refusal(
      {
        id,
        title,
        cites: `${SERVICE_RULES} 3: "A recurring token can only charge a Purchase of the same service type."`,
        requires: ['payments'],
        field: 'recurring_token',
        code: 'invalid',
      },
      async ({ api }) => {
        const made = await tokenAndPurchase(api, token, purchase());
        return refusedCharge(made.account, made.purchase.id, made.token);
      },
    );
  }

  // ------------------------------------------------------------------ one-time templates
  check(
    {
      id: 'PUR-SEND-INVOICE-NOT-STORED',
      title: 'send_invoice on a one-time template creates a Purchase for the client; "BillingTemplateClient records of non-subscription templates are not stored"',
      cites: 'Spec, What the service does 4: "POST /billing_templates/{id}/send_invoice/ sends the invoices. BillingTemplateClient records of non-subscription templates are not stored."',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const template = await makeOneTimeTemplate(account);
      const invoice = expectSuccess(await sendInvoice(account, template.id, { client_id: client.id }), 'send_invoice') as Purchase;
      expect(invoice).toMatchObject({ client_id: client.id, billing_template_id: template.id });
      expect((await purchasesOf(account, client.id)).map((p) => p.id)).toEqual([invoice.id]);
      expect(await subscribersOf(account, template.id)).toEqual([]);
    },
  );

  check(
    {
      id: 'PUR-SEND-INVOICE-COPIES',
      title: 'the sent Purchase has the template\'s purchase details copied 1:1, and its due, skip_capture and send_receipt',
      cites:
        'Spec, What the service does 2 ("copies the template\'s purchase details (copied 1:1)"); Spec, BillingTemplate table: due "Sets due on generated Purchases", skip_capture "Sets skip_capture on generated Purchases", send_receipt "Sets send_receipt on generated Purchases"',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const due = wallInstant(45);
      const template = await makeOneTimeTemplate(account, {
        due,
        skip_capture: true,
        send_receipt: true,
        purchase: { currency: 'EUR', timezone: 'Europe/Berlin', notes: 'Workshop', products: [{ name: 'Ticket', price: 15000, quantity: 2, discount: 3000 }] },
      });
      const invoice = expectSuccess(await sendInvoice(account, template.id, { client_id: client.id }), 'send_invoice') as Purchase;
      expect(invoice.purchase).toEqual(template.purchase);
      expect(invoice).toMatchObject({ due, skip_capture: true, send_receipt: true });
    },
  );

  check(
    {
      id: 'PUR-SEND-INVOICE-SENT',
      title: 'send_invoice → 201 Purchase with status sent (created, sent) and the whitelist sent; one Purchase per call',
      cites: 'DESIGN.md §4.12 ("send_invoice creates and e-mails one Purchase per call (status sent)"); DESIGN.md §3 Endpoints',
      level: 'informative',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const template = await makeOneTimeTemplate(account);
      const [method] = await paymentMethods(account.api);
      const first = expectStatus(await sendInvoice(account, template.id, { client_id: client.id, payment_method_whitelist: [method] }), 201, 'send_invoice') as Purchase;
      expect(first).toMatchObject({ status: 'sent', payment_method_whitelist: [method] });
      expect(first.status_history.map((s) => s.status)).toEqual(['created', 'sent']);
      const second = expectStatus(await sendInvoice(account, template.id, { client_id: client.id }), 201, 'send_invoice again') as Purchase;
      expect(second).toMatchObject({ status: 'sent', payment_method_whitelist: null });
      expect((await purchasesOf(account, client.id)).map((p) => p.id)).toEqual([first.id, second.id]);
    },
  );

  check(
    {
      id: 'PUR-SEND-INVOICE-EMAILED',
      title: 'send_invoice e-mails the invoice to the client',
      cites: 'Spec, Send invoices ("sends the one-time invoices"); DESIGN.md §3 Simulator control (GET /sim/v1/outbox)',
      level: 'informative',
      requires: ['clock', 'events'],
    },
    async ({ api }) => {
      const { account, client } = await setupAt(api);
      const template = await makeOneTimeTemplate(account);
      const invoice = expectStatus(await sendInvoice(account, template.id, { client_id: client.id }), 201, 'send_invoice') as Purchase;
      expect(await outbox(account)).toEqual([{ id: expect.any(String), kind: 'invoice', to: client.email, purchase_id: invoice.id, sent_on: at(NOW) }]);
    },
  );

  check(
    {
      id: 'PUR-SEND-INVOICE-ISSUED-TODAY',
      title: 'issued, when omitted, is "generated from the current day in purchase.timezone": Jan 31 in Pacific/Auckland at 2026-01-30T11:30Z, Jan 30 in UTC',
      cites: 'Spec, BillingTemplate table, issued: "When omitted, generated from the current day in purchase.timezone."',
      requires: ['clock'],
    },
    async ({ api }) => {
      const { account, client } = await setupAt(api, '2026-01-30T11:30:00Z');
      const auckland = await makeOneTimeTemplate(account, { purchase: { currency: 'NZD', timezone: 'Pacific/Auckland', products: [{ name: 'Setup', price: 4900 }] } });
      const utc = await makeOneTimeTemplate(account);
      for (const [template, issued] of [[auckland, '2026-01-31'], [utc, '2026-01-30']] as const) {
        const invoice = expectSuccess(await sendInvoice(account, template.id, { client_id: client.id }), 'send_invoice') as Purchase;
        expect(invoice.issued, template.purchase.timezone).toBe(issued);
      }
    },
  );

  check(
    {
      id: 'PUR-SEND-INVOICE-ISSUED-SET',
      title: 'a template\'s issued "Sets issued on generated Purchases"',
      cites: 'Spec, BillingTemplate table, issued: "Sets issued on generated Purchases."',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const template = await makeOneTimeTemplate(account, { issued: '2030-05-17' });
      const invoice = expectSuccess(await sendInvoice(account, template.id, { client_id: client.id }), 'send_invoice') as Purchase;
      expect(invoice.issued).toBe('2030-05-17');
    },
  );

  refusal(
    {
      id: 'PUR-SEND-INVOICE-SUBSCRIPTION',
      title: 'send_invoice on a subscription template is rejected; nothing is sent',
      cites: 'Spec, Send invoices: "For templates with is_subscription false"',
      field: '__all__',
      code: 'invalid_state',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const template = await makeTemplate(account, ACTIVE_AT_ONCE);
      return {
        attempt: () => sendInvoice(account, template.id, { client_id: client.id }),
        state: async () => ({ purchases: await purchasesOf(account, client.id), subscribers: await subscribersOf(account, template.id), template: await getTemplate(account, template.id) }),
      };
    },
  );

  refusal(
    {
      id: 'PUR-SEND-INVOICE-CLIENT-UNKNOWN',
      title: 'send_invoice to a client that does not exist is rejected',
      cites: 'openapi.yaml sendInvoice ("A client_id that is not a client of the sandbox → 400 does_not_exist")',
      level: 'informative',
      field: 'client_id',
      code: 'does_not_exist',
    },
    async ({ api }) => {
      const account = await mainAccount(api);
      const template = await makeOneTimeTemplate(account);
      return {
        attempt: () => sendInvoice(account, template.id, { client_id: UNKNOWN_ID }),
        state: async () => (await listAll<Purchase>(account.api, '/purchases/')).filter((p) => p.billing_template_id === template.id),
      };
    },
  );
});
