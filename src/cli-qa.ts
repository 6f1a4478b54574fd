// The QA commands of the CLI (cli.ts dispatches to them): `scenario run` and `scenario from-recording`,
// and `replay`. Parses flags into options and calls the library (src/scenario/, src/recording/),
// loaded only when the command runs; nothing else happens here.

import { existsSync } from 'node:fs';
import { parseCommand, stringFlag, UsageError, type FlagSpec, type FlagValues } from './cli-args.ts';

const SCENARIO_FLAGS: Record<string, FlagSpec> = {
  origin: { type: 'string' },
  junit: { type: 'string' },
  out: { type: 'string' },
};

const SCENARIO_USAGE = `usage: billing-sim scenario run [--origin URL] [--junit FILE] FILE|FOLDER...
       billing-sim scenario from-recording [--out FILE] RECORDING
  runs scenario files (YAML, checked against scenario.schema.json): each scenario makes a sandbox of
  its own and runs its steps (request, pay, advance, expect) in order; a failed step is printed with
  what it expected and what came, and the run goes on with the next scenario. A folder: its .yaml and
  .yml files, by name. Every file is checked before any runs.
  --origin  a running simulator to use, e.g. http://127.0.0.1:4010 (default: one started for the run
            on a free port); a failed scenario's sandbox is kept there and its token printed
  --junit   also write a JUnit XML report to this file (one test case per scenario)
from-recording writes a recording (HAR, from \`billing-sim proxy --record\`) as a scenario file: one step
  per exchange, ids named where an answer gives them to a later request, the answers' statuses and
  amounts expected, advance steps where its clock moved; what it leaves out is said on stderr
  --out     the scenario file to write (default: stdout)
Each flag also from the environment: BILLING_SIM_ORIGIN, BILLING_SIM_JUNIT, BILLING_SIM_OUT.
Exit status: 0 every scenario passed (or the file was written), 1 one failed, 2 a usage error, a file
that is not a valid scenario (its name, line and the path of the first bad value) or a recording, or a
server that cannot run them.`;

const REPLAY_FLAGS: Record<string, FlagSpec> = {
  origin: { type: 'string' },
  token: { type: 'string' },
  report: { type: 'string' },
  junit: { type: 'string' },
};

const REPLAY_USAGE = `usage: billing-sim replay [--origin URL] [--token TOKEN] [--report FILE] [--junit FILE] FILE
  sends the recorded requests of FILE (HAR 1.2, e.g. from proxy --record) in order to a simulator, in a new
  sandbox whose clock starts at the recording's first instant and moves as the recording's instants move;
  ids are mapped from the answers, and what the payer did outside the API (checkout page) is done through
  /sim/v1. Each answer is compared with the recorded one; the report lists each difference once, drift
  apart from what the simulator cannot know (the account's own values, objects made before the recording)
  --origin  a running simulator, e.g. http://127.0.0.1:4010 (default: one started for the run and
            stopped at the end); the sandbox's dashboard link is printed, to look at its end state
  --token   replay in this sandbox of that simulator instead of a new one
  --report  write the result as JSON to this file
  --junit   write a JUnit XML report to this file (one test case per operation, failing on drift)
Each flag also from the environment: BILLING_SIM_ORIGIN, BILLING_SIM_TOKEN, BILLING_SIM_REPORT, BILLING_SIM_JUNIT.
Exit status: 0 no drift, 1 drift, 2 it cannot run (a usage error, a file missing or not HAR, an origin that
does not answer or is not a simulator, a token it refuses).`;


export async function scenario(args: string[]): Promise<number> {
  const parsed = parseCommand('scenario', args, SCENARIO_FLAGS, SCENARIO_USAGE);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const [action, ...files] = positionals;
  if (action === 'from-recording') return fromRecording(values, files);
  if (action !== 'run') throw new UsageError(action === undefined ? 'expected "run" and scenario files' : `unknown scenario action "${action}" (expected run or from-recording)`, 'scenario');
  if (values.out !== undefined) throw new UsageError('--out is a flag of from-recording, not of run', 'scenario');
  if (files.length === 0) throw new UsageError('expected at least 1 scenario file or folder', 'scenario');
  const { runScenarioFiles } = await import('./scenario/run.ts');
  const { ScenarioError } = await import('./scenario/load.ts');
  try {
    return await runScenarioFiles({ files, origin: stringFlag(values.origin), junit: stringFlag(values.junit) });
  } catch (error) {
    // A file that is not a scenario, or a server that cannot run one: the configuration's fault.
    if (!(error instanceof ScenarioError)) throw error;
    console.error(`billing-sim: ${error.message}`);
    return 2;
  }
}

async function fromRecording(values: FlagValues, files: string[]): Promise<number> {
  if (files.length !== 1) throw new UsageError(`from-recording takes 1 recording file, got ${files.length}`, 'scenario');
  for (const flag of ['origin', 'junit'] as const) if (values[flag] !== undefined) throw new UsageError(`--${flag} is a flag of run, not of from-recording`, 'scenario');
  const { scenarioFromRecordingFile } = await import('./recording/to-scenario.ts');
  const { RecordingError } = await import('./recording/har-file.ts');
  const out = stringFlag(values.out);
  if (!existsSync(files[0]!)) throw new UsageError(`${files[0]}: no such file`, 'scenario');
  let written;
  try {
    written = scenarioFromRecordingFile(files[0]!, out);
  } catch (error) {
    if (!(error instanceof RecordingError)) throw error;
    console.error(`billing-sim: ${files[0]}: ${error.message}`);
    return 2;
  }
  // Without --out the scenario is stdout, so what it leaves out goes to stderr.
  for (const warning of written.warnings) console.error(`billing-sim: ${warning}`);
  if (out === undefined) process.stdout.write(written.text);
  else console.error(`billing-sim: wrote ${out}`);
  return 0;
}

export async function replay(args: string[]): Promise<number> {
  const parsed = parseCommand('replay', args, REPLAY_FLAGS, REPLAY_USAGE);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError(`expected 1 recording file, got ${positionals.length}`, 'replay');
  const { runReplay } = await import('./replay/replay-run.ts');
  const { RecordingError } = await import('./recording/har-file.ts');
  const { ReplayError } = await import('./replay/replay.ts');
  try {
    const options = { origin: stringFlag(values.origin), token: stringFlag(values.token), report: stringFlag(values.report), junit: stringFlag(values.junit) };
    return await runReplay({ file: positionals[0]!, ...options });
  } catch (error) {
    // A file that is not a recording, a server that cannot replay it: the configuration's fault.
    if (!(error instanceof RecordingError || error instanceof ReplayError)) throw error;
    console.error(`billing-sim: ${error.message}`);
    return 2;
  }
}
