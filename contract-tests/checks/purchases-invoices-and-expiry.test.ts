// The real platform's invoices and due dates on a purchase: resend_invoice/, a subscriber's first
// invoice e-mailed by add_subscriber (send_invoice_on_add_subscriber), and `expired`, what a
// due_strict purchase becomes when its due passes unpaid (one without due_strict becomes overdue and
// stays payable). The spec names none of them; the platform's SDKs state the subscriber's field and
// what due_strict does (docs/fidelity.md), so those checks are normative, while resend_invoice/'s
// answer and the refusals' codes are billing-sim's (informative). What was e-mailed is read from the
// outbox ('events'); the expiry needs the sandbox clock ('clock').

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import type { ApiClient } from '../lib/client.ts';
import { at, expectError, expectRejected, later, subscriberBody } from '../lib/primitives.ts';
import { act, acted, emailsOf, expectUnchanged, newPurchase } from '../lib/purchase-actions.ts';
import { advanceTo, createPurchase, getPurchase, mainTemplate, pay, sandboxClient, subscribe, type Purchase } from '../lib/scenario.ts';

const RESEND = 'openapi.yaml#resendPurchaseInvoice: "an unpaid purchase (created, sent, viewed, error, overdue) is e-mailed again"; docs/fidelity.md#purchase-actions';
const EXPIRED =
  'docs/fidelity.md#purchase-statuses: "due passed unpaid with due_strict; not payable", "due passed unpaid; still payable"; ' +
  'openapi.yaml#/components/schemas/PurchaseFields/properties/status: "expired (due passed unpaid with purchase.due_strict: not payable)"';

/** One product of 12.00 whose purchase expires when its due passes. */
const STRICT = { purchase: { currency: 'EUR', due_strict: true, products: [{ name: 'Ticket', price: 1200 }] } };

/**
 * A sandbox where two purchases of one client, due at midnight Feb 1 (one with due_strict), were
 * still unpaid a second before it and are now a second past it.
 */
async function pastDue(api: ApiClient) {
  const { account, client } = await sandboxClient(api, '2026-01-30T12:00:00Z');
  const due = at('2026-02-01T00:00:00Z');
  const strict = await createPurchase(account, client.id, { ...STRICT, due });
  const lenient = await createPurchase(account, client.id, { due });
  await advanceTo(account, '2026-01-31T23:59:59Z');
  expect((await getPurchase(account, strict.id)).status, 'a second before its due').toBe('created');
  await advanceTo(account, '2026-02-01T00:00:01Z');
  return { account, strict, lenient };
}

describe('purchases', () => {
  // ---------------------------------------------------------------------------- resend_invoice
  check(
    {
      id: 'PUR-RESEND-INVOICE',
      title: 'resend_invoice/ of a new purchase → 200 the purchase, now sent; an invoice e-mail goes to the client where the target keeps an outbox',
      cites: `${RESEND}; openapi.yaml#resendPurchaseInvoice: "one still created becomes sent"`,
      level: 'informative',
    },
    async ({ api, target }) => {
      const { account, client, purchase } = await newPurchase(api);
      const resent = (await acted(account, purchase.id, 'resend_invoice')) as Purchase;
      expect(resent).toMatchObject({ id: purchase.id, status: 'sent' });
      expect(await getPurchase(account, purchase.id)).toEqual(resent);
      if (target.capabilities.events) {
        expect((await emailsOf(account, purchase.id)).map((mail) => [mail.kind, mail.to])).toEqual([['invoice', client.email]]);
      }
    },
  );

  check(
    {
      id: 'PUR-RESEND-INVOICE-PAID',
      title: 'resend_invoice/ of a paid purchase (marked as paid) → 400 __all__ invalid_state; nothing is e-mailed',
      cites: `${RESEND}; openapi.yaml#resendPurchaseInvoice: "Any other status → 400 invalid_state under __all__"`,
      level: 'informative',
    },
    async ({ api, target }) => {
      const { account, purchase } = await newPurchase(api);
      const paid = (await acted(account, purchase.id, 'mark_as_paid', {})) as Purchase;
      expectError(await act(account, purchase.id, 'resend_invoice'), '__all__', 'invalid_state', { alone: true });
      await expectUnchanged(account, paid);
      if (target.capabilities.events) expect(await emailsOf(account, purchase.id)).toEqual([]);
    },
  );

  check(
    {
      id: 'PUR-SEND-INVOICE-ON-ADD-SUBSCRIBER',
      title: 'add_subscriber with send_invoice_on_add_subscriber true e-mails the first purchase, which is sent',
      cites: 'docs/fidelity.md#subscribers: "send_invoice_on_add_subscriber", "the first purchase of a pending subscriber is e-mailed"; openapi.yaml#/components/schemas/BillingTemplateClientFields/properties/send_invoice_on_add_subscriber',
      requires: ['events'],
    },
    async ({ api }) => {
      const { account, client, template } = await mainTemplate(api);
      const { purchase } = await subscribe(account, template.id, subscriberBody(client.id, later(), { send_invoice_on_add_subscriber: true }));
      expect(purchase, 'a pending subscriber has a first purchase').not.toBeNull();
      expect(purchase!.status).toBe('sent');
      expect((await emailsOf(account, purchase!.id)).map((mail) => [mail.kind, mail.to])).toEqual([['invoice', client.email]]);
    },
  );

  // ------------------------------------------------------------------------------------ expired
  check(
    {
      id: 'PUR-EXPIRED',
      title: 'a due_strict purchase whose due passes unpaid is expired (not overdue) and cannot be paid; one without due_strict is overdue and can',
      cites: `${EXPIRED}; docs/behaviour.md#expired: "it becomes expired instead of overdue"`,
      requires: ['clock'],
    },
    async ({ api, target }) => {
      const { strict, lenient, account } = await pastDue(api);
      const expired = await getPurchase(account, strict.id);
      expect(expired.status).toBe('expired');
      expect(expired.status_history.map((s) => s.status)).toEqual(['created', 'expired']);
      expect((await getPurchase(account, lenient.id)).status, 'without due_strict').toBe('overdue');
      if (target.capabilities.payments) {
        expectRejected(await account.api.sim.post(`/purchases/${strict.id}/pay`, {}), 'paying an expired purchase');
        await expectUnchanged(account, expired);
        expect((await pay(account, lenient.id)).status, 'an overdue purchase can still be paid').toBe('paid');
      }
    },
  );

  check(
    {
      id: 'PUR-EXPIRED-ACTIONS',
      title: 'an expired purchase cannot be paid, cancelled or e-mailed again (400 __all__ invalid_state), and can be marked as paid',
      // What the platform answers these actions on an expired purchase it does not say: billing-sim's.
      cites: `${EXPIRED}; openapi.yaml#cancelPurchase: "a purchase that is paid, pending_execute, expired, released, refunded or already cancelled → 400 invalid_state under __all__"; openapi.yaml#markPurchaseAsPaid: "or an expired one becomes paid"`,
      level: 'informative',
      requires: ['clock'],
    },
    async ({ api, target }) => {
      const { strict, account } = await pastDue(api);
      const expired = await getPurchase(account, strict.id);
      for (const action of ['cancel', 'resend_invoice']) {
        expectError(await account.api.post(`/purchases/${strict.id}/${action}/`), '__all__', 'invalid_state', { alone: true });
      }
      if (target.capabilities.payments) expectError(await account.api.sim.post(`/purchases/${strict.id}/pay`, {}), '__all__', 'invalid_state', { alone: true });
      await expectUnchanged(account, expired);
      expect(await acted(account, strict.id, 'mark_as_paid', {})).toMatchObject({ status: 'paid', marked_as_paid: true });
    },
  );
});
