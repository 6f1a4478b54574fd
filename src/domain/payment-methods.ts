// The payment methods the simulator offers (GET /payment_methods/). Names are what
// payment_method_whitelist accepts; `recurring` tells whether a payment can save a token.

export interface PaymentMethod {
  name: string;
  displayName: string;
  recurring: boolean;
}

export const PAYMENT_METHODS: readonly PaymentMethod[] = [
  { name: 'visa', displayName: 'Visa', recurring: true },
  { name: 'mastercard', displayName: 'Mastercard', recurring: true },
  { name: 'maestro', displayName: 'Maestro', recurring: true },
  { name: 'direct_debit', displayName: 'Direct debit', recurring: true },
  { name: 'bank_transfer', displayName: 'Bank transfer', recurring: false },
];

export function paymentMethodsBody() {
  return {
    available_payment_methods: PAYMENT_METHODS.map((method) => method.name),
    names: Object.fromEntries(PAYMENT_METHODS.map((method) => [method.name, method.displayName])),
    supports_recurring: PAYMENT_METHODS.filter((method) => method.recurring).map((method) => method.name),
  };
}
