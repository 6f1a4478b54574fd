// The one field a record keeps empty: a purchase's checkout_url is its checkout page's path
// (engine/sandboxes.ts checkoutPath) as an absolute URL on the origin the client called, so it
// works behind any host name.

import type { Purchase, PurchaseView, SimEvent } from '../domain/types.ts';
import { checkoutPath, type CheckoutScope } from '../engine/sandboxes.ts';

export const presentPurchase = (purchase: Purchase, sandbox: CheckoutScope, origin: string): PurchaseView => ({
  ...purchase,
  checkout_url: origin + checkoutPath(sandbox, purchase.id),
});

export const presentEvent = (event: SimEvent, sandbox: CheckoutScope, origin: string): SimEvent =>
  event.payload.type === 'purchase' ? { ...event, payload: presentPurchase(event.payload as Purchase, sandbox, origin) } : event;
