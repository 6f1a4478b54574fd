// `billing-sim serve [--port N] [--host H] [--data FILE] [--seed N] [--secret S] [--quiet]` and
// `billing-sim contract [--base-url URL --token T] [--token2 T] [--junit FILE]`.
// Parses flags into options and calls the library; nothing else happens here.

import { parseArgs } from 'node:util';
import { DEFAULT_HOST, DEFAULT_PORT, startSimulator } from './index.ts';
import { DataFileError } from './store/sqlite.ts';

const USAGE = `usage: billing-sim serve [--port N] [--host HOST] [--data FILE] [--seed N] [--secret SECRET] [--quiet]
       billing-sim contract [--base-url URL --token TOKEN] [--token2 TOKEN] [--junit FILE]
         checks a server against openapi.yaml (without --base-url: this simulator)
  --port    port to listen on (default ${DEFAULT_PORT}, or env PORT)
  --host    address to bind (default ${DEFAULT_HOST})
  --data    keep sandboxes in this SQLite file (created if missing) and load them at start
  --seed    seed of the default sandbox's fixtures and ids (default 1)
  --secret  secret that signs sandbox tokens (default: a fixed development secret, or env BILLING_SIM_SECRET)
  --quiet   no request log`;

function integer(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${flag} must be a non-negative integer, got "${value}"`);
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
    },
  });
  const startedAt = performance.now();
  const sim = await startSimulator({
    port: integer(values.port ?? process.env.PORT, '--port'),
    host: values.host,
    dataFile: values.data,
    seed: integer(values.seed, '--seed'),
    secret: values.secret ?? process.env.BILLING_SIM_SECRET,
    quiet: values.quiet,
  });
  console.log(`billing-sim listening in ${(performance.now() - startedAt).toFixed(0)} ms
  API base URL   ${sim.apiUrl}/
  control API    ${sim.url}/sim/v1/
  bearer token   ${sim.token}
  brand_id       ${sim.brandId}
  try: curl -H "Authorization: Bearer ${sim.token}" ${sim.apiUrl}/billing_templates/`);
  const stop = () => void sim.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

const [command = 'serve', ...rest] = process.argv.slice(2);
try {
  if (command === 'serve') await serve(rest);
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
  else console.error(`billing-sim: ${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
