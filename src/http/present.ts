// The one field a record keeps empty: a purchase's checkout_url is its checkout page's path as an
// absolute URL on the origin the client called, so it works behind any host name. Webhook bodies
// and snapshots derive it the same way (engine/sandboxes.ts withCheckoutUrl).

import type { Purchase, SimEvent } from '../domain/types.ts';
import { withCheckoutUrl, type CheckoutScope } from '../engine/sandboxes.ts';

export const presentPurchase = withCheckoutUrl;

export const presentEvent = (event: SimEvent, sandbox: CheckoutScope, origin: string): SimEvent =>
  event.payload.type === 'purchase' ? { ...event, payload: withCheckoutUrl(event.payload as Purchase, sandbox, origin) } : event;
