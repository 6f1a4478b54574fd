// ajv's errors as DESIGN.md §3's error body, with the bounds of §6 "Bad input": request validators
// compiled from openapi.yaml, fed what once answered 500 or took seconds.

import { describe, expect, it } from 'vitest';
import { toFieldErrors } from '../../src/contract/ajv-errors.ts';
import { validateWithin } from '../../src/contract/error-budget.ts';
import { MAX_BODY_DEPTH, MAX_ERRORS, RAW_ERROR_BUDGET } from '../../src/contract/limits.ts';
import { beyondSchema } from '../../src/contract/beyond-schema.ts';
import { buildRouteTable } from '../../src/contract/routes.ts';
import { loadSpec } from '../../src/contract/spec.ts';

const routes = buildRouteTable(loadSpec());
const validator = (operationId: string) => routes.operations.find((operation) => operation.operationId === operationId)!.body()!;
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const ONE_MIB_OF_ONES = Array.from({ length: 524_000 }, () => 1);

function fieldErrorsOf(operationId: string, body: unknown) {
  const { errors, stopped } = validateWithin(validator(operationId), body);
  return toFieldErrors([...beyondSchema(body), ...errors], stopped);
}

describe('toFieldErrors', () => {
  it('names every Object.prototype name sent as a field as an unknown_field', () => {
    for (const name of PROTOTYPE_NAMES) {
      const fields = fieldErrorsOf('createSandbox', JSON.parse(`{"${name}": 1}`));
      expect(Object.keys(fields), name).toEqual([name]);
      expect(fields[name]).toEqual([{ message: 'This field is not defined for this operation.', code: 'unknown_field' }]);
    }
  });

  it('names Object.prototype names nested in the purchase and its products by their dotted path', () => {
    const body = '{"purchase": {"constructor": 1, "products": [{"name": "x", "price": 1, "__proto__": {"a": 1}, "toString": "y"}]}}';
    const fields = fieldErrorsOf('createBillingTemplate', JSON.parse(body));
    expect(fields['purchase.constructor']?.[0]?.code).toBe('unknown_field');
    expect(fields['purchase.products.0.__proto__']?.[0]?.code).toBe('unknown_field');
    expect(fields['purchase.products.0.toString']?.[0]?.code).toBe('unknown_field');
  });

  it('a value that may match any of several enums (a token outcome: success, failure or a decline code) is one invalid_choice naming their union, the first 10 and the count of the rest', () => {
    const fields = fieldErrorsOf('payPurchase', { token_outcomes: ['maybe'] });
    expect(fields['token_outcomes.0']).toEqual([
      { code: 'invalid_choice', message: '"maybe" is not a valid choice. Allowed: success, failure, insufficient_funds, expired_card, do_not_honour, 3ds_authentication_failed, exceeds_withdrawal_limit, issuer_not_available, lost_card, stolen_card and 56 more (openapi.yaml lists them).' },
    ]);
    // An enum of at most 10 values is named whole, as before.
    expect(fieldErrorsOf('payPurchase', { outcome: 'maybe' }).outcome).toEqual([{ code: 'invalid_choice', message: '"maybe" is not a valid choice. Allowed: success, failure.' }]);
  });

  it('lists 100 errors of a body with 500 bad items and says the rest were cut', () => {
    const fields = fieldErrorsOf('createPurchase', { status_history: Array.from({ length: 500 }, () => 1) });
    const listed = Object.values(fields).flat().filter((detail) => detail.code !== 'too_many_errors');
    expect(listed).toHaveLength(MAX_ERRORS);
    expect(fields.__all__?.at(-1)?.code).toBe('too_many_errors');
  });

  it('reports a non-finite number as invalid at its path', () => {
    const fields = fieldErrorsOf('createBillingTemplate', JSON.parse('{"purchase": {"products": [{"name": "x", "price": 1, "quantity": 1e400}]}}'));
    expect(fields['purchase.products.0.quantity']).toContainEqual({ message: 'Enter a finite number.', code: 'invalid' });
  });
});

describe("the document's words for a refusal (x-error-message)", () => {
  const one = (operationId: string, body: unknown) => Object.entries(fieldErrorsOf(operationId, body));

  it('a pattern refused says its words, never the regex; the code stays invalid', () => {
    const [[field, details]] = one('advanceClock', { by: '1 month' }) as [[string, { message: string; code: string }[]]];
    expect(field).toBe('by');
    expect(details).toEqual([{ code: 'invalid', message: expect.stringMatching(/^Enter an ISO-8601 duration such as P1M, P2W, PT36H/) }]);
    expect(details[0]!.message).not.toMatch(/\^|\(\?|\\d/);
  });

  it('a wrong type of an amount says integers in minor units ("5990 for 59.90"), with the code of a wrong type', () => {
    const fields = fieldErrorsOf('createBillingTemplate', { purchase: { products: [{ name: 'x', price: 59.9 }] } });
    expect(fields['purchase.products.0.price']).toEqual([{ code: 'invalid', message: "Enter an amount as an integer in the currency's minor units, such as 5990 for 59.90." }]);
  });

  it('a null sent for an amount that takes none keeps DRF\'s "This field may not be null." and its code', () => {
    const fields = fieldErrorsOf('createBillingTemplate', { purchase: { products: [{ name: 'x', price: null }] } });
    expect(fields['purchase.products.0.price']).toEqual([{ code: 'null', message: 'This field may not be null.' }]);
  });

  it('maxProperties and minProperties of a clock advance name the fields: "Send either to or by, not both"', () => {
    expect(fieldErrorsOf('advanceClock', { to: '2026-09-21', by: 'P1M' }).__all__).toEqual([
      { code: 'invalid', message: 'Send either to or by, not both: to moves the clock to a date or date-time, by moves it forward by a duration.' },
    ]);
    expect(fieldErrorsOf('advanceClock', {}).__all__?.[0]?.message).toMatch(/^Send to \(a date such as 2026-09-21/);
  });

  it("a date that is neither date nor date-time is one error in words, though both anyOf branches refused it", () => {
    expect(fieldErrorsOf('advanceClock', { to: 'tomorrow' })).toEqual({
      to: [{ code: 'invalid', message: 'Enter a date such as 2026-09-21 (its midnight, UTC) or a date-time such as 2026-09-21T09:00:00Z.' }],
    });
  });

  it("a URL without a scheme is Django's invalid, \"Enter a valid URL.\", in a webhook's callback and a purchase's URLs alike", () => {
    const words = { code: 'invalid', message: expect.stringMatching(/^Enter a valid URL\. /) };
    expect(fieldErrorsOf('createWebhook', { callback: 'localhost:9000/hook', events: ['purchase.paid'] })).toEqual({ callback: [words] });
    expect(fieldErrorsOf('updateWebhook', { callback: 'localhost:9000/hook', events: ['purchase.paid'] })).toEqual({ callback: [words] });
    expect(fieldErrorsOf('createPurchase', { success_callback: 'localhost:9000/hook', cancel_redirect: 'shop.example.com/x' })).toMatchObject({ success_callback: [words], cancel_redirect: [words] });
  });

  it('a pattern without words (a schema from elsewhere) says so in a sentence, not the regex', () => {
    const error = { keyword: 'pattern', instancePath: '/code', schemaPath: '#/properties/code/pattern', params: { pattern: '^[a-z]+$' }, parentSchema: { pattern: '^[a-z]+$' } };
    expect(toFieldErrors([error])).toEqual({ code: [{ code: 'invalid', message: 'Enter a value in the form this field takes (openapi.yaml describes it).' }] });
  });
});

describe('validation stops soon after the errors a body can list', () => {
  it('checks no item of an array longer than its maxItems: 1 MiB of cc items is one max_items', () => {
    const { errors, stopped } = validateWithin(validator('createClient'), { email: 'a@example.com', cc: ONE_MIB_OF_ONES });
    expect(stopped).toBe(false);
    expect(errors.map((error) => error.keyword).filter((keyword) => keyword !== 'if')).toEqual(['maxItems']);
  });

  it('still checks every item of an array within its maxItems', () => {
    const fields = fieldErrorsOf('createClient', { email: 'a@example.com', cc: ['x', 'b@example.com', 3] });
    expect(Object.keys(fields).sort()).toEqual(['cc.0', 'cc.2']);
  });

  it('stops an array without maxItems (a snapshot of 524,000 bad events) after the error budget', () => {
    const { errors, stopped } = validateWithin(validator('createSandbox'), { snapshot: { billing_sim_snapshot: 1, sandbox: { events: ONE_MIB_OF_ONES } } });
    expect(stopped).toBe(true);
    expect(errors.length).toBeLessThanOrEqual(RAW_ERROR_BUDGET + 1);
  });

  it('finds at most 101 non-finite numbers among 170,000', () => {
    expect(beyondSchema(JSON.parse(`[${Array.from({ length: 170_000 }, () => '1e999').join(',')}]`))).toHaveLength(MAX_ERRORS + 1);
  });

  it('names a body nested past 32 levels once, where it passes them, without overflowing the stack', () => {
    const deep = JSON.parse(`{"x": ${'['.repeat(400_000)}1e400${']'.repeat(400_000)}}`);
    const found = beyondSchema(deep);
    expect(found.map((error) => [error.keyword, error.instancePath])).toEqual([['depth', `/x${'/0'.repeat(MAX_BODY_DEPTH - 1)}`]]);
    expect(toFieldErrors(found)).toEqual({ [`x${'.0'.repeat(MAX_BODY_DEPTH - 1)}`]: [{ message: 'Nested deeper than 32 levels.', code: 'invalid' }] });
  });

  it('accepts the deepest body the document defines: a snapshot with a purchase', () => {
    const product = { name: 'x', price: 1 };
    const snapshot = { snapshot: { sandbox: { purchases: [['id', { purchase: { products: [product] } }]] } } };
    expect(beyondSchema(snapshot)).toEqual([]);
  });
});
