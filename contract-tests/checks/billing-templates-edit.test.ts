// Billing templates edited: the four cycle fields of the spec's "Rules on the subscription fields"
// (required on create and on edits until a subscriber is launched, read-only after), and PUT, PATCH
// and DELETE of a template, with the instants of each write (a sandbox of the check's own, its clock
// moved a day before the write: `updated_on` can only be seen to move once the clock has).
//
// Read-only fields. The spec says a field is "read-only" or "cannot be changed" but not what the server
// does with a request that sends it: the normative check is that the stored value never changes (the
// request is rejected, or accepted without applying it); billing-sim decides "400 read_only"
// (docs/behaviour.md#read-only-fields), checked by the informative `…-CODE` twin: the platform, a
// Django REST framework service, may as well ignore such a field. Missing required fields must be
// rejected and nothing created or changed; the `…-CODE` twin of a required field is normative too: 400
// naming the field with Django REST framework's own code, `required` (docs/behaviour.md#error-body).

import { describe, expect } from 'vitest';
import { check, type CheckContext } from '../lib/check.ts';
import { refusalCode } from '../lib/refusal.ts';
import { NOT_FOUND, READ_ONLY_CODE } from '../lib/citations.ts';
import {
  brandId,
  CYCLE,
  DUE_PERIOD,
  expectError,
  expectInstants,
  expectNotListed,
  expectRejected,
  expectSuccess,
  expectWrittenAt,
  later,
  monthlyTemplate,
  nowSeconds,
  subscriberBody,
  unique,
  UNKNOWN_ID,
  withoutUpdatedOn,
  WRITE_INSTANT_RULE,
} from '../lib/primitives.ts';
import {
  advanceADay,
  expectNotApplied,
  expectTemplateUnchanged as expectUnchanged,
  makeClient,
  makeTemplate,
  readTemplate as read,
  sandboxTemplate,
  SANDBOX_NOW,
  subscribe,
  templatePath as path,
} from '../lib/scenario.ts';

type Node = Record<string, any>;

/** The spec's rule 3 on the subscription fields. */
const READ_ONLY_AFTER_LAUNCH = 'docs/behaviour.md#template-fields: "Once any subscriber has been launched, these four fields are read-only"';

/** A subscription template with a launched (active) subscriber: a trial makes add_subscriber activate it. */
async function launched(ctx: CheckContext): Promise<Node> {
  const template = await makeTemplate(ctx.api, { subscription_trial_periods: 1 });
  const client = await makeClient(ctx.api);
  const added = await subscribe(ctx.api, template.id, subscriberBody(client.id, later()));
  expect(added.subscriber.status, 'setup: a subscriber added to a template with a trial is active').toBe('active');
  return read(ctx.api, template.id);
}

describe('billing templates', () => {
  // ------------------------------------------------------------ cycle fields: rules 1 and 2

  for (const field of [...Object.keys(CYCLE), ...Object.keys(DUE_PERIOD)]) {
    const cycle = field in CYCLE;
    const row = `docs/behaviour.md#template-fields: "${field} | … | if is_subscription is true"`;
    const createCite = cycle
      ? `${row}, "are required when creating a template with is_subscription true"`
      : `${row}, "as are subscription_due_period and subscription_due_period_units"`;
    const putCite = cycle
      ? `${row}, "The same four fields are required when editing such a template (PUT), as long as no subscriber has been launched"`
      : `${row}; openapi.yaml#/components/schemas/BillingTemplateUpdate: "subscription_due_period(_units) on a subscription template"`;

    check(
      { id: `BT-CYCLE-REQUIRED-ON-CREATE-${field}`, title: `A subscription template without ${field} is rejected and not created`, cites: createCite },
      async ({ api }) => {
        const marker = unique();
        const { [field]: omitted, ...body } = monthlyTemplate(await brandId(api), { title: marker });
        expectRejected(await api.post('/billing_templates/', body), `a subscription template without ${field}`);
        await expectNotListed(api, '/billing_templates/', 'title', marker);
      },
    );
    check(
      { id: `BT-CYCLE-REQUIRED-ON-CREATE-${field}-CODE`, title: `A subscription template without ${field} → 400, "${field}": required`, cites: refusalCode('required') },
      async ({ api }) => {
        const { [field]: omitted, ...body } = monthlyTemplate(await brandId(api));
        expectError(await api.post('/billing_templates/', body), field, 'required');
      },
    );
    check(
      { id: `BT-CYCLE-REQUIRED-ON-PUT-${field}`, title: `PUT without ${field}, no subscriber launched, is rejected and changes nothing`, cites: putCite },
      async ({ api }) => {
        const template = await read(api, (await makeTemplate(api)).id);
        const { [field]: omitted, ...body } = monthlyTemplate(template.brand_id, { title: 'Changed' });
        expectRejected(await api.put(path(template.id), body), `PUT without ${field}`);
        await expectUnchanged(api, template);
      },
    );
    check(
      { id: `BT-CYCLE-REQUIRED-ON-PUT-${field}-CODE`, title: `PUT without ${field}, no subscriber launched → 400, "${field}": required`, cites: refusalCode('required') },
      async ({ api }) => {
        const template = await makeTemplate(api);
        const { [field]: omitted, ...body } = monthlyTemplate(template.brand_id);
        expectError(await api.put(path(template.id), body), field, 'required');
      },
    );
  }

  check(
    {
      id: 'BT-CYCLE-EDITABLE-BEFORE-LAUNCH',
      title: 'While no subscriber has been launched, PUT and PATCH change the four cycle fields',
      cites: 'docs/behaviour.md#template-fields: "required when editing such a template (PUT), as long as no subscriber has been launched"',
    },
    async ({ api }) => {
      const template = await makeTemplate(api);
      const put = await api.put(path(template.id), monthlyTemplate(template.brand_id, CYCLE));
      expectSuccess(put, 'PUT with new cycle fields');
      expect(await read(api, template.id)).toMatchObject(CYCLE);
      const patch = await api.patch(path(template.id), { subscription_period: 5, subscription_trial_periods: 0 });
      expectSuccess(patch, 'PATCH of cycle fields');
      expect(await read(api, template.id)).toMatchObject({ ...CYCLE, subscription_period: 5, subscription_trial_periods: 0 });
    },
  );

  check(
    {
      id: 'BT-CYCLE-EDITABLE-WHILE-PENDING',
      title: 'A pending subscriber is not launched: the cycle fields stay editable',
      cites: `${READ_ONLY_AFTER_LAUNCH}; docs/behaviour.md#launch: "Added as pending: L is the day its first purchase is paid"`,
    },
    async (ctx) => {
      const { api } = ctx;
      const template = await makeTemplate(api);
      const added = await subscribe(ctx.api, template.id, subscriberBody((await makeClient(api)).id, later()));
      expect(added.subscriber.status, 'setup: without trial and charge at period end the subscriber is pending').toBe('pending');
      expectSuccess(await api.patch(path(template.id), { subscription_period: 2 }), 'PATCH subscription_period with only a pending subscriber');
      expect((await read(api, template.id)).subscription_period).toBe(2);
    },
  );

  // --------------------------------------------------------------- cycle fields: rule 3

  for (const [field, value] of Object.entries(CYCLE)) {
    check(
      {
        id: `BT-CYCLE-READONLY-AFTER-LAUNCH-${field}`,
        title: `Once a client is activated, ${field} is read-only: PATCH does not change it`,
        cites: READ_ONLY_AFTER_LAUNCH,
      },
      async (ctx) => {
        const template = await launched(ctx);
        // The launched template has a trial of 1; the other values differ from the monthly body's anyway.
        const changed = field === 'subscription_trial_periods' ? 4 : value;
        await expectNotApplied(ctx.api, template, await ctx.api.patch(path(template.id), { [field]: changed }), [field]);
      },
    );
  }

  check(
    {
      id: 'BT-CYCLE-READONLY-AFTER-LAUNCH-PUT',
      title: 'Once a client is activated, a PUT with other cycle values does not change them',
      cites: READ_ONLY_AFTER_LAUNCH,
    },
    async (ctx) => {
      const template = await launched(ctx);
      const res = await ctx.api.put(path(template.id), monthlyTemplate(template.brand_id, { ...CYCLE, subscription_trial_periods: 4 }));
      await expectNotApplied(ctx.api, template, res, Object.keys(CYCLE));
    },
  );

  check(
    {
      id: 'BT-CYCLE-READONLY-AFTER-LAUNCH-CODE',
      title: 'Once a client is activated, PATCH of each cycle field → 400 read_only',
      cites: READ_ONLY_CODE,
      level: 'informative',
    },
    async (ctx) => {
      const template = await launched(ctx);
      for (const [field, value] of Object.entries(CYCLE)) {
        expectError(await ctx.api.patch(path(template.id), { [field]: field === 'subscription_trial_periods' ? 4 : value }), field, 'read_only');
      }
    },
  );

  check(
    {
      id: 'BT-CYCLE-NOT-REQUIRED-AFTER-LAUNCH',
      title: 'Once a client is activated, the four fields are no longer required: a PUT without them succeeds and keeps them',
      cites: `docs/behaviour.md#template-fields: "as long as no subscriber has been launched", "Once any subscriber has been launched, these four fields are read-only"`,
    },
    async (ctx) => {
      const template = await launched(ctx);
      const body = monthlyTemplate(template.brand_id, { title: 'Renamed after launch' });
      for (const field of Object.keys(CYCLE)) delete body[field];
      expectSuccess(await ctx.api.put(path(template.id), body), 'PUT without the four cycle fields after launch');
      const stored = await read(ctx.api, template.id);
      expect(stored.title).toBe('Renamed after launch');
      for (const field of Object.keys(CYCLE)) expect(stored[field], field).toEqual(template[field]);
    },
  );

  check(
    {
      id: 'BT-HAS-ACTIVE-CLIENTS',
      title: 'subscription_has_active_clients turns true once a subscriber is launched',
      cites:
        'openapi.yaml#/components/schemas/BillingTemplateFields/properties/subscription_has_active_clients: "True once any subscriber has been launched"; ' +
        'docs/behaviour.md#launch: "The first launch of a template sets its subscription_has_active_clients to true"; ' +
        'docs/fidelity.md#billing-templates: "If this is true, there were launched clients", "false on a new template, true from the first launch of a subscriber"',
    },
    async (ctx) => {
      expect((await makeTemplate(ctx.api)).subscription_has_active_clients).toBe(false);
      expect((await launched(ctx)).subscription_has_active_clients).toBe(true);
    },
  );

  // ------------------------------------------------------------------ PUT, PATCH, DELETE

  check(
    {
      id: 'BT-PUT',
      title: 'PUT replaces a template: the new title, purchase and cycle fields are stored; created_on stays, updated_on is not before it',
      cites: `openapi.yaml#updateBillingTemplate; docs/behaviour.md#put-and-patch: "PUT replaces the object"; ${WRITE_INSTANT_RULE}`,
    },
    async (ctx) => {
      const { api } = ctx;
      const template = await makeTemplate(api);
      const body = monthlyTemplate(template.brand_id, {
        ...CYCLE,
        ...DUE_PERIOD,
        title: 'Team plan, every 3 weeks',
        purchase: { currency: 'USD', products: [{ name: 'Team plan', price: 9900 }] },
      });
      const res = await api.put(path(template.id), body);
      expectSuccess(res, 'PUT');
      const { purchase, ...fields } = body;
      const stored = await read(api, template.id);
      expect(stored).toMatchObject({ ...fields, id: template.id, created_on: template.created_on });
      expect(stored.purchase).toMatchObject({ currency: 'USD', products: [{ name: 'Team plan', price: 9900 }], total: 9900 });
      expect(stored.updated_on, 'updated_on after a PUT').toBeGreaterThanOrEqual(template.updated_on as number);
      expectInstants(stored, await nowSeconds(ctx), 'the template read back');
      expect(res.body).toEqual(stored);
    },
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    check(
      {
        id: `BT-${method}-INSTANTS`,
        title: `A ${method} a day after the create keeps created_on and moves updated_on to the instant of the write`,
        cites: WRITE_INSTANT_RULE,
        requires: ['clock'],
      },
      async ({ api }) => {
        const { account, template } = await sandboxTemplate(api, SANDBOX_NOW);
        const now = await advanceADay(account);
        const body = method === 'PUT' ? monthlyTemplate(account.brandId, { title: 'Renamed' }) : { title: 'Renamed' };
        const answer = expectSuccess(await account.api.request(method, path(template.id), { body }), method);
        expectWrittenAt(template, answer, now, `the ${method} answer`);
        expectWrittenAt(template, await read(account.api, template.id), now, 'the template read back');
      },
    );
  }

  check(
    {
      id: 'BT-PUT-RESETS-OMITTED',
      title: 'PUT is a full replacement: omitted optional fields return to their defaults',
      cites: 'openapi.yaml#updateBillingTemplate: "A full replacement"; docs/behaviour.md#put-and-patch: "optional fields it leaves out return to their defaults"',
      level: 'informative',
    },
    async ({ api }) => {
      const template = await makeTemplate(api, { title: 'Named', force_recurring: true, subscription_paused: true });
      const { title, ...body } = monthlyTemplate(template.brand_id);
      expect((await api.put(path(template.id), body)).status).toBe(200);
      expect(await read(api, template.id)).toMatchObject({ title: '', force_recurring: false, subscription_paused: false });
    },
  );

  check(
    {
      id: 'BT-PUT-ROUNDTRIP',
      title: 'A template read with GET can be PUT back unchanged (read-only fields with their stored values are accepted)',
      cites:
        'docs/behaviour.md#read-only-fields: "so a client can GET an object, edit it and PUT it back"; openapi.yaml#/info/description: "a client can GET an object and PUT it back"; ' +
        'docs/fidelity.md#billing-templates: "GET + PUT round trip of the PHP SDK", "accepted unchanged on one-time and subscription templates"',
    },
    async ({ api }) => {
      const template = await read(api, (await makeTemplate(api)).id);
      const res = await api.put(path(template.id), template);
      expectSuccess(res, 'PUT of the template as read');
      expect(withoutUpdatedOn(res.body)).toEqual(withoutUpdatedOn(template));
    },
  );

  check(
    { id: 'BT-PATCH', title: 'PATCH changes only the fields sent', cites: 'openapi.yaml#patchBillingTemplate; docs/behaviour.md#put-and-patch: "PATCH changes only the fields it sends"' },
    async ({ api }) => {
      // Optional fields away from their defaults: a PATCH that replaced the whole template would reset them.
      const template = await read(api, (await makeTemplate(api, { subscription_trial_periods: 2, force_recurring: true, subscription_paused: true })).id);
      const res = await api.patch(path(template.id), { title: 'Renamed' });
      expectSuccess(res, 'PATCH');
      const stored = await read(api, template.id);
      expect(withoutUpdatedOn(stored)).toEqual(withoutUpdatedOn({ ...template, title: 'Renamed' }));
      expect(stored.updated_on).toBeGreaterThanOrEqual(template.updated_on);
    },
  );

  check(
    {
      id: 'BT-PATCH-PAUSED',
      title: 'subscription_paused "Pauses the whole subscription": PATCH sets and clears it',
      cites: 'docs/behaviour.md#template-fields: "pauses the whole subscription"; docs/behaviour.md#pause: "or its template has subscription_paused: true"',
    },
    async ({ api }) => {
      const template = await makeTemplate(api);
      expectSuccess(await api.patch(path(template.id), { subscription_paused: true }), 'PATCH subscription_paused true');
      expect((await read(api, template.id)).subscription_paused).toBe(true);
      expectSuccess(await api.patch(path(template.id), { subscription_paused: false }), 'PATCH subscription_paused false');
      expect((await read(api, template.id)).subscription_paused).toBe(false);
    },
  );

  check(
    { id: 'BT-DELETE', title: 'DELETE removes a template: it can no longer be read nor is it listed', cites: 'openapi.yaml#deleteBillingTemplate; docs/behaviour.md#deleting: "A template can be deleted at any time"' },
    async ({ api }) => {
      const template = await makeTemplate(api);
      expectSuccess(await api.delete(path(template.id)), 'DELETE');
      expect((await api.get(path(template.id))).status, 'GET of the deleted template').toBe(404);
      // Other checks make templates meanwhile: the deleted one would be among the newest.
      const listed = (await api.get('/billing_templates/?page_size=100')).body.results as Node[];
      expect(listed.map((t) => t.id)).not.toContain(template.id);
    },
  );

  check(
    { id: 'BT-DELETE-STATUS', title: 'DELETE answers 204 with no body; the template then answers 404', cites: 'docs/behaviour.md#status-codes: "204 | a delete; no body", "404 | an unknown path, an unknown id"', level: 'informative' },
    async ({ api }) => {
      const template = await makeTemplate(api);
      const res = await api.delete(path(template.id));
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await api.get(path(template.id))).status).toBe(404);
      expect((await api.delete(path(template.id))).status).toBe(404);
    },
  );

  check(
    {
      id: 'BT-UNKNOWN-ID',
      title: 'GET, PUT, PATCH and DELETE of an unknown template id answer 404, and PUT creates nothing',
      cites: `openapi.yaml#/components/parameters/Id: "unknown, or of another sandbox → 404"; ${NOT_FOUND}`,
    },
    async ({ api }) => {
      const target = path(UNKNOWN_ID);
      const expect404 = (what: string, res: { status: number; text: string }) => expect(res.status, `${what} of an unknown template: ${res.text.slice(0, 300)}`).toBe(404);
      expect404('GET', await api.get(target));
      expect404('PUT', await api.put(target, monthlyTemplate(await brandId(api))));
      // PATCH of a template is the simulator's own (x-simulator-only): a target without it answers 405.
      const patch = await api.patch(target, { title: 'x' }, { optional: true });
      if (!patch.absent) expect404('PATCH', patch);
      expect404('DELETE', await api.delete(target));
      expect404('GET after PUT', await api.get(target));
    },
  );

  check(
    { id: 'BT-UNKNOWN-ID-404', title: 'An unknown template id → 404 with __all__: not_found', cites: `${NOT_FOUND}; docs/behaviour.md#error-codes: "not_found | 404"`, level: 'informative' },
    async ({ api }) => {
      const target = path(UNKNOWN_ID);
      for (const res of [await api.get(target), await api.put(target, monthlyTemplate(await brandId(api))), await api.patch(target, { title: 'x' }), await api.delete(target)]) {
        expectError(res, '__all__', 'not_found', { status: 404 });
      }
    },
  );

  check(
    {
      id: 'BT-BRAND-UNKNOWN',
      title: 'A brand_id that is not a brand of the account is rejected and nothing is created',
      cites: `docs/behaviour.md#template-fields: "the brand the template belongs to: the sandbox's brand (400 does_not_exist)"`,
    },
    async ({ api }) => {
      const marker = unique();
      expectRejected(await api.post('/billing_templates/', monthlyTemplate(UNKNOWN_ID, { title: marker })));
      await expectNotListed(api, '/billing_templates/', 'title', marker);
    },
  );

  check(
    { id: 'BT-BRAND-UNKNOWN-CODE', title: 'An unknown brand_id → 400, "brand_id": does_not_exist', cites: `${refusalCode('does_not_exist')}; docs/behaviour.md#templates: "brand_id must be the sandbox's brand (400 does_not_exist)"` },
    async ({ api }) => {
      expectError(await api.post('/billing_templates/', monthlyTemplate(UNKNOWN_ID)), 'brand_id', 'does_not_exist');
    },
  );
});
