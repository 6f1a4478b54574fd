// Why the simulated bank declines a payment: the platform's codes of `transaction_data.attempts[].error.code`.
// Source of the codes: the CHIP Go SDK, repository CHIPAsia/chip-go-sdk, file error.go (its `ErrorCode`
// constants). The SDK lists codes only; every message here is the simulator's own wording, one short
// sentence a tester can read, not the platform's text. Codes are kept exactly as the platform sends them,
// the SDK's spelling `valiadtion_expires_too_long` included.
//
// Order: the common reasons first, in the order the checkout page's select offers them; then the rest in
// error.go's order. openapi.yaml's `DeclineCode` enum lists the codes in this order (a test holds them
// equal), so an invalid_choice answer names the common ones first.

import { errors, fieldError } from './errors.ts';
import type { Attempt } from './types.ts';

interface DeclineReason {
  message: string;
  /** Offered by the checkout page's select (and the dashboard's): the declines a payer meets most. */
  common?: true;
}

export const DECLINE_REASONS = {
  insufficient_funds: { message: 'Insufficient funds.', common: true },
  expired_card: { message: 'The card has expired.', common: true },
  do_not_honour: { message: 'The issuer declined the payment (do not honour).', common: true },
  '3ds_authentication_failed': { message: '3D Secure authentication failed.', common: true },
  exceeds_withdrawal_limit: { message: 'The amount exceeds the card\'s withdrawal limit.', common: true },
  issuer_not_available: { message: 'The card issuer is not available.', common: true },
  lost_card: { message: 'The card was reported lost.', common: true },
  stolen_card: { message: 'The card was reported stolen.', common: true },
  restricted_card: { message: 'The card is restricted.', common: true },
  suspected_fraud: { message: 'Declined as suspected fraud.', common: true },
  timeout: { message: 'The payment timed out.', common: true },
  invalid_card_number: { message: 'The card number is invalid.', common: true },
  recurring_token_expired: { message: 'The saved card (recurring token) has expired.', common: true },
  unknown_payment_method: { message: 'The payment method is unknown.' },
  invalid_expires: { message: 'The card\'s expiry date is invalid.' },
  no_matching_terminal: { message: 'No terminal accepts this payment.' },
  blacklisted_tx: { message: 'The transaction is blacklisted.' },
  timeout_3ds_enrollment_check: { message: 'The 3D Secure enrolment check timed out.' },
  timeout_acquirer_status_check: { message: 'The acquirer\'s status check timed out.' },
  validation_card_details_missing: { message: 'Card details are missing.' },
  validation_cvc_not_provided: { message: 'The CVC was not given.' },
  validation_cardholder_name_not_provided: { message: 'The cardholder name was not given.' },
  validation_expires_not_provided: { message: 'The expiry date was not given.' },
  validation_cvc_too_long: { message: 'The CVC is too long.' },
  validation_cardholder_name_too_long: { message: 'The cardholder name is too long.' },
  validation_card_number_too_long: { message: 'The card number is too long.' },
  valiadtion_expires_too_long: { message: 'The expiry date is too long.' },
  validation_cvc_invalid: { message: 'The CVC is invalid.' },
  validation_cardholder_name_invalid: { message: 'The cardholder name is invalid.' },
  validation_card_number_invalid: { message: 'The card number is not valid.' },
  validation_expires_invalid: { message: 'The expiry date is not valid.' },
  acquirer_connection_error: { message: 'The acquirer could not be reached.' },
  blacklisted_tx_issuing_country: { message: 'Cards of this issuing country are blacklisted.' },
  s2s_not_supported: { message: 'Server-to-server payment is not supported.' },
  general_transaction_error: { message: 'The transaction failed.' },
  antifraud_general: { message: 'Declined by the anti-fraud check.' },
  acquirer_internal_error: { message: 'The acquirer had an internal error.' },
  exceeds_frequency_limit: { message: 'Too many payments with this card in a short time.' },
  purchase_already_paid_for: { message: 'The purchase is already paid.' },
  exceeded_account_limit: { message: 'The amount exceeds the account\'s limit.' },
  blacklisted_tx_risk_score: { message: 'Declined for its risk score.' },
  transaction_not_supported_or_not_valid_for_card: { message: 'The card does not support this transaction.' },
  exceeded_acquirer_refund_amount: { message: 'The refund exceeds what the acquirer allows.' },
  transaction_not_permitted_on_terminal: { message: 'The terminal does not permit this transaction.' },
  acquirer_configuration_error: { message: 'The acquirer is configured wrongly.' },
  transaction_not_permitted_to_cardholder: { message: 'The cardholder may not make this transaction.' },
  invalid_issuer_number: { message: 'The issuer number is invalid.' },
  merchant_response_timeout: { message: 'The merchant did not answer in time.' },
  reconcile_error: { message: 'The payment could not be reconciled.' },
  invalid_amount: { message: 'The amount is invalid.' },
  re_enter_transaction: { message: 'Enter the transaction again.' },
  security_violation: { message: 'Declined for a security violation.' },
  partial_forbidden: { message: 'A partial payment is not allowed.' },
  acquirer_routing_error: { message: 'The acquirer could not route the payment.' },
  payment_rejected_other_reason: { message: 'The payment was rejected for another reason.' },
  authorization_failed: { message: 'The authorisation failed.' },
  acquirer_error_cs: { message: 'The acquirer answered with an error.' },
  decline_irregular_transaction_pattern: { message: 'Declined for an irregular transaction pattern.' },
  invalid_card_data: { message: 'The card data is invalid.' },
  exceeded_terminal_limit: { message: 'The amount exceeds the terminal\'s limit.' },
  soft_decline_contact_support: { message: 'Soft decline: the payer should contact support.' },
  payment_method_details_missing: { message: 'Payment method details are missing.' },
  validation_phone_invalid: { message: 'The phone number is invalid.' },
  validation_address_invalid: { message: 'The address is invalid.' },
} as const satisfies Record<string, DeclineReason>;

export type DeclineCode = keyof typeof DECLINE_REASONS;

export const DECLINE_CODES = Object.keys(DECLINE_REASONS) as DeclineCode[];

/** The reasons the checkout page's select offers, in its order. */
export const COMMON_DECLINE_CODES: readonly DeclineCode[] = DECLINE_CODES.filter((code) => 'common' in DECLINE_REASONS[code]);

/** A decline without a reason given (`outcome: "failure"`, a `"failure"` in token_outcomes). */
export const DEFAULT_DECLINE_CODE: DeclineCode = 'insufficient_funds';

export const isDeclineCode = (value: unknown): value is DeclineCode => typeof value === 'string' && Object.hasOwn(DECLINE_REASONS, value);

/** The message of a code: "The card has expired." */
export const declineMessage = (code: DeclineCode): string => DECLINE_REASONS[code].message;

/**
 * The attempt's `error` of a decline with `code` (the default when undefined). A code that is not the
 * platform's → 400 on `decline_code`: the checkout page's form is not checked by the API's schema.
 */
export function declineError(code: unknown = DEFAULT_DECLINE_CODE): NonNullable<Attempt['error']> {
  if (!isDeclineCode(code)) throw fieldError('decline_code', errors.invalidChoice(code, DECLINE_CODES));
  return { code, message: declineMessage(code), description: `The simulated bank declined the payment (decline_code ${code}).` };
}
