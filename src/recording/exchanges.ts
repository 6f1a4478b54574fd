// A recording's entries as the replay and the scenario writer read them: one exchange each, in the
// file's order, with its bodies parsed, its token's pseudonym and the upstream's instant.
//
// The instant is the upstream's clock when it answered: a simulator's `Billing-Sim-Clock` header (its
// sandbox's virtual instant), else the `Date` header (the platform's clock, to the second), else the
// entry's `startedDateTime` (the proxy's).

import type { Entry, Har } from './har-file.ts';

export interface RecordedExchange {
  /** Its place among the recording's entries, from 0: how a report names it. */
  index: number;
  method: string;
  /** The path without the query, as recorded (`/api/v1/purchases/5f…/`). */
  path: string;
  /** The query as recorded, without `?` ('' when none). */
  query: string;
  /** The `Authorization` header as recorded: after scrubbing, a pseudonym such as `Bearer scrubbed-token-1`. */
  authorization?: string;
  /** The request's content type, lower case, without parameters (`application/json`). */
  requestType?: string;
  /** A JSON body parsed; a form's fields as an object; undefined without a body. */
  requestBody?: unknown;
  /** The recorded body's text as it was (after scrubbing). */
  requestText?: string;
  /** 0 when the exchange has no answer (the upstream failed, or the client went away). */
  status: number;
  responseBody?: unknown;
  responseHeaders: Record<string, string>;
  /** Milliseconds since the epoch (see the header). */
  instant: number;
  entry: Entry;
}

export const CLOCK_HEADER = 'billing-sim-clock';

function headerMap(headers: { name: string; value: string }[]): Record<string, string> {
  return Object.fromEntries(headers.map(({ name, value }) => [name.toLowerCase(), value]));
}

function parseBody(mimeType: string | undefined, text: string | undefined, encoding?: string): unknown {
  if (text === undefined || text === '') return undefined;
  const decoded = encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
  const type = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(decoded));
  try {
    return JSON.parse(decoded) as unknown;
  } catch {
    return undefined;
  }
}

function instantOf(entry: Entry, headers: Record<string, string>): number {
  for (const value of [headers[CLOCK_HEADER], headers.date, entry.startedDateTime]) {
    const ms = value === undefined ? NaN : Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  return NaN;
}

export function toExchange(entry: Entry, index: number): RecordedExchange {
  const url = new URL(entry.request.url, 'http://recording.invalid');
  const requestHeaders = headerMap(entry.request.headers);
  const responseHeaders = headerMap(entry.response.headers);
  const postData = entry.request.postData;
  const requestType = postData?.mimeType?.split(';')[0]?.trim().toLowerCase() || undefined;
  return {
    index,
    method: entry.request.method.toUpperCase(),
    path: url.pathname,
    query: url.search.replace(/^\?/, ''),
    authorization: requestHeaders.authorization,
    requestType,
    requestBody: parseBody(postData?.mimeType, postData?.text),
    requestText: postData?.text,
    status: entry.response.status,
    responseBody: parseBody(entry.response.content.mimeType, entry.response.content.text, entry.response.content.encoding),
    responseHeaders,
    instant: instantOf(entry, responseHeaders),
    entry,
  };
}

export function exchangesOf(har: Har): RecordedExchange[] {
  return har.log.entries.map(toExchange);
}
