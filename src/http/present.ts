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

export const presentTemplate = (template: BillingTemplate): BillingTemplate & PlatformFields => ({ ...template, ...platformFields(template) });
