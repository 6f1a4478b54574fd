// `billing-sim replay FILE`: reads the recording, replays it on the simulator at `origin` or on one
// started in this process for the run (stopped at the end), prints the report and writes its files.
// Resolves to the exit status: 0 no drift, 1 drift. What keeps it from running at all (a file that is
// missing or not HAR, an origin that does not answer or is not a simulator, a token it refuses) is a
// RecordingError or a ReplayError, which the CLI turns into exit 2.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { startSimulator } from '../index.ts';
import { reportLines, toJsonReport, toJUnit, type ReportContext } from './drift-report.ts';
import { readHarFile, RecordingError } from '../recording/har-file.ts';
import { replayRecording, ReplayError } from './replay.ts';

export interface ReplayRunOptions {
  file: string;
  origin?: string;
  token?: string;
  report?: string;
  junit?: string;
  print?: (line: string) => void;
}

export async function runReplay(options: ReplayRunOptions): Promise<number> {
  const print = options.print ?? ((line: string) => console.log(line));
  let recording;
  try {
    recording = readHarFile(options.file);
  } catch (error) {
    if (error instanceof RecordingError) throw new RecordingError(`${options.file}: ${error.message}`);
    throw new RecordingError(`${options.file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  // A CI job that replays a recording its proxy never wrote to must not read "no drift" as a pass.
  if (recording.har.log.entries.length === 0) throw new RecordingError(`${options.file}: no exchange recorded in it, so nothing to compare`);
  if (!recording.complete) print(`${options.file} was cut short (a recorder stopped mid-write): replaying its ${recording.har.log.entries.length} whole exchange(s)`);
  if (options.origin !== undefined && (!URL.canParse(options.origin) || !/^https?:$/.test(new URL(options.origin).protocol))) {
    throw new ReplayError(`--origin must be an http(s) URL, got "${options.origin}"`);
  }
  const sim = options.origin === undefined ? await startSimulator({ port: 0, quiet: true }) : undefined;
  const origin = options.origin === undefined ? sim!.url : new URL(options.origin).origin;
  const context: ReportContext = { file: options.file, origin, started: new Date() };
  let result;
  try {
    result = await replayRecording({ har: recording.har, origin, token: options.token, log: (line) => print(`  ${line}`) });
  } finally {
    await sim?.stop();
  }
  for (const line of reportLines(result, context)) print(line);
  print(
    sim
      ? `the sandbox was ${result.sandbox.id} on a simulator started for this run, now stopped: replay with --origin to look at its end state`
      : `the sandbox, as the replay left it: ${origin}/#token=${result.sandbox.token} (its id ${result.sandbox.id})`,
  );
  for (const [file, text, what] of [
    [options.report, () => toJsonReport(result, context), 'JSON report'],
    [options.junit, () => toJUnit(result, context), 'JUnit report'],
  ] as const) {
    if (!file) continue;
    const path = resolve(file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text());
    print(`wrote the ${what} to ${path}`);
  }
  return result.drift.length > 0 ? 1 : 0;
}
