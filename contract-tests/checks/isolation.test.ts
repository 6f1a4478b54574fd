// Isolation between merchant accounts: with a second account's token (--token2) the objects of the
// first account can be neither seen nor changed. Each check makes its own objects in the first
// account, tries one request with the second account, and verifies with the first account that
// nothing changed. Normative, as the platform answers it: another account's object is one that does
// not exist, 404 with `__all__` not_found, exactly as for an unknown id (not 403, which would tell
// that it exists); a reference to it in a body is 400 does_not_exist on the field, as Django REST
// framework refuses a related object outside the caller's queryset (docs/behaviour.md#error-body).

import { describe, expect } from 'vitest';
import { check, type CheckContext } from '../lib/check.ts';
import {
  ACTIVE_AT_ONCE,
  expectStatus,
  later,
  monthlyTemplate,
  purchaseBody,
  subscriberBody,
  type Placement,
} from '../lib/primitives.ts';
import {
  charge,
  createPurchase,
  getClient,
  getPurchase,
  getSubscriber,
  getTemplate,
  listAll,
  mainAccount,
  makeClient,
  makeOneTimeTemplate,
  makeTemplate,
  needsSecondBrand,
  purchasesIfListed,
  refusal,
  saveToken,
  sendInvoice,
  subscribe,
  subscribersOf,
  tokenPath,
  tokensOf,
  type Account,
  type Attempt,
} from '../lib/scenario.ts';

const CITES = 'docs/behaviour.md#sandboxes: "A sandbox is one isolated merchant account", "Its token reaches only its own objects"; docs/behaviour.md#authentication';
const NOT_FOUND_CITES =
  'docs/behaviour.md#sandboxes: "an id of another sandbox answers 404, exactly like an id that does not exist"; docs/behaviour.md#status-codes: "404 for an id that names nothing"; docs/behaviour.md#error-codes: "not_found | 404"';

interface Accounts {
  /** The first account, which owns the objects. */
  one: Account;
  /** The second account, which tries to reach them. */
  two: Account;
}

const accounts = async ({ api, api2 }: CheckContext): Promise<Accounts> => ({ one: await mainAccount(api), two: await mainAccount(api2) });

/** A request of the second account on an object of the first: 404 `__all__` not_found, and nothing changed. */
function foreign(spec: { id: string; title: string; requires?: ('payments' | 'clock')[] }, arrange: (accounts: Accounts) => Promise<Attempt>): void {
  refusal(
    { ...spec, cites: CITES, requires: ['token2', ...(spec.requires ?? [])], field: '__all__', code: 'not_found', status: 404, codeCites: NOT_FOUND_CITES },
    async (ctx) => arrange(await accounts(ctx)),
  );
}

/**
 * A reference to the first account's object in the second account's request body: 400
 * does_not_exist on the field, unless `code` and `also` say where else, with `codeCites` why.
 */
function foreignReference(
  spec: { id: string; title: string; field: string; code?: string; also?: readonly Placement[]; codeCites?: string; requires?: ('payments' | 'clock')[] },
  arrange: (accounts: Accounts) => Promise<Attempt>,
): void {
  refusal(
    {
      code: 'does_not_exist',
      codeCites: 'docs/behaviour.md#error-codes: "does_not_exist | 400 | a referenced object (brand_id, client_id) is not in the sandbox"',
      ...spec,
      cites: CITES,
      requires: ['token2', ...(spec.requires ?? [])],
    },
    async (ctx) => arrange(await accounts(ctx)),
  );
}

/** A list of the second account does not contain the first account's object. */
function notListed(spec: { id: string; title: string; requires?: ('payments' | 'clock')[] }, arrange: (accounts: Accounts) => Promise<{ id: string; list: () => Promise<{ id: string }[]> }>): void {
  check({ ...spec, cites: CITES, requires: ['token2', ...(spec.requires ?? [])] }, async (ctx) => {
    const { id, list } = await arrange(await accounts(ctx));
    expect((await list()).map((item) => item.id)).not.toContain(id);
  });
}

/** A subscriber (active at once) of a new template of the first account. */
async function subscriberOf(one: Account) {
  const client = await makeClient(one);
  const template = await makeTemplate(one, ACTIVE_AT_ONCE);
  const { subscriber } = await subscribe(one, template.id, subscriberBody(client.id, later()));
  return { client, template, subscriber };
}

describe('isolation', () => {
  // These create templates or purchases in the second account, or send its brand: they need to know it.
  needsSecondBrand(['ISO-TEMPLATE-PUT', 'ISO-PURCHASE-CHARGE', 'ISO-TOKEN-CHARGE', 'ISO-REF-PURCHASE-CLIENT', 'ISO-REF-SUBSCRIBER-CLIENT', 'ISO-REF-INVOICE-CLIENT', 'ISO-REF-TEMPLATE-BRAND']);

  // ------------------------------------------------------------------------------------ clients
  foreign({ id: 'ISO-CLIENT-GET', title: 'the second account cannot GET the first account\'s client' }, async ({ one, two }) => {
    const client = await makeClient(one);
    return { attempt: () => two.api.get(`/clients/${client.id}/`), state: () => getClient(one, client.id) };
  });
  foreign({ id: 'ISO-CLIENT-PUT', title: 'the second account cannot PUT the first account\'s client' }, async ({ one, two }) => {
    const client = await makeClient(one);
    return { attempt: () => two.api.put(`/clients/${client.id}/`, { email: 'taken.over@example.com' }), state: () => getClient(one, client.id) };
  });
  foreign({ id: 'ISO-CLIENT-PATCH', title: 'the second account cannot PATCH the first account\'s client' }, async ({ one, two }) => {
    const client = await makeClient(one);
    return { attempt: () => two.api.patch(`/clients/${client.id}/`, { full_name: 'Taken Over' }), state: () => getClient(one, client.id) };
  });
  foreign({ id: 'ISO-CLIENT-DELETE', title: 'the second account cannot DELETE the first account\'s client' }, async ({ one, two }) => {
    const client = await makeClient(one);
    return { attempt: () => two.api.delete(`/clients/${client.id}/`), state: () => getClient(one, client.id) };
  });
  notListed({ id: 'ISO-CLIENT-LIST', title: 'the first account\'s client is not in the second account\'s client list' }, async ({ one, two }) => {
    const client = await makeClient(one);
    return { id: client.id, list: () => listAll(two.api, '/clients/') };
  });
  foreign({ id: 'ISO-CLIENT-TOKENS', title: 'the second account cannot list the recurring tokens of the first account\'s client', requires: ['payments'] }, async ({ one, two }) => {
    const client = await makeClient(one);
    await saveToken(one, client.id);
    return { attempt: () => two.api.get(`/clients/${client.id}/recurring_tokens/`), state: () => tokensOf(one, client.id) };
  });

  // ---------------------------------------------------------------------------------- templates
  foreign({ id: 'ISO-TEMPLATE-GET', title: 'the second account cannot GET the first account\'s template' }, async ({ one, two }) => {
    const template = await makeTemplate(one);
    return { attempt: () => two.api.get(`/billing_templates/${template.id}/`), state: () => getTemplate(one, template.id) };
  });
  foreign({ id: 'ISO-TEMPLATE-PUT', title: 'the second account cannot PUT the first account\'s template' }, async ({ one, two }) => {
    const template = await makeTemplate(one);
    return {
      attempt: () => two.api.put(`/billing_templates/${template.id}/`, monthlyTemplate(two.brandId, { title: 'Taken over' })),
      state: () => getTemplate(one, template.id),
    };
  });
  foreign({ id: 'ISO-TEMPLATE-PATCH', title: 'the second account cannot PATCH the first account\'s template (not even pause it)' }, async ({ one, two }) => {
    const template = await makeTemplate(one);
    return { attempt: () => two.api.patch(`/billing_templates/${template.id}/`, { subscription_paused: true }), state: () => getTemplate(one, template.id) };
  });
  foreign({ id: 'ISO-TEMPLATE-DELETE', title: 'the second account cannot DELETE the first account\'s template' }, async ({ one, two }) => {
    const template = await makeTemplate(one);
    return { attempt: () => two.api.delete(`/billing_templates/${template.id}/`), state: () => getTemplate(one, template.id) };
  });
  notListed({ id: 'ISO-TEMPLATE-LIST', title: 'the first account\'s template is not in the second account\'s template list' }, async ({ one, two }) => {
    const template = await makeTemplate(one);
    return { id: template.id, list: () => listAll(two.api, '/billing_templates/') };
  });
  foreign({ id: 'ISO-TEMPLATE-ADD-SUBSCRIBER', title: 'the second account cannot add its client to the first account\'s template' }, async ({ one, two }) => {
    const template = await makeTemplate(one, ACTIVE_AT_ONCE);
    const stranger = await makeClient(two);
    return {
      attempt: () => two.api.post(`/billing_templates/${template.id}/add_subscriber/`, subscriberBody(stranger.id, later())),
      state: async () => ({ template: await getTemplate(one, template.id), subscribers: await subscribersOf(one, template.id) }),
    };
  });
  foreign({ id: 'ISO-TEMPLATE-SEND-INVOICE', title: 'the second account cannot send invoices from the first account\'s one-time template' }, async ({ one, two }) => {
    const template = await makeOneTimeTemplate(one);
    const stranger = await makeClient(two);
    return {
      attempt: () => sendInvoice(two, template.id, { client_id: stranger.id }),
      state: async () => ({ template: await getTemplate(one, template.id), purchases: await purchasesIfListed(two, stranger.id) }),
    };
  });

  // -------------------------------------------------------------------------------- subscribers
  foreign({ id: 'ISO-SUBSCRIBER-LIST', title: 'the second account cannot list the subscribers of the first account\'s template' }, async ({ one, two }) => {
    const { template } = await subscriberOf(one);
    return { attempt: () => two.api.get(`/billing_templates/${template.id}/clients/`), state: () => subscribersOf(one, template.id) };
  });
  foreign({ id: 'ISO-SUBSCRIBER-GET', title: 'the second account cannot GET the first account\'s subscriber' }, async ({ one, two }) => {
    const { template, subscriber } = await subscriberOf(one);
    return {
      attempt: () => two.api.get(`/billing_templates/${template.id}/clients/${subscriber.id}/`),
      state: () => getSubscriber(one, template.id, subscriber.id),
    };
  });
  foreign({ id: 'ISO-SUBSCRIBER-PATCH', title: 'the second account cannot pause the first account\'s subscriber' }, async ({ one, two }) => {
    const { template, subscriber } = await subscriberOf(one);
    return {
      attempt: () => two.api.patch(`/billing_templates/${template.id}/clients/${subscriber.id}/`, { status: 'subscription_paused' }),
      state: () => getSubscriber(one, template.id, subscriber.id),
    };
  });

  // ---------------------------------------------------------------------------------- purchases
  foreign({ id: 'ISO-PURCHASE-GET', title: 'the second account cannot GET the first account\'s purchase' }, async ({ one, two }) => {
    const purchase = await createPurchase(one, (await makeClient(one)).id);
    return { attempt: () => two.api.get(`/purchases/${purchase.id}/`), state: () => getPurchase(one, purchase.id) };
  });
  notListed({ id: 'ISO-PURCHASE-LIST', title: 'the first account\'s purchase is not in the second account\'s purchase list' }, async ({ one, two }) => {
    const purchase = await createPurchase(one, (await makeClient(one)).id);
    return { id: purchase.id, list: () => listAll(two.api, '/purchases/') };
  });
  foreign({ id: 'ISO-PURCHASE-CANCEL', title: 'the second account cannot cancel the first account\'s purchase' }, async ({ one, two }) => {
    const purchase = await createPurchase(one, (await makeClient(one)).id);
    return { attempt: () => two.api.post(`/purchases/${purchase.id}/cancel/`), state: () => getPurchase(one, purchase.id) };
  });
  foreign(
    { id: 'ISO-PURCHASE-CHARGE', title: 'the second account cannot charge the first account\'s purchase, even with a token of its own', requires: ['payments'] },
    async ({ one, two }) => {
      const purchase = await createPurchase(one, (await makeClient(one)).id);
      const ownToken = await saveToken(two, (await makeClient(two)).id);
      return { attempt: () => charge(two, purchase.id, ownToken), state: () => getPurchase(one, purchase.id) };
    },
  );
  foreign({ id: 'ISO-PURCHASE-PAY', title: 'the second account cannot pay the first account\'s purchase at the simulated checkout', requires: ['payments'] }, async ({ one, two }) => {
    const purchase = await createPurchase(one, (await makeClient(one)).id);
    return { attempt: () => two.api.sim.post(`/purchases/${purchase.id}/pay`, {}), state: () => getPurchase(one, purchase.id) };
  });

  // ------------------------------------------------------------------------------------- tokens
  /** A recurring token of a new client of the first account. */
  const tokenOf = async (one: Account) => {
    const client = await makeClient(one);
    return { client, token: await saveToken(one, client.id) };
  };
  const tokenState = (one: Account, clientId: string, token: string) => async () => ({ tokens: await tokensOf(one, clientId), purchase: await getPurchase(one, token) });

  foreign({ id: 'ISO-TOKEN-GET', title: 'the second account cannot GET the first account\'s recurring token', requires: ['payments'] }, async ({ one, two }) => {
    const { client, token } = await tokenOf(one);
    return { attempt: () => two.api.get(tokenPath(client.id, token)), state: tokenState(one, client.id, token) };
  });
  foreign({ id: 'ISO-TOKEN-DELETE', title: 'the second account cannot delete the first account\'s recurring token', requires: ['payments'] }, async ({ one, two }) => {
    const { client, token } = await tokenOf(one);
    return { attempt: () => two.api.delete(tokenPath(client.id, token)), state: tokenState(one, client.id, token) };
  });
  foreign(
    { id: 'ISO-TOKEN-DELETE-VIA-PURCHASE', title: 'the second account cannot delete the first account\'s token with delete_recurring_token', requires: ['payments'] },
    async ({ one, two }) => {
      const { client, token } = await tokenOf(one);
      return { attempt: () => two.api.post(`/purchases/${token}/delete_recurring_token/`), state: tokenState(one, client.id, token) };
    },
  );
  foreignReference(
    {
      id: 'ISO-TOKEN-CHARGE',
      title: 'the second account cannot charge its own purchase with the first account\'s recurring token',
      // Another account's token is an unknown one: the platform's code where its plugin reads it, or
      // billing-sim's former placement on the field.
      field: '__all__',
      code: 'invalid_recurring_token',
      also: [['recurring_token', 'does_not_exist']],
      codeCites: 'docs/behaviour.md#charges-with-a-token: "a token that can charge nothing, because it does not exist, was deleted or is another sandbox\'s (the same to the caller), → invalid_recurring_token"',
      requires: ['payments'],
    },
    async ({ one, two }) => {
      const { client, token } = await tokenOf(one);
      const purchase = await createPurchase(two, (await makeClient(two)).id);
      return {
        attempt: () => charge(two, purchase.id, token),
        state: async () => ({ theirs: await getPurchase(two, purchase.id), ours: await tokenState(one, client.id, token)() }),
      };
    },
  );

  // ------------------------------------------------------------------- references in a body
  foreignReference(
    { id: 'ISO-REF-PURCHASE-CLIENT', title: 'the second account cannot create a purchase for the first account\'s client', field: 'client_id' },
    async ({ one, two }) => {
      const client = await makeClient(one);
      return {
        attempt: () => two.api.post('/purchases/', purchaseBody(two.brandId, client.id)),
        state: async () => ({ client: await getClient(one, client.id), purchases: await purchasesIfListed(one, client.id) }),
      };
    },
  );
  foreignReference(
    { id: 'ISO-REF-SUBSCRIBER-CLIENT', title: 'the second account cannot add the first account\'s client to its own template', field: 'client_id' },
    async ({ one, two }) => {
      const client = await makeClient(one);
      const template = await makeTemplate(two, ACTIVE_AT_ONCE);
      return {
        attempt: () => two.api.post(`/billing_templates/${template.id}/add_subscriber/`, subscriberBody(client.id, later())),
        state: async () => ({ subscribers: await subscribersOf(two, template.id), purchases: await purchasesIfListed(one, client.id) }),
      };
    },
  );
  foreignReference(
    { id: 'ISO-REF-INVOICE-CLIENT', title: 'the second account cannot send an invoice to the first account\'s client', field: 'client_id' },
    async ({ one, two }) => {
      const client = await makeClient(one);
      const template = await makeOneTimeTemplate(two);
      return {
        attempt: () => sendInvoice(two, template.id, { client_id: client.id }),
        state: () => purchasesIfListed(one, client.id),
      };
    },
  );
  foreignReference(
    { id: 'ISO-REF-TEMPLATE-BRAND', title: 'the second account cannot create a template under the first account\'s brand', field: 'brand_id' },
    async ({ one, two }) => {
      expect(one.brandId).not.toBe(two.brandId);
      const title = `Brand theft ${Date.now().toString(36)}`;
      const titled = async (account: Account) => (await listAll<{ title: string }>(account.api, '/billing_templates/')).filter((t) => t.title === title);
      return {
        attempt: () => two.api.post('/billing_templates/', monthlyTemplate(one.brandId, { title })),
        state: async () => ({ one: await titled(one), two: await titled(two) }),
      };
    },
  );

  check(
    {
      id: 'ISO-EVENTS-OUTBOX',
      title: 'the second account\'s recorded events and e-mails hold nothing of the first account\'s purchases',
      cites: `${CITES}; docs/behaviour.md#sandboxes: "events, e-mails and clock"`,
      requires: ['token2', 'events'],
    },
    async (ctx) => {
      const { one, two } = await accounts(ctx);
      const client = await makeClient(one);
      const template = await makeOneTimeTemplate(one);
      const invoice = expectStatus(await sendInvoice(one, template.id, { client_id: client.id }), 201, 'send_invoice') as { id: string };
      const ownEvents = await listAll<{ object_id: string }>(one.api.sim, '/events');
      expect(ownEvents.map((e) => e.object_id)).toContain(invoice.id);
      const events = await listAll<{ object_id: string }>(two.api.sim, '/events');
      expect(events.map((e) => e.object_id)).not.toContain(invoice.id);
      const mail = await listAll<{ purchase_id: string; to: string }>(two.api.sim, '/outbox');
      expect(mail.filter((m) => m.purchase_id === invoice.id || m.to === client.email)).toEqual([]);
    },
  );

  check(
    {
      id: 'ISO-SAME-ID-OWN-ACCOUNT',
      title: 'the first account still reads every object the second account was answered 404 for',
      cites: `${CITES}; ${NOT_FOUND_CITES}`,
      requires: ['token2'],
    },
    async (ctx) => {
      const { one, two } = await accounts(ctx);
      const { client, template, subscriber } = await subscriberOf(one);
      const purchase = await createPurchase(one, client.id);
      for (const path of [`/clients/${client.id}/`, `/billing_templates/${template.id}/`, `/billing_templates/${template.id}/clients/${subscriber.id}/`, `/purchases/${purchase.id}/`]) {
        expectStatus(await two.api.get(path), 404, `second account: GET ${path}`);
        expectStatus(await one.api.get(path), 200, `first account: GET ${path}`);
      }
    },
  );
});
