// What an answer shows beside a record's own fields. A purchase's checkout_url, the one field a record
// keeps empty, is its checkout page's path as an absolute URL on the origin the client called, so it
// works behind any host name; webhook bodies and snapshots derive it the same way (engine/sandboxes.ts
// withCheckoutUrl). A template's answer adds the platform's invoice_* names of its invoice fields,
// which no record or snapshot holds (domain/billing-template-names.ts).

import { platformFields, type PlatformFields } from '../domain/billing-template-names.ts';
import type { BillingTemplate, Purchase, SimEvent } from '../domain/types.ts';
import { withCheckoutUrl, type CheckoutScope } from '../engine/sandboxes.ts';

export const presentPurchase = withCheckoutUrl;

export const presentEvent = (event: SimEvent, sandbox: CheckoutScope, origin: string): SimEvent =>
  event.payload.type === 'purchase' ? { ...event, payload: withCheckoutUrl(event.payload as Purchase, sandbox, origin) } : event;

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
