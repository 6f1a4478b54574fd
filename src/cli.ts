#!/usr/bin/env node
// `billing-sim [serve|contract|proxy|scenario|replay|export|import] [flags]` (no command: serve), `billing-sim --version`,
// `billing-sim [command] --help`. Every flag also comes from the environment as BILLING_SIM_<FLAG>
// (cli-args.ts). Exit codes: 0 ok, 1 a failed check, 2 a usage or configuration error (one line).
// Parses flags into options and calls the library; nothing else happens here. `serve` is cli-serve.ts.
// Each command loads what it needs when it runs: --version, --help, a usage error and the commands that
// need no simulator start without loading it (Express, faker, the validators' code).

import { createRequire } from 'node:module';
import { DEFAULT_HOST, DEFAULT_PROXY_PORT, DEFAULT_SEED } from './defaults.ts';
import { replay, scenario } from './cli-qa.ts';
import { integerFlag, parseCommand, requiredFlag, stringFlag, UsageError, type FlagSpec, type FlagValues } from './cli-args.ts';

const USAGE = `usage: billing-sim [serve|contract|proxy|scenario|replay|export|import] [flags]   (no command: serve)
       billing-sim <command> --help     the command's flags
       billing-sim --version
  serve     runs the simulator (API under /api/v1, control API under /sim/v1, dashboard at /)
  contract  checks a server against openapi.yaml (without --base-url: a simulator it starts)
  proxy     forwards to a server and checks its live traffic against openapi.yaml
  scenario  runs scenario files (YAML): steps in a sandbox of their own, with expectations
  replay    sends a recording (HAR) to a simulator and reports where its answers drift from the recorded ones
  export    writes a sandbox of a data file as a JSON snapshot
  import    adds a JSON snapshot to a data file as a new sandbox
Every flag can also be set in the environment as BILLING_SIM_<FLAG>, e.g. BILLING_SIM_PORT=4011,
BILLING_SIM_QUIET=1; a flag given on the command line wins. Exit codes: 0 ok, 1 a failed check,
2 a usage or configuration error.`;

const CONTRACT_FLAGS: Record<string, FlagSpec> = {
  'base-url': { type: 'string' },
  token: { type: 'string' },
  token2: { type: 'string' },
  'brand-id': { type: 'string' },
  'brand-id2': { type: 'string' },
  junit: { type: 'string' },
  keep: { type: 'boolean' },
  'in-accounts': { type: 'boolean' },
  verbose: { type: 'boolean' },
  group: { type: 'string', multiple: true },
  level: { type: 'string' },
  'max-warnings': { type: 'string' },
  summary: { type: 'string' },
  concurrency: { type: 'string' },
};

const CONTRACT_USAGE = `usage: billing-sim contract [--base-url URL [--token TOKEN]] [--token2 TOKEN] [--brand-id ID] [--brand-id2 ID] [--junit FILE]
                            [--summary FILE] [--max-warnings N] [--concurrency N] [--keep] [--in-accounts] [--verbose]
                            [--group NAME]... [--level normative|informative] [FILTER]...
  checks a server against openapi.yaml; exit 1 when a normative check fails (or more informative checks warn
  than --max-warnings allows), 2 when the target cannot be checked (the preflight says what to pass)
  --base-url  the API base URL of the server to check, e.g. http://127.0.0.1:4010/api/v1 (default: a
              simulator started for the run, with two fresh sandboxes). A simulator there (one that makes
              sandboxes) is checked in two new sandboxes of the suite's own, deleted at the end: the
              tokens are not needed, and the sandbox the dashboard shows stays as it was
  --token     bearer token of an account on that server
  --token2    bearer token of a second account, for the isolation checks
  --brand-id  the brand the suite creates templates and purchases for (default: taken from an existing
              template or purchase of the account; an empty account needs it)
  --brand-id2 the second account's brand, for the isolation checks that create objects there (default:
              taken from its objects; unknown, those checks are skipped)
  --junit     write a JUnit XML report to this file (relative to the current folder)
  --summary   write the run as GitHub-flavoured Markdown to this file (relative to the current folder), e.g.
              "$GITHUB_STEP_SUMMARY": a table per group, the failed and the warned checks with what they
              cite, and the coverage of openapi.yaml (operations, documented statuses, flows) with reasons
  --max-warnings  fail the run (exit 1) when more than N informative checks warn, e.g. 0 (default: warnings
              never fail it)
  --concurrency   at most N requests in flight against the target (default 4; a positive integer)
  --keep      keep what the suite created (default: deleted at the end, where the API allows); a
              simulator's sandboxes are kept and their dashboard links printed
  --in-accounts  on a simulator too, check in the accounts of --token and --token2, not in new sandboxes
  --verbose   print each failed check's requests and answers
  --group     only this group of checks, e.g. clients (repeatable)
  --level     only normative checks (the spec's or the platform's evidence's rules) or only informative ones
              (billing-sim's own decisions)
  FILTER      only the check files whose path contains it, e.g. checks/clients
Each flag also from the environment: BILLING_SIM_BASE_URL, BILLING_SIM_TOKEN, BILLING_SIM_TOKEN2,
BILLING_SIM_BRAND_ID, BILLING_SIM_BRAND_ID2, BILLING_SIM_JUNIT, BILLING_SIM_SUMMARY, BILLING_SIM_MAX_WARNINGS,
BILLING_SIM_CONCURRENCY, BILLING_SIM_KEEP, BILLING_SIM_IN_ACCOUNTS, BILLING_SIM_VERBOSE, BILLING_SIM_GROUP,
BILLING_SIM_LEVEL (or CONTRACT_BASE_URL, CONTRACT_TOKEN, CONTRACT_TOKEN2, CONTRACT_BRAND_ID, CONTRACT_BRAND_ID2,
CONTRACT_JUNIT).
What the suite creates in the accounts is deleted at the end where the API allows (--keep keeps it); purchases
cannot be deleted through the API: they are cancelled where they can be and counted in the last lines.`;

const PROXY_FLAGS: Record<string, FlagSpec> = {
  upstream: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  report: { type: 'string' },
  junit: { type: 'string' },
  record: { type: 'string' },
  'keep-personal': { type: 'boolean' },
};

const PROXY_USAGE = `usage: billing-sim proxy --upstream URL [--port N] [--host HOST] [--report FILE] [--junit FILE]
                         [--record FILE [--keep-personal]]
  a validating proxy: forwards every request to the upstream server and checks each request and answer
  against openapi.yaml; every violation is logged (operation, where, what), GET /__proxy/report gives
  the tally, and on exit (SIGINT/SIGTERM) the report is written
  --upstream  the server to forward to, e.g. https://api.example.test (its origin; paths are kept)
  --port      port to listen on (default ${DEFAULT_PROXY_PORT})
  --host      address to bind (default ${DEFAULT_HOST})
  --report    write the report as JSON to this file on exit
  --junit     write the report as JUnit XML to this file on exit (one test case per operation seen)
  --record    write every exchange to this file as HAR 1.2 as it goes (created 0600), with the proxy's
              findings; scrubbed first: bearer tokens, card numbers, CVC, expiry, cardholder names,
              X-Signature and cookies; e-mails and phones replaced by stable fakes
  --keep-personal  with --record: keep e-mail addresses and phone numbers (secrets are still scrubbed)
Each flag also from the environment: BILLING_SIM_UPSTREAM, BILLING_SIM_PORT, BILLING_SIM_HOST,
BILLING_SIM_REPORT, BILLING_SIM_JUNIT, BILLING_SIM_RECORD, BILLING_SIM_KEEP_PERSONAL.`;

const EXPORT_FLAGS: Record<string, FlagSpec> = {
  data: { type: 'string' },
  sandbox: { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string' },
};

const EXPORT_USAGE = `usage: billing-sim export --data FILE [--sandbox ID] [--seed N] --out SNAPSHOT.json
  writes one sandbox of a data file as a JSON snapshot (created 0600: it holds the sandbox's webhook private key)
  --data     the SQLite data file of \`serve --data\`; a running server holds it: use
             GET /sim/v1/snapshot on that server instead
  --sandbox  the sandbox to export (default: the default sandbox of --seed)
  --seed     seed whose default sandbox to export (default ${DEFAULT_SEED})
  --out      the snapshot file to write
Each flag also from the environment: BILLING_SIM_DATA, BILLING_SIM_SANDBOX, BILLING_SIM_SEED, BILLING_SIM_OUT.`;

const IMPORT_FLAGS: Record<string, FlagSpec> = {
  data: { type: 'string' },
  secret: { type: 'string' },
};

const IMPORT_USAGE = `usage: billing-sim import --data FILE [--secret SECRET] SNAPSHOT.json
  adds the snapshot (from GET /sim/v1/snapshot or export) to the data file as a new sandbox, created if
  missing, and prints the sandbox's id and bearer token; a running server holds the file: use
  POST /sim/v1/sandboxes {"snapshot": …} on that server instead
  --data    the SQLite data file
  --secret  secret that signs the token: the server's (default: a fixed development secret)
Each flag also from the environment: BILLING_SIM_DATA, BILLING_SIM_SECRET.`;

/** Wall time, for clocks that follow it: exported at their current instant, imported running from there. */
const wall = { now: () => Date.now() };

/** What export and import check a snapshot with: openapi.yaml's Snapshot schema and the rules beyond it. */
async function snapshotValidator() {
  const [{ loadSpec }, { createSnapshotValidator }] = await Promise.all([import('./contract/spec.ts'), import('./store/snapshot.ts')]);
  return createSnapshotValidator(loadSpec(), wall);
}

/**
 * A count the contract command takes, at least `min`: digits only, so that `1.5`, `-1`, `1e3` or
 * `ten` is a usage error rather than a number read some other way than meant.
 */
function countFlag(value: FlagValues[string], flag: string, min: 0 | 1): number | undefined {
  const text = stringFlag(value);
  if (text === undefined) return undefined;
  const count = /^\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!(count >= min) || !Number.isSafeInteger(count)) {
    throw new UsageError(`--${flag} must be a ${min ? 'positive' : 'non-negative'} integer, got "${text}"`, 'contract');
  }
  return count;
}

async function contract(args: string[]): Promise<number> {
  const parsed = parseCommand('contract', args, CONTRACT_FLAGS, CONTRACT_USAGE);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const env = process.env;
  const level = stringFlag(values.level);
  if (level !== undefined && level !== 'normative' && level !== 'informative') {
    throw new UsageError(`--level must be normative or informative, got "${level}"`, 'contract');
  }
  const maxWarnings = countFlag(values['max-warnings'], 'max-warnings', 0);
  // 0 requests in flight would never send one: not a limit but a hang.
  const concurrency = countFlag(values.concurrency, 'concurrency', 1);
  const summary = stringFlag(values.summary);
  if (summary === '') throw new UsageError('--summary needs a file name', 'contract');
  // Loaded only for this command: the suite brings vitest.
  const { runContract } = await import('../contract-tests/run.ts');
  return runContract({
    baseUrl: stringFlag(values['base-url']) ?? env.CONTRACT_BASE_URL,
    token: stringFlag(values.token) ?? env.CONTRACT_TOKEN,
    token2: stringFlag(values.token2) ?? env.CONTRACT_TOKEN2,
    brandId: stringFlag(values['brand-id']) ?? env.CONTRACT_BRAND_ID,
    brandId2: stringFlag(values['brand-id2']) ?? env.CONTRACT_BRAND_ID2,
    junit: stringFlag(values.junit) ?? env.CONTRACT_JUNIT,
    keep: values.keep === true,
    inAccounts: values['in-accounts'] === true,
    verbose: values.verbose === true,
    groups: (values.group as string[] | undefined) ?? [],
    level,
    filters: positionals,
    maxWarnings,
    summary,
    concurrency,
  });
}

async function proxy(args: string[]): Promise<void> {
  const parsed = parseCommand('proxy', args, PROXY_FLAGS, PROXY_USAGE);
  if (!parsed) return;
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, 'proxy');
  const upstream = requiredFlag(values.upstream, 'upstream', 'proxy');
  if (!URL.canParse(upstream) || !/^https?:$/.test(new URL(upstream).protocol)) {
    throw new UsageError(`--upstream must be an http(s) URL, got "${upstream}"`, 'proxy');
  }
  const port = integerFlag(values.port, 'port', 'proxy');
  if (port !== undefined && port > 65_535) throw new UsageError(`--port must be at most 65535, got ${port}`, 'proxy');
  const recordFile = stringFlag(values.record);
  if (recordFile === '') throw new UsageError('--record needs a file name', 'proxy');
  // Said rather than ignored: a user who asked to keep them expects a recording.
  if (values['keep-personal'] === true && recordFile === undefined) throw new UsageError('--keep-personal needs --record FILE', 'proxy');
  const [{ startProxy }, { stopOnSignals }] = await Promise.all([import('./proxy/proxy.ts'), import('./cli-serve.ts')]);
  const running = await startProxy({
    upstream,
    port: port ?? DEFAULT_PROXY_PORT,
    host: stringFlag(values.host) ?? DEFAULT_HOST,
    reportFile: stringFlag(values.report),
    junitFile: stringFlag(values.junit),
    recordFile,
    keepPersonal: values['keep-personal'] === true,
  });
  stopOnSignals(running);
  console.log(`billing-sim proxy listening on ${running.url}/, forwarding to ${upstream}
  report         ${running.url}/__proxy/report${recordFile === undefined ? '' : `\n  recording to   ${recordFile}`}`);
}

async function exportCommand(args: string[]): Promise<void> {
  const parsed = parseCommand('export', args, EXPORT_FLAGS, EXPORT_USAGE);
  if (!parsed) return;
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, 'export');
  const dataFile = requiredFlag(values.data, 'data', 'export');
  const out = requiredFlag(values.out, 'out', 'export');
  const seed = integerFlag(values.seed, 'seed', 'export') ?? DEFAULT_SEED;
  const [{ createIds }, { exportFromDataFile }, validator] = await Promise.all([import('./engine/ids.ts'), import('./store/snapshot-files.ts'), snapshotValidator()]);
  // The default sandbox's id is the first id its seed draws (index.ts).
  const sandboxId = stringFlag(values.sandbox) ?? createIds(seed).uuid();
  // The snapshot holds the webhook private key: what this process creates is readable by its owner only.
  process.umask(0o077);
  await exportFromDataFile({ dataFile, sandboxId, out, wall, validator });
  console.log(`billing-sim: exported sandbox ${sandboxId} of ${dataFile} to ${out}`);
}

async function importCommand(args: string[]): Promise<void> {
  const parsed = parseCommand('import', args, IMPORT_FLAGS, IMPORT_USAGE);
  if (!parsed) return;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError(`expected 1 snapshot file, got ${positionals.length}`, 'import');
  const dataFile = requiredFlag(values.data, 'data', 'import');
  const file = positionals[0]!;
  const [{ createIds }, { importIntoDataFile }, { DEFAULT_SECRET, TokenService }, validator] = await Promise.all([
    import('./engine/ids.ts'),
    import('./store/snapshot-files.ts'),
    import('./http/auth.ts'),
    snapshotValidator(),
  ]);
  const sandbox = await importIntoDataFile({ dataFile, file, wall, ids: createIds(), validator });
  const token = await new TokenService(stringFlag(values.secret) ?? DEFAULT_SECRET, wall).sign(sandbox.id);
  console.log(`billing-sim: imported ${file} into ${dataFile}
  sandbox id     ${sandbox.id}
  bearer token   ${token}
  brand_id       ${sandbox.brands[0]!.id}`);
}

const version = (): string => (createRequire(import.meta.url)('billing-sim/package.json') as { version: string }).version;

/** Runs the command line; resolves to the exit status, or undefined while a server keeps running. */
async function main(argv: string[]): Promise<number | undefined> {
  const [first, ...rest] = argv;
  // Flags without a command are serve's: `billing-sim --port 4011`.
  const [command, args] = first === undefined || (first.startsWith('-') && !['-h', '--help', '--version'].includes(first)) ? ['serve', argv] : [first, rest];
  switch (command) {
    case 'serve':
      await (await import('./cli-serve.ts')).serve(args);
      return undefined;
    case 'contract':
      return contract(args);
    case 'proxy':
      await proxy(args);
      return undefined;
    case 'scenario':
      return scenario(args);
    case 'replay':
      return replay(args);
    case 'export':
      await exportCommand(args);
      return 0;
    case 'import':
      await importCommand(args);
      return 0;
    case 'help':
    case '-h':
    case '--help':
      console.log(USAGE);
      return 0;
    case '--version':
      // `billing-sim --version extra` is a slip, not a question: said so rather than ignored.
      if (args.length > 0) throw new UsageError(`--version takes no argument, got "${args[0]}"`, '');
      console.log(version());
      return 0;
    default:
      throw new UsageError(`unknown command "${command}"`, '');
  }
}

/** What the system refuses for a given port, host or file: the configuration's fault, not a crash. */
const CONFIGURATION_ERRORS = new Set(['EADDRINUSE', 'EADDRNOTAVAIL', 'EACCES', 'EPERM', 'ENOTFOUND', 'EAI_AGAIN', 'ENOENT', 'EISDIR', 'ENOTDIR']);

try {
  const status = await main(process.argv.slice(2));
  if (status !== undefined) process.exit(status);
} catch (error) {
  // A wrong command line, a data file that cannot be used, a port taken: one line, no stack.
  const code = (error as NodeJS.ErrnoException).code;
  const { DataFileError } = await import('./store/sqlite-rows.ts');
  if (error instanceof UsageError || error instanceof DataFileError || (code && CONFIGURATION_ERRORS.has(code))) {
    console.error(`billing-sim: ${(error as Error).message}`);
    process.exit(2);
  }
  throw error;
}
