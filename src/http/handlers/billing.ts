// /api/v1/billing/: the platform's one-time invoices without a template (PHP SDK createBilling,
// RV:billing_templates_one_time_invoices). The template's fields are checked by the rules of a
// one-time template (domain/billing-templates.ts), the purchases made by send_invoice's code path.

import { oneTimeInvoiceTerms } from '../../domain/billing-templates.ts';
import type { Input } from '../../domain/types.ts';
import { sendOneTimeInvoices } from '../../engine/billing.ts';
import { created, type SandboxHandler } from '../handler.ts';
import { presentPurchase } from '../present.ts';
import { scopeOf } from './billing-templates.ts';

export const billingHandlers: Record<string, SandboxHandler> = {
  sendOneTimeInvoices: ({ sandbox, body, ctx, origin }) => {
    const { clients, ...fields } = body;
    const terms = oneTimeInvoiceTerms(fields, scopeOf(sandbox));
    const purchases = sendOneTimeInvoices(sandbox, terms, clients as Input[], ctx);
    return created(purchases.map((purchase) => presentPurchase(purchase, sandbox, origin)));
  },
};
