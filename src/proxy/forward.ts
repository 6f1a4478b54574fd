// One exchange passed through: the client's request streamed to the upstream (method, path and
// query as sent, headers without the hop-by-hop ones, Host rewritten, body bytes untouched), the
// upstream's answer streamed back as it came, and a bounded copy of each body kept to check. Nothing
// is checked here: what was seen is returned, and the proxy checks it after the client has its answer.

import { request as httpRequest, type Agent, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BodyCopy, type KeptBody } from './body.ts';
import { proxyErrors, sendError } from './errors.ts';
import { MAX_REQUEST_BODY_BYTES, MAX_RESPONSE_BODY_BYTES } from './limits.ts';

export interface Upstream {
  /** Only its origin is used: requests keep their own paths. */
  origin: URL;
  /** Silence of the upstream (no byte of an answer) that ends the exchange with a 502. */
  timeoutMs: number;
  /** Keeps connections to the upstream open between exchanges; destroyed on stop. */
  agent: Agent;
}

export interface Forwarded {
  /** False when the client went away before it had sent the whole request. */
  requestComplete: boolean;
  requestBody: KeptBody;
  /** The upstream's whole answer, as the client received it. */
  answer?: { status: number; headers: IncomingHttpHeaders; body: KeptBody };
  /**
   * Why there is no whole answer: the upstream could not be reached or stayed silent (the client got
   * a 502), cut its answer off (so was the client's), or the client went away first.
   */
  failure?: { kind: 'unreachable' | 'timeout' | 'cut' | 'client_gone'; message: string };
  /**
   * What the client got instead of a whole answer: the proxy's 502, or the head of an answer then cut
   * off (no body). Absent when it got the whole answer, or nothing (it went away).
   */
  delivered?: { status: number; headers: IncomingHttpHeaders; body?: string };
  timing: Timing;
}

/** When the exchange's steps happened, for a recording's HAR `timings`: ms since `started`, absent when not reached. */
export interface Timing {
  /** The wall clock when the request came in. */
  started: Date;
  /** The whole request handed to the upstream's connection. */
  sentMs?: number;
  /** The upstream's status line and headers in. */
  headMs?: number;
  /** The exchange settled. */
  endMs: number;
}

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1), and so are not passed on:
 * Node writes its own framing on each side. `expect` too: the proxy's server has already answered
 * the client's `100-continue`, and the upstream connection is not the client's.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect']);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  // A header the sender names in `Connection` is hop-by-hop as well.
  const named = new Set(String(headers.connection ?? '').split(',').map((name) => name.trim().toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.has(name)));
}

class UpstreamTimeout extends Error {}

/** The status and headers the client was sent before its answer was cut off. */
function headOf(res: ServerResponse): Forwarded['delivered'] {
  return { status: res.statusCode, headers: res.getHeaders() as IncomingHttpHeaders };
}

export function forward(req: IncomingMessage, res: ServerResponse, upstream: Upstream): Promise<Forwarded> {
  return new Promise((resolve) => {
    const requestCopy = new BodyCopy(MAX_REQUEST_BODY_BYTES);
    const { origin } = upstream;
    const since = performance.now();
    const timing: Timing = { started: new Date(), endMs: 0 };
    const elapsed = () => performance.now() - since;
    const seenRequest = () => ({ requestComplete: req.complete, requestBody: requestCopy.kept(req.headers['content-encoding']) });
    let settled = false;
    const settle = (result: Omit<Forwarded, 'requestComplete' | 'requestBody' | 'timing'>) => {
      if (settled) return;
      settled = true;
      timing.endMs = elapsed();
      const done = () => resolve({ ...seenRequest(), ...result, timing });
      if (req.complete || req.destroyed) return done();
      // The upstream answered before the whole request had come (a 413 on its content-length alone).
      // The rest is read, to check it, but no longer sent: an upstream that reads no more would hold
      // it for ever, and its connection cannot be reused mid-body anyway.
      req.unpipe(out);
      out.destroy();
      req.once('end', done).once('close', done);
      req.resume();
    };

    const out = (origin.protocol === 'https:' ? httpsRequest : httpRequest)({
      protocol: origin.protocol,
      // URL keeps an IPv6 address in brackets; a socket wants it bare.
      hostname: origin.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: origin.port,
      method: req.method,
      path: req.url,
      headers: { ...endToEnd(req.headers), host: origin.host },
      agent: upstream.agent,
    });
    out.setTimeout(upstream.timeoutMs, () => out.destroy(new UpstreamTimeout()));

    out.on('error', (error) => {
      // After the answer: the connection settle() let go of.
      if (settled) return;
      if (res.headersSent) {
        // Part of the answer is with the client already: the only honest end is a cut connection.
        res.destroy();
        return settle({ failure: { kind: 'cut', message: `the upstream's answer was cut off: ${error.message}` }, delivered: headOf(res) });
      }
      if (res.destroyed || req.socket.destroyed) return settle({ failure: { kind: 'client_gone', message: 'the client went away before the answer' } });
      const timedOut = error instanceof UpstreamTimeout;
      const detail = timedOut ? proxyErrors.upstreamTimeout(origin.origin, upstream.timeoutMs) : proxyErrors.upstreamUnreachable(origin.origin, error.message);
      const sent = sendError(res, 502, detail);
      settle({ failure: { kind: timedOut ? 'timeout' : 'unreachable', message: detail.message }, delivered: { status: 502, ...sent } });
    });

    out.on('finish', () => (timing.sentMs = elapsed()));
    out.on('response', (answer) => {
      timing.headMs = elapsed();
      const answerCopy = new BodyCopy(MAX_RESPONSE_BODY_BYTES);
      res.writeHead(answer.statusCode!, answer.statusMessage, endToEnd(answer.headers));
      answer.on('data', (chunk: Buffer) => answerCopy.add(chunk));
      // Before the pipe's own listener ends the client's response: the exchange is settled (and its
      // checks under way) before the client can ask for the report.
      answer.on('end', () =>
        settle({ answer: { status: answer.statusCode!, headers: answer.headers, body: answerCopy.kept(answer.headers['content-encoding']) } }),
      );
      answer.on('close', () => {
        if (answer.complete) return;
        res.destroy();
        settle({ failure: { kind: 'cut', message: "the upstream's answer was cut off" }, delivered: headOf(res) });
      });
      answer.pipe(res);
    });

    // A client that goes away takes its exchange with it: the upstream request is not left running.
    res.on('close', () => {
      if (res.writableFinished) return;
      out.destroy();
      settle({ failure: { kind: 'client_gone', message: 'the client went away before the answer' } });
    });
    req.on('data', (chunk: Buffer) => requestCopy.add(chunk));
    req.on('error', () => out.destroy());
    req.pipe(out);
  });
}
