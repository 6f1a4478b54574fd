// An answer checked as the contract suite checks every answer: Prism's router and output validator
// through contract-tests/lib/document.ts (documented status, content type, body schema, documented
// headers). The body is read as the suite's client reads it: JSON when the content type says so.

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

/**
 * What in the answer to `method pathname` the document does not allow. A HEAD answer, or one whose
 * body could not be kept (KeptBody), is checked for its status only.
 */
export async function checkResponse(method: string, pathname: string, answer: SeenAnswer): Promise<Finding[]> {
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
  // The upstream is a real server: what only the simulator has (x-simulator-only) is not required of it.
  const checked = await responseIssues(method === 'HEAD' ? 'GET' : method, pathname, seen, { platform: true });
  if (!checked) return findings;
  const kept = statusOnly || findings.length > 0 ? checked.issues.filter((issue) => issue.part === 'status') : checked.issues;
  for (const issue of kept) findings.push({ part: issue.part, ...(issue.path.length ? { field: issue.path.join('.') } : {}), message: issue.message });
  return findings;
}
