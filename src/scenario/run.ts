// `billing-sim scenario run`: loads every file first (a bad one stops the run with exit 2 before
// anything is sent), then runs the scenarios one after another, each in a sandbox of its own, on
// the server at `origin` or on a simulator started in this process for the run. A failed step ends
// its scenario, is reported with the step as written, what it expected and what came, and the run
// goes on with the next scenario. Resolves to the exit status: 0 all passed, 1 one failed.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { startSimulator } from '../index.ts';
import { Connection, describeAnswer, NoAnswer } from './client.ts';
import { StepFailure } from './failure.ts';
import { toJUnit } from './junit.ts';
import { report, type ScenarioResult } from './report.ts';
import { loadScenarios, ScenarioError, type Scenario, type Step } from './load.ts';
import { instant, runStep, type RunState } from './steps.ts';
import { UnknownName } from './values.ts';

export interface ScenarioRunOptions {
  files: string[];
  /** A running simulator (its origin; a path is ignored); default: one started for the run. */
  origin?: string;
  junit?: string;
  print?: (line: string) => void;
}

export async function runScenarioFiles(options: ScenarioRunOptions): Promise<number> {
  const print = options.print ?? ((line: string) => console.log(line));
  const scenarios = loadScenarios(options.files);
  const external = options.origin !== undefined ? await reachable(options.origin) : undefined;
  const sim = external ? undefined : await startSimulator({ port: 0, quiet: true });
  const origin = external ?? sim!.url;
  const started = new Date();
  print(`billing-sim scenario: ${scenarios.length} scenario(s) against ${origin}${sim ? ' (a simulator started for this run)' : ''}`);
  const results: ScenarioResult[] = [];
  try {
    for (const scenario of scenarios) {
      const result = await runScenario(scenario, new Connection(origin), external !== undefined);
      results.push(result);
      for (const line of report(result, external)) print(line);
    }
  } finally {
    await sim?.stop();
  }
  const failed = results.filter((result) => result.failure).length;
  if (options.junit) {
    const file = resolve(options.junit);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, toJUnit(results, started));
    print(`wrote the JUnit report to ${file}`);
  }
  print(`${results.length} scenario(s): ${results.length - failed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

/**
 * The origin of `url` once it answers as a simulator: /sim/v1 asks for a token (401). A server that
 * cannot be reached, or has no control API, cannot run a scenario: exit 2 before any scenario.
 */
async function reachable(url: string): Promise<string> {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new ScenarioError(`--origin must be an http(s) URL, got "${url}"`);
  const origin = new URL(url).origin;
  let answer;
  try {
    answer = await new Connection(origin).call('GET', '/sim/v1/capabilities');
  } catch (error) {
    throw new ScenarioError(`${(error as Error).message}: is the simulator running there?`);
  }
  if (answer.status === 404) throw new ScenarioError(`${origin} has no simulator control API (GET /sim/v1/capabilities answered 404): scenarios need billing-sim`);
  if (answer.status !== 401 && answer.status !== 200) throw new ScenarioError(`${origin} cannot run scenarios: ${describeAnswer(answer, 200)}`);
  return origin;
}

async function runScenario(scenario: Scenario, connection: Connection, external: boolean): Promise<ScenarioResult> {
  const startedAt = performance.now();
  const result: ScenarioResult = { scenario, passed: 0, ms: 0 };
  const finish = () => ({ ...result, ms: performance.now() - startedAt });
  const body = { ...scenario.sandbox, ...(typeof scenario.sandbox.now === 'string' ? { now: instant(scenario.sandbox.now) } : {}) };
  let created;
  try {
    created = await connection.call('POST', '/sim/v1/sandboxes', { body });
  } catch (error) {
    return { ...finish(), failure: { expected: 'a new sandbox', got: (error as Error).message, names: [] } };
  }
  if (created.status !== 201) return { ...finish(), failure: { expected: `a new sandbox from POST /sim/v1/sandboxes ${JSON.stringify(body)}`, got: describeAnswer(created), names: [] } };
  const sandbox = created.body as { id: string; token: string; brand_id: string };
  result.sandbox = { id: sandbox.id, token: sandbox.token };
  const state: RunState = {
    connection: connection.withToken(sandbox.token),
    names: new Map<string, unknown>([['brand_id', sandbox.brand_id], ['sandbox_id', sandbox.id]]),
    templateOf: new Map(),
  };
  for (const step of scenario.steps) {
    try {
      await runStep(step, state);
      result.passed += 1;
    } catch (error) {
      if (!(error instanceof StepFailure || error instanceof NoAnswer || error instanceof UnknownName)) throw error;
      const { expected, got } = error instanceof StepFailure ? error : { expected: 'an answer', got: error.message };
      return { ...finish(), failure: { step, expected, got, names: namesUsed(step, state.names) } };
    }
  }
  // On a server that stays up, a passed scenario leaves nothing behind; a failed one's sandbox is
  // kept for a look (the report prints its token). A server without DELETE /sim/v1/sandbox keeps it.
  if (external) await state.connection.call('DELETE', '/sim/v1/sandbox').catch(() => undefined);
  return finish();
}

function namesUsed(step: Step, names: Map<string, unknown>): [string, unknown][] {
  const used = new Set([...JSON.stringify(step.spec).matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((match) => match[1]!));
  return [...used].filter((name) => names.has(name)).map((name) => [name, names.get(name)]);
}
