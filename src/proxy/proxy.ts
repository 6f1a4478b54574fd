// `billing-sim proxy`: a validating proxy, after Prism's proxy mode (DESIGN.md §8). It owns the
// listening socket, the tally and the report files. Every request is forwarded to the upstream and its
// answer returned unchanged (forward.ts); once the client has its answer, both sides are checked
// against openapi.yaml with the validators the simulator and the contract suite use (inspect.ts), and
// each violation is logged as one line and counted (tally.ts); so is each field of an answer the
// document does not name, as a note (logged the first time an operation shows it, never a violation).
// Paths under /__proxy/ are the proxy's
// own and never forwarded: GET /__proxy/report answers the tally. stop() writes the report files.
// Only the CLI (and the proxy's tests) import this room; it imports the contract's validators, never the server.

import { mkdir, writeFile } from 'node:fs/promises';
import { Agent as HttpAgent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { loadReadings } from '../../contract-tests/lib/document.ts';
import { buildRouteTable } from '../contract/routes.ts';
import { loadSpec } from '../contract/spec.ts';
import { proxyErrors, sendError } from './errors.ts';
import { forward, type Forwarded, type Upstream } from './forward.ts';
import { inspect, type SentRequest } from './inspect.ts';
import { toJUnit } from './junit.ts';
import { CUT_SETTLE_MS, DEFAULT_PROXY_PORT, STOP_GRACE_MS, UPSTREAM_TIMEOUT_MS } from './limits.ts';
import { noteLine, Tally, violationLine, type Exchange, type ProxyReport, type Violation } from './tally.ts';
import { Recorder, type Findings } from '../recording/recorder.ts';
import { listen } from '../http/listen.ts';

export interface ProxyOptions {
  /**
   * The server to forward to. Only its origin is used: requests keep their own paths, so
   * `https://gate.example/api/v1`, the API base a client configures, forwards /api/v1/clients/ to
   * https://gate.example/api/v1/clients/, not to …/api/v1/api/v1/clients/.
   */
  upstream: string;
  /** Default 4011; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The report as JSON, written by stop(); relative to the current folder. */
  reportFile?: string;
  /** The report as JUnit XML, written by stop(). */
  junitFile?: string;
  /** How long the upstream may stay silent before the client gets a 502 (default UPSTREAM_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Where the log lines go (default standard output). */
  log?: (line: string) => void;
  /** Record every exchange, scrubbed, to this HAR file as it goes (src/recording/recorder.ts); relative to the current folder. */
  recordFile?: string;
  /** With `recordFile`: keep e-mail addresses and phone numbers rather than replace them by fakes (secrets are scrubbed all the same). */
  keepPersonal?: boolean;
}

export interface RunningProxy {
  /** The proxy's origin, e.g. http://127.0.0.1:4011. */
  url: string;
  /** The tally so far, with every exchange already answered checked. */
  report(): Promise<ProxyReport>;
  /** Stops listening, ends running exchanges after STOP_GRACE_MS, then writes the report files. */
  stop(): Promise<void>;
}

/** The proxy's own paths; never forwarded. */
const OWN_PREFIX = '/__proxy/';
const REPORT_PATH = '/__proxy/report';


export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const log = options.log ?? ((line: string) => console.log(line));
  const origin = new URL(new URL(options.upstream).origin);
  const agent = origin.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const upstream: Upstream = { origin, timeoutMs: options.timeoutMs ?? UPSTREAM_TIMEOUT_MS, agent };
  const routes = buildRouteTable(loadSpec());
  const tally = new Tally(origin.origin, new Date());
  const running = new Set<Promise<Forwarded>>();
  const checking = new Set<Promise<void>>();
  const settledChecks = () => Promise.allSettled([...checking]).then(() => undefined);

  let recorder: Recorder | undefined;

  /** Checks the exchange, then records it with what the check found (a check that throws records it all the same). */
  const check = (sent: SentRequest, forwarded: Forwarded, record: ((findings: Findings) => void) | undefined) => {
    const done = inspect(routes, sent, forwarded, new Date()).then(
      (exchange) => {
        record?.(findingsOf(exchange));
        const firstNotes = tally.record(exchange);
        for (const violation of exchange.violations) log(violationLine(exchange.operation.name, violation));
        for (const note of firstNotes) log(noteLine(exchange.operation.name, note));
      },
      (error: Error) => {
        log(`${new Date().toISOString()} proxy: ${sent.method} ${sent.url} could not be checked: ${error.message}`);
        record?.({ violations: [], notes: [{ path: '', message: `The proxy could not check this exchange: ${error.message}` }] });
      },
    );
    checking.add(done);
    void done.finally(() => checking.delete(done));
  };

  const server = createServer((req, res) => {
    const target = req.url ?? '';
    if (!target.startsWith('/')) return void sendError(res, 400, proxyErrors.originFormOnly(target));
    if (target.startsWith(OWN_PREFIX)) return void answerOwn(req, res, () => settledChecks().then(() => tally.report()));
    const sent: SentRequest = { method: req.method!, url: target, headers: req.headers };
    const exchange = forward(req, res, upstream);
    running.add(exchange);
    void exchange.then((forwarded) => {
      running.delete(exchange);
      if (forwarded.failure && forwarded.failure.kind !== 'client_gone') {
        const answered = forwarded.failure.kind === 'cut' ? 'cut off' : '502';
        log(`${new Date().toISOString()} upstream ${sent.method} ${sent.url} → ${answered}: ${forwarded.failure.message} (not a violation)`);
      }
      // Its place in the recording is taken now: the file's order is the order exchanges completed.
      const record = recorder?.reserve({ ...forwarded, method: sent.method, target, httpVersion: req.httpVersion, headers: req.headers });
      // A CORS preflight asks the server about a request to come; it is no operation of the document.
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) return record?.({ violations: [], notes: [] });
      check(sent, forwarded, record);
    });
  });
  // Prism's reading of the document takes half a second of CPU in one piece (twice: the platform's
  // reading and, for its notes, the full one): done before listening, so that it holds up no exchange.
  // ajv's validators compile in small steps once listening.
  await loadReadings({ platform: true });
  await listen(server, options.port ?? DEFAULT_PROXY_PORT, options.host ?? '127.0.0.1');
  // A stop ends it, as the simulator's (src/index.ts): a proxy stopped a moment after its start went on
  // compiling every operation's validators for a second or more of CPU.
  const warming = new AbortController();
  void routes.warmUp(warming.signal);
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  // Opened once the proxy's origin is known (the start of each entry's URL), before any exchange can come
  // in; a file that cannot be written leaves no proxy listening.
  try {
    if (options.recordFile) {
      const onError = (error: Error) => log(`${new Date().toISOString()} proxy: an exchange could not be recorded: ${error.message}`);
      recorder = new Recorder({ file: options.recordFile, proxyOrigin: url, upstream: origin.origin, keepPersonal: options.keepPersonal, onError });
    }
  } catch (error) {
    warming.abort();
    server.close();
    throw error;
  }

  let stopped: Promise<void> | undefined;
  const stop = async () => {
    warming.abort();
    server.close();
    server.closeIdleConnections();
    await settledWithin(running, STOP_GRACE_MS);
    // What is still running is cut: its client's connection closes, which ends its upstream request
    // and settles the exchange (forward.ts) within a turn or two.
    server.closeAllConnections();
    await settledWithin(running, CUT_SETTLE_MS);
    agent.destroy();
    await settledChecks();
    recorder?.close();
    await writeReports(tally.report(), options, log, recorder);
  };
  return { url, report: () => settledChecks().then(() => tally.report()), stop: () => (stopped ??= stop()) };
}

/** Resolves when every promise of `running` has settled, or after `ms`. */
async function settledWithin(running: Set<Promise<unknown>>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled([...running]), new Promise((done) => (timer = setTimeout(done, ms)))]);
  clearTimeout(timer);
}

async function answerOwn(req: IncomingMessage, res: ServerResponse, report: () => Promise<ProxyReport>): Promise<void> {
  // The request's body, if any, is not wanted; it is read so that the connection stays usable.
  req.resume();
  const path = req.url!.split('?')[0]!;
  if (path !== REPORT_PATH) return void sendError(res, 404, proxyErrors.notFound(path));
  if (req.method !== 'GET' && req.method !== 'HEAD') return void sendError(res, 405, proxyErrors.methodNotAllowed(req.method!), { allow: 'GET, HEAD' });
  const body = `${JSON.stringify(await report(), null, 2)}\n`;
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The findings of a checked exchange as a recording keeps them: where (as the log line names it) and what. */
function findingsOf(exchange: Exchange): Findings {
  const where = (finding: Violation) => (finding.field === undefined ? finding.part : `${finding.part} ${finding.field}`);
  return {
    ...(exchange.operation.inDocument ? { operation: exchange.operation.name } : {}),
    violations: exchange.violations.map((violation) => ({ side: violation.side, path: where(violation), message: violation.message })),
    notes: exchange.notes.map((note) => ({ path: where(note), message: note.message })),
  };
}

async function writeReports(report: ProxyReport, options: ProxyOptions, log: (line: string) => void, recorder: Recorder | undefined): Promise<void> {
  const written: string[] = [];
  const write = async (file: string, text: string, what: string) => {
    const path = resolve(file);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    written.push(`${what} ${path}`);
  };
  if (options.reportFile) await write(options.reportFile, `${JSON.stringify(report, null, 2)}\n`, 'report');
  if (options.junitFile) await write(options.junitFile, toJUnit(report), 'JUnit');
  const operations = Object.values(report.operations).filter((operation) => operation.violations > 0).length;
  const noted = Object.values(report.operations).filter((operation) => operation.notes > 0).length;
  log(
    `billing-sim proxy: ${report.exchanges} exchange(s), ${report.violations} violation(s) in ${operations} operation(s)` +
      (report.notes ? `, ${report.notes} note(s) (fields openapi.yaml does not name) in ${noted} operation(s)` : '') +
      (written.length ? `; wrote ${written.join(', ')}` : '') +
      (recorder ? `; recorded ${recorder.count} exchange(s) to ${recorder.path}` : ''),
  );
}

export type { ProxyReport } from './tally.ts';
