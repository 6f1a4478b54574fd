// `billing-sim serve --strict` and BILLING_SIM_STRICT=1, run as a user runs them (the compiled CLI):
// every sandbox refuses an /api/v1 body field the operation does not define, which a server started
// without them ignores and names (DESIGN.md §14, docs/cli.md "serve").

import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnSim } from '../support/spawn-sim.ts';

afterAll(() => killSpawned());

const misspelt = { email: 'typo@example.com', emial: 'typo@example.com' };

describe('serve --strict', () => {
  it.each([
    ['--strict', { args: ['--port', '0', '--quiet', '--strict'] }],
    ['BILLING_SIM_STRICT=1', { args: ['--port', '0', '--quiet'], env: { BILLING_SIM_STRICT: '1' } }],
  ])('%s: the default sandbox and a new one answer an unknown field 400 unknown_field', async (_how, options) => {
    const sim = await spawnSim(options);
    const refused = await sim.request('POST', '/api/v1/clients/', { body: misspelt });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ emial: [expect.objectContaining({ code: 'unknown_field' })] });
    const created = (await sim.request('POST', '/sim/v1/sandboxes', { token: null, body: {} })).body as { token: string };
    expect((await sim.request('POST', '/api/v1/clients/', { token: created.token, body: misspelt })).status).toBe(400);
    await sim.kill('SIGTERM');
  });

  it('without it the field is ignored and named in Billing-Sim-Ignored', async () => {
    const sim = await spawnSim({ args: ['--port', '0', '--quiet'] });
    const created = await sim.request('POST', '/api/v1/clients/', { body: misspelt });
    expect(created.status).toBe(201);
    expect(created.headers['billing-sim-ignored']).toBe('emial');
    await sim.kill('SIGTERM');
  });
});
