// One-time templates' POST /billing_templates/{id}/send_invoice/ (spec, "Send invoices" and "What
// the service does" 4): the Purchase it creates for the client, copied from the template, and the
// e-mail it sends.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import {
  ACTIVE_AT_ONCE,
  at,
  expectStatus,
  expectSuccess,
  paymentMethods,
  UNKNOWN_ID,
  wallInstant,
} from '../lib/primitives.ts';
import {
  expectPurchasesOf,
  getTemplate,
  listIfPresent,
  mainAccount,
  mainClient,
  makeOneTimeTemplate,
  makeTemplate,
  outbox,
  purchasesIfListed,
  refusal,
  SANDBOX_NOW as NOW,
  sandboxClient as setupAt,
  sendInvoice,
  subscribersOf,
  type Purchase,
} from '../lib/scenario.ts';

describe('purchases', () => {
  // ------------------------------------------------------------------ one-time templates
  check(
    {
      id: 'PUR-SEND-INVOICE-NOT-STORED',
      title: 'send_invoice on a one-time template creates a Purchase for the client; "BillingTemplateClient records of non-subscription templates are not stored"',
      cites: 'docs/behaviour.md#one-time-templates: "creates one purchase per call and e-mails its invoice", "No subscriber is stored"',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const template = await makeOneTimeTemplate(account);
      const invoice = expectSuccess(await sendInvoice(account, template.id, { client_id: client.id }), 'send_invoice') as Purchase;
      expect(invoice).toMatchObject({ client_id: client.id, billing_template_id: template.id });
      await expectPurchasesOf(account, client.id, [invoice.id]);
      expect(await subscribersOf(account, template.id)).toEqual([]);
    },
  );

  check(
    {
      id: 'PUR-SEND-INVOICE-COPIES',
      title: 'the sent Purchase has the template\'s purchase details copied 1:1, and its due, skip_capture and send_receipt',
      cites:
        `docs/behaviour.md#one-time-templates: "the template's purchase copied 1:1"; ` +
        'docs/behaviour.md#template-fields: "sets due on generated purchases", "sets skip_capture on generated purchases", "sets send_receipt on generated purchases"',
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
      expect(invoice.purchase).toMatchObject(template.purchase); // and the platform's own fields a template has not (shipping_options, …)
      expect(invoice).toMatchObject({ due, skip_capture: true, send_receipt: true });
    },
  );

  check(
    {
      id: 'PUR-SEND-INVOICE-SENT',
      title: 'send_invoice → 201 Purchase with status sent (created, sent) and the whitelist sent; one Purchase per call',
      // The platform's status code for send_invoice/ is not published (docs/fidelity.md#not-simulated): 201 is billing-sim's.
      cites: 'docs/behaviour.md#one-time-templates: "creates one purchase per call and e-mails its invoice (status sent)"; docs/behaviour.md#endpoints: "send_invoice/ {client_id, payment_method_whitelist?} → 201 Purchase"',
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
      await expectPurchasesOf(account, client.id, [first.id, second.id]);
    },
  );

  check(
    {
      id: 'PUR-SEND-INVOICE-EMAILED',
      title: 'send_invoice e-mails the invoice to the client',
      cites: 'docs/behaviour.md#one-time-templates: "e-mails its invoice"; docs/behaviour.md#outbox: "Invoices go out for send_invoice/"; openapi.yaml#listOutbox',
      requires: ['clock', 'events'],
    },
    async ({ api }) => {
      const { account, client } = await setupAt(api);
      const template = await makeOneTimeTemplate(account);
      const invoice = expectStatus(await sendInvoice(account, template.id, { client_id: client.id }), 201, 'send_invoice') as Purchase;
      // An e-mail may carry more (billing-sim's cancel_url and body): these are what the rule is about.
      expect(await outbox(account)).toEqual([expect.objectContaining({ id: expect.any(String), kind: 'invoice', to: client.email, purchase_id: invoice.id, sent_on: at(NOW), subject: expect.any(String) })]);
    },
  );

  check(
    {
      id: 'PUR-SEND-INVOICE-ISSUED-TODAY',
      title: 'issued, when omitted, is "generated from the current day in purchase.timezone": Jan 31 in Pacific/Auckland at 2026-01-30T11:30Z, Jan 30 in UTC',
      cites: 'docs/behaviour.md#template-fields: "issued | … when omitted, generated from the current day in purchase.timezone"',
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
      cites: 'docs/behaviour.md#template-fields: "sets issued on generated purchases"',
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
      cites: 'docs/behaviour.md#one-time-templates: "On a subscription template → 400 invalid_state"',
      field: '__all__',
      code: 'invalid_state',
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const template = await makeTemplate(account, ACTIVE_AT_ONCE);
      return {
        attempt: () => sendInvoice(account, template.id, { client_id: client.id }),
        state: async () => ({ purchases: await purchasesIfListed(account, client.id), subscribers: await subscribersOf(account, template.id), template: await getTemplate(account, template.id) }),
      };
    },
  );

  refusal(
    {
      id: 'PUR-SEND-INVOICE-CLIENT-UNKNOWN',
      title: 'send_invoice to a client that does not exist is rejected',
      cites: 'openapi.yaml#sendInvoice: "A client_id that is not a client of the sandbox → 400 does_not_exist"; docs/behaviour.md#error-codes: "does_not_exist | 400"',
      field: 'client_id',
      code: 'does_not_exist',
    },
    async ({ api }) => {
      const account = await mainAccount(api);
      const template = await makeOneTimeTemplate(account);
      return {
        attempt: () => sendInvoice(account, template.id, { client_id: UNKNOWN_ID }),
        state: async () => (await listIfPresent<Purchase>(account.api, `/purchases/?billing_template_id=${template.id}`))?.filter((p) => p.billing_template_id === template.id),
      };
    },
  );
});
