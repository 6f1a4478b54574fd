// The QA dashboard creates what a sandbox needs before it shows anything: a client, a subscription
// or one-time template, a subscriber, a one-time invoice. Each form is filled and sent on the page,
// and the sandbox is then read through the API, as a merchant's backend would see it. When the API
// refuses, its own message shows beside the field it names (aria-invalid, aria-describedby), and
// `__all__` at the form's top; nothing is checked in the browser.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import {
  at, generated, listSubscribers, makeClient, makeOneTimeTemplate, makeTemplate, outbox, sandboxAt, type Client, type List, type Template,
} from '../builders/engine.ts';
import { useBrowser, screenshot } from './browser.ts';
import { fieldMessage, openDashboard, resultIn, subscriberCard, templateRow } from './dashboard-page.ts';

const h = useHarness();
const browser = useBrowser(h);

const NOW = '2026-01-30T12:00:00Z';
const UUID = '[0-9a-f-]{36}';

type Box = Awaited<ReturnType<typeof sandboxAt>>;
const clientsOf = async (box: Box) => ((await box.req('GET', '/api/v1/clients/?page_size=1000')).body as List<Client>).results;
const templatesOf = async (box: Box) => ((await box.req('GET', '/api/v1/billing_templates/?page_size=1000')).body as List<Template>).results;

describe('QA dashboard: creating clients, templates, subscribers and invoices', () => {
  it('"New client" creates the client typed (e-mail, full name, phone, country); the Clients list shows it first, and the form is emptied for the next', async () => {
    const box = await sandboxAt(h, NOW);
    const grace = await makeClient(box, { email: 'grace@example.com', full_name: 'Grace Hopper' });
    const { page, blocked, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const list = page.locator('#clients');
      expect(await list.locator('thead th').allTextContents()).toEqual(['E-mail', 'Full name', 'Id', 'Created (UTC)']);
      expect(await list.locator(`tr[data-client="${grace.id}"] td`).allTextContents()).toEqual(['grace@example.com', 'Grace Hopper', grace.id, '2026-01-30 12:00']);

      const form = page.getByRole('form', { name: 'New client' });
      await form.getByLabel('E-mail', { exact: true }).fill('ada@example.com');
      await form.getByLabel('Full name', { exact: true }).fill('Ada Lovelace');
      await form.getByLabel('Phone', { exact: true }).fill('+44 20 7946 0000');
      await form.getByLabel('Country (ISO code)', { exact: true }).fill('GB');
      await form.getByRole('button', { name: 'Create client' }).click();

      const status = page.locator('section[aria-labelledby=clients-heading]').getByRole('status');
      await expect.poll(() => status.textContent()).toMatch(new RegExp(`^Created the client ada@example\\.com \\(id ${UUID}\\)\\.$`));
      const [ada, ...rest] = await clientsOf(box);
      expect([ada!.email, ada!.full_name, ada!.phone, ada!.country]).toEqual(['ada@example.com', 'Ada Lovelace', '+44 20 7946 0000', 'GB']);
      expect(rest.map((client) => client.id)).toEqual([grace.id]);
      expect(await status.textContent()).toBe(`Created the client ada@example.com (id ${ada!.id}).`);
      await expect.poll(() => list.locator('tbody tr').first().locator('td').allTextContents()).toEqual(['ada@example.com', 'Ada Lovelace', ada!.id, '2026-01-30 12:00']);
      expect(await form.getByLabel('E-mail', { exact: true }).inputValue(), 'the form is reset').toBe('');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'focus is back on the first field').toBe('email');
      await screenshot(page, 'dashboard-new-client', page.locator('section[aria-labelledby=clients-heading]'));
      expect(blocked, 'requests outside the simulator').toEqual([]);
    } finally {
      await close();
    }
  });

  it('a refused client: the API\'s message for a bad e-mail shows beside the e-mail field and nothing is created; an `__all__` error shows at the form\'s top', async () => {
    const box = await sandboxAt(h, NOW);
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const form = page.getByRole('form', { name: 'New client' });
      const email = form.getByLabel('E-mail', { exact: true });
      const sent: unknown[] = [];
      page.on('request', (request) => request.method() === 'POST' && request.url().endsWith('/api/v1/clients/') && sent.push(request.postDataJSON()));
      await email.fill('ada-at-example');
      await form.getByLabel('Full name', { exact: true }).fill('Ada Lovelace');
      await form.getByRole('button', { name: 'Create client' }).click();

      const status = page.locator('#client-result');
      await expect.poll(() => status.textContent()).toBe('email: Enter a valid email address.');
      expect(sent, 'the browser checked nothing: the API judged the address').toEqual([{ email: 'ada-at-example', full_name: 'Ada Lovelace' }]);
      expect(await status.getAttribute('class')).toContain('error');
      expect(await fieldMessage(email)).toBe('Enter a valid email address.');
      expect(await form.locator('.field:has(input[name=email]) .field-error').textContent(), 'beside the field').toBe('Enter a valid email address.');
      expect(await fieldMessage(form.getByLabel('Full name', { exact: true }))).toBeNull();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'focus on the refused field').toBe('email');
      expect(await email.inputValue(), 'what was typed stays').toBe('ada-at-example');
      expect(await clientsOf(box)).toEqual([]);
      await screenshot(page, 'dashboard-new-client-refused', page.locator('section[aria-labelledby=clients-heading]'));

      // Not tied to a field: the API's `__all__` message at the form's top (here an injected fault).
      await box.req('POST', '/sim/v1/faults', { operation_id: 'createClient', status: 503, times: 1 });
      await email.fill('ada@example.com');
      await email.press('Enter');
      const top = form.locator('.form-errors');
      await expect.poll(() => top.isVisible()).toBe(true);
      const fault = await top.locator('li').allTextContents();
      expect(fault).toHaveLength(1);
      expect(await status.textContent()).toBe(fault[0]);
      expect(await fieldMessage(email), 'the last answer\'s messages only').toBeNull();
      expect(await clientsOf(box)).toEqual([]);

      await form.getByRole('button', { name: 'Create client' }).click();
      await expect.poll(() => status.textContent()).toMatch(/^Created the client ada@example\.com/);
      expect(await top.isVisible()).toBe(false);
      expect((await clientsOf(box)).map((client) => client.email)).toEqual(['ada@example.com']);
    } finally {
      await close();
    }
  });

  it('"New billing template", subscription: the API has it with the period, due period, trials and charge at period end entered (its brand read from an empty sandbox)', async () => {
    const box = await sandboxAt(h, NOW);
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const form = page.getByRole('form', { name: 'New billing template' });
      expect(await form.getByRole('radio', { name: /^Subscription/ }).isChecked()).toBe(true);
      expect(await form.getByLabel('Due (UTC)', { exact: true }).isVisible(), 'one-time fields are hidden').toBe(false);
      await form.getByLabel('Title', { exact: true }).fill('Gym three-weekly');
      await form.getByLabel('Product', { exact: true }).fill('Membership');
      await form.getByLabel('Unit price', { exact: true }).fill('29.90');
      await form.getByLabel('Time zone', { exact: true }).fill('Europe/Berlin');
      await form.getByLabel('Billing period', { exact: true }).fill('3');
      await form.getByLabel('Period unit', { exact: true }).selectOption('weeks');
      await form.getByLabel('Due period', { exact: true }).fill('5');
      await form.getByLabel('Trial periods', { exact: true }).fill('1');
      await form.getByLabel('Charge at the end of each period').check();
      await form.getByRole('button', { name: 'Create template' }).click();

      const status = page.locator('#template-result');
      await expect.poll(() => status.textContent()).toMatch(new RegExp(`^Created the subscription template Gym three-weekly \\(id ${UUID}\\), €29\\.90\\.$`));
      const [template] = await templatesOf(box);
      expect(template).toMatchObject({
        brand_id: box.brandId,
        title: 'Gym three-weekly',
        is_subscription: true,
        purchase: { currency: 'EUR', timezone: 'Europe/Berlin', total: 2990, products: [{ name: 'Membership', price: 2990 }] },
        subscription_period: 3,
        subscription_period_units: 'weeks',
        subscription_due_period: 5,
        subscription_due_period_units: 'days',
        subscription_trial_periods: 1,
        subscription_charge_period_end: true,
        force_recurring: false,
      });
      await expect.poll(() => templateRow(page, template!.id).locator('td').allTextContents()).toEqual([
        'Gym three-weekly', 'every 3 weeks', '€29.90', 'no', '0', 'Add subscriber… to Gym three-weekly',
      ]);
      expect(await form.getByLabel('Title', { exact: true }).inputValue(), 'the form is reset').toBe('');
      expect(await form.getByLabel('Billing period', { exact: true }).inputValue(), 'to the spec\'s defaults').toBe('1');
    } finally {
      await close();
    }
  });

  it('"New billing template", one-time: without a due date the API\'s "required" shows beside Due; with one, the API has the due instant, receipt and price entered', async () => {
    const box = await sandboxAt(h, NOW);
    await makeTemplate(box, { title: 'Gym monthly' });
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const form = page.getByRole('form', { name: 'New billing template' });
      await form.getByRole('radio', { name: /^One-time/ }).check();
      expect(await form.getByLabel('Billing period', { exact: true }).isVisible(), 'subscription fields are hidden').toBe(false);
      await form.getByLabel('Title', { exact: true }).fill('Setup fee');
      await form.getByLabel('Product', { exact: true }).fill('Setup');
      await form.getByLabel('Unit price', { exact: true }).fill('49');
      await form.getByRole('button', { name: 'Create template' }).click();

      const status = page.locator('#template-result');
      const due = form.getByLabel('Due (UTC)', { exact: true });
      await expect.poll(() => status.textContent()).toBe('due: This field is required.');
      expect(await fieldMessage(due)).toBe('This field is required.');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('due');
      expect((await templatesOf(box)).map((t) => t.title)).toEqual(['Gym monthly']);
      await screenshot(page, 'dashboard-new-template-refused', page.locator('section[aria-labelledby=templates-heading]'));

      await due.fill('2026-02-14T09:30');
      await form.getByLabel('Send a receipt').check();
      await form.getByRole('button', { name: 'Create template' }).click();
      await expect.poll(() => status.textContent()).toMatch(/^Created the one-time template Setup fee \(id [0-9a-f-]{36}\), €49\.00\.$/);
      expect(await fieldMessage(due)).toBeNull();
      const [template] = await templatesOf(box);
      expect(template).toMatchObject({
        title: 'Setup fee',
        is_subscription: false,
        due: at('2026-02-14T09:30:00Z'),
        send_receipt: true,
        skip_capture: false,
        purchase: { currency: 'EUR', total: 4900, products: [{ name: 'Setup', price: 4900 }] },
      });
      await expect.poll(() => templateRow(page, template!.id).locator('td').allTextContents()).toEqual([
        'Setup fee', 'one-time', '€49.00', 'no', '0', 'Send invoice… of Setup fee',
      ]);
      expect(await form.getByRole('radio', { name: /^Subscription/ }).isChecked(), 'the form is reset to a subscription').toBe(true);
      expect(await form.getByLabel('Billing period', { exact: true }).isVisible()).toBe(true);
      await screenshot(page, 'dashboard-new-template', page.locator('section[aria-labelledby=templates-heading]'));
    } finally {
      await close();
    }
  });

  it('"Add subscriber…" adds the chosen client to the subscription template; missing and too early dates are refused with the API\'s message beside each date', async () => {
    const box = await sandboxAt(h, NOW);
    const ada = await makeClient(box, { email: 'ada@example.com', full_name: 'Ada Lovelace' });
    await makeClient(box, { email: 'grace@example.com', full_name: 'Grace Hopper' });
    const template = await makeTemplate(box, { title: 'Gym monthly' });
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const row = templateRow(page, template.id);
      const toggle = row.getByRole('button', { name: 'Add subscriber… to Gym monthly' });
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      const form = page.getByRole('form', { name: 'Add a subscriber to Gym monthly' });
      const client = form.getByLabel('Client', { exact: true });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'focus moves into the form').toBe('client_id');
      expect(await client.locator('option').allTextContents()).toEqual(['Choose a client…', 'grace@example.com (Grace Hopper)', 'ada@example.com (Ada Lovelace)']);
      await client.selectOption({ label: 'ada@example.com (Ada Lovelace)' });
      const start = form.getByLabel('Start of the billing cycle', { exact: true });
      const mandate = form.getByLabel('Mandate expires', { exact: true });
      await form.getByRole('button', { name: 'Add subscriber' }).click();

      // Missing dates: "required" beside each.
      await expect.poll(() => resultIn(row).textContent()).toBe('subscription_deduction_date: This field is required.');
      expect([await fieldMessage(start), await fieldMessage(mandate), await fieldMessage(client)]).toEqual(['This field is required.', 'This field is required.', null]);

      // Too early a start (today + 4 days is 2026-02-03): the API's minimum, beside the start.
      const TOO_EARLY = "Ensure this value is greater than or equal to 2026-02-03: the minimum is today plus 4 days, and today is 2026-01-30 (UTC, the template's time zone).";
      await start.fill('2026-02-02');
      await mandate.fill('2027-01-31');
      await form.getByRole('button', { name: 'Add subscriber' }).click();
      await expect.poll(() => fieldMessage(start)).toBe(TOO_EARLY);
      expect(await fieldMessage(mandate)).toBeNull();
      expect(await resultIn(row).textContent()).toBe(`subscription_deduction_date: ${TOO_EARLY}`);
      expect(await listSubscribers(box, template.id)).toEqual([]);
      await screenshot(page, 'dashboard-add-subscriber-refused', page.locator('section[aria-labelledby=templates-heading]'));

      await start.fill('2026-02-05');
      await form.getByRole('button', { name: 'Add subscriber' }).click();
      await expect.poll(() => resultIn(row).textContent()).toBe('Added ada@example.com: pending until its first purchase (€29.90, created) is paid.');
      const [subscriber] = await listSubscribers(box, template.id);
      expect(subscriber).toMatchObject({
        client_id: ada.id, status: 'pending', subscription_deduction_date: '2026-02-05', mandate_expiry_date: '2027-01-31',
        default_service_type: 'TWODAY', send_receipt: true, send_invoice_on_charge_failure: true, payment_method_whitelist: null,
      });
      expect((await generated(box, template.id, ada.id)).map((p) => p.status)).toEqual(['created']);
      await expect.poll(() => subscriberCard(page, subscriber!.id).locator('.who').textContent()).toBe('ada@example.com — Gym monthly');
      expect(await row.locator('td').nth(4).textContent(), 'the template counts it').toBe('1');
      expect([await fieldMessage(start), await start.inputValue(), await client.inputValue()], 'the form stays open, reset').toEqual([null, '', '']);
    } finally {
      await close();
    }
  });

  it('"Send invoice…" of a one-time template to a chosen client: a purchase of that client and template is created and sent, and its invoice is in the outbox', async () => {
    const box = await sandboxAt(h, NOW);
    const ada = await makeClient(box, { email: 'ada@example.com', full_name: 'Ada Lovelace' });
    const template = await makeOneTimeTemplate(box, { title: 'Setup fee' });
    const { page, close } = await browser.open();
    try {
      await openDashboard(page, h.origin, box.token);
      const row = templateRow(page, template.id);
      await row.getByRole('button', { name: 'Send invoice… of Setup fee' }).click();
      const form = page.getByRole('form', { name: 'Send an invoice of Setup fee' });
      const client = form.getByLabel('Client', { exact: true });
      await form.getByRole('button', { name: 'Send invoice' }).click();
      await expect.poll(() => resultIn(row).textContent()).toBe('client_id: This field is required.');
      expect(await fieldMessage(client)).toBe('This field is required.');
      expect(await generated(box, template.id)).toEqual([]);

      await client.selectOption({ label: 'ada@example.com (Ada Lovelace)' });
      await form.getByLabel('Payment methods', { exact: true }).fill('visa, mastercard');
      await form.getByRole('button', { name: 'Send invoice' }).click();
      await expect.poll(() => resultIn(row).textContent()).toMatch(new RegExp(`^Invoice sent to ada@example\\.com: €49\\.00, purchase ${UUID} \\(sent\\)\\.$`));
      const [purchase, ...more] = await generated(box, template.id, ada.id);
      expect(more).toEqual([]);
      expect([purchase!.status, purchase!.purchase.total, purchase!.payment_method_whitelist, purchase!.due]).toEqual(['sent', 4900, ['visa', 'mastercard'], template.due]);
      expect(await resultIn(row).textContent()).toContain(purchase!.id);
      const mails = (await outbox(box)).filter((mail) => mail.purchase_id === purchase!.id);
      expect(mails.map((mail) => [mail.kind, mail.to])).toEqual([['invoice', 'ada@example.com']]);
      await expect.poll(() => page.locator(`#purchases tr[data-purchase="${purchase!.id}"] .badge`).first().textContent()).toBe('sent');
      expect(await page.locator('#outbox tbody tr', { hasText: purchase!.id }).locator('td').nth(1).textContent()).toBe('invoice');
      await screenshot(page, 'dashboard-send-invoice', page.locator('section[aria-labelledby=templates-heading]'));
    } finally {
      await close();
    }
  });
});
