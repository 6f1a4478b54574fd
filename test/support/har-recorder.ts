// Recordings for the replay's tests: a client that sends requests to a server (a simulator, or an
// upstream that alters it) and keeps each exchange as a HAR entry, with the recorder's conventions
// (DESIGN.md §15): `request.url` the full URL, `postData` {mimeType, text}, the body as
// `response.content.text`, and every bearer token scrubbed to `scrubbed-token-N` by first
// appearance, the `token` of a recorded sandbox creation's answer included. A request made with
// `record: false` happens but is not in the file: the payer's doing, which the API never shows.

import type { Entry, Har } from '../../src/recording/har-file.ts';

export interface Recorded {
  status: number;
  body: any;
  index: number;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** false: sent, not kept (what the payer did outside the API). */
  record?: boolean;
}

export class HarRecorder {
  readonly entries: Entry[] = [];
  private readonly pseudonyms = new Map<string, string>();

  constructor(readonly origin: string) {}

  private pseudonym(token: string): string {
    if (!this.pseudonyms.has(token)) this.pseudonyms.set(token, `scrubbed-token-${this.pseudonyms.size + 1}`);
    return this.pseudonyms.get(token)!;
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<Recorded> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const text = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (text !== undefined) headers['content-type'] = 'application/json';
    const started = new Date();
    const response = await fetch(this.origin + path, { method, headers, body: text });
    const answer = await response.text();
    const body = answer === '' ? undefined : JSON.parse(answer);
    if (options.record === false) return { status: response.status, body, index: -1 };
    // The answer's own token (a sandbox's, made by this request) is scrubbed as the header's are.
    const token = body && typeof body === 'object' && typeof body.token === 'string' ? body.token : undefined;
    const kept = token ? answer.replaceAll(token, this.pseudonym(token)) : answer;
    this.entries.push(entry(method, this.origin + path, started, {
      headers: Object.entries(headers).map(([name, value]) => ({ name, value: name === 'authorization' ? `Bearer ${this.pseudonym(options.token!)}` : value })),
      text,
      status: response.status,
      responseHeaders: [...response.headers.entries()].map(([name, value]) => ({ name, value })),
      answer: kept,
    }));
    return { status: response.status, body, index: this.entries.length - 1 };
  }

  har(): Har {
    return { log: { version: '1.2', creator: { name: 'har-recorder (test)', version: '1' }, pages: [], entries: this.entries } };
  }
}

export interface EntryParts {
  headers: { name: string; value: string }[];
  text?: string;
  /** The request body's type (default application/json). */
  requestType?: string;
  status: number;
  statusText?: string;
  /** The answer's type (default application/json). */
  responseType?: string;
  responseHeaders: { name: string; value: string }[];
  answer: string;
}

/** One HAR 1.2 entry of an exchange. */
export function entry(method: string, url: string, started: Date, parts: EntryParts): Entry {
  const { searchParams } = new URL(url);
  return {
    startedDateTime: started.toISOString(),
    time: 0,
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: parts.headers,
      queryString: [...searchParams].map(([name, value]) => ({ name, value })),
      ...(parts.text === undefined ? {} : { postData: { mimeType: parts.requestType ?? 'application/json', text: parts.text } }),
      headersSize: -1,
      bodySize: parts.text?.length ?? 0,
    },
    response: {
      status: parts.status,
      statusText: parts.statusText ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: parts.responseHeaders,
      content: { size: parts.answer.length, mimeType: parts.responseType ?? 'application/json', text: parts.answer },
      redirectURL: '',
      headersSize: -1,
      bodySize: parts.answer.length,
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
  };
}
