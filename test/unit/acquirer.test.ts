// The acquirer's details of a settled purchase (src/domain/acquirer.ts, issue 42): names, formats and
// FPX's message fields as the platform's purchase.settled (SAMPLE:07) shows them, made from the
// payment alone.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { acquirerName, attemptAcquirer, fpxMessages, processingTxId, terminalId, type AcquiredPayment } from '../../src/domain/acquirer.ts';

const PAYMENT: AcquiredPayment = {
  companyId: '56d72c15-c42b-4214-877d-38b811f20392',
  purchaseId: '8d065839-77c6-4f65-980b-dbb8a5eb2886',
  method: 'fpx',
  amount: 100,
  currency: 'MYR',
  // 2024-02-02T06:52:49Z, SAMPLE:07's fpx_sellerTxnTime.
  paidOn: 1706856769,
  buyerName: 'Test Buyer',
};

const SAMPLE = (JSON.parse(readFileSync(new URL('../platform-objects/purchase.settled.json', import.meta.url), 'utf8')) as { object: { transaction_data: { extra: { user_web_browser_data: object; webhook_payload: object } } } }).object
  .transaction_data.extra;

describe('the acquirer of a settled payment', () => {
  it('is fpx for both FPX methods, razer and mpgs for their families, the method itself otherwise', () => {
    expect(['fpx', 'fpx_b2b1', 'razer_grabpay', 'mpgs_apple_pay', 'visa', 'duitnow_qr'].map(acquirerName)).toEqual(['fpx', 'fpx', 'razer', 'mpgs', 'visa', 'duitnow_qr']);
  });

  it("terminal ids are FPX's EX and 8 digits or 8 digits, one per company and acquirer; transaction numbers 7 digits, one per purchase", () => {
    expect(terminalId(PAYMENT.companyId, 'fpx')).toMatch(/^EX\d{8}$/);
    expect(terminalId(PAYMENT.companyId, 'visa')).toMatch(/^\d{8}$/);
    expect(terminalId(PAYMENT.companyId, 'fpx')).toBe(terminalId(PAYMENT.companyId, 'fpx'));
    expect(terminalId(PAYMENT.companyId, 'fpx')).not.toBe(terminalId('6b042125-686a-43e0-8a68-23cf5bee102e', 'fpx'));
    expect(processingTxId(PAYMENT.purchaseId)).toMatch(/^[1-9]\d{6}$/);
    expect(processingTxId(PAYMENT.purchaseId)).not.toBe(processingTxId('3c90c3cc-0d44-4b50-8888-8dd25736052a'));
  });

  it("the attempt's pricing is SAMPLE:07's", () => {
    expect(attemptAcquirer(PAYMENT)).toMatchObject({ is_internal: false, markup_amount: 0, processing_fee: 0, pricing_details: 'ok', processing_status: '00', pricing_calculated: true, related_payment_id: null });
  });

  it("FPX's messages: SAMPLE:07's times for its instant, amounts in major units, B2B's message token 02", () => {
    const { user_web_browser_data: request, webhook_payload: answer } = fpxMessages(PAYMENT);
    expect(request).toMatchObject({ fpx_sellerTxnTime: '20240202065249', fpx_txnAmount: '1.00', fpx_msgToken: '01', fpx_sellerOrderNo: PAYMENT.purchaseId });
    expect(answer.fpx_fpxTxnTime).toEqual(['20240202145249']);
    expect(answer.fpx_fpxTxnId[0]).toMatch(/^240202145249\d{4}$/);
    // The keys of SAMPLE:07's messages, no more and no fewer.
    expect(Object.keys(request).sort()).toEqual(Object.keys(SAMPLE.user_web_browser_data).sort());
    expect(Object.keys(answer).sort()).toEqual(Object.keys(SAMPLE.webhook_payload).sort());
    expect(fpxMessages({ ...PAYMENT, method: 'fpx_b2b1' }).user_web_browser_data.fpx_msgToken).toBe('02');
    expect(fpxMessages({ ...PAYMENT, amount: 5 }).user_web_browser_data.fpx_txnAmount).toBe('0.05');
    expect(fpxMessages({ ...PAYMENT, amount: 123456 }).webhook_payload.fpx_txnAmount).toEqual(['1234.56']);
    expect(fpxMessages(PAYMENT)).toEqual(fpxMessages({ ...PAYMENT }));
  });
});
