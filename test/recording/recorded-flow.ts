// A recording with time passing, made on a simulator by test/support/har-builder.ts: a subscription
// created on 2028-01-31 and billed automatically on February 29 and March 31 (the clock moved once by a
// recorded advance, once outside the recording), a purchase paid through /sim/v1, one paid only on the
// checkout page (outside the recording: a later GET shows it paid), one only opened there, one declined there, a refund, a
// webhook made and deleted, and a 400. Its ids are the simulator's UUIDs, as a proxy would record them.

import type { HarBuilder } from '../support/har-builder.ts';
import { clientBody, subscriptionBody } from '../builders/templates.ts';

type Body = Record<string, any>;

export async function recordFlow(builder: HarBuilder): Promise<void> {
  await builder.createSandbox({ now: '2028-01-31T09:00:00Z' });
  const client = (await builder.send('POST', '/api/v1/clients/', { body: clientBody() })).body as Body;
  const template = (await builder.send('POST', '/api/v1/billing_templates/', { body: subscriptionBody(builder.brandId) })).body as Body;
  const added = (await builder.send('POST', `/api/v1/billing_templates/${template.id}/add_subscriber/`, { body: { client_id: client.id, subscription_deduction_date: '2028-02-04', mandate_expiry_date: '2030-12-31' } })).body as Body;
  await builder.send('POST', `/sim/v1/purchases/${added.purchase.id}/pay`, { body: { save_token: true } });
  await builder.send('GET', `/api/v1/billing_templates/${template.id}/clients/${added.billing_template_client.id}/`);
  const webhook = (await builder.send('POST', '/api/v1/webhooks/', { body: { title: 'Our shop', callback: 'https://shop.example.com/hooks/chip', events: ['purchase.paid'] } })).body as Body;
  await builder.send('DELETE', `/api/v1/webhooks/${webhook.id}/`);

  // February 29 by a recorded advance, March 31 by one the recording did not see.
  await builder.send('POST', '/sim/v1/clock/advance', { body: { to: '2028-02-29T12:00:00Z' } });
  await builder.send('GET', `/api/v1/purchases/?client_id=${client.id}`);
  await builder.direct('POST', '/sim/v1/clock/advance', { to: '2028-03-31T12:00:00Z' });
  await builder.send('GET', `/api/v1/purchases/?client_id=${client.id}`);

  // A one-time purchase paid on the checkout page: the recording sees only its result.
  const oneTime = { client_id: client.id, brand_id: builder.brandId, purchase: { currency: 'EUR', products: [{ name: 'Towel', price: 1500, quantity: 2 }] } };
  const paidOutside = (await builder.send('POST', '/api/v1/purchases/', { body: oneTime })).body as Body;
  await builder.direct('POST', `/sim/v1/purchases/${paidOutside.id}/pay`, { method: 'visa' });
  await builder.send('GET', `/api/v1/purchases/${paidOutside.id}/`);
  await builder.send('POST', `/api/v1/purchases/${paidOutside.id}/refund/`, { body: { amount: 1000 } });

  // One only opened there: its checkout page, recorded (outside the API), then its answer shows it viewed.
  const opened = (await builder.send('POST', '/api/v1/purchases/', { body: oneTime })).body as Body;
  await builder.send('GET', new URL(opened.checkout_url as string).pathname);
  await builder.send('GET', `/api/v1/purchases/${opened.id}/`);

  // One declined on the checkout page.
  const declined = (await builder.send('POST', '/api/v1/purchases/', { body: oneTime })).body as Body;
  await builder.direct('POST', `/sim/v1/purchases/${declined.id}/pay`, { outcome: 'failure', decline_code: 'do_not_honour' });
  await builder.send('GET', `/api/v1/purchases/${declined.id}/`);

  // A refusal: a purchase without products.
  await builder.send('POST', '/api/v1/purchases/', { body: { client_id: client.id, brand_id: builder.brandId, purchase: { currency: 'EUR', products: [] } } });
}
