// The handler of each operationId of openapi.yaml. An operation the document describes but the
// simulator does not simulate yet answers 501 `not_implemented`, and /sim/v1/capabilities says so.

import { paymentMethodsBody } from '../../domain/payment-methods.ts';
import { ok, type PublicHandler, type SandboxHandler } from '../handler.ts';
import { billingTemplateHandlers } from './billing-templates.ts';
import { clientHandlers } from './clients.ts';
import { purchaseHandlers } from './purchases.ts';
import { recurringTokenHandlers } from './recurring-tokens.ts';
import { capabilities, publicSimulatorHandlers, simulatorHandlers } from './simulator.ts';
import { subscriberHandlers } from './subscribers.ts';
import { webhookHandlers } from './webhooks.ts';

export const publicHandlers: Record<string, PublicHandler> = publicSimulatorHandlers;

export const sandboxHandlers: Record<string, SandboxHandler> = {
  ...clientHandlers,
  ...billingTemplateHandlers,
  ...subscriberHandlers,
  ...purchaseHandlers,
  ...recurringTokenHandlers,
  ...webhookHandlers,
  ...simulatorHandlers,
  listPaymentMethods: () => ok(paymentMethodsBody()),
  getCapabilities: () => ok(capabilities((operationId) => operationId in sandboxHandlers)),
};
