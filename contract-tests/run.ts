// `npm run contract -- [--base-url URL --token TOKEN] [--token2 TOKEN] [--junit FILE] [filters…]`
// and `billing-sim contract …` (env CONTRACT_BASE_URL, CONTRACT_TOKEN, CONTRACT_TOKEN2,
// CONTRACT_JUNIT). Without a base URL the simulator is started and checked. Exit status: non-zero
// only when a normative check fails (an informative one only warns).

import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startVitest } from 'vitest/node';

/** Runs the suite and resolves to the exit status. */
export async function runContract(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      'base-url': { type: 'string' },
      token: { type: 'string' },
      token2: { type: 'string' },
      junit: { type: 'string' },
    },
    allowPositionals: true,
  });
  const env: Record<string, string | undefined> = {
    CONTRACT_BASE_URL: values['base-url'],
    CONTRACT_TOKEN: values.token,
    CONTRACT_TOKEN2: values.token2,
    CONTRACT_JUNIT: values.junit,
  };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) process.env[name] = value;

  const vitest = await startVitest('test', positionals, {
    config: fileURLToPath(new URL('./vitest.config.ts', import.meta.url)),
    run: true,
    watch: false,
  });
  await vitest.close();
  return Number(process.exitCode ?? 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exit(await runContract(process.argv.slice(2)));
}
