// /api/v1/payment_methods/: the methods a brand of the sandbox offers, in the platform's shape.

import { listPaymentMethods } from '../../domain/payment-methods.ts';
import { ok, type SandboxHandler } from '../handler.ts';

export const paymentMethodHandlers: Record<string, SandboxHandler> = {
  listPaymentMethods: ({ sandbox, query }) => ok(listPaymentMethods(query, sandbox.brands.map((brand) => brand.id))),
};
