// Resolves the target once for the whole run. With CONTRACT_BASE_URL it is the given server;
// without, the simulator is started through its programmatic API (the package's entry, src/index,
// never its other modules) and a fresh sandbox is made for each account.

import type { TestProject } from 'vitest/node';
import type { Capabilities, TargetConfig } from './lib/config.ts';

const NONE: Capabilities = { clock: false, payments: false, events: false };

async function discover(origin: string, token: string): Promise<Capabilities> {
  try {
    const res = await fetch(`${origin}/sim/v1/capabilities`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) return NONE;
    const body = (await res.json()) as Partial<Capabilities>;
    return { clock: body.clock === true, payments: body.payments === true, events: body.events === true };
  } catch {
    return NONE;
  }
}

async function newSandbox(origin: string): Promise<string> {
  const res = await fetch(`${origin}/sim/v1/sandboxes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fixtures: true }),
  });
  if (res.status !== 201) throw new Error(`could not create a sandbox on the simulator: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let stop = async () => {};
  let baseUrl = process.env.CONTRACT_BASE_URL?.replace(/\/+$/, '') ?? '';
  let token = process.env.CONTRACT_TOKEN ?? '';
  let token2 = process.env.CONTRACT_TOKEN2 ?? '';
  const selfHosted = baseUrl === '';
  if (selfHosted) {
    const { startSimulator } = await import('../src/index.ts');
    const sim = await startSimulator({ port: 0, quiet: true });
    stop = () => sim.stop();
    baseUrl = sim.apiUrl;
    token = await newSandbox(sim.url);
    token2 = await newSandbox(sim.url);
  }
  if (!token) throw new Error('CONTRACT_TOKEN (--token) is required with a base URL');
  const origin = new URL(baseUrl).origin;
  const target: TargetConfig = { baseUrl, origin, token, token2, capabilities: await discover(origin, token), selfHosted };
  project.provide('target', target);
  return stop;
}
