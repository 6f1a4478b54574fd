// The Node recipe of docs/containers.md ("Testcontainers"), run as a user runs it: testcontainers-node starts the
// image, waits for GET /healthz, and the test takes a sandbox of its own. Not part of `npm test`: it needs the built
// image and a Docker-compatible API, which scripts/container-test.sh provides (podman's socket) and then runs it
// with vitest.container.config.ts, naming the image in BILLING_SIM_IMAGE.

import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const image = process.env.BILLING_SIM_IMAGE;
if (!image) throw new Error('BILLING_SIM_IMAGE names the image to start (scripts/container-test.sh sets it)');

let sim: StartedTestContainer;
let origin: string;

beforeAll(async () => {
  sim = await new GenericContainer(image).withExposedPorts(4010).withWaitStrategy(Wait.forHttp('/healthz', 4010)).start();
  origin = `http://${sim.getHost()}:${sim.getMappedPort(4010)}`;
}, 60_000);
afterAll(async () => {
  await sim?.stop();
});

describe('Testcontainers (Node): a generic container with a wait on /healthz', () => {
  it('answers /healthz on its mapped port, gives a sandbox of its own, and takes a client with that token', async () => {
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    const sandbox = await fetch(`${origin}/sim/v1/sandboxes`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(sandbox.status).toBe(201);
    const { token, brand_id: brandId } = (await sandbox.json()) as { token: string; brand_id: string };
    expect(brandId).toMatch(/^[0-9a-f-]{36}$/);
    const client = await fetch(`${origin}/api/v1/clients/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'container@example.com' }),
    });
    expect(client.status).toBe(201);
    const listed = await fetch(`${origin}/api/v1/clients/`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await listed.json()) as { results: { email: string }[] }).results.map((c) => c.email)).toEqual(['container@example.com']);
  });
});
