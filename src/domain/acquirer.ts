// What the acquirer reported of a payment, as the platform shows it on a settled purchase (SAMPLE:07,
// the platform's purchase.settled: an FPX payment): the acquirer's name, the merchant's terminal and
// the acquirer's transaction number beside the transaction data, the same with the pricing of the
// attempt on the attempt that moved the money, and for FPX the bank messages of the payment (its
// `user_web_browser_data`, the AR message sent to the buyer's bank, and `webhook_payload`, the AC
// message the bank answered, each value in a one-element array as a parsed form has it).
// Simulated: made from the sandbox's company id, the purchase's id, amount and payment instant and the
// client's name, never from a clock or a random draw, so the same sandbox answers the same details.

import { mix32 } from './integer-hash.ts';

/** What the details follow from. */
export interface AcquiredPayment {
  /** The sandbox's company: the merchant, whose terminal it is. */
  companyId: string;
  purchaseId: string;
  /** The method of the attempt that moved the money (`fpx`, `visa`, …). */
  method: string;
  /** In minor units. */
  amount: number;
  currency: string;
  /** Unix seconds: when the payment was made (the purchase's `payment.paid_on`). */
  paidOn: number;
  buyerName: string;
}

/** A 32-bit hash of a text and a salt: FNV-1a over its UTF-16 units, then mixed (integer-hash.ts). */
export function hashText(text: string, salt = 0): number {
  let hash = 0x811c9dc5 ^ salt;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return mix32(hash >>> 0);
}

/** `count` decimal digits that follow from `text` and `salt` (leading zeros kept). */
function digits(text: string, salt: number, count: number): string {
  let out = '';
  for (let word = 0; out.length < count; word += 1) out += String(hashText(text, salt + word)).padStart(10, '0');
  return out.slice(0, count);
}

/** `count` upper-case hex digits that follow from `text` and `salt`. */
function hex(text: string, salt: number, count: number): string {
  let out = '';
  for (let word = 0; out.length < count; word += 1) out += hashText(text, salt + word).toString(16).padStart(8, '0');
  return out.slice(0, count).toUpperCase();
}

/** A version-4-shaped UUID that follows from `text`. */
function uuidOf(text: string): string {
  const h = hex(text, 0x75756964, 32).toLowerCase();
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** FPX, Malaysia's interbank payment network: the platform's `fpx` (retail banking) and `fpx_b2b1` (corporate). */
export const isFpx = (method: string): boolean => method === 'fpx' || method === 'fpx_b2b1';

/**
 * The acquirer's name: `fpx` for both FPX methods, as SAMPLE:07 names it; `razer` and `mpgs` for the
 * platform's razer_* and mpgs_* methods; any other method names itself (billing-sim's choice: the
 * platform publishes no settled payment of another method).
 */
export function acquirerName(method: string): string {
  if (isFpx(method)) return 'fpx';
  const family = /^(razer|mpgs)_/.exec(method);
  return family ? family[1]! : method;
}

/** The merchant's terminal at an acquirer: FPX's seller exchange id (`EX00016481`), else 8 digits. */
export function terminalId(companyId: string, acquirer: string): string {
  return (acquirer === 'fpx' ? 'EX' : '') + digits(`${companyId}/${acquirer}`, 0x7465726d, 8);
}

/** The platform's id of that terminal. */
export const terminalUid = (companyId: string, acquirer: string): string => uuidOf(`${companyId}/${acquirer}/terminal`);

/** The acquirer's number of the transaction (FPX's seller exchange order number, `1811645`): 7 digits, none leading 0. */
export function processingTxId(purchaseId: string): string {
  return String(1_000_000 + (hashText(purchaseId, 0x74786964) % 9_000_000));
}

/** What an acquirer reports beside a purchase's transaction data. */
export function transactionAcquirer(payment: AcquiredPayment) {
  const acquirer = acquirerName(payment.method);
  return {
    acquirer,
    terminal_id: terminalId(payment.companyId, acquirer),
    terminal_uid: terminalUid(payment.companyId, acquirer),
    processing_tx_id: processingTxId(payment.purchaseId),
  };
}

/**
 * What an acquirer reports on the attempt that moved the money: the transaction's fields, approved
 * (`processing_status` `00`, FPX's and ISO 8583's code of an approval), priced by the platform with
 * no markup or processing fee, an external acquirer's, and no related payment: as SAMPLE:07's attempt.
 */
export function attemptAcquirer(payment: AcquiredPayment) {
  return {
    ...transactionAcquirer(payment),
    is_internal: false,
    markup_amount: 0,
    processing_fee: 0,
    pricing_details: 'ok',
    processing_status: '00',
    pricing_calculated: true,
    related_payment_id: null,
  };
}

/** Where FPX's test environment receives the buyer's browser (SAMPLE:07's `client_redirect_url`). */
const FPX_RECEIVER = 'https://uat.mepsfpx.com.my/FPXMain/seller2DReceiver.jsp';
/** FPX's test bank (SAMPLE:07's buyer bank): the simulator's payer always chose it. */
const TEST_BANK = { id: 'TEST0021', branch: 'SBI BANK A' };
/** Malaysia's time (UTC+8, no daylight saving), in which FPX writes its own times. */
const MYT_OFFSET_S = 8 * 3600;

/** `yyyyMMddHHmmss` of Unix seconds shifted by `offset` seconds. */
const compactTime = (seconds: number, offset: number): string => new Date((seconds + offset) * 1000).toISOString().slice(0, 19).replace(/\D/g, '');

/** Minor units as FPX writes an amount: `1.00`. */
const majorUnits = (amount: number): string => `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}`;

/**
 * The FPX messages of a payment, in the `extra` of the attempt and of the transaction data: the AR
 * (authorisation request) the platform sent through the buyer's browser, and the bank's AC
 * (authorisation confirmation), with SAMPLE:07's keys. The seller's times are UTC, FPX's own
 * Malaysian, as SAMPLE:07's are; both are the payment's instant. The checksums are the length of an
 * RSA-2048 signature in hex, and sign nothing.
 */
export function fpxMessages(payment: AcquiredPayment) {
  const { acquirer, terminal_id: exchangeId, processing_tx_id: exchangeOrder } = transactionAcquirer(payment);
  const seed = `${payment.companyId}/${payment.purchaseId}`;
  const sellerId = `SE${digits(`${payment.companyId}/${acquirer}`, 0x73656c6c, 8)}`;
  const sellerTime = compactTime(payment.paidOn, 0);
  const fpxTime = compactTime(payment.paidOn, MYT_OFFSET_S);
  const msgToken = payment.method === 'fpx_b2b1' ? '02' : '01';
  const amount = majorUnits(payment.amount);
  const request = {
    fpx_buyerId: '',
    fpx_msgType: 'AR',
    fpx_version: '7.0',
    fpx_checkSum: hex(seed, 0x61720000, 512),
    fpx_ebuyerID: '',
    fpx_msgToken: msgToken,
    fpx_sellerId: sellerId,
    fpx_buyerIban: '',
    fpx_buyerName: payment.buyerName,
    fpx_makerName: '',
    fpx_txnAmount: amount,
    fpx_buyerAccNo: '',
    fpx_buyerEmail: '',
    fpx_sellerExId: exchangeId,
    fpx_buyerBankId: TEST_BANK.id,
    fpx_eaccountNum: '',
    fpx_productDesc: 'description',
    fpx_txnCurrency: payment.currency,
    fpx_sellerOrderNo: payment.purchaseId,
    fpx_sellerTxnTime: sellerTime,
    fpx_sellerBankCode: '01',
    client_redirect_url: FPX_RECEIVER,
    fpx_buyerBankBranch: '',
    fpx_sellerExOrderNo: exchangeOrder,
  };
  const answer = {
    fpx_msgType: ['AC'],
    fpx_checkSum: [hex(seed, 0x61630000, 512)],
    fpx_fpxTxnId: [fpxTime.slice(2) + digits(seed, 0x74786e00, 4)],
    fpx_msgToken: [msgToken],
    fpx_sellerId: [sellerId],
    fpx_buyerName: [payment.buyerName],
    fpx_makerName: [''],
    fpx_txnAmount: [amount],
    fpx_fpxTxnTime: [fpxTime],
    fpx_sellerExId: [exchangeId],
    fpx_buyerBankId: [TEST_BANK.id],
    fpx_debitAuthNo: [digits(seed, 0x64656200, 8)],
    fpx_txnCurrency: [payment.currency],
    fpx_creditAuthNo: [digits(seed, 0x63726500, 10)],
    fpx_debitAuthCode: ['00'],
    fpx_sellerOrderNo: [payment.purchaseId],
    fpx_sellerTxnTime: [sellerTime],
    fpx_creditAuthCode: ['00'],
    fpx_buyerBankBranch: [TEST_BANK.branch],
    fpx_sellerExOrderNo: [exchangeOrder],
  };
  return { webhook_payload: answer, user_web_browser_data: request };
}
