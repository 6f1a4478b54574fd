// Writes an API answer. Express's res.json re-derives the same headers on every call: it looks up
// `application/json` in mime-types, parses and re-formats the content type to add its charset, and
// reads three app settings; for a 313-byte `POST /api/v1/clients/` answer that was about 6% of the
// request's CPU (the JSON.stringify itself 1.4%). This writes the very headers it ends with
// (`Content-Type: application/json; charset=utf-8`, then `Content-Length`) and hands Node the string.
//
// Express stays in charge wherever it does more than that: a conditional request (`If-None-Match:
// *` on a GET answers 304 through req.fresh), and the statuses whose body and headers it strips.

import { pipeline, Readable } from 'node:stream';
import { setImmediate as nextTurnOfTheLoop } from 'node:timers/promises';
import type { Request, Response } from 'express';
import { SLICE_MS } from '../engine/limits.ts';
import type { Reply } from './handler.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Statuses Express answers without a body or with headers removed (204, 205, 304). */
const BODYLESS = new Set([204, 205, 304]);

function plain(req: Request, status: number): boolean {
  return !BODYLESS.has(status) && req.headers['if-none-match'] === undefined && req.headers['if-modified-since'] === undefined;
}

export interface SendOptions {
  /** Where a failure once a body in pieces has begun is reported; stderr when omitted. */
  logError?: (line: string) => void;
  /** How long a client may take nothing of a body in pieces before it is let go (STALLED_MS). */
  stalledMs?: number;
}

export function sendReply(req: Request, res: Response, reply: Reply, options: SendOptions = {}): void {
  if (reply.text) {
    sendText(req, res, reply.status, reply.text, options);
    return;
  }
  if (reply.body === undefined) {
    res.status(reply.status).end();
    return;
  }
  if (!plain(req, reply.status) || res.hasHeader('Content-Type') || res.hasHeader('Transfer-Encoding')) {
    res.status(reply.status).json(reply.body);
    return;
  }
  const json = JSON.stringify(reply.body);
  res.statusCode = reply.status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', String(Buffer.byteLength(json)));
  if (req.method === 'HEAD') res.end();
  else res.end(json);
}

/**
 * Pieces read ahead of the socket: with 64 KiB pieces, at most some 200 KB of JSON is made before the
 * client has taken what was sent, a millisecond or two before other requests are answered again.
 */
const PIECES_AHEAD = 2;

/**
 * A client that has taken nothing of a body in pieces for this long is let go (its connection is
 * closed): what the body was made from stays in memory until it is done, a deleted sandbox's
 * purchases included, and a reader that stopped must not keep them for ever.
 */
export const STALLED_MS = 60_000;

/**
 * The pieces, with a turn of the event loop every SLICE_MS of making and writing them. Backpressure
 * alone does not pace them: a socket that takes a write at once (a client reading as fast as the
 * loopback goes) completes it within the same turn, and the whole body went out before any other
 * request was looked at (3.9 s for a 417 MB snapshot).
 */
export async function* paced(pieces: Iterable<string>): AsyncGenerator<string> {
  let sliceStart = performance.now();
  for (const piece of pieces) {
    yield piece;
    if (performance.now() - sliceStart >= SLICE_MS) {
      await nextTurnOfTheLoop();
      sliceStart = performance.now();
    }
  }
}

/**
 * A body in pieces (Reply.text), with the headers sendReply writes but no Content-Length: its length
 * is known only at the end. Node's backpressure paces the pieces to the client; a client that goes
 * away, or takes nothing for STALLED_MS, stops them. A piece that fails once the answer has begun
 * cannot become an error body: the connection is cut, so the client never takes half a document for
 * a whole one, and the failure is logged as a 500 would be.
 */
function sendText(req: Request, res: Response, status: number, text: Iterable<string>, { logError = console.error, stalledMs = STALLED_MS }: SendOptions): void {
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_TYPE);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  // The socket's idle time: any byte taken starts it again.
  res.setTimeout(stalledMs, () => res.destroy());
  pipeline(Readable.from(paced(text), { highWaterMark: PIECES_AHEAD }), res, (error) => {
    if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') logError(`${req.method} ${req.originalUrl} failed while answering: ${error.stack ?? String(error)}`);
  });
}
