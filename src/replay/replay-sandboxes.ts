// The sandboxes a replay sends to, found by the recorded token's pseudonym (`Bearer scrubbed-token-2`),
// and their clocks.
//
// - A pseudonym that a recorded `POST /sim/v1/sandboxes` answered (as its `token`) is the sandbox the
//   replay of that request made.
// - Every other one, and a request with a pseudonym never seen, goes to the main sandbox: the one of
//   `--token`, else one made for the replay when the first request needs it (frozen, its clock at that
//   request's recorded instant). A recording that makes its own sandbox first then makes no other.
// - A sandbox's `now` is read off each of its answers (`Billing-Sim-Clock`), so it is always the
//   simulator's, never a guess.

import { CLOCK_HEADER } from '../recording/exchanges.ts';
import { ReplayError, sendJson, type SimAnswer } from './replay-http.ts';

export interface ReplaySandbox {
  id: string;
  token: string;
  brandId: string;
  /** The sandbox's clock, ms since the epoch, as its last answer said. */
  now: number;
}

const pseudonymOf = (authorization: string | undefined): string | undefined => /^Bearer\s+(\S+)/i.exec(authorization ?? '')?.[1];

function sandboxOf(answer: SimAnswer): ReplaySandbox {
  const made = answer.body as { id: string; token: string; brand_id: string; clock: { now: string } };
  return { id: made.id, token: made.token, brandId: made.brand_id, now: Date.parse(made.clock.now) };
}

export class Sandboxes {
  private readonly byPseudonym = new Map<string, ReplaySandbox>();
  /** The sandbox the recording's first request with a token went to: the one to look at afterwards. */
  first?: ReplaySandbox;

  private constructor(
    readonly origin: string,
    private main?: ReplaySandbox,
  ) {}

  /** Checks that `origin` is a simulator (and `token` one of its sandboxes') before anything is sent. */
  static async open(origin: string, token?: string): Promise<Sandboxes> {
    if (token === undefined) {
      // A simulator's control API asks for a token (401); another server has none (404).
      const answer = await sendJson(origin, 'GET', '/sim/v1/capabilities', undefined);
      if (answer.status !== 401 && answer.status !== 200) throw new ReplayError(`${origin} has no simulator control API (GET /sim/v1/capabilities answered ${answer.status}): a replay needs billing-sim`);
      return new Sandboxes(origin);
    }
    const answer = await sendJson(origin, 'GET', '/sim/v1/sandbox', token);
    if (answer.status === 401) throw new ReplayError(`${origin} refuses the token (GET /sim/v1/sandbox answered 401)`);
    if (answer.status !== 200) throw new ReplayError(`${origin} cannot replay: GET /sim/v1/sandbox answered ${answer.status}`);
    const sandbox = answer.body as { id: string; brand_id: string; clock: { now: string } };
    return new Sandboxes(origin, { id: sandbox.id, token, brandId: sandbox.brand_id, now: Date.parse(sandbox.clock.now) });
  }

  /** Sends a sandbox creation; its answer's sandbox is the one of `pseudonym` (the recorded answer's token) from then on. */
  async create(body: unknown, pseudonym?: string): Promise<SimAnswer> {
    const answer = await sendJson(this.origin, 'POST', '/sim/v1/sandboxes', undefined, body);
    if (answer.status === 201 && pseudonym !== undefined) this.byPseudonym.set(pseudonym, sandboxOf(answer));
    return answer;
  }

  /** The sandbox of a recorded Authorization header; none without one. `instant` starts a main sandbox made now. */
  async of(authorization: string | undefined, instant: number): Promise<ReplaySandbox | undefined> {
    const pseudonym = pseudonymOf(authorization);
    if (pseudonym === undefined) return undefined;
    const sandbox = this.byPseudonym.get(pseudonym) ?? (await this.mainSandbox(instant));
    this.first ??= sandbox;
    return sandbox;
  }

  async mainSandbox(instant: number): Promise<ReplaySandbox> {
    if (this.main) return this.main;
    const body = { frozen: true, ...(Number.isFinite(instant) ? { now: new Date(instant).toISOString() } : {}) };
    const answer = await sendJson(this.origin, 'POST', '/sim/v1/sandboxes', undefined, body);
    if (answer.status !== 201) throw new ReplayError(`${this.origin} made no sandbox: POST /sim/v1/sandboxes answered ${answer.status} ${answer.text.slice(0, 300)}`);
    this.main = sandboxOf(answer);
    return this.main;
  }

  /** Keeps the sandbox's clock as its answer says it is. */
  static noteClock(sandbox: ReplaySandbox, answer: SimAnswer): void {
    const now = Date.parse(answer.headers.get(CLOCK_HEADER) ?? '');
    if (Number.isFinite(now)) sandbox.now = now;
  }

  /**
   * Moves the sandbox's clock to `instant` when that is later than its now: time travel instead of
   * the waiting the recording did, running every billing due in between. Resolves to a failure's text.
   */
  async moveTo(sandbox: ReplaySandbox, instant: number): Promise<string | undefined> {
    if (!Number.isFinite(instant) || instant <= sandbox.now) return undefined;
    const to = new Date(instant).toISOString();
    const answer = await sendJson(this.origin, 'POST', '/sim/v1/clock/advance', sandbox.token, { to });
    Sandboxes.noteClock(sandbox, answer);
    return answer.status === 200 ? undefined : `advancing the clock to ${to} answered ${answer.status} ${answer.text.slice(0, 300)}`;
  }
}
