// Issue 42, "messages people understand": every refusal says what would be accepted, in words, as a
// user reads it in the answer (DESIGN.md §3 Errors: `{field: [{message, code}]}`, codes unchanged).
// The words live beside the schema in openapi.yaml (`x-error-message`); a rule of the domain says its
// reason in the spec's words. Each refusal changes nothing. Also POST /sim/v1/clock/advance with a
// date (DESIGN.md §15, "The first hour": its midnight in UTC, as a scenario's `advance.to`).

import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { subscriptionBody } from '../builders/templates.ts';
import { advance, makeClient, makeTemplate, purchaseBody, sandboxAt, subscriberBody, type Box } from '../builders/engine.ts';

const h = useHarness();
type Errors = Record<string, { message: string; code: string }[]>;

const DURATION = 'Enter an ISO-8601 duration such as P1M, P2W, PT36H: P, then years (Y), months (M), weeks (W) and days (D), then T and hours (H), minutes (M) and seconds (S), such as P1Y2M or P3DT12H.';
const DATE_OR_DATE_TIME = 'Enter a date such as 2026-09-21 (its midnight, UTC) or a date-time such as 2026-09-21T09:00:00Z.';
const MINOR_UNITS = "Enter an amount as an integer in the currency's minor units, such as 5990 for 59.90.";

async function refused(box: Box, method: string, path: string, body: unknown): Promise<Errors> {
  const res = await box.req(method, path, body);
  expect(res.status, res.text).toBe(400);
  return res.body as Errors;
}

const clockOf = async (box: Box) => ((await box.req('GET', '/sim/v1/clock')).body as { now: string }).now;

describe('a clock advance says what it takes', () => {
  it('a duration that is no ISO-8601 duration ("1 month") → 400 invalid on by, in words with examples, no regex; the clock stays', async () => {
    const box = await sandboxAt(h, '2026-03-19T10:00:00Z');
    expect(await refused(box, 'POST', '/sim/v1/clock/advance', { by: '1 month' })).toEqual({ by: [{ message: DURATION, code: 'invalid' }] });
    expect(await clockOf(box)).toBe('2026-03-19T10:00:00.000Z');
  });

  it('both to and by → 400 invalid naming both ("Send either to or by, not both"); neither names both too; the clock stays', async () => {
    const box = await sandboxAt(h, '2026-03-19T10:00:00Z');
    expect(await refused(box, 'POST', '/sim/v1/clock/advance', { by: 'P1M', to: '2026-09-21' })).toEqual({
      __all__: [{ message: 'Send either to or by, not both: to moves the clock to a date or date-time, by moves it forward by a duration.', code: 'invalid' }],
    });
    expect(await refused(box, 'POST', '/sim/v1/clock/advance', {})).toEqual({
      __all__: [{ message: 'Send to (a date such as 2026-09-21, or a date-time such as 2026-09-21T09:00:00Z) or by (a duration such as P1M).', code: 'invalid' }],
    });
    expect(await clockOf(box)).toBe('2026-03-19T10:00:00.000Z');
  });

  it('to that is neither a date nor a date-time (2026-02-29, 21/09/2026) → 400 invalid on to, with an example of each', async () => {
    const box = await sandboxAt(h, '2026-01-30T00:00:00Z');
    for (const to of ['2026-02-29', '21/09/2026', '2026-09-21 09:00']) {
      expect(await refused(box, 'POST', '/sim/v1/clock/advance', { to }), to).toEqual({ to: [{ message: DATE_OR_DATE_TIME, code: 'invalid' }] });
    }
    expect(await clockOf(box)).toBe('2026-01-30T00:00:00.000Z');
  });
});

describe('POST /sim/v1/clock/advance {"to": "YYYY-MM-DD"} means midnight of that date in UTC, as a scenario\'s advance.to', () => {
  it('a date moves the clock to its midnight UTC (2026-09-21 → 2026-09-21T00:00:00Z)', async () => {
    const box = await sandboxAt(h, '2026-03-19T10:00:00Z');
    expect((await advance(box, { to: '2026-09-21' })).now).toBe('2026-09-21T00:00:00.000Z');
  });

  it('Feb 29 of a leap year: 2028-02-29 from the afternoon before → 2028-02-29T00:00:00Z', async () => {
    const box = await sandboxAt(h, '2028-02-28T15:30:00Z');
    expect((await advance(box, { to: '2028-02-29' })).now).toBe('2028-02-29T00:00:00.000Z');
  });

  it('Dec 31 → Jan 1: 2027-01-01 from 2026-12-31T23:00:00Z moves one hour; there, 2026-12-31 is a day before today', async () => {
    const box = await sandboxAt(h, '2026-12-31T23:00:00Z');
    expect((await advance(box, { to: '2026-12-31' })).now).toBe('2026-12-31T23:00:00.000Z');
    expect((await advance(box, { to: '2027-01-01' })).now).toBe('2027-01-01T00:00:00.000Z');
    expect((await refused(box, 'POST', '/sim/v1/clock/advance', { to: '2026-12-31' })).to?.[0]?.code).toBe('min_value');
  });

  it("today's date moves nothing, though its midnight has passed: the clock stays, nothing is processed", async () => {
    const box = await sandboxAt(h, '2026-03-19T10:00:00Z');
    const moved = await advance(box, { to: '2026-03-19' });
    expect(moved.now).toBe('2026-03-19T10:00:00.000Z');
    expect(Object.values(moved.processed).every((count) => count === 0)).toBe(true);
  });

  it('a date before today → 400 min_value on to, naming the current day; the clock stays', async () => {
    const box = await sandboxAt(h, '2026-03-19T10:00:00Z');
    expect(await refused(box, 'POST', '/sim/v1/clock/advance', { to: '2026-03-18' })).toEqual({
      to: [{ message: "Ensure this value is greater than or equal to 2026-03-19, the sandbox's current day (UTC).", code: 'min_value' }],
    });
    expect(await clockOf(box)).toBe('2026-03-19T10:00:00.000Z');
  });
});

describe('amounts, codes and dates say what they take', () => {
  it('a product price of 59.90 → 400 invalid: amounts are integers in the currency\'s minor units ("5990 for 59.90"); no template is made', async () => {
    const box = await sandboxAt(h, '2026-03-19T10:00:00Z');
    const body = subscriptionBody(box.brandId, { purchase: { currency: 'EUR', products: [{ name: 'Gym', price: 59.9 }] } });
    expect(await refused(box, 'POST', '/api/v1/billing_templates/', body)).toEqual({ 'purchase.products.0.price': [{ message: MINOR_UNITS, code: 'invalid' }] });
    expect(((await box.req('GET', '/api/v1/billing_templates/')).body as { results: unknown[] }).results).toEqual([]);
  });

  it('a purchase\'s currency "eur" → 400 invalid in words (three capitals, such as EUR); a client\'s country "de" likewise (two capitals)', async () => {
    const box = await sandboxAt(h, '2026-03-19T10:00:00Z');
    const client = await makeClient(box);
    const purchase = purchaseBody(box, client.id, { purchase: { currency: 'eur', products: [{ name: 'Hour', price: 1200 }] } });
    expect(await refused(box, 'POST', '/api/v1/purchases/', purchase)).toEqual({
      'purchase.currency': [{ message: 'Enter a three-letter ISO 4217 currency code in capitals, such as MYR or EUR.', code: 'invalid' }],
    });
    expect(await refused(box, 'PATCH', `/api/v1/clients/${client.id}/`, { country: 'de' })).toEqual({
      country: [{ message: 'Enter a two-letter ISO 3166-1 country code in capitals, such as MY or DE, or an empty string when it is unknown.', code: 'invalid' }],
    });
    expect(((await box.req('GET', `/api/v1/clients/${client.id}/`)).body as { country: string }).country).toBe(client.country);
  });

  it('add_subscriber with a subscription_deduction_date before today plus 4 days → 400 min_value saying the spec\'s rule ("Minimum: today plus 4 days") and today; no subscriber', async () => {
    const box = await sandboxAt(h, '2026-03-19T10:00:00Z');
    const template = await makeTemplate(box);
    const client = await makeClient(box);
    const early = subscriberBody(client.id, '2026-03-22', { subscription_first_deduction_date: '2026-03-20', subscription_first_deduction_amount: 100 });
    const why = "the minimum is today plus 4 days, and today is 2026-03-19 (UTC, the template's time zone)";
    expect(await refused(box, 'POST', `/api/v1/billing_templates/${template.id}/add_subscriber/`, early)).toEqual({
      subscription_deduction_date: [{ message: `Ensure this value is greater than or equal to 2026-03-23: ${why}.`, code: 'min_value' }],
      subscription_first_deduction_date: [{ message: `Ensure this value is greater than or equal to 2026-03-23: ${why}.`, code: 'min_value' }],
    });
    expect(((await box.req('GET', `/api/v1/billing_templates/${template.id}/clients/`)).body as { results: unknown[] }).results).toEqual([]);
  });

  it('a test card number or expiry in the wrong form → 400 invalid in words with an example, no regex', async () => {
    const box = await sandboxAt(h, '2026-03-19T10:00:00Z');
    const client = await makeClient(box);
    const created = await box.req('POST', '/api/v1/purchases/', purchaseBody(box, client.id));
    const id = (created.body as { id: string }).id;
    const errors = await refused(box, 'POST', `/sim/v1/purchases/${id}/pay`, { method: 'visa', card: { number: '4444', expiry: '13/29' } });
    expect(errors).toEqual({
      'card.number': [{ message: 'Enter a card number of 12 to 19 digits, with spaces or dashes between them if you like, such as 4444 3333 2222 1111.', code: 'invalid' }],
      'card.expiry': [{ message: "Enter the expiry as MM/YY, a month 01 to 12 and the year's last two digits, such as 12/29.", code: 'invalid' }],
    });
    expect(((await box.req('GET', `/api/v1/purchases/${id}/`)).body as { status: string }).status).toBe('created');
  });
});
