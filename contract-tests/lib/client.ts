// The suite's HTTP client. Every response is checked against openapi.yaml before the check sees
// it, and the exchanges of the running check are kept so that a failure prints what was sent and
// what came back. Paths are relative to the API base (`/clients/`) or to `/sim/v1` (`/clock`). What a
// request creates in the accounts checked goes to the ledger (ledger.ts), to be deleted at the end.
//
// What only the simulator has (`x-simulator-only: true` in openapi.yaml) is never required: answers
// are read in the platform's reading of the document (document.ts), where a field the document does
// not name is a note (kept in `notes` for the running check, never a failure) — but for the simulator
// the suite started itself, which must answer no such field (strict). A simulator-only operation
// the target does not have (405, or 404 on a path without an id: GET /purchases/ of a real server)
// skips the check that needed it (`NotOnTarget`, lib/check.ts), unless the request was `optional`,
// whose caller gets the reply marked `absent` and does without.

import { AsyncLocalStorage } from 'node:async_hooks';
import pLimit from 'p-limit';
import { documentFindings, operationOf, type Reading } from './document.ts';
import { requestConcurrency, type TargetConfig } from './config.ts';
import { noteCreated } from './ledger.ts';
import { simulatorOnlyOperations } from './operations.ts';

export interface Exchange {
  method: string;
  url: string;
  requestBody?: unknown;
  status: number;
  headers: Record<string, string>;
  body: unknown;
  text: string;
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
  /** An `optional` request to a simulator-only operation that the target does not have. */
  absent?: true;
}

export interface RequestOptions {
  body?: unknown;
  /** A raw body, sent as is with `content-type` from `headers`. */
  raw?: string;
  /** `null`: no Authorization header; a string: that token instead of the client's. */
  token?: string | null;
  headers?: Record<string, string>;
  /** A simulator-only operation the target lacks answers its reply (marked `absent`) instead of skipping the check. */
  optional?: boolean;
}

/**
 * What the running check has sent and been told: its exchanges, its notes, and the operations it
 * exercised (`createClient 201`). Checks of a file may run at once (vitest.config.ts), so each has its
 * own record, found through the async context its body runs in (lib/check.ts `withRecord`).
 */
export interface CheckRecord {
  /** The check's id, sent with every request (`User-Agent: … (check CLI-GET)`): a target's log, or a fault proxy, can tell the checks apart. */
  id: string;
  exchanges: Exchange[];
  notes: Note[];
  /** `operationId status` of every API answer, each once, in the order first seen. */
  exercised: string[];
}

const running = new AsyncLocalStorage<CheckRecord>();

/**
 * At most CONTRACT_CONCURRENCY requests in flight at once (`--concurrency`, default 4): real servers
 * rate-limit, and a server far away is what concurrency is for. The whole run's checks go through
 * this one gate: they run in one worker (vitest.config.ts).
 */
const gate = pLimit(requestConcurrency());

/** Sent with each request, so that a target's log (or a fault-injecting proxy) can tell which check asked. */
const userAgent = (check: string) => `billing-sim-contract${check ? ` (check ${check})` : ''}`;

/** Runs `body` with `record` as the running check's: what its requests do is kept there. */
export const withRecord = <T>(record: CheckRecord, body: () => Promise<T>): Promise<T> => running.run(record, body);

/** The running check's record; outside a check (the preflight, the cleanup), one that keeps nothing. */
const current = (): CheckRecord => running.getStore() ?? { id: '', exchanges: [], notes: [], exercised: [] };

/** A field an answer has that openapi.yaml does not name: a note of the check, never its failure. */
export interface Note {
  /** The operation answered (`getPurchase`). */
  operation: string;
  /** The field, dotted from the body's root with array positions as `*`: `transaction_data.attempts.*.flow`. */
  field: string;
  message: string;
}

function addNote(note: Note): void {
  const { notes } = current();
  if (!notes.some((seen) => seen.operation === note.operation && seen.field === note.field)) notes.push(note);
}

export class DocumentViolation extends Error {
  override name = 'DocumentViolation';
}

/** A simulator-only operation the target does not have: the check that needs it is skipped with this message. */
export class NotOnTarget extends Error {
  override name = 'NotOnTarget';
}

/** The platform's reading of the document (document.ts): the suite never requires what only the simulator has. */
const PLATFORM = { platform: true } as const;
/** The suite's own simulator answers no field the document does not name: the platform's reading, strict. */
const OWN_SIMULATOR = { platform: true, strict: true } as const;

export class ApiClient {
  constructor(
    private readonly target: TargetConfig,
    readonly token: string,
    /** `api`: paths under the API base URL; `sim`: under `${origin}/sim/v1`. */
    private readonly area: 'api' | 'sim' = 'api',
  ) {}

  /** The same account, other area: `api.sim` addresses the simulator control API. */
  get sim(): ApiClient {
    return new ApiClient(this.target, this.token, 'sim');
  }

  withToken(token: string): ApiClient {
    return new ApiClient(this.target, token, this.area);
  }

  /** The API area of the same account (from `api.sim`). */
  get api(): ApiClient {
    return new ApiClient(this.target, this.token, 'api');
  }

  /** Which of the accounts checked this is: 1 (--token), 2 (--token2), or undefined (a sandbox of a check). */
  get account(): 1 | 2 | undefined {
    if (this.token === this.target.token) return 1;
    return this.target.token2 !== '' && this.token === this.target.token2 ? 2 : undefined;
  }

  /** The brand of an account checked, as the preflight resolved it; undefined when unknown or another account. */
  get brand(): string | undefined {
    const brand = this.account === 1 ? this.target.brandId : this.account === 2 ? this.target.brandId2 : '';
    return brand || undefined;
  }

  private locate(path: string): { url: string; documentPath: string } {
    if (this.area === 'sim') return { url: `${this.target.origin}/sim/v1${path}`, documentPath: `/sim/v1${path}` };
    // The document writes API paths under /api/v1; the target may serve them under any base path.
    return { url: `${this.target.baseUrl}${path}`, documentPath: `/api/v1${path}` };
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    const { url, documentPath } = this.locate(path);
    const record = current();
    const headers: Record<string, string> = { 'user-agent': userAgent(record.id), ...options.headers };
    const token = options.token === undefined ? this.token : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const { response, text } = await gate(async () => {
      const response = await fetch(url, { method, headers, body });
      return { response, text: await response.text() };
    });
    const responseHeaders = Object.fromEntries(response.headers.entries());
    let parsed: unknown = undefined;
    if (text && (responseHeaders['content-type'] ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    record.exchanges.push({ method, url, requestBody: options.body ?? options.raw, status: response.status, headers: responseHeaders, body: parsed, text });
    if (this.area === 'api') noteCreated(this.target, token, method, path, options.body ?? parseRaw(options.raw), response.status, parsed);
    const reply: Reply = { status: response.status, headers: responseHeaders, body: parsed, text };
    if (this.area === 'api') {
      const operation = await operationOf(method, documentPath, PLATFORM);
      // A path without an id answering 404 names no object: the server has no such route.
      const lacked = response.status === 405 || (response.status === 404 && !operation?.path.includes('{'));
      if (operation && simulatorOnlyOperations.has(operation.iid ?? '') && lacked) {
        if (options.optional) return { ...reply, absent: true };
        throw new NotOnTarget(`the target has no ${method} ${operation.path} (→ ${response.status}), which only the simulator has (x-simulator-only in openapi.yaml)`);
      }
    }
    const reading: Reading = this.target.selfHosted ? OWN_SIMULATOR : PLATFORM;
    const found = await documentFindings(method, documentPath, { status: response.status, headers: responseHeaders, body: parsed }, reading);
    const exercised = found.operationId && `${found.operationId} ${response.status}`;
    if (exercised && !record.exercised.includes(exercised)) record.exercised.push(exercised);
    for (const note of found.notes) addNote({ operation: found.operationId!, field: note.path.map((key) => (/^\d+$/.test(key) ? '*' : key)).join('.'), message: note.message });
    if (found.violations.length) {
      throw new DocumentViolation(`the response does not match openapi.yaml (${method} ${documentPath} → ${response.status}):\n  ${found.violations.join('\n  ')}`);
    }
    return reply;
  }

  get = (path: string, options?: RequestOptions) => this.request('GET', path, options);
  post = (path: string, body?: unknown, options?: RequestOptions) => this.request('POST', path, { ...options, body });
  put = (path: string, body?: unknown, options?: RequestOptions) => this.request('PUT', path, { ...options, body });
  patch = (path: string, body?: unknown, options?: RequestOptions) => this.request('PATCH', path, { ...options, body });
  delete = (path: string, options?: RequestOptions) => this.request('DELETE', path, options);
}

/** A raw request body as JSON, when it is JSON. */
function parseRaw(raw: string | undefined): unknown {
  try {
    return raw === undefined ? undefined : JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** An exchange as printed under a failed check: request line and body, status and body, truncated. */
export function describeExchange(exchange: Exchange): string {
  const cut = (value: unknown) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return text === undefined ? '' : text.length > 1500 ? `${text.slice(0, 1500)}…` : text;
  };
  return [
    `  → ${exchange.method} ${exchange.url}${exchange.requestBody === undefined ? '' : `\n    ${cut(exchange.requestBody)}`}`,
    `  ← ${exchange.status}${exchange.text ? `\n    ${cut(exchange.body ?? exchange.text)}` : ''}`,
  ].join('\n');
}
