// `billing-sim replay`: a recording sent again, exchange by exchange in the file's order, to a
// simulator, and each answer compared with the recorded one (compare.ts). The room's one door for
// the CLI and the dashboard.
//
// Before each exchange:
// - its sandbox's clock moves to the exchange's recorded instant when that is later (time travel in
//   place of the waiting: every billing due in between runs). A recording made in front of a
//   simulator has the sandbox's own clock on each answer (`Billing-Sim-Clock`); only those instants
//   move the clock then, since a `Date` header there is the wall's, another timeline. Requests that
//   move the clock themselves (`/sim/v1/clock…`, a checkpoint restored) are replayed as recorded,
//   without moving it first: their recorded instant is where they took it;
// - what the payer did outside the API that the exchange's answer is the first to show
//   (outside-steps.ts) is done through the simulator: a view opens the purchase's checkout_url, a
//   payment goes through POST /sim/v1/purchases/{id}/pay.
// Skipped, with the reason: an exchange without an answer, a CORS preflight, and anything outside
// /api/v1 and /sim/v1 (checkout pages, assets; a Direct Post form to a checkout URL included: its
// result is replayed as a pay step, since outsideSteps reads only the API's answers).
// A recorded `POST /sim/v1/sandboxes` is replayed with its body as recorded (its `now` the recorded
// answer's when the request had none), and its answered token's pseudonym names the new sandbox.

import { buildRouteTable, type RouteTable } from '../contract/routes.ts';
import { loadSpec } from '../contract/spec.ts';
import { compareAnswers, Differences, type Difference } from './compare.ts';
import { CLOCK_HEADER, exchangesOf, type RecordedExchange } from '../recording/exchanges.ts';
import type { Har } from '../recording/har-file.ts';
import { IdMap } from './id-map.ts';
import { outsideSteps, type OutsideStep } from '../recording/outside-steps.ts';
import { send, sendJson, type SimAnswer } from './replay-http.ts';
import { Sandboxes, type ReplaySandbox } from './replay-sandboxes.ts';
import { EXISTED_BEFORE, isAccountValue } from './unknowable.ts';

export type { Difference } from './compare.ts';
export { ReplayError } from './replay-http.ts';

export interface ReplayOptions {
  har: Har;
  /** The simulator's origin (`http://127.0.0.1:4010`). */
  origin: string;
  /** A sandbox's token to replay in, instead of a new sandbox. */
  token?: string;
  log?: (line: string) => void;
}

export interface ReplayResult {
  /** The sandbox the recording's first request with a token went to: its end state is the recording's. */
  sandbox: { id: string; token: string };
  exchanges: number;
  replayed: number;
  skipped: { index: number; why: string }[];
  drift: Difference[];
  unknowable: Difference[];
  /** billing-sim's own differences, documented in docs/fidelity.md: listed, not drift. */
  documented: Difference[];
  /** Each operation replayed (see operationOf) with its exchanges: a JUnit report's test cases. */
  operations: Record<string, number[]>;
}

const API = /^\/(api|sim)\/v1\//;
/** Requests that set the clock themselves: replayed as recorded, the clock not moved before them. */
const SETS_CLOCK = /^\/sim\/v1\/(clock(\/|$)|checkpoints\/[^/]+\/restore)/;
const SANDBOX_CREATION = /^\/sim\/v1\/sandboxes\/?$/;

let routes: RouteTable | undefined;

/** The operationId of openapi.yaml the request is, else `METHOD /path/{id}/`. */
function operationOf(exchange: RecordedExchange): string {
  routes ??= buildRouteTable(loadSpec());
  const match = routes.match(exchange.method, exchange.path);
  return match.kind === 'operation' ? match.operation.operationId : `${exchange.method} ${exchange.path.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/gi, '{id}')}`;
}

function skipReason(exchange: RecordedExchange): string | undefined {
  if (exchange.status === 0) return 'no answer was recorded (the upstream failed, or the client went away)';
  if (exchange.method === 'OPTIONS') return "a CORS preflight: the browser's question, not the client's request";
  if (!API.test(exchange.path)) return 'not the API (a checkout page or an asset): what the payer did there is replayed from the answers that show it';
  return undefined;
}

export async function replayRecording(options: ReplayOptions): Promise<ReplayResult> {
  const log = options.log ?? (() => undefined);
  const origin = new URL(options.origin).origin;
  const all = exchangesOf(options.har);
  const sandboxes = await Sandboxes.open(origin, options.token);
  const skipped = all.flatMap((exchange) => {
    const why = skipReason(exchange);
    return why ? [{ index: exchange.index, why }] : [];
  });
  const exchanges = all.filter((exchange) => skipReason(exchange) === undefined);
  const steps = new Map<number, OutsideStep[]>();
  for (const step of outsideSteps(exchanges)) steps.set(step.before, [...(steps.get(step.before) ?? []), step]);
  // Recorded in front of a simulator: its sandboxes' clocks, not the wall's (see the header).
  const simulated = exchanges.some((exchange) => exchange.responseHeaders[CLOCK_HEADER] !== undefined);
  const instantOf = (exchange: RecordedExchange) => (simulated ? Date.parse(exchange.responseHeaders[CLOCK_HEADER] ?? '') : exchange.instant);
  const ids = new IdMap();
  const differences = new Differences();
  const operations: Record<string, number[]> = {};
  for (const exchange of exchanges) {
    let answer: SimAnswer;
    let sandbox: ReplaySandbox | undefined;
    if (exchange.method === 'POST' && SANDBOX_CREATION.test(exchange.path)) {
      answer = await sandboxes.create(creationBody(exchange), (exchange.responseBody as { token?: string } | undefined)?.token);
    } else {
      sandbox = await sandboxes.of(exchange.authorization, instantOf(exchange));
      if (sandbox && !SETS_CLOCK.test(exchange.path)) {
        const failed = await sandboxes.moveTo(sandbox, instantOf(exchange));
        if (failed) log(`exchange ${exchange.index}: ${failed}`);
      }
      for (const step of steps.get(exchange.index) ?? []) await doOutside(step, sandbox ?? (await sandboxes.mainSandbox(instantOf(exchange))), ids, origin, log);
      const { target, text } = ids.rewrite(exchange, sandbox?.brandId);
      answer = await send(origin, { method: exchange.method, target, token: sandbox?.token, text, type: exchange.requestType });
      if (sandbox) Sandboxes.noteClock(sandbox, answer);
    }
    const unseen = ids.unseenIn(exchange.path);
    ids.learn(exchange.responseBody, answer.body);
    const operation = operationOf(exchange);
    // The account's values are compared too, to be listed as what the simulator cannot know.
    const accounts = (path: string) => isAccountValue(operation, path);
    const findings = compareAnswers({ status: exchange.status, body: exchange.responseBody }, { status: answer.status, body: answer.body }, ids.ids, accounts);
    // A recorded answer about an object made before the recording: the simulator cannot have it.
    (operations[operation] ??= []).push(exchange.index);
    differences.add(operation, exchange.index, findings, unseen.length > 0 ? EXISTED_BEFORE : undefined);
  }
  const opening = exchanges[0] ?? all[0];
  const shown = sandboxes.first ?? (await sandboxes.mainSandbox(opening ? instantOf(opening) : NaN));
  return {
    sandbox: { id: shown.id, token: shown.token },
    exchanges: all.length,
    replayed: exchanges.length,
    skipped,
    drift: differences.drift,
    unknowable: differences.unknowable,
    documented: differences.documented,
    operations,
  };
}

/** A recorded sandbox creation's body; without a `now`, the recorded answer's (the wall's then, not now). */
function creationBody(exchange: RecordedExchange): unknown {
  const body = (exchange.requestBody ?? {}) as Record<string, unknown>;
  const recordedNow = (exchange.responseBody as { clock?: { now?: unknown } } | undefined)?.clock?.now;
  return body.now === undefined && typeof recordedNow === 'string' ? { ...body, now: recordedNow } : body;
}

async function doOutside(step: OutsideStep, sandbox: ReplaySandbox, ids: IdMap, origin: string, log: (line: string) => void): Promise<void> {
  const purchase = ids.ids.get(step.purchase.toLowerCase());
  const what = `before exchange ${step.before}, the payer's ${step.kind} of purchase ${step.purchase}`;
  if (purchase === undefined) return log(`${what}: not replayed, the replay has no such purchase`);
  if (step.kind === 'pay') {
    const paid = await sendJson(origin, 'POST', `/sim/v1/purchases/${purchase}/pay`, sandbox.token, step.body);
    if (paid.status !== 200) log(`${what}: POST /sim/v1/purchases/${purchase}/pay answered ${paid.status} ${paid.text.slice(0, 300)}`);
    return;
  }
  // Viewed: the checkout page opened, as the payer's browser would (no token).
  const read = await sendJson(origin, 'GET', `/api/v1/purchases/${purchase}/`, sandbox.token);
  const page = (read.body as { checkout_url?: string } | undefined)?.checkout_url;
  if (!page) return log(`${what}: not replayed, the purchase has no checkout_url (${read.status})`);
  const url = new URL(page, origin);
  const viewed = await send(origin, { method: 'GET', target: url.pathname + url.search });
  if (viewed.status !== 200) log(`${what}: GET ${url.pathname} answered ${viewed.status}`);
}
