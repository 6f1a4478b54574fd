// DESIGN.md §10 and §13 in a scenario file: a `pay` step takes `decline_code` (with `outcome: failure`)
// and decline codes inside `token_outcomes`, and a later step finds the code in the attempt's error.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, runCli } from '../support/spawn-sim.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-scenario-declines-'));
afterAll(async () => {
  await killSpawned();
  rmSync(dir, { recursive: true, force: true });
});

const SCENARIO = `name: Decline reasons
sandbox: {now: 2028-01-31T09:00:00Z}
steps:
  - request: {method: POST, path: /api/v1/clients/, body: {email: ada@example.com}}
    save: {client: id}
  - request:
      method: POST
      path: /api/v1/purchases/
      body: {brand_id: "\${brand_id}", client_id: "\${client}", purchase: {currency: EUR, products: [{name: Ticket, price: 1500}]}}
    save: {declined: id}
  - pay: {purchase: "\${declined}", outcome: failure, decline_code: expired_card}
  - expect: {fields: {status: error, transaction_data.attempts.0.error: {code: expired_card, message: The card has expired.}}}
  - expect: {count: events, type: purchase.payment_failure, object: "\${declined}", is: 1}
  - note: paid again with the card saved; its next charge is declined with do_not_honour, then every one goes through
    pay: {purchase: "\${declined}", save_token: true, token_outcomes: [do_not_honour, success]}
  - request:
      method: POST
      path: /api/v1/purchases/
      body: {brand_id: "\${brand_id}", client_id: "\${client}", purchase: {currency: EUR, products: [{name: Ticket, price: 1500}]}}
    save: {charged: id}
  - request: {method: POST, path: "/api/v1/purchases/\${charged}/charge/", body: {recurring_token: "\${declined}"}}
    expect_status: 400
  - expect:
      get: /api/v1/purchases/\${charged}/
      fields: {transaction_data.attempts.0.error.code: do_not_honour}
  - request: {method: POST, path: "/api/v1/purchases/\${charged}/charge/", body: {recurring_token: "\${declined}"}}
  - expect: {fields: {status: paid}}
`;

describe('a scenario pay step with decline_code', () => {
  it('declines with that code, and a decline code in token_outcomes declines the next charge with it', async () => {
    const file = join(dir, 'declines.yaml');
    writeFileSync(file, SCENARIO);
    const run = await runCli(['scenario', 'run', file], 60_000);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('1 scenario(s): 1 passed, 0 failed');
  }, 90_000);
});
