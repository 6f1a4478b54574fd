// What an answer shows beside a record's own fields. A purchase or a payment is answered in the
// platform's form (present/: the same form webhook bodies carry). A template's answer adds the
// platform's invoice_* names of its invoice fields, which no record or snapshot holds
// (domain/billing-template-names.ts).

import { platformFields, type PlatformFields } from '../domain/billing-template-names.ts';
import type { BillingTemplate, SimEvent } from '../domain/types.ts';
import { objectView } from '../present/payments.ts';
import type { PresentScope } from '../present/purchases.ts';

export { presentPurchase } from '../present/purchases.ts';
export { paymentView as presentPayment } from '../present/payments.ts';

export const presentEvent = (event: SimEvent, sandbox: PresentScope, origin: string): SimEvent =>
  event.payload.type === 'purchase' || event.payload.type === 'payment' ? { ...event, payload: objectView(event.payload, sandbox, origin) as SimEvent['payload'] } : event;

type TemplateView = BillingTemplate & PlatformFields;

/**
 * Each template's answer, made once per version of the record: a template is replaced on every change,
 * never changed in place, so its answer stays what it was. Two spreads per template took 12 µs of every
 * list request (a fifth of what the simulator adds to the work of Express and the socket).
 */
const templateViews = new WeakMap<BillingTemplate, TemplateView>();

export function presentTemplate(template: BillingTemplate): TemplateView {
  let view = templateViews.get(template);
  if (!view) templateViews.set(template, (view = { ...template, ...platformFields(template) }));
  return view;
}
