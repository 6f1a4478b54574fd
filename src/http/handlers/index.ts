// The handler of each operationId of openapi.yaml. An operation the document describes but the
// simulator does not simulate yet answers 501 `not_implemented`, and /sim/v1/capabilities says so.

import { ok, type PublicHandler, type SandboxHandler } from '../handler.ts';
import { billingHandlers } from './billing.ts';
import { checkpointHandlers } from './checkpoints.ts';
import { billingTemplateHandlers } from './billing-templates.ts';
import { clientHandlers } from './clients.ts';
import { companyStatementHandlers } from './company-statements.ts';
import { paymentMethodHandlers } from './payment-methods.ts';
import { purchaseHandlers } from './purchases.ts';
import { recurringTokenHandlers } from './recurring-tokens.ts';
import { capabilities, publicSimulatorHandlers, simulatorHandlers } from './simulator.ts';
import { subscriberHandlers } from './subscribers.ts';
import { webhookHandlers } from './webhooks.ts';
import { upgradeSnapshotDocument } from '../../store/upgrade.ts';

export const publicHandlers: Record<string, PublicHandler> = publicSimulatorHandlers;

/** A snapshot of format 1 (billing-sim 0.1) is upgraded before the body is validated, so it still imports. */
export const bodyUpgrades: Record<string, (body: unknown) => void> = {
  createSandbox: (body) => upgradeSnapshotDocument((body as { snapshot?: unknown } | null)?.snapshot),
};

export const sandboxHandlers: Record<string, SandboxHandler> = {
  ...clientHandlers,
  ...billingTemplateHandlers,
  ...billingHandlers,
  ...subscriberHandlers,
  ...purchaseHandlers,
  ...recurringTokenHandlers,
  ...webhookHandlers,
  ...companyStatementHandlers,
  ...paymentMethodHandlers,
  ...simulatorHandlers,
  ...checkpointHandlers,
  getCapabilities: () => ok(capabilities((operationId) => operationId in sandboxHandlers)),
};
