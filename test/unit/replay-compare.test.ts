// Issue 43, "Each answer is compared with the recorded one: status code, the set of key paths and
// their JSON types, and the values that must agree; ids, instants, URLs and tokens are compared by
// shape only" (src/replay/compare.ts), and what the simulator cannot know (unknowable.ts).

import { describe, expect, it } from 'vitest';
import { compareAnswers } from '../../src/replay/compare.ts';
import { documentedWhy, isAccountValue, unknowableWhy } from '../../src/replay/unknowable.ts';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';
const D = '44444444-4444-4444-8444-444444444444';
const ok = (body: unknown) => ({ status: 200, body });

describe('compare: a recorded answer against the replayed one', () => {
  it('a status code that differs is the one difference: the bodies are not compared', () => {
    expect(compareAnswers(ok({ id: A }), { status: 404, body: { __all__: [{ message: 'Not found.', code: 'not_found' }] } })).toEqual([
      { kind: 'http_status', path: '', recorded: '200', replayed: '404' },
    ]);
  });

  it('ids, instants, URLs and tokens are compared by shape only', () => {
    const recorded = { id: A, created_on: 1835000000, checkout_url: `http://a.test/p/${A}/`, token: 'scrubbed-token-1', email: 'a@example.com' };
    const replayed = { id: B, created_on: 1835999999, checkout_url: `http://b.test/p/${B}/`, token: 'eyJ.x.y', email: 'b@example.com' };
    expect(compareAnswers(ok(recorded), ok(replayed))).toEqual([]);
    expect(compareAnswers(ok({ id: A }), ok({ id: 'not-an-id' }))).toEqual([{ kind: 'shape', path: 'id', recorded: 'an id', replayed: 'text' }]);
  });

  it('statuses, amounts, totals, currencies, flags and calendar dates must agree', () => {
    const recorded = { status: 'paid', refund_status: 'x', purchase: { total: 200, currency: 'EUR', products: [{ price: 200, quantity: 1, discount: 0 }] }, is_test: true, issued: '2028-02-29' };
    const replayed = { status: 'error', refund_status: 'x', purchase: { total: 201, currency: 'MYR', products: [{ price: 200, quantity: 2, discount: 0 }] }, is_test: false, issued: '2028-02-28' };
    expect(compareAnswers(ok(recorded), ok(replayed)).map((finding) => `${finding.path} ${finding.recorded} ${finding.replayed}`)).toEqual([
      'status "paid" "error"',
      'purchase.total 200 201',
      'purchase.currency "EUR" "MYR"',
      'purchase.products[].quantity 1 2',
      'is_test true false',
      'issued "2028-02-29" "2028-02-28"',
    ]);
  });

  it('an error body: the field it names is a key path, its code a value; the message is text', () => {
    const recorded = { status: 400, body: { 'purchase.products.0.price': [{ message: 'This field is required.', code: 'required' }] } };
    expect(compareAnswers(recorded, { status: 400, body: { 'purchase.products.0.price': [{ message: 'Required.', code: 'invalid' }] } })).toEqual([
      { kind: 'value', path: '["purchase.products.0.price"][].code', recorded: '"required"', replayed: '"invalid"' },
    ]);
    expect(compareAnswers(recorded, { status: 400, body: { due: [{ message: 'This field is required.', code: 'required' }] } }).map((finding) => `${finding.kind} ${finding.path}`)).toEqual([
      'missing ["purchase.products.0.price"]',
      'extra due',
    ]);
  });

  it('lists of different lengths are one count, not a difference per item; their keys are the union of the items', () => {
    const item = (status: string) => ({ id: A, status, payment: null });
    const findings = compareAnswers(ok({ results: [item('paid'), item('paid'), item('paid')] }), ok({ results: [item('paid'), { ...item('paid'), extra: 1 }] }));
    expect(findings).toEqual([
      { kind: 'extra', path: 'results[].extra', recorded: '(none)', replayed: 'number' },
      { kind: 'count', path: 'results', recorded: '3', replayed: '2' },
    ]);
  });

  it('a key missing in the replay is one difference, not one per key below it', () => {
    expect(compareAnswers(ok({ payment: { amount: 1, currency: 'EUR' } }), ok({ payment: null }))).toEqual([{ kind: 'type', path: 'payment', recorded: 'object', replayed: 'null' }]);
    expect(compareAnswers(ok({ payment: { amount: 1, nested: { a: 1 } } }), ok({}))).toEqual([{ kind: 'missing', path: 'payment', recorded: 'object', replayed: '(none)' }]);
  });

  it('items are paired by the ids already mapped, whatever their order, then the rest by position', () => {
    const ids = new Map([[A, C]]);
    const recorded = { results: [{ id: A, status: 'paid' }, { id: B, status: 'error' }] };
    const replayed = { results: [{ id: D, status: 'error' }, { id: C, status: 'paid' }] };
    expect(compareAnswers(ok(recorded), ok(replayed), ids)).toEqual([]);
    expect(compareAnswers(ok(recorded), ok(replayed))).toHaveLength(1);
  });

  it("the account's values are compared only when asked, ids through the map", () => {
    const recorded = { brand_id: A, issuer_details: { legal_name: 'CHIP IN SDN. BHD.' } };
    const replayed = { brand_id: C, issuer_details: { legal_name: 'Sandbox Merchant Sdn. Bhd.' } };
    expect(compareAnswers(ok(recorded), ok(replayed))).toEqual([]);
    const listed = compareAnswers(ok(recorded), ok(replayed), new Map([[A, C]]), (path) => isAccountValue('getPurchase', path));
    expect(listed).toEqual([{ kind: 'value', path: 'issuer_details.legal_name', recorded: '"CHIP IN SDN. BHD."', replayed: '"Sandbox Merchant Sdn. Bhd."' }]);
  });
});

describe('what the simulator cannot know', () => {
  it("names the account's values with the reason, and nothing of the platform's behaviour", () => {
    expect(unknowableWhy('getPurchase', 'issuer_details.bank_accounts[].bank_account')).toMatch(/company details/);
    expect(unknowableWhy('listPaymentMethods', 'by_country.MY')).toMatch(/payment methods/);
    expect(unknowableWhy('getPurchase', 'reference_generated')).toMatch(/reference number/);
    expect(isAccountValue('getPurchase', 'reference_generated')).toBe(false);
    expect(unknowableWhy('getPurchase', 'direct_post_url')).toMatch(/Direct Post/);
    for (const path of ['status', 'purchase.total', 'products[].name', 'payment.amount']) expect(unknowableWhy('getPurchase', path)).toBeUndefined();
  });

  it("names billing-sim's documented additions, for a key only the replay has, and nothing else", () => {
    expect(documentedWhy('extra', 'purchase.description')).toMatch(/^docs\/fidelity\.md/);
    expect(documentedWhy('extra', 'transaction_data.attempts[].error.description')).toMatch(/^docs\/fidelity\.md/);
    expect(documentedWhy('extra', 'service_type')).toMatch(/^docs\/fidelity\.md/);
    // The same key with another value, or missing from the replay, is drift.
    expect(documentedWhy('value', 'service_type')).toBeUndefined();
    expect(documentedWhy('missing', 'purchase.description')).toBeUndefined();
    expect(documentedWhy('extra', 'purchase.notes')).toBeUndefined();
  });
});
