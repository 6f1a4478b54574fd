// HTTP to the simulator for the scenario runner: one sandbox's calls with its bearer token, the
// answers kept whole (status, JSON body) for expectations and saved names, and lists read to their
// last page.

/**
 * One answer may take this long. An advance of decades over many subscribers takes seconds; a
 * server that hangs must still not hang the run (and CI) for ever.
 */
export const REQUEST_TIMEOUT_MS = 120_000;
/** Lists are read with the largest page the API allows (DESIGN §3: page_size ≤ 1000)… */
const PAGE_SIZE = 1000;
/** …and at most this many pages: 100,000 events, the most a sandbox keeps by default. */
const MAX_PAGES = 100;

export interface Answer {
  method: string;
  /** Path and query as sent. */
  target: string;
  status: number;
  /** The parsed JSON, or undefined (no body, or not JSON). */
  body: unknown;
  text: string;
}

export type Query = Record<string, string | number | boolean | (string | number | boolean)[] | undefined>;

/** The server gave no answer: refused, reset, timed out. */
export class NoAnswer extends Error {}

export class Connection {
  constructor(
    readonly origin: string,
    private readonly token?: string,
  ) {}

  withToken(token: string): Connection {
    return new Connection(this.origin, token);
  }

  async call(method: string, path: string, options: { body?: unknown; query?: Query } = {}): Promise<Answer> {
    const url = new URL(path, this.origin);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
    }
    const target = url.pathname + url.search;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      text = await response.text();
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = (error as Error).name === 'TimeoutError' ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s` : (cause?.code ?? cause?.message ?? (error as Error).message);
      throw new NoAnswer(`${method} ${target}: no answer from ${this.origin} (${why})`);
    }
    let body: unknown;
    if (text !== '' && (response.headers.get('content-type') ?? '').includes('json')) {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    return { method, target, status: response.status, body, text };
  }

  /** Every item of a list endpoint, in the API's order (newest first); a page that is not 200 is returned as the failure. */
  async listAll(path: string, query: Query = {}): Promise<{ items: Record<string, unknown>[] } | { failed: Answer }> {
    const items: Record<string, unknown>[] = [];
    for (let page = 1; page <= MAX_PAGES; page += 1) {
      const answer = await this.call('GET', path, { query: { ...query, page_size: PAGE_SIZE, page } });
      if (answer.status !== 200) return { failed: answer };
      const body = answer.body as { results: Record<string, unknown>[]; next: string | null };
      items.push(...body.results);
      if (!body.next) break;
    }
    return { items };
  }
}

/** An answer in one line for the report: `400 POST /api/v1/purchases/…/charge/: {"__all__": …}`. */
export function describeAnswer(answer: Answer, max = 600): string {
  const body = answer.text.length > max ? `${answer.text.slice(0, max)}… (${answer.text.length} characters)` : answer.text;
  return `${answer.status} ${answer.method} ${answer.target}${body ? `: ${body.replace(/\s*\n\s*/g, ' ')}` : ''}`;
}
