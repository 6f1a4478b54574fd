// `billing-sim serve`: its flags, the start-up lines it prints, and the stop on SIGINT/SIGTERM that the
// proxy command shares. Parses flags into startSimulator's options; the library does the rest.

import { DEFAULT_SEED } from './engine/sandboxes.ts';
import { parseAllowedHost, parseCorsOrigin } from './http/hosts.ts';
import { MAX_EVENTS_PER_SANDBOX } from './engine/limits.ts';
import { DEFAULT_HOST, DEFAULT_PORT, startSimulator } from './index.ts';
import { watchStarter } from './starter.ts';
import { integerFlag, parseCommand, stringFlag, UsageError, type FlagSpec } from './cli-args.ts';

const SERVE_FLAGS: Record<string, FlagSpec> = {
  port: { type: 'string' },
  host: { type: 'string' },
  data: { type: 'string' },
  seed: { type: 'string' },
  secret: { type: 'string' },
  quiet: { type: 'boolean' },
  'cors-origin': { type: 'string', multiple: true },
  'allowed-host': { type: 'string', multiple: true },
  'max-events': { type: 'string' },
  strict: { type: 'boolean' },
};

const SERVE_USAGE = `usage: billing-sim serve [--port N] [--host HOST] [--data FILE] [--seed N] [--secret SECRET] [--quiet]
                         [--cors-origin ORIGIN]... [--allowed-host NAME]... [--max-events N] [--strict]
  --port          port to listen on (default ${DEFAULT_PORT}; env BILLING_SIM_PORT or PORT)
  --host          address to bind (default ${DEFAULT_HOST})
  --data          keep sandboxes in this SQLite file (created if missing) and load them at start
  --seed          seed of the default sandbox's fixtures and ids (default ${DEFAULT_SEED})
  --secret        secret that signs sandbox tokens (default: a fixed development secret)
  --quiet         no request log
  --cors-origin   an origin whose pages may call the API too (repeatable, or * for any; in the
                  environment comma-separated); pages on localhost origins always may
  --allowed-host  a host name the server answers to besides localhost, 127.0.0.1, [::1] and --host
                  (repeatable; .example.test: with subdomains; * for any); other names get 403,
                  so a web page cannot reach it by DNS rebinding
  --max-events    events kept per sandbox, the newest, and as many outbox e-mails (default ${MAX_EVENTS_PER_SANDBOX})
  --strict        every sandbox refuses an /api/v1 body field the operation does not define or a read-only
                  one (400 unknown_field / read_only) and a number for a text field; by default they are
                  ignored (named in the Billing-Sim-Ignored header) or read as text, as the platform does
Each flag also from the environment: BILLING_SIM_PORT, BILLING_SIM_HOST, BILLING_SIM_DATA, BILLING_SIM_SEED,
BILLING_SIM_SECRET, BILLING_SIM_QUIET=1, BILLING_SIM_CORS_ORIGIN, BILLING_SIM_ALLOWED_HOST, BILLING_SIM_MAX_EVENTS,
BILLING_SIM_STRICT=1.
SIGINT or SIGTERM stops the server (exit 0) once running requests have answered.`;

/** A stop that waits longer than this for running work gives up waiting: SIGTERM must end the process within 2 s. */
const STOP_GRACE_MS = 1_500;

export async function serve(args: string[]): Promise<void> {
  const parsed = parseCommand('serve', args, SERVE_FLAGS, SERVE_USAGE);
  if (!parsed) return;
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, 'serve');
  const maxEvents = integerFlag(values['max-events'], 'max-events', 'serve');
  if (maxEvents === 0) throw new UsageError('--max-events must be at least 1', 'serve');
  const host = stringFlag(values.host);
  let corsOrigins: string[] | undefined;
  let allowedHosts: string[] | undefined;
  try {
    corsOrigins = (values['cors-origin'] as string[] | undefined)?.map(parseCorsOrigin);
    allowedHosts = (values['allowed-host'] as string[] | undefined)?.map(parseAllowedHost);
  } catch (error) {
    throw new UsageError((error as Error).message, 'serve');
  }
  const port = integerFlag(values.port ?? process.env.PORT, 'port', 'serve');
  if (port !== undefined && port > 65_535) throw new UsageError(`--port must be at most 65535, got ${port}`, 'serve');
  const startedAt = performance.now();
  const sim = await startSimulator({
    port,
    host,
    dataFile: stringFlag(values.data),
    seed: integerFlag(values.seed, 'seed', 'serve'),
    secret: stringFlag(values.secret),
    quiet: values.quiet === true,
    corsOrigins,
    allowedHosts,
    maxEvents,
    strict: values.strict === true,
  });
  stopOnSignals(sim);
  console.log(`billing-sim listening in ${(performance.now() - startedAt).toFixed(0)} ms
  API base URL   ${sim.apiUrl}/
  control API    ${sim.url}/sim/v1/
  bearer token   ${sim.token}
  brand_id       ${sim.brandId}${host === '0.0.0.0' || host === '::' ? allInterfacesHint(sim.url) : ''}
  try: curl -H "Authorization: Bearer ${sim.token}" ${sim.apiUrl}/billing_templates/`);
}

/**
 * SIGINT/SIGTERM: stop taking connections, let running turns commit, close the data file, exit 0.
 * Work still running after STOP_GRACE_MS is left (nothing it did was answered, so nothing answered
 * is lost); a second signal exits at once.
 */
export function stopOnSignals(sim: { stop(): Promise<void> }): void {
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) process.exit(0);
    stopping = true;
    setTimeout(() => {
      console.error(`billing-sim: ${reason}: work still running after ${STOP_GRACE_MS} ms was left unfinished`);
      process.exit(0);
    }, STOP_GRACE_MS).unref();
    sim.stop().then(
      () => process.exit(0),
      (error: Error) => {
        console.error(`billing-sim: ${reason}: stopping failed: ${error.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Under `npx billing-sim`, npm's end is a stop too (starter.ts).
  watchStarter(() => stop('the npm process that started it is gone'));
}

/** Bound to every interface, the server cannot know the machine's names: it says which it answers to (hosts.ts). */
const allInterfacesHint = (url: string): string => `
  host names     all interfaces: any IP address, localhost and --allowed-host names are served; to open
                 it by another name, e.g. http://mybox.local:${new URL(url).port}/, add --allowed-host mybox.local`;
