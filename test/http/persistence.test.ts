// --data FILE: every sandbox survives a restart, with its objects, clock and token.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function call(url: string, method: string, token: string | null, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('persistence to a data file', () => {
  it('keeps the default sandbox, created sandboxes, their objects and clocks across a restart', async () => {
    const file = join(dir, 'state.db');
    const first = await startSimulator({ port: 0, quiet: true, dataFile: file });
    const client = await call(`${first.apiUrl}/clients/`, 'POST', first.token, { email: 'kept@example.com' });
    const sandbox = await call(`${first.url}/sim/v1/sandboxes`, 'POST', null, { now: '2028-02-29T10:00:00Z' });
    const token2 = sandbox.body.token as string;
    await call(`${first.apiUrl}/clients/`, 'POST', token2, { email: 'other@example.com' });
    await first.stop();

    const second = await startSimulator({ port: 0, quiet: true, dataFile: file });
    try {
      expect(second.token).toBe(first.token);
      const kept = await call(`${second.apiUrl}/clients/${client.body.id}/`, 'GET', second.token);
      expect(kept.body.email).toBe('kept@example.com');
      const clock = await call(`${second.url}/sim/v1/clock`, 'GET', token2);
      expect(clock.body).toEqual({ now: '2028-02-29T10:00:00.000Z', frozen: true });
      const others = await call(`${second.apiUrl}/clients/`, 'GET', token2);
      expect((others.body.results as { email: string }[]).map((c) => c.email)).toEqual(['other@example.com']);
    } finally {
      await second.stop();
    }
  });

  it('without --data, a restart forgets created sandboxes: their tokens get a 401', async () => {
    const first = await startSimulator({ port: 0, quiet: true });
    const sandbox = await call(`${first.url}/sim/v1/sandboxes`, 'POST', null, {});
    await first.stop();
    const second = await startSimulator({ port: 0, quiet: true });
    try {
      expect((await call(`${second.apiUrl}/clients/`, 'GET', sandbox.body.token as string)).status).toBe(401);
    } finally {
      await second.stop();
    }
  });
});
