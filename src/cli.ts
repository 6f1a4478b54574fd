// `billing-sim serve [--port N] [--host H] [--data FILE] [--seed N] [--secret S] [--quiet]
//   [--cors-origin ORIGIN]… [--allowed-host NAME]… [--max-events N]`,
// `billing-sim contract [--base-url URL --token T] [--token2 T] [--junit FILE]`,
// `billing-sim export --data FILE [--sandbox ID] [--seed N] --out SNAPSHOT` and
// `billing-sim import --data FILE [--secret S] SNAPSHOT`.
// Parses flags into options and calls the library; nothing else happens here.

import { parseArgs } from 'node:util';
import { loadSpec } from './contract/spec.ts';
import { DEFAULT_SEED } from './engine/sandboxes.ts';
import { createIds } from './engine/ids.ts';
import { DEFAULT_SECRET, TokenService } from './http/auth.ts';
import { parseAllowedHost, parseCorsOrigin } from './http/hosts.ts';
import { MAX_EVENTS_PER_SANDBOX } from './engine/limits.ts';
import { DEFAULT_HOST, DEFAULT_PORT, startSimulator } from './index.ts';
import { createSnapshotValidator } from './store/snapshot.ts';
import { exportFromDataFile, importIntoDataFile } from './store/snapshot-files.ts';
import { DataFileError } from './store/sqlite.ts';

const USAGE = `usage: billing-sim serve [--port N] [--host HOST] [--data FILE] [--seed N] [--secret SECRET] [--quiet]
                         [--cors-origin ORIGIN]... [--allowed-host NAME]... [--max-events N]
       billing-sim contract [--base-url URL --token TOKEN] [--token2 TOKEN] [--junit FILE]
         checks a server against openapi.yaml (without --base-url: this simulator)
       billing-sim export --data FILE [--sandbox ID] --out SNAPSHOT.json   (see export --help)
       billing-sim import --data FILE SNAPSHOT.json                        (see import --help)
  --port    port to listen on (default ${DEFAULT_PORT}, or env PORT)
  --host    address to bind (default ${DEFAULT_HOST})
  --data    keep sandboxes in this SQLite file (created if missing) and load them at start
  --seed    seed of the default sandbox's fixtures and ids (default 1)
  --secret  secret that signs sandbox tokens (default: a fixed development secret, or env BILLING_SIM_SECRET)
  --quiet   no request log
  --cors-origin   an origin whose pages may call the API too (repeatable, or * for any; env
                  BILLING_SIM_CORS_ORIGIN, comma-separated); pages on localhost origins always may
  --allowed-host  a host name the server answers to besides localhost, 127.0.0.1, [::1] and --host
                  (repeatable; .example.test: with subdomains; * for any; env BILLING_SIM_ALLOWED_HOST,
                  comma-separated); other names get 403, so a web page cannot reach it by DNS rebinding
  --max-events    events kept per sandbox, the newest (default ${MAX_EVENTS_PER_SANDBOX}, or env BILLING_SIM_MAX_EVENTS)`;

const EXPORT_USAGE = `usage: billing-sim export --data FILE [--sandbox ID] [--seed N] --out SNAPSHOT.json
  writes one sandbox of a data file as a JSON snapshot (created 0600: it holds the sandbox's webhook private key)
  --data     the SQLite data file of \`serve --data\` (or env BILLING_SIM_DATA); a running server holds it:
             use GET /sim/v1/snapshot on that server instead
  --sandbox  the sandbox to export (default: the default sandbox of --seed)
  --seed     seed whose default sandbox to export (default ${DEFAULT_SEED}, or env BILLING_SIM_SEED)
  --out      the snapshot file to write`;

const IMPORT_USAGE = `usage: billing-sim import --data FILE [--secret SECRET] SNAPSHOT.json
  adds the snapshot (from GET /sim/v1/snapshot or export) to the data file as a new sandbox, created if
  missing, and prints the sandbox's id and bearer token; a running server holds the file: use
  POST /sim/v1/sandboxes {"snapshot": …} on that server instead
  --data    the SQLite data file (or env BILLING_SIM_DATA)
  --secret  secret that signs the token; the server's (default: a fixed development secret, or env BILLING_SIM_SECRET)`;

/** A wrong command line: the message, then the command's usage. */
class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

/** A repeatable flag's values, else the environment's comma-separated list, each checked by `parse`. */
function list(values: string[] | undefined, env: string, parse: (entry: string) => string): string[] | undefined {
  const entries = values?.length ? values : process.env[`BILLING_SIM_${env}`]?.split(',');
  try {
    return entries?.map((entry) => entry.trim()).filter((entry) => entry !== '').map(parse);
  } catch (error) {
    throw new UsageError((error as Error).message, USAGE);
  }
}

function integer(value: string | undefined, flag: string, usage = USAGE): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new UsageError(`${flag} must be a non-negative integer, got "${value}"`, usage);
  return parsed;
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      seed: { type: 'string' },
      secret: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      'cors-origin': { type: 'string', multiple: true },
      'allowed-host': { type: 'string', multiple: true },
      'max-events': { type: 'string' },
    },
  });
  const maxEvents = integer(orEnv(values['max-events'], 'MAX_EVENTS'), '--max-events');
  if (maxEvents === 0) throw new UsageError('--max-events must be at least 1', USAGE);
  const startedAt = performance.now();
  const sim = await startSimulator({
    port: integer(values.port ?? process.env.PORT, '--port'),
    host: values.host,
    dataFile: values.data,
    seed: integer(values.seed, '--seed'),
    secret: values.secret ?? process.env.BILLING_SIM_SECRET,
    quiet: values.quiet,
    corsOrigins: list(values['cors-origin'], 'CORS_ORIGIN', parseCorsOrigin),
    allowedHosts: list(values['allowed-host'], 'ALLOWED_HOST', parseAllowedHost),
    maxEvents,
  });
  console.log(`billing-sim listening in ${(performance.now() - startedAt).toFixed(0)} ms
  API base URL   ${sim.apiUrl}/
  control API    ${sim.url}/sim/v1/
  bearer token   ${sim.token}
  brand_id       ${sim.brandId}${values.host === '0.0.0.0' || values.host === '::' ? allInterfacesHint(sim.url) : ''}
  try: curl -H "Authorization: Bearer ${sim.token}" ${sim.apiUrl}/billing_templates/`);
  const stop = () => void sim.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** Bound to every interface, the server cannot know the machine's names: it says which it answers to (hosts.ts). */
const allInterfacesHint = (url: string): string => `
  host names     all interfaces: any IP address, localhost and --allowed-host names are served; to open
                 it by another name, e.g. http://mybox.local:${new URL(url).port}/, add --allowed-host mybox.local`;

/** Wall time, for clocks that follow it: exported at their current instant, imported running from there. */
const wall = { now: () => Date.now() };

/** The flag, or the environment's BILLING_SIM_<NAME> (DESIGN.md §7). */
const orEnv = (value: string | undefined, name: string): string | undefined => value ?? process.env[`BILLING_SIM_${name}`];

function required(value: string | undefined, flag: string, usage: string): string {
  if (value === undefined || value === '') throw new UsageError(`${flag} is required`, usage);
  return value;
}

/** Parses a command's string flags (and `-h`/`--help`, which prints its usage and exits 0). */
function commandArgs(args: string[], flags: string[], usage: string, positionals = 0) {
  const options = Object.fromEntries(flags.map((flag) => [flag, { type: 'string' as const }]));
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: positionals > 0 });
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
  if (parsed.values.help) {
    console.log(usage);
    process.exit(0);
  }
  if (parsed.positionals.length !== positionals) throw new UsageError(`expected ${positionals} file name(s), got ${parsed.positionals.length}`, usage);
  return { values: parsed.values as Record<string, string | undefined>, positionals: parsed.positionals };
}

async function exportCommand(args: string[]): Promise<void> {
  const { values } = commandArgs(args, ['data', 'sandbox', 'seed', 'out'], EXPORT_USAGE);
  const dataFile = required(orEnv(values.data, 'DATA'), '--data', EXPORT_USAGE);
  const out = required(values.out, '--out', EXPORT_USAGE);
  // The default sandbox's id is the first id its seed draws (index.ts).
  const sandboxId = values.sandbox ?? createIds(integer(orEnv(values.seed, 'SEED'), '--seed', EXPORT_USAGE) ?? DEFAULT_SEED).uuid();
  // The snapshot holds the webhook private key: what this process creates is readable by its owner only.
  process.umask(0o077);
  await exportFromDataFile({ dataFile, sandboxId, out, wall, validator: createSnapshotValidator(loadSpec(), wall) });
  console.log(`billing-sim: exported sandbox ${sandboxId} of ${dataFile} to ${out}`);
}

async function importCommand(args: string[]): Promise<void> {
  const { values, positionals } = commandArgs(args, ['data', 'secret'], IMPORT_USAGE, 1);
  const dataFile = required(orEnv(values.data, 'DATA'), '--data', IMPORT_USAGE);
  const file = positionals[0]!;
  const sandbox = await importIntoDataFile({ dataFile, file, wall, ids: createIds(), validator: createSnapshotValidator(loadSpec(), wall) });
  const token = await new TokenService(orEnv(values.secret, 'SECRET') ?? DEFAULT_SECRET, wall).sign(sandbox.id);
  console.log(`billing-sim: imported ${file} into ${dataFile}
  sandbox id     ${sandbox.id}
  bearer token   ${token}
  brand_id       ${sandbox.brands[0]!.id}`);
}

const [command = 'serve', ...rest] = process.argv.slice(2);
try {
  if (command === 'serve') await serve(rest);
  else if (command === 'export') await exportCommand(rest);
  else if (command === 'import') await importCommand(rest);
  else if (command === 'contract') {
    // Loaded only for this command: the suite brings vitest.
    const { runContract } = await import('../contract-tests/run.ts');
    process.exit(await runContract(rest));
  }
  else if (command === 'help' || command === '--help') console.log(USAGE);
  else throw new Error(`unknown command "${command}"`);
} catch (error) {
  // A data file that cannot be used is a configuration error: one line, no usage, no stack.
  if (error instanceof DataFileError) console.error(`billing-sim: ${error.message}`);
  else console.error(`billing-sim: ${(error as Error).message}\n${error instanceof UsageError ? error.usage : USAGE}`);
  process.exit(2);
}
