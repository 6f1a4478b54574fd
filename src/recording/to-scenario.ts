// `billing-sim scenario from-recording`: a recording (HAR, DESIGN.md §15) as a scenario file (§10) a
// team keeps, which passes on the simulator when a replay of the recording shows no drift.
//
// One step per exchange, in the recording's order: a `request` with the recorded status as
// `expect_status`, followed by an `expect: {fields}` with what matters in its answer
// (scenario-expects.ts); ids that flow from an answer to a later request are saved and reused by name
// (scenario-names.ts). The recording's own clock advances are `advance` steps, and where its instants
// moved between two exchanges (someone else moved the clock, or time passed on the platform) an
// `advance: {to}` is put before the second. What the payer did outside the API (outside-steps.ts) comes
// in as `pay` steps; a recorded `POST /sim/v1/purchases/{id}/pay` is written as a `pay` step too.
// What a scenario cannot do is skipped and said in a `note`: see `skipReason`.

import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Document, isCollection, isScalar, visit } from 'yaml';
import { exchangesOf, CLOCK_HEADER, type RecordedExchange } from './exchanges.ts';
import { readHarFile, RecordingError, type Har } from './har-file.ts';
import { outsideSteps, purchasesIn, type OutsideStep } from './outside-steps.ts';
import { nameIds } from './scenario-names.ts';
import { fieldsToExpect } from './scenario-expects.ts';
import { requestOf, payOf, written } from './scenario-requests.ts';

/** A scenario holds at most this many steps (scenario.schema.json, steps.maxItems); later exchanges are left out. */
export const MAX_STEPS = 1000;
/**
 * Instants that moved less than this are not worth an advance: the platform's `Date` header moves every
 * second while a client works, and an advance per second would bury the steps. The clock then lags the
 * recording's by less than a minute, which no billing rule of the API measures (its dues are in days).
 */
export const MIN_ADVANCE_MS = 60_000;

type Step = Record<string, unknown>;

export interface ScenarioDocument {
  name: string;
  description: string;
  sandbox: { now?: string; frozen: true; fixtures?: boolean; seed?: number };
  steps: Step[];
}

export interface Conversion {
  scenario: ScenarioDocument;
  /** What the file leaves out, one line each (also in the steps' notes): for the command to print. */
  warnings: string[];
}

/** The methods of a request step (scenario.schema.json). */
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Why an exchange is no step of the scenario, or undefined when it is one. */
function skipReason(exchange: RecordedExchange, token: string | undefined): string | undefined {
  if (exchange.status === 0) return 'it has no answer';
  if (exchange.method === 'OPTIONS') return 'a CORS preflight, which the browser sends';
  if (!METHODS.has(exchange.method)) return `a scenario sends no ${exchange.method}`;
  if (!/^\/(api|sim)\/v1\//.test(exchange.path)) return 'a page outside the API, which a scenario cannot open';
  if (exchange.method === 'POST' && exchange.path === '/sim/v1/sandboxes') return 'the scenario makes its own sandbox';
  if (exchange.authorization === undefined) return 'sent without a token, and a scenario sends its sandbox\'s with every request';
  if (exchange.authorization !== token) return `sent with another token (${exchange.authorization.replace(/^Bearer /i, '')}), and a scenario has one sandbox`;
  return undefined;
}

const isAdvance = (exchange: RecordedExchange) => exchange.method === 'POST' && exchange.path === '/sim/v1/clock/advance' && exchange.status >= 200 && exchange.status < 300;

export function scenarioFromRecording(har: Har, source: string): Conversion {
  const all = exchangesOf(har);
  const sandbox = all.find((exchange) => exchange.method === 'POST' && exchange.path === '/sim/v1/sandboxes' && exchange.status === 201);
  const token = all.find((exchange) => /^\/(api|sim)\/v1\//.test(exchange.path) && exchange.authorization !== undefined)?.authorization;
  const kept = all.filter((exchange) => skipReason(exchange, token) === undefined);
  // A simulator stamps its sandbox's clock on every answer; its `Date` is the wall's, another clock.
  const clocked = all.some((exchange) => exchange.responseHeaders[CLOCK_HEADER] !== undefined);
  const instantOf = (exchange: RecordedExchange) => (!clocked || exchange.responseHeaders[CLOCK_HEADER] !== undefined ? exchange.instant : NaN);
  const naming = nameIds(kept, (exchange) => !isAdvance(exchange), sandbox);
  const outside = outsideSteps(kept);
  // A note names an id as `{purchase_3}`: a `${…}` there would be a reference, checked like any other.
  const inNote = (text: string) => (written(text, naming) as string).replace(/\$+\{/g, '{');

  const first = kept.map(instantOf).find(Number.isFinite) ?? sandboxNow(sandbox) ?? Date.parse(har.log.entries[0]?.startedDateTime ?? '');
  const out = new StepList(first);
  const warnings: string[] = [];
  for (const exchange of all) {
    const reason = skipReason(exchange, token);
    if (reason !== undefined) {
      out.note(`skipped #${exchange.index} ${exchange.method} ${inNote(exchange.path)}: ${reason}`);
      warnings.push(`skipped #${exchange.index} ${exchange.method} ${exchange.path}: ${reason}`);
      continue;
    }
    // An exchange makes at most four steps: an advance, the payer's step, its own and an expect.
    if (out.steps.length > MAX_STEPS - 4) {
      warnings.push(`left out #${exchange.index} and after: a scenario holds at most ${MAX_STEPS} steps`);
      break;
    }
    for (const step of outside.filter((step) => step.before === exchange.index)) {
      out.advanceTo(outsideInstant(step, exchange));
      if (step.kind === 'pay') out.push({ note: `the payer paid on the checkout page (#${exchange.index} shows it ${outcomeWord(step)})`, ...payOf(step, naming) });
      else out.note(`the payer opened the checkout page of ${inNote(step.purchase)} (#${exchange.index} shows it viewed); a scenario cannot open a page, so its status stays as it was and is not checked`);
    }
    if (isAdvance(exchange)) {
      // Where the simulator says it moved to (its answer's `now`), else the answer's instant.
      const now = (exchange.responseBody as { now?: unknown } | undefined)?.now;
      const to = typeof now === 'string' && Number.isFinite(Date.parse(now)) ? Date.parse(now) : instantOf(exchange);
      if (Number.isFinite(to)) out.advanceTo(to, true);
      else out.push({ advance: exchange.requestBody });
      continue;
    }
    out.advanceTo(instantOf(exchange));
    out.push(requestOf(exchange, naming));
    // Only the checkout page makes a purchase `viewed`, and a scenario cannot open it (see the view above).
    const fields = fieldsToExpect(exchange.status, exchange.responseBody, (path, value) => value === 'viewed' && /(^|\.)status$/.test(path));
    if (fields) out.push({ expect: { fields } });
  }
  if (out.steps.length === 0) throw new RecordingError(`nothing in it that a scenario can send (${warnings.length} exchange(s), all skipped)`);
  for (const id of naming.unknown) warnings.push(`id ${id} is used but never created in the recording: left as recorded`);
  return { scenario: document(har, source, first, sandbox, out.finish()), warnings };
}

/** The steps as they are written: notes wait for the next step, and the clock is where the last advance put it. */
class StepList {
  readonly steps: Step[] = [];
  private notes: string[] = [];

  constructor(private clock: number) {}

  /** Said in the next step's note (or the last one's, when no step follows). */
  note(text: string): void {
    this.notes.push(text);
  }

  push(step: Step): void {
    const note = [...this.notes, step.note].filter(Boolean).join('; ');
    this.steps.push(note ? { ...step, note } : step);
    this.notes = [];
  }

  /** An advance to `ms` when the clock is a minute or more behind it (`always`: the recording's own advance). */
  advanceTo(ms: number, always = false): void {
    if (!Number.isFinite(ms) || (!always && ms - this.clock < MIN_ADVANCE_MS)) return;
    this.push({ advance: { to: iso(ms) } });
    this.clock = Math.max(this.clock, ms);
  }

  finish(): Step[] {
    const last = this.steps.at(-1);
    if (last && this.notes.length > 0) this.steps[this.steps.length - 1] = { ...last, note: [last.note, ...this.notes].filter(Boolean).join('; ') };
    // The note first, as a step's heading (the fixtures write it so).
    return this.steps.map(({ note, ...step }) => (note === undefined ? step : { note, ...step }));
  }
}

/** The recorded sandbox's first instant (its answer's `clock.now`), for a recording of nothing else. */
function sandboxNow(sandbox: RecordedExchange | undefined): number | undefined {
  const now = (sandbox?.responseBody as { clock?: { now?: unknown } } | undefined)?.clock?.now;
  return typeof now === 'string' ? Date.parse(now) : undefined;
}

/** When the payer acted: the purchase's status history shows the instant it took the new status. */
function outsideInstant(step: OutsideStep, exchange: RecordedExchange): number {
  const purchase = purchasesIn(exchange.responseBody).find((seen) => seen.id.toLowerCase() === step.purchase.toLowerCase());
  const history = (purchase?.status_history ?? []) as { status?: unknown; timestamp?: unknown }[];
  const entry = history.filter((item) => item.status === purchase?.status).at(-1);
  return typeof entry?.timestamp === 'number' ? entry.timestamp * 1000 : NaN;
}

const outcomeWord = (step: OutsideStep) => (step.kind === 'pay' && step.body.outcome === 'failure' ? 'declined' : 'paid');

function document(har: Har, source: string, first: number, sandbox: RecordedExchange | undefined, steps: Step[]): ScenarioDocument {
  const name = basename(source).replace(/(\.har)?(\.json)?$/i, '') || 'recording';
  const recorded = har.log.entries[0]?.startedDateTime;
  const body = (sandbox?.requestBody ?? {}) as { fixtures?: unknown; seed?: unknown };
  return {
    name,
    description:
      `Made by billing-sim scenario from-recording from ${basename(source)}, ${har.log.entries.length} exchange(s) recorded` +
      `${recorded ? ` from ${recorded}` : ''}${Number.isFinite(first) ? `, the sandbox's clock starting at ${iso(first)}` : ''}.` +
      ' Ids are named where an answer gives them to a later request.',
    sandbox: {
      // A recording without any instant (no clock header, no Date) leaves the runner's default: the wall time.
      ...(Number.isFinite(first) ? { now: iso(first) } : {}),
      frozen: true,
      ...(typeof body.fixtures === 'boolean' ? { fixtures: body.fixtures } : {}),
      ...(Number.isInteger(body.seed) ? { seed: body.seed as number } : {}),
    },
    steps,
  };
}

/** Collections under these keys are always written as blocks, one line a key: the shape of a step. */
const BLOCK_KEYS = new Set(['steps', 'sandbox', 'request', 'expect', 'fields', 'body']);
/** A smaller collection elsewhere fits on its line, as the fixtures write them: `save: {client: id}`. */
const FLOW_WIDTH = 72;

/** The scenario as YAML, in the style of fixtures/scenarios/. */
export function scenarioText(scenario: ScenarioDocument): string {
  const doc = new Document(scenario);
  visit(doc, {
    Pair(_, pair) {
      if (!isScalar(pair.key) || !isCollection(pair.value) || BLOCK_KEYS.has(String(pair.key.value))) return;
      if (JSON.stringify(pair.value.toJSON()).length <= FLOW_WIDTH) pair.value.flow = true;
    },
  });
  return doc.toString({ lineWidth: 120, flowCollectionPadding: false });
}

/** Reads a recording file and writes its scenario to `out` (or returns the text); a file cut by a kill -9 is read up to its cut. */
export function scenarioFromRecordingFile(file: string, out?: string): { text: string; warnings: string[] } {
  const { har, complete } = readHarFile(file);
  const { scenario, warnings } = scenarioFromRecording(har, file);
  if (!complete) warnings.unshift(`${file} ends in a cut (the recorder was stopped mid-write): read up to its last whole exchange`);
  const text = scenarioText(scenario);
  if (out !== undefined) writeFileSync(out, text);
  return { text, warnings };
}
