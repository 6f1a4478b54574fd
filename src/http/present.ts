// The few fields stored relative to the server: a purchase's checkout_url is stored as a path and
// returned as an absolute URL on the origin the client called, so it works behind any host name.

import type { Purchase, SimEvent } from '../domain/types.ts';

export const presentPurchase = (purchase: Purchase, origin: string): Purchase => ({
  ...purchase,
  checkout_url: origin + purchase.checkout_url,
});

export const presentEvent = (event: SimEvent, origin: string): SimEvent =>
  event.payload.type === 'purchase' ? { ...event, payload: presentPurchase(event.payload as Purchase, origin) } : event;
