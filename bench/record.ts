// What `--record` costs the proxy (issue 43: "a recording of 10,000 exchanges costs the proxy no more
// than 10 % of its throughput"): one simulator (compiled, as users start it), and in front of it two
// `billing-sim proxy` processes, one plain and one with `--record`, loaded in turn by autocannon in a
// process of its own (bench/load.ts) with 10,000 exchanges per case and round, the two proxies in a
// rotating order so a busy moment of the machine falls on both alike. `record.ts [ROUNDS]`.
// Prints a table; the last line is the figures as JSON (RecordFigures).

import { mkdtempSync, openSync, readSync, closeSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCase, type Case } from './http.ts';
import type { LoadResult } from './load.ts';
import { medianBy, type RecordFigures } from './results.ts';
import { CLI, startServer, startSimulatorWithToken, type Server } from './spawn.ts';

const ROUNDS = Number(process.argv[2] ?? 3);
/** The figure: a recording of 10,000 exchanges. */
const EXCHANGES = 10_000;
const CONNECTIONS = 10;
/**
 * An unmeasured run of each case on each proxy first, for the JIT. Not autocannon's own warm-up: with
 * `amount` set, it sends that many again (a first run recorded 120,000 entries for 60,000 measured).
 */
const WARM_UP_EXCHANGES = 1_000;
const PROXIES = ['plain', 'recording'] as const;

/** A list answer (the larger body to copy and write) and a create whose request and answer carry an e-mail and a phone to scrub. */
const CASES: Case[] = [
  { name: 'list GET', method: 'GET', path: '/api/v1/billing_templates/' },
  { name: 'create POST', method: 'POST', path: '/api/v1/clients/', body: { email: 'load@example.com', full_name: 'Load Test', phone: '+60 12-345 6789' } },
];

/** Entries in a recording: one line each, counted without parsing a file of many megabytes. */
function entriesIn(file: string): number {
  const fd = openSync(file, 'r');
  const buffer = Buffer.alloc(1 << 20);
  let lines = 0;
  for (let read; (read = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) {
    for (let i = buffer.indexOf(10); i !== -1 && i < read; i = buffer.indexOf(10, i + 1)) lines += 1;
  }
  closeSync(fd);
  // The head's line and the tail's two end with a newline; every entry's line does too.
  return lines - 2;
}

function load(server: Server, token: string, request: Case, amount = EXCHANGES): Promise<LoadResult> {
  return loadCase(server.origin, token, request, { connections: CONNECTIONS, seconds: 0, amount, warmUpSeconds: 0 });
}

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-bench-record-'));
const file = join(dir, 'bench.har');
const started: Server[] = [];
try {
  const { sim, token } = await startSimulatorWithToken();
  started.push(sim);
  const announced = /listening on (http:\/\/\S+?)\/,/;
  const proxy = (record: string[]) => startServer(process.execPath, [CLI, 'proxy', '--upstream', sim.origin, '--port', '0', ...record], { announced });
  const servers = { plain: await proxy([]), recording: await proxy(['--record', file]) };
  started.push(servers.plain, servers.recording);

  const cases: RecordFigures['cases'] = {};
  let sent = 0;
  for (const request of CASES) {
    const rounds: Record<(typeof PROXIES)[number], LoadResult[]> = { plain: [], recording: [] };
    for (const name of PROXIES) await load(servers[name], token, request, WARM_UP_EXCHANGES);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const name of round % 2 === 0 ? PROXIES : [...PROXIES].reverse()) {
        const result = await load(servers[name], token, request);
        rounds[name].push(result);
        if (name === 'recording') sent += result.requests;
      }
    }
    const plain = medianBy(rounds.plain, (r) => r.requestsPerSecond);
    const recording = medianBy(rounds.recording, (r) => r.requestsPerSecond);
    cases[request.name] = {
      request: `${request.method} ${request.path}`,
      plain,
      recording,
      ratio: recording.requestsPerSecond / plain.requestsPerSecond,
      rounds: { plain: rounds.plain.map((r) => r.requestsPerSecond), recording: rounds.recording.map((r) => r.requestsPerSecond) },
    };
  }
  // SIGTERM: the proxy writes what it still holds, then exits.
  await servers.recording.stop();
  const recorded = entriesIn(file);
  console.table(
    Object.entries(cases).map(([name, c]) => ({
      case: `${name}: ${c.request}`,
      'plain req/s': c.plain.requestsPerSecond,
      'recording req/s': c.recording.requestsPerSecond,
      'rounds plain / recording': `${c.rounds.plain.join(', ')} / ${c.rounds.recording.join(', ')}`,
      'p99 ms plain / recording': `${c.plain.p99Ms} / ${c.recording.p99Ms}`,
      'recording / plain': `${Math.floor(c.ratio * 100)} %`,
    })),
  );
  console.log(`recorded ${recorded} entries (${sent} measured exchanges and ${CASES.length * WARM_UP_EXCHANGES} of warm-up), ${(statSync(file).size / 1e6).toFixed(1)} MB`);
  const figures: RecordFigures = { exchanges: EXCHANGES, cases, recorded, sent };
  console.log(JSON.stringify(figures));
} finally {
  await Promise.all(started.map((server) => server.stop()));
  rmSync(dir, { recursive: true, force: true });
}
