// An answer checked as the contract suite checks every answer: Prism's router and output validator
// through contract-tests/lib/document.ts (documented status, content type, body schema, documented
// headers). The body is read as the suite's client reads it: JSON when the content type says so. The
// upstream is a real server, read in the platform's reading: what only the simulator has
// (x-simulator-only) is not required of it, and a field the document does not name is a note, not a
// violation (the platform answers `company_id`, `issuer_details`, … that an older document left out).

import type { IncomingHttpHeaders } from 'node:http';
import { responseIssues, type SeenResponse as DocumentResponse } from '../../contract-tests/lib/document.ts';
import type { KeptBody } from './body.ts';
import type { Finding } from './tally.ts';

export interface SeenAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, decoded from its content-encoding. */
  body: KeptBody;
}

export interface CheckedAnswer {
  /** What the document does not allow. */
  violations: Finding[];
  /** The body's fields the document does not name, array positions as `*` (`results.*.company_id`). */
  notes: Finding[];
}

/**
 * What in the answer to `method pathname` the document does not allow, and what it has that the
 * document does not name. A HEAD answer, or one whose body could not be kept (KeptBody), is checked
 * for its status only.
 */
export async function checkResponse(method: string, pathname: string, answer: SeenAnswer): Promise<CheckedAnswer> {
  const headers = Object.fromEntries(
    Object.entries(answer.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]])),
  );
  const statusOnly = method === 'HEAD' || answer.body.kind !== 'kept';
  const seen: DocumentResponse = { status: answer.status, headers, body: undefined };
  const findings: Finding[] = [];
  const text = answer.body.kind === 'kept' ? answer.body.bytes.toString('utf8') : '';
  if (!statusOnly && text && (headers['content-type'] ?? '').includes('json')) {
    try {
      seen.body = JSON.parse(text);
    } catch (error) {
      findings.push({ part: 'body', message: `Not JSON: ${(error as Error).message}` });
    }
  }
  const checked = await responseIssues(method === 'HEAD' ? 'GET' : method, pathname, seen, { platform: true });
  if (!checked) return { violations: findings, notes: [] };
  const bodyRead = !statusOnly && findings.length === 0;
  const kept = bodyRead ? checked.issues : checked.issues.filter((issue) => issue.part === 'status');
  for (const issue of kept) findings.push({ part: issue.part, ...(issue.path.length ? { field: issue.path.join('.') } : {}), message: issue.message });
  const notes = bodyRead ? checked.notes.map((note): Finding => ({ part: note.part, field: note.path.map((key) => (/^\d+$/.test(key) ? '*' : key)).join('.'), message: note.message })) : [];
  return { violations: findings, notes: distinct(notes) };
}

/** Each field once: `results.0.company_id` and `results.1.company_id` are one note. */
function distinct(notes: Finding[]): Finding[] {
  const seen = new Set<string>();
  return notes.filter((note) => !seen.has(note.field!) && Boolean(seen.add(note.field!)));
}
