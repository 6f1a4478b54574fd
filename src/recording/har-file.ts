// A recording on disk: HAR 1.2 (DESIGN.md §15), written as it goes and readable after a kill -9.
//
// The file is valid JSON after every exchange. Its layout is one line of head, one line per entry and
// the tail, so that an entry is appended by overwriting the tail with `,\n<entry>\n<tail>` in one
// positional write:
//
//   {"log":{"version":"1.2","creator":{…},"pages":[],"entries":[
//   {…entry 1…},
//   {…entry 2…}
//   ]}}
//
// A write cut short by a kill -9 (the kernel keeps what a write() handed it, but a process killed in the
// middle of a large one may have handed over only part) leaves a file that no longer parses; the reader
// then takes the entries line by line up to the last whole one. Nothing else of the file is ever rewritten.

import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { Entry, Har } from 'har-format';

export type { Entry, Har } from 'har-format';

/** What the simulator adds to an entry: the proxy's findings about that exchange (HAR's custom fields start with `_`). */
export interface EntryNotes {
  /** The operationId of openapi.yaml the exchange matched, or none. */
  operation?: string;
  violations: { side: 'request' | 'response'; path: string; message: string }[];
  notes: { path: string; message: string }[];
  /** Why there is no whole answer (the upstream was unreachable, silent or cut off). */
  failure?: string;
  /** What the scrubber replaced, by kind (`authorization`, `card_number`, `email`, …): counts, never values. */
  scrubbed?: Record<string, number>;
}

export type RecordedEntry = Entry & { _billingSim?: EntryNotes };

const TAIL = '\n]}}\n';

/** The first line of a recording: everything of the log but its entries. */
function head(creator: { name: string; version: string }, comment: string): string {
  const log = { version: '1.2', creator, pages: [], comment, entries: [] };
  const text = JSON.stringify({ log });
  // `"entries":[]}}` → `"entries":[` : the entries follow, one a line.
  return text.slice(0, -'[]}}'.length) + '[';
}

/** Appends entries to a new recording file; each append is one positional write (see the header). */
export class HarFileWriter {
  private readonly fd: number;
  /** Where the tail starts: the next entry is written there. */
  private end: number;
  private entries = 0;

  constructor(path: string, creator: { name: string; version: string }, comment: string) {
    // 0600: a recording holds a team's traffic, scrubbed or not.
    this.fd = openSync(path, 'w', 0o600);
    const first = Buffer.from(head(creator, comment));
    writeSync(this.fd, Buffer.concat([first, Buffer.from(TAIL)]), 0, undefined, 0);
    this.end = first.length;
  }

  get count(): number {
    return this.entries;
  }

  append(entry: RecordedEntry): void {
    const bytes = Buffer.from(`${this.entries === 0 ? '\n' : ',\n'}${JSON.stringify(entry)}${TAIL}`);
    writeSync(this.fd, bytes, 0, bytes.length, this.end);
    this.end += bytes.length - TAIL.length;
    this.entries += 1;
  }

  close(): void {
    closeSync(this.fd);
  }
}

export class RecordingError extends Error {}

/**
 * A recording as a HAR object: the file parsed whole, or, when it does not parse (a kill -9 mid-write),
 * its head and every whole entry line before the cut. `complete` says which.
 */
export function readHar(text: string): { har: Har; complete: boolean } {
  let read: { har: Har; complete: boolean };
  try {
    const har = JSON.parse(text) as Har;
    if (!Array.isArray(har?.log?.entries)) throw new RecordingError('not a HAR file: it has no log.entries');
    read = { har, complete: true };
  } catch (error) {
    if (error instanceof RecordingError) throw error;
    read = { har: salvage(text), complete: false };
  }
  read.har.log.entries.forEach((entry, index) => {
    const problem = entryProblem(entry);
    if (problem) throw new RecordingError(`not a HAR file: log.entries.${index}.${problem}`);
  });
  return read;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isHeaderList = (value: unknown): boolean =>
  Array.isArray(value) && value.every((header) => isObject(header) && typeof header.name === 'string' && typeof header.value === 'string');

/**
 * What of an entry the replay and the scenario writer read and it lacks (HAR 1.2 requires each), as a
 * path with the rule: `request.url is not a string`. A file edited by hand or cut by another tool is told
 * so, where it fails, instead of failing later as a crash.
 */
function entryProblem(entry: unknown): string | undefined {
  if (!isObject(entry)) return 'is not an object';
  const { request, response } = entry;
  if (!isObject(request)) return 'request is not an object';
  if (typeof request.method !== 'string') return 'request.method is not a string';
  if (typeof request.url !== 'string' || !URL.canParse(request.url, 'http://recording.invalid')) return 'request.url is not a URL';
  if (!isHeaderList(request.headers)) return 'request.headers is not a list of {name, value}';
  if (request.postData !== undefined && (!isObject(request.postData) || (request.postData.text !== undefined && typeof request.postData.text !== 'string'))) {
    return 'request.postData.text is not a string';
  }
  if (!isObject(response)) return 'response is not an object';
  if (!Number.isInteger(response.status)) return 'response.status is not an integer';
  if (!isHeaderList(response.headers)) return 'response.headers is not a list of {name, value}';
  if (!isObject(response.content) || (response.content.text !== undefined && typeof response.content.text !== 'string')) return 'response.content.text is not a string';
  return undefined;
}

function salvage(text: string): Har {
  const [first, ...lines] = text.split('\n');
  let log: Har['log'];
  try {
    log = (JSON.parse(`${first}]}}`) as Har).log;
  } catch {
    throw new RecordingError('not a HAR file: it does not parse as JSON, nor as a recording cut short');
  }
  for (const line of lines) {
    const entry = entryOf(line);
    if (!entry) break;
    log.entries.push(entry);
  }
  return { log };
}

/**
 * An entry line, or undefined when the line is not a whole entry. A write cut after its first bytes
 * overwrote only the start of the tail: one byte leaves `{…entry…},]}}` (the entry is whole), three
 * leave a line `{}` (no entry at all).
 */
function entryOf(line: string): Entry | undefined {
  const text = line.endsWith(',]}}') ? line.slice(0, -']}}'.length) : line;
  try {
    const entry = JSON.parse(text.endsWith(',') ? text.slice(0, -1) : text) as Entry;
    return typeof entry?.request === 'object' && typeof entry.response === 'object' ? entry : undefined;
  } catch {
    return undefined;
  }
}

export function readHarFile(path: string): { har: Har; complete: boolean } {
  return readHar(readFileSync(path, 'utf8'));
}
