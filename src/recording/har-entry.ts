// One exchange the proxy saw, as a HAR 1.2 entry, scrubbed (scrub.ts) before it is anything else.
//
// - `request.url` is the URL as the client asked the proxy: the proxy's origin, the path and the query.
// - Bodies are text as the sender meant them (a `content-encoding` undone by the proxy's copy); an answer
//   that is not UTF-8 text is base64 (`encoding`), unscrubbed, as HAR has it; a request body HAR can only
//   hold as text, so one that is not text is left out with a `comment`. So is a body the proxy did not
//   keep whole (too large, unreadable).
// - An exchange without a whole answer is what the client got: the proxy's 502, the head of an answer
//   cut off, or status 0 (nothing: it went away), with the reason in `_billingSim.failure`.
// - `timings`: `send` until the whole request was handed to the upstream's connection, `wait` until the
//   upstream's head came, `receive` until the end; -1 for a step not reached, and for what a proxy
//   reusing its connections does not see (`blocked`, `dns`, `connect`).

import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import type { Header, Param, PostData, PostDataCommon } from 'har-format';
import type { EntryNotes, RecordedEntry } from './har-file.ts';
import type { Counts, Scrubber } from './scrub.ts';

/** A body as the proxy kept it (src/proxy/body.ts KeptBody). */
export type SeenBody = { kind: 'kept'; bytes: Buffer } | { kind: 'too_large' } | { kind: 'unreadable'; why: string };

/** What the proxy saw of an exchange (its SentRequest and Forwarded, src/proxy). */
export interface SeenExchange {
  method: string;
  /** Path and query as sent. */
  target: string;
  httpVersion: string;
  headers: IncomingHttpHeaders;
  requestComplete: boolean;
  requestBody: SeenBody;
  answer?: { status: number; headers: IncomingHttpHeaders; body: SeenBody };
  failure?: { kind: string; message: string };
  delivered?: { status: number; headers: IncomingHttpHeaders; body?: string };
  timing: { started: Date; sentMs?: number; headMs?: number; endMs: number };
}

/** The proxy's findings on the exchange: `_billingSim` without what the recorder adds. */
export type Findings = Pick<EntryNotes, 'operation' | 'violations' | 'notes'>;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;

export function toEntry(seen: SeenExchange, findings: Findings, scrubber: Scrubber, proxyOrigin: string): RecordedEntry {
  const counts: Counts = {};
  const target = scrubber.target(seen.target, counts);
  const url = new URL(target, proxyOrigin);
  const request = {
    method: seen.method,
    url: proxyOrigin + target,
    httpVersion: `HTTP/${seen.httpVersion}`,
    cookies: [],
    headers: headerList(seen.headers, scrubber, counts),
    queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
    headersSize: -1,
    bodySize: seen.requestBody.kind === 'kept' ? seen.requestBody.bytes.length : -1,
    ...postData(seen, scrubber, counts),
  };
  const sandboxAnswer = seen.method === 'POST' && url.pathname.replace(/\/$/, '') === '/sim/v1/sandboxes';
  const response = responseOf(seen, scrubber, counts, sandboxAnswer);
  const { sentMs, headMs, endMs } = seen.timing;
  const ms = (value: number) => Math.round(value * 1000) / 1000;
  const notes: EntryNotes = {
    ...(findings.operation === undefined ? {} : { operation: findings.operation }),
    // A finding's message may quote what was sent (ajv quotes a value it refuses).
    violations: findings.violations.map((finding) => ({ ...finding, message: scrubber.text(finding.message, counts) })),
    notes: findings.notes.map((note) => ({ ...note, message: scrubber.text(note.message, counts) })),
    ...(seen.failure ? { failure: seen.failure.message } : {}),
    ...(Object.keys(counts).length ? { scrubbed: counts } : {}),
  };
  return {
    startedDateTime: seen.timing.started.toISOString(),
    time: ms(endMs),
    request,
    response,
    cache: {},
    timings: {
      blocked: -1,
      dns: -1,
      connect: -1,
      send: sentMs === undefined ? -1 : ms(sentMs),
      // An upstream may answer before the whole request is in (a 413 on its content-length alone).
      wait: headMs === undefined ? -1 : ms(Math.max(0, headMs - (sentMs ?? 0))),
      receive: headMs === undefined ? -1 : ms(endMs - Math.max(headMs, sentMs ?? 0)),
    },
    _billingSim: notes,
  };
}

function headerList(headers: IncomingHttpHeaders, scrubber: Scrubber, counts: Counts): Header[] {
  return Object.entries(headers).flatMap(([name, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [String(value)]).map((one) => ({ name, value: scrubber.header(name, one, counts) })),
  );
}

/** A text body scrubbed as its type says: JSON, a form, or any text. */
function scrubbed(text: string, mimeType: string, scrubber: Scrubber, counts: Counts, sandboxAnswer = false): string {
  if (JSON_TYPE.test(mimeType)) return scrubber.json(text, counts, { sandboxAnswer });
  if (FORM_TYPE.test(mimeType)) return scrubber.query(text, counts);
  return scrubber.text(text, counts);
}

function textOf(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Why a body has no text in the recording, or undefined when it has. */
function missing(body: SeenBody): string | undefined {
  if (body.kind === 'too_large') return 'not recorded: larger than the proxy keeps to check';
  if (body.kind === 'unreadable') return `not recorded: the proxy could not read it (${body.why})`;
  return undefined;
}

/**
 * HAR 1.2 calls `text` and `params` mutually exclusive, and @types/har-format says so; browsers write
 * both for a form (Chrome's export does), and readers take `text`: both are written, as they do. A body
 * not recorded has neither, and a comment.
 */
type RecordedPostData = PostDataCommon & { text?: string; params?: Param[] };

function postData(seen: SeenExchange, scrubber: Scrubber, counts: Counts): { postData?: PostData } {
  const kept = (data: RecordedPostData) => ({ postData: data as PostData });
  const body = seen.requestBody;
  const mimeType = String(seen.headers['content-type'] ?? '');
  if (body.kind === 'kept' && body.bytes.length === 0) return {};
  const cut = seen.requestComplete ? '' : ' (the client went away before sending all of it)';
  const why = missing(body);
  if (why || body.kind !== 'kept') return kept({ mimeType, comment: `${why}${cut}` });
  const text = textOf(body.bytes);
  if (text === undefined) return kept({ mimeType, comment: `not recorded: not UTF-8 text, which HAR holds no other way${cut}` });
  const data: RecordedPostData = { mimeType, text: scrubbed(text, mimeType, scrubber, counts), ...(cut ? { comment: `incomplete${cut}` } : {}) };
  if (FORM_TYPE.test(mimeType)) data.params = [...new URLSearchParams(data.text)].map(([name, value]) => ({ name, value }));
  return kept(data);
}

function responseOf(seen: SeenExchange, scrubber: Scrubber, counts: Counts, sandboxAnswer: boolean): RecordedEntry['response'] {
  const got = seen.answer ?? seen.delivered;
  const headers = got ? headerList(got.headers, scrubber, counts) : [];
  const mimeType = String(got?.headers['content-type'] ?? '');
  const status = got?.status ?? 0;
  const content: RecordedEntry['response']['content'] = { size: 0, mimeType };
  if (seen.answer) {
    const body = seen.answer.body;
    const why = missing(body);
    if (why || body.kind !== 'kept') content.comment = why;
    else {
      content.size = body.bytes.length;
      const text = textOf(body.bytes);
      if (text === undefined) Object.assign(content, { text: body.bytes.toString('base64'), encoding: 'base64' });
      else if (text !== '') content.text = scrubbed(text, mimeType, scrubber, counts, sandboxAnswer && status < 300);
    }
  } else if (seen.delivered?.body !== undefined) {
    content.size = Buffer.byteLength(seen.delivered.body);
    content.text = scrubber.text(seen.delivered.body, counts);
  } else {
    content.comment = got ? 'not recorded: the answer was cut off' : 'no answer: the client went away first';
  }
  return {
    status,
    statusText: status ? (STATUS_CODES[status] ?? '') : '',
    httpVersion: status ? 'HTTP/1.1' : '',
    cookies: [],
    headers,
    content,
    redirectURL: headers.find((header) => header.name.toLowerCase() === 'location')?.value ?? '',
    headersSize: -1,
    bodySize: status ? content.size : -1,
  };
}
