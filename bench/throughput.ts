// Request throughput: the simulator as a user starts it (`node dist/src/cli.js serve`), `prism mock`
// on the same openapi.yaml (bench/servers/prism.ts) and the Express floor (bench/servers/floor.ts,
// answering the very bodies the simulator answered), each in a process of its own, loaded in turn
// by autocannon in yet another (bench/load.ts). `throughput.ts [SECONDS] [WARM_UP_SECONDS] [ROUNDS]`.
// Prints a table; the last line is the figures as JSON.

import type { LoadResult } from './load.ts';
import { call, loadCase, send, type Case } from './http.ts';
import { medianBy, type CaseFigures, type ServerName } from './results.ts';
import { startServer, startSimulatorWithToken, tsNode, type Server } from './spawn.ts';

const SECONDS = Number(process.argv[2] ?? 3);
const WARM_UP_SECONDS = Number(process.argv[3] ?? 1);
const ROUNDS = Number(process.argv[4] ?? 3);
const CONNECTIONS = 10;
const SERVERS: ServerName[] = ['simulator', 'prism', 'floor'];

/** The four cases, in the simulator's default sandbox (two templates: a list answer of about 1.8 kB). */
async function cases(sim: Server, token: string): Promise<Case[]> {
  const target = { url: sim.origin, token };
  const templates = await call(target, 'GET', '/api/v1/billing_templates/');
  const template = (templates.results as Array<Record<string, any>>).find((t) => t.is_subscription);
  if (!template) throw new Error("the default sandbox has no subscription template to add subscribers to");
  const client = await call(target, 'POST', '/api/v1/clients/', { email: 'subscriber@example.com', full_name: 'Load Subscriber' });
  // The default sandbox's clock is the wall clock: dates from it, so the first deduction is never in the past.
  const now = new Date((await call(target, 'GET', '/sim/v1/clock')).now);
  const date = (years: number, days: number) => new Date(Date.UTC(now.getUTCFullYear() + years, now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
  return [
    { name: 'list GET', method: 'GET', path: '/api/v1/billing_templates/' },
    { name: 'object GET', method: 'GET', path: `/api/v1/billing_templates/${template.id}/` },
    { name: 'create POST', method: 'POST', path: '/api/v1/clients/', body: { email: 'load@example.com', full_name: 'Load Test' } },
    // The simulator accepts the same client again and again: each request adds one more subscription.
    {
      name: 'action POST',
      method: 'POST',
      path: `/api/v1/billing_templates/${template.id}/add_subscriber/`,
      body: { client_id: client.id, subscription_deduction_date: date(0, 30), mandate_expiry_date: date(10, 0) },
    },
  ];
}

/** The simulator's answer to one request of each case, for the floor to answer in its place. */
async function capture(sim: Server, token: string, requests: Case[]) {
  return Promise.all(
    requests.map(async ({ method, path, body }) => ({ method, path, ...(await send({ url: sim.origin, token }, method, path, body)) })),
  );
}

function load(server: Server, token: string, request: Case): Promise<LoadResult> {
  return loadCase(server.origin, token, request, { connections: CONNECTIONS, seconds: SECONDS, warmUpSeconds: WARM_UP_SECONDS });
}

const started: Server[] = [];
try {
  const { sim, token } = await startSimulatorWithToken();
  started.push(sim);
  const prism = await startServer(...tsNode('servers/prism.ts'));
  started.push(prism);
  const requests = await cases(sim, token);
  const answers = await capture(sim, token, requests);
  const refused = answers.filter((answer) => answer.status < 200 || answer.status > 299);
  if (refused.length > 0) throw new Error(`the simulator refused a case before the load: ${JSON.stringify(refused)}`);
  const floor = await startServer(...tsNode('servers/floor.ts'), { input: JSON.stringify(answers) });
  started.push(floor);
  const servers: Record<ServerName, Server> = { simulator: sim, prism, floor };

  const figures: Record<string, CaseFigures> = {};
  // Case by case, the three servers in turn, ROUNDS times in a rotating order, so a busy moment of
  // the machine falls on one case's peers alike; each server's median round is its figure.
  for (const [i, request] of requests.entries()) {
    const line = `${request.method} ${request.path.replace(/[0-9a-f-]{36}/, '{id}')}`;
    const entry: CaseFigures = { request: line, bytes: Buffer.byteLength(JSON.stringify(answers[i]!.body)), servers: {} };
    figures[request.name] = entry;
    try {
      const rounds: Record<ServerName, LoadResult[]> = { simulator: [], prism: [], floor: [] };
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const server of [...SERVERS.slice(round % SERVERS.length), ...SERVERS.slice(0, round % SERVERS.length)]) {
          rounds[server].push(await load(servers[server], token, request));
        }
      }
      for (const server of SERVERS) entry.servers[server] = medianBy(rounds[server], (round) => round.requestsPerSecond);
      entry.roundsPerSecond = Object.fromEntries(SERVERS.map((server) => [server, rounds[server].map((round) => round.requestsPerSecond)]));
    } catch (error) {
      entry.error = (error as Error).message;
      console.error(`\n!!! ${request.name} FAILED: ${entry.error}\n`);
    }
  }
  printTable(figures);
  console.log(JSON.stringify({ seconds: SECONDS, warmUpSeconds: WARM_UP_SECONDS, rounds: ROUNDS, connections: CONNECTIONS, cases: figures }));
} finally {
  await Promise.all(started.map((server) => server.stop()));
}

function printTable(figures: Record<string, CaseFigures>): void {
  const rows = Object.entries(figures).flatMap(([name, { request, bytes, servers, roundsPerSecond, error }]): Array<Record<string, string | number>> => {
    if (error) return [{ case: `${name}: ${request}`, server: 'FAILED', 'req/s': error }];
    const sim = servers.simulator!;
    return SERVERS.map((server) => ({
      case: server === 'simulator' ? `${name}: ${request} (${bytes} B)` : '',
      server,
      'req/s': servers[server]!.requestsPerSecond,
      // Every round beside the median: on a shared machine one server's rounds may lie far apart.
      'rounds req/s': roundsPerSecond?.[server]?.join(', ') ?? '',
      'p50 ms': servers[server]!.p50Ms,
      'p99 ms': servers[server]!.p99Ms,
      'sim / this': server === 'simulator' ? '' : server === 'floor' ? percent(sim, servers.floor!) : times(sim, servers.prism!),
    }));
  });
  console.table(rows);
}

// Rounded down, as bench/criteria.ts prints them: 2.497× is 2.49×, short of 2.5×.
function percent(a: LoadResult, b: LoadResult): string {
  return `${Math.floor((100 * a.requestsPerSecond) / b.requestsPerSecond)} %`;
}

function times(a: LoadResult, b: LoadResult): string {
  return `${(Math.floor((100 * a.requestsPerSecond) / b.requestsPerSecond) / 100).toFixed(2)} ×`;
}
