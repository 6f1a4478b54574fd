// Runs injected faults against the contract suite, as test/contract/faults.test.ts and a developer
// trying a new fault do: faults whose `catches` are disjoint share one run of the suite (each is
// injected only into its own checks' requests, fault-proxy.ts), and only the checks they concern run
// (CONTRACT_CHECK). A fault is caught when each check it names failed as normative, and not merely
// because an answer broke openapi.yaml: the bug must be seen as behaviour.
//
// Try faults by hand: `npx tsx test/contract/fault-rounds.ts [part of a fault's name]`.

import { startSimulator } from '../../src/index.ts';
import { startProxy, type Fault } from './fault-proxy.ts';
import { FAULTS } from './faults/index.ts';
import { newSandbox, runSuite, SOURCE_CLI, type Sandbox, type SuiteRun } from './suite-run.ts';

/** A failed check as the suite's output lists it: `✗ [PUR-REFUND-PARTIAL] normative — …`. */
export interface FailedCheck {
  id: string;
  level: string;
  summary: string;
}

export interface Verdict {
  fault: Fault;
  /** The checks it names that did not fail as they must, each with why. */
  missed: string[];
}

export interface Round {
  run: SuiteRun;
  verdicts: Verdict[];
  /** Checks that failed though no fault of the round names them. */
  stray: FailedCheck[];
}

const SCHEMA_ONLY = /^the response does not match openapi\.yaml/;

export function failedChecks(output: string): FailedCheck[] {
  return [...output.matchAll(/^[✗⚠] \[([^\]]+)\] (normative|informative|check) — (.*)$/gm)].map(([, id, level, summary]) => ({ id: id!, level: level!, summary: summary! }));
}

/** Faults in rounds: within one, no two faults name the same check. */
export function rounds(faults: readonly Fault[]): Fault[][] {
  const result: Fault[][] = [];
  for (const fault of faults) {
    const round = result.find((taken) => taken.every((other) => !other.catches!.some((id) => fault.catches!.includes(id))));
    if (round) round.push(fault);
    else result.push([fault]);
  }
  return result;
}

/** One run of the suite with `faults` injected, only their checks selected. */
export async function runRound(origin: string, accounts: { a: Sandbox; b: Sandbox }, faults: Fault[], cli?: string[]): Promise<Round> {
  const checks = [...new Set(faults.flatMap((fault) => fault.catches ?? []))];
  const proxy = await startProxy(origin, faults);
  let run: SuiteRun;
  try {
    run = await runSuite(['--base-url', `${proxy.url}/api/v1`, '--in-accounts', '--token', accounts.a.token, '--token2', accounts.b.token], { CONTRACT_CHECK: checks.join(',') }, cli);
  } finally {
    await proxy.close();
  }
  const failed = failedChecks(run.output);
  const verdicts = faults.map((fault) => ({
    fault,
    missed: (fault.catches ?? []).flatMap((id) => {
      const found = failed.find((check) => check.id === id);
      if (!found) return [`${id} did not fail`];
      if (found.level !== 'normative') return [`${id} only warned (${found.level})`];
      if (SCHEMA_ONLY.test(found.summary) && !fault.bySchema) return [`${id} failed only on the document: ${found.summary}`];
      return [];
    }),
  }));
  return { run, verdicts, stray: failed.filter((check) => !checks.includes(check.id)) };
}

async function main(): Promise<void> {
  const wanted = process.argv[2] ?? '';
  const chosen = FAULTS.filter((fault) => fault.name.includes(wanted));
  const sim = await startSimulator({ port: 0, quiet: true });
  try {
    const accounts = { a: await newSandbox(sim.url, { fixtures: true }), b: await newSandbox(sim.url, { fixtures: true }) };
    for (const faults of rounds(chosen)) {
      const round = await runRound(sim.url, accounts, faults, SOURCE_CLI);
      for (const { fault, missed } of round.verdicts) console.log(`${missed.length ? 'MISSED' : 'caught'}  ${fault.name}${missed.length ? `\n        ${missed.join('\n        ')}` : ''}`);
      if (round.stray.length) console.log(`stray failures: ${round.stray.map((check) => check.id).join(', ')}`);
      if (round.verdicts.some((verdict) => verdict.missed.length)) console.log(round.run.output.slice(-4000));
    }
  } finally {
    await sim.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
