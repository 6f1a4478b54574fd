// The proxy's record of what it saw: per operation, how many exchanges and violations, the first
// violations themselves, and the notes: each field of its answers the document does not name, once,
// with how many answers had it (never a violation). It is what `GET /__proxy/report` answers and what
// stop() writes. Bounded: MAX_LISTED_VIOLATIONS and MAX_NOTED_FIELDS per operation, MAX_UNKNOWN_PATHS
// entries for paths outside the document.

import { MAX_LISTED_VIOLATIONS, MAX_NOTED_FIELDS, MAX_UNKNOWN_PATHS } from './limits.ts';

/** Something the document does not allow, found on one side of an exchange. */
export interface Finding {
  /** The part of the message: `path`, `method`, `headers`, `query`, `content-type`, `body`, `status`. */
  part: string;
  /** The field within the part, dotted as in the error body (`purchase.products.0.price`); absent for the part as a whole. */
  field?: string;
  message: string;
}

export interface Violation extends Finding {
  side: 'request' | 'response';
  /** The exchange that showed it: method and URL (path and query) as the client sent them, the upstream's status. */
  method: string;
  url: string;
  /** Absent when the upstream gave no answer. */
  status?: number;
  /** When the exchange ended, ISO 8601. */
  time: string;
}

/** The operation of the document an exchange addressed, or what it addressed when there is none. */
/** A field of an operation's answers the document does not name: a note, counted once, never a violation. */
export interface NotedField {
  side: 'response';
  part: string;
  /** Dotted, array positions as `*` (`results.*.company_id`); `(other fields)` for those past MAX_NOTED_FIELDS. */
  field: string;
  message: string;
  /** How many answers had it. */
  exchanges: number;
  /** The first exchange that showed it: method and URL as the client sent them, the upstream's status, when. */
  method: string;
  url: string;
  status?: number;
  time: string;
}

/** The entry of the fields past MAX_NOTED_FIELDS of one operation. */
export const OTHER_FIELDS = '(other fields)';

export interface OperationRef {
  /** The operationId; for a request the document has no operation for, `METHOD path`. */
  name: string;
  method: string;
  /** As written in the document (`/api/v1/clients/{id}/`), or the request's own path. */
  path: string;
  inDocument: boolean;
}

export interface OperationReport {
  method: string;
  path: string;
  exchanges: number;
  violations: number;
  /** Exchanges the upstream did not answer (unreachable, timed out, cut off): the client got a 502 or a cut answer. */
  upstream_errors: number;
  /** Exchanges whose answer was too large to hold, or encoded in a way the proxy cannot read, and so not checked. */
  unchecked: number;
  /** The first MAX_LISTED_VIOLATIONS violations, in the order seen. */
  listed: Violation[];
  /** How many fields its answers had that the document does not name (entries of `noted`). */
  notes: number;
  /** Those fields, in the order first seen: at most MAX_NOTED_FIELDS, then one `(other fields)`. */
  noted: NotedField[];
}

export interface ProxyReport {
  upstream: string;
  /** When the proxy started, ISO 8601. */
  started: string;
  exchanges: number;
  violations: number;
  /** Fields the answers had that the document does not name, counted once per operation: never a violation. */
  notes: number;
  /** By operationId (or `METHOD path` for a request outside the document). */
  operations: Record<string, OperationReport>;
}

export interface Exchange {
  operation: OperationRef;
  violations: Violation[];
  /** The answer's fields the document does not name, each once. */
  notes: Violation[];
  upstreamError: boolean;
  unchecked: boolean;
}

export class Tally {
  private readonly operations = new Map<string, OperationReport>();
  private unknownPaths = 0;

  constructor(
    private readonly upstream: string,
    private readonly started: Date,
  ) {}

  /** Counts the exchange; answers the notes it is the first to show (for the log, which names each once). */
  record(exchange: Exchange): Violation[] {
    const entry = this.entryFor(exchange.operation);
    entry.exchanges += 1;
    entry.violations += exchange.violations.length;
    if (exchange.upstreamError) entry.upstream_errors += 1;
    if (exchange.unchecked) entry.unchecked += 1;
    for (const violation of exchange.violations) {
      if (entry.listed.length < MAX_LISTED_VIOLATIONS) entry.listed.push(violation);
    }
    const first: Violation[] = [];
    for (const note of exchange.notes) {
      const listed = entry.noted.length < MAX_NOTED_FIELDS || entry.noted.some((seen) => seen.field === note.field);
      const field = listed ? note.field! : OTHER_FIELDS;
      const seen = entry.noted.find((noted) => noted.field === field);
      if (seen) {
        seen.exchanges += 1;
        continue;
      }
      const { side, part, message, method, url, status, time } = note;
      entry.noted.push({ side: side as 'response', part, field, message, exchanges: 1, method, url, ...(status === undefined ? {} : { status }), time });
      entry.notes = entry.noted.length;
      if (listed) first.push(note);
    }
    return first;
  }

  report(): ProxyReport {
    // By name: a stable order, to compare the reports of two runs.
    const entries = [...this.operations.entries()].sort(([a], [b]) => a.localeCompare(b));
    // Names hold client-sent paths: own keys through fromEntries, never a plain object's setter.
    const operations: Record<string, OperationReport> = Object.fromEntries(
      entries.map(([name, entry]) => [name, { ...entry, listed: [...entry.listed], noted: entry.noted.map((noted) => ({ ...noted })) }]),
    );
    return {
      upstream: this.upstream,
      started: this.started.toISOString(),
      exchanges: entries.reduce((sum, [, entry]) => sum + entry.exchanges, 0),
      violations: entries.reduce((sum, [, entry]) => sum + entry.violations, 0),
      notes: entries.reduce((sum, [, entry]) => sum + entry.notes, 0),
      operations,
    };
  }

  private entryFor(operation: OperationRef): OperationReport {
    let name = operation.name;
    let path = operation.path;
    if (!operation.inDocument && !this.operations.has(name)) {
      if (this.unknownPaths >= MAX_UNKNOWN_PATHS) {
        name = `${operation.method} (other paths)`;
        path = '(other paths)';
      } else {
        this.unknownPaths += 1;
      }
    }
    let entry = this.operations.get(name);
    if (!entry) {
      entry = { method: operation.method, path, exchanges: 0, violations: 0, upstream_errors: 0, unchecked: 0, listed: [], notes: 0, noted: [] };
      this.operations.set(name, entry);
    }
    return entry;
  }
}

/**
 * The log line of a violation: operation, where, what, and the exchange, e.g.
 * `2026-01-30T09:00:00.412Z violation createClient response status: 200 is not documented … (POST /api/v1/clients/ → 200)`.
 */
export function violationLine(operation: string, violation: Violation): string {
  const where = `${violation.side} ${violation.part}${violation.field === undefined ? '' : ` ${violation.field}`}`;
  const answer = violation.status === undefined ? 'no answer' : String(violation.status);
  return `${violation.time} violation ${operation} ${where}: ${violation.message} (${violation.method} ${violation.url} → ${answer})`;
}

/**
 * The log line of a note, logged the first time an operation's answer has the field, e.g.
 * `2026-01-30T09:00:03.100Z note getPurchase response body company_id: a field openapi.yaml does not name (GET /api/v1/purchases/…/ → 200)`.
 */
export function noteLine(operation: string, note: Violation): string {
  return violationLine(operation, note).replace(/^(\S+) violation /, '$1 note ');
}
