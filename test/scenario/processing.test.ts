// DESIGN.md §14 in a scenario file: a request step sets the sandbox's processing (PUT /sim/v1/processing), so a
// QA scenario replays a capture that stays pending for an hour and a payment settled the next day.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, runCli } from '../support/spawn-sim.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-scenario-processing-'));
afterAll(async () => {
  await killSpawned();
  rmSync(dir, { recursive: true, force: true });
});

const SCENARIO = `name: A slow capture, settled the next day
sandbox: {now: 2028-02-28T22:00:00Z}
steps:
  - request: {method: PUT, path: /sim/v1/processing, body: {delay: PT1H, settlement: P1D}}
  - request: {method: POST, path: /api/v1/clients/, body: {email: ada@example.com}}
    save: {client: id}
  - request:
      method: POST
      path: /api/v1/purchases/
      body: {brand_id: "\${brand_id}", client_id: "\${client}", skip_capture: true, purchase: {currency: EUR, products: [{name: Ticket, price: 1500}]}}
    save: {held: id}
  - pay: {purchase: "\${held}"}
  - expect: {fields: {status: hold}}
  - request: {method: POST, path: "/api/v1/purchases/\${held}/capture/", body: {}}
  - expect: {fields: {status: pending_capture}}
  - advance: {by: PT1H}
  - expect:
      get: /api/v1/purchases/\${held}/
      fields: {status: paid}
  - note: captured at 23:00 on February 28 of a leap year, settled a day later, on February 29
    advance: {to: 2028-02-29T23:00:00Z}
  - expect: {count: events, type: purchase.settled, object: "\${held}", is: 1}
  - expect:
      get: /api/v1/purchases/\${held}/
      fields: {status: paid, transaction_data.extra.settlement.settled_on: 1835478000}
`;

describe('a scenario that sets the processing', () => {
  it('holds a capture pending for the delay and settles the payment a day later', async () => {
    const file = join(dir, 'processing.yaml');
    writeFileSync(file, SCENARIO);
    const run = await runCli(['scenario', 'run', file], 60_000);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('1 scenario(s): 1 passed, 0 failed');
  }, 90_000);
});
