// The kill -9 trials' stream of writes (test/http/persistence-kill.test.ts): concurrent creates in
// two sandboxes, templates, new sandboxes, client updates and deletes, each noted in a ledger with
// its outcome, then checked against what a restarted server holds. A write is "acknowledged" when
// it was answered 2xx; one whose answer the kill cut off may or may not have been made.

import { expect } from 'vitest';
import type { Client, Template } from '../builders/engine.ts';
import { clientBody, subscriptionBody } from '../builders/templates.ts';
import { listAll, type Sim } from '../support/spawn-sim.ts';

/** Concurrent writers: enough that several writes are always in flight when the kill comes. */
const WRITERS = 8;
export const SANDBOX_NOW = '2026-01-30T12:00:00Z';

/** A small seeded generator (mulberry32): each trial kills at its own moment, the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A write whose answer was lost to the kill may or may not be in the file; an answered one must be. */
type Outcome = 'acknowledged' | 'unknown';

/** Every write sent over all trials, and what the file must therefore hold. */
export class Ledger {
  /** Created clients by email (unique per write), per sandbox token. */
  readonly clients = new Map<string, { token: string; id?: string; fullName: string; outcome: Outcome }>();
  readonly templates = new Map<string, { id?: string; outcome: Outcome }>();
  readonly sandboxes = new Map<string, { token: string }>();
  /** One PATCH or DELETE per client at most, so an unanswered one leaves two possible states. */
  readonly patched = new Map<string, { before: string; after: string; outcome: Outcome }>();
  readonly deleted = new Map<string, Outcome>();
  acknowledged = 0;

  /** Acknowledged clients of a sandbox that no PATCH or DELETE has touched: targets for those writes. */
  untouched(token: string): { id: string; fullName: string }[] {
    return [...this.clients.values()]
      .filter((c) => c.token === token && c.outcome === 'acknowledged' && !this.patched.has(c.id!) && !this.deleted.has(c.id!))
      .map((c) => ({ id: c.id!, fullName: c.fullName }));
  }
}

/** The writes of the mix, in turn: creates in two sandboxes, templates, sandboxes, updates and deletes. */
const MIX = ['client', 'template', 'client-b', 'patch', 'client', 'sandbox', 'delete', 'client'] as const;

interface Write {
  send(): Promise<{ status: number; body: unknown }>;
  /** Notes in the ledger what became of the write. */
  settle(outcome: Outcome, body?: unknown): void;
}

/** The n-th write of a trial; PATCH and DELETE take a client from `targets` (a client from before the trial). */
function planWrite(n: number, tag: string, sim: Sim, ledger: Ledger, tokenB: string, targets: { id: string; fullName: string }[]): Write {
  let kind: (typeof MIX)[number] = MIX[n % MIX.length]!;
  if ((kind === 'patch' || kind === 'delete') && targets.length === 0) kind = 'client';
  switch (kind) {
    case 'client':
    case 'client-b': {
      const token = kind === 'client' ? sim.token : tokenB;
      const email = `${tag}@example.com`;
      const fullName = `Client ${tag}`;
      return {
        send: () => sim.request('POST', '/api/v1/clients/', { token, body: clientBody({ email, full_name: fullName }) }),
        settle: (outcome, body) => ledger.clients.set(email, { token, id: (body as Client | undefined)?.id, fullName, outcome }),
      };
    }
    case 'template': {
      const title = `Plan ${tag}`;
      return {
        send: () => sim.request('POST', '/api/v1/billing_templates/', { body: subscriptionBody(sim.brandId, { title }) }),
        settle: (outcome, body) => ledger.templates.set(title, { id: (body as Template | undefined)?.id, outcome }),
      };
    }
    case 'sandbox':
      return {
        send: () => sim.request('POST', '/sim/v1/sandboxes', { token: null, body: { now: SANDBOX_NOW } }),
        settle: (outcome, body) => {
          const created = body as { id: string; token: string } | undefined;
          if (outcome === 'acknowledged') ledger.sandboxes.set(created!.id, { token: created!.token });
        },
      };
    case 'patch': {
      const { id, fullName } = targets.pop()!;
      const after = `Patched ${tag}`;
      ledger.patched.set(id, { before: fullName, after, outcome: 'unknown' });
      return {
        send: () => sim.request('PATCH', `/api/v1/clients/${id}/`, { body: { full_name: after } }),
        settle: (outcome) => (ledger.patched.get(id)!.outcome = outcome),
      };
    }
    case 'delete': {
      const { id } = targets.pop()!;
      ledger.deleted.set(id, 'unknown');
      return { send: () => sim.request('DELETE', `/api/v1/clients/${id}/`), settle: (outcome) => ledger.deleted.set(id, outcome) };
    }
  }
}

/**
 * Sends the MIX from WRITERS concurrent writers and kills the server (SIGKILL) with writes in
 * flight: in even trials right after a random number of answers, in odd ones after a random delay,
 * which may fall inside a commit. Notes every write and its outcome in the ledger; an answer other
 * than a 2xx, or a connection that fails before the kill, fails the test.
 */
export async function stream(sim: Sim, ledger: Ledger, tokenB: string, trial: number) {
  const next = random(trial + 1);
  const killAfterAnswers = trial % 2 === 0 ? 3 + Math.floor(next() * 60) : Infinity;
  const killAfterMs = trial % 2 === 1 ? 5 + Math.floor(next() * 150) : 10_000;
  const targets = ledger.untouched(sim.token);
  const unexpected: string[] = [];
  let sent = 0;
  let answered = 0;
  let inFlight = 0;
  let inFlightAtKill = -1;
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    inFlightAtKill = inFlight;
    process.kill(sim.pid, 'SIGKILL');
  };
  const timer = setTimeout(kill, killAfterMs);

  const writer = async () => {
    // Bounded: the kill comes after at most 63 answers or 155 ms, far below 200 writes a writer.
    for (let i = 0; i < 200 && !killed; i += 1) {
      const n = (sent += 1);
      const tag = `t${trial}-${n}`;
      const write = planWrite(n, tag, sim, ledger, tokenB, targets);
      inFlight += 1;
      try {
        const call = await write.send();
        inFlight -= 1;
        answered += 1;
        if (call.status >= 300) unexpected.push(`${tag}: ${call.status} ${JSON.stringify(call.body)}`);
        else {
          write.settle('acknowledged', call.body);
          ledger.acknowledged += 1;
        }
        if (answered >= killAfterAnswers) kill();
      } catch (error) {
        inFlight -= 1;
        if (!killed) unexpected.push(`${tag}: ${(error as Error).message}`);
        write.settle('unknown');
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  clearTimeout(timer);
  expect((await sim.exited).signal).toBe('SIGKILL');
  expect(unexpected).toEqual([]);
  expect(inFlightAtKill, `trial ${trial}: writes in flight at the kill`).toBeGreaterThan(0);
}

/**
 * Checks the file as a new process serves it against the ledger: every acknowledged write there,
 * nothing twice, unanswered writes either made or not. Returns how many acknowledged writes it checked.
 */
export async function verify(sim: Sim, ledger: Ledger, tokenB: string): Promise<number> {
  let checked = 0;
  const byEmail = new Map<string, Client>();
  for (const token of [sim.token, tokenB]) {
    const clients = await listAll<Client>(sim.origin, token, '/api/v1/clients/');
    // No duplicate: every email was sent once, so one seen twice is a write applied twice.
    expect(new Set(clients.map((c) => c.id)).size).toBe(clients.length);
    for (const client of clients) {
      expect(byEmail.has(client.email), `duplicate client ${client.email}`).toBe(false);
      byEmail.set(client.email, client);
    }
  }
  for (const [email, sent] of ledger.clients) {
    if (sent.outcome !== 'acknowledged') continue;
    const found = byEmail.get(email);
    const deleted = ledger.deleted.get(sent.id!);
    if (deleted === 'acknowledged') expect(found, `deleted client ${email} is back`).toBeUndefined();
    // After an unanswered DELETE the client may be gone, but not changed into another.
    else if (deleted === 'unknown') expect([undefined, sent.id]).toContain(found?.id);
    else expect(found?.id, `acknowledged client ${email}`).toBe(sent.id);
    // The create and, if answered, the DELETE; a create whose DELETE went unanswered cannot be told.
    if (deleted !== 'unknown') checked += deleted === 'acknowledged' ? 2 : 1;
  }
  const byId = new Map([...byEmail.values()].map((c) => [c.id, c]));
  for (const [id, patch] of ledger.patched) {
    const client = byId.get(id);
    if (patch.outcome === 'acknowledged') {
      expect(client?.full_name, `patched client ${id}`).toBe(patch.after);
      checked += 1;
    } else {
      // Unanswered: the file has the client as it was, or as patched, nothing else.
      expect([patch.before, patch.after], `client ${id} after an unanswered PATCH`).toContain(client?.full_name);
    }
  }
  const templates = await listAll<Template>(sim.origin, sim.token, '/api/v1/billing_templates/');
  expect(new Set(templates.map((t) => t.title)).size, 'duplicate template').toBe(templates.length);
  const templateIds = new Map(templates.map((t) => [t.title as string, t.id]));
  for (const [title, sent] of ledger.templates) {
    if (sent.outcome !== 'acknowledged') continue;
    expect(templateIds.get(title), `acknowledged template ${title}`).toBe(sent.id);
    checked += 1;
  }
  // Asked all at once (one after another, some 40 round trips by the last trial), checked in order.
  const clocks = await Promise.all([...ledger.sandboxes].map(async ([id, { token }]) => [id, await sim.request('GET', '/sim/v1/clock', { token })] as const));
  for (const [id, clock] of clocks) {
    expect(clock.status, `acknowledged sandbox ${id}`).toBe(200);
    expect(Date.parse((clock.body as { now: string }).now)).toBe(Date.parse(SANDBOX_NOW));
    checked += 1;
  }
  return checked;
}
