// What the request schemas cannot refuse, found in one walk of the parsed input:
// - non-finite numbers. JSON.parse reads `1e400` as Infinity, which `type: number` accepts; and
//   ajv, coercing the query string `page_size=Infinity` (or `-Infinity`, `1e400`) to a number,
//   skips `minimum`/`maximum` for it, so a list answered an empty page instead of a 400;
// - nesting past MAX_BODY_DEPTH. A free-form object (an event's payload in a snapshot) accepts
//   anything, and 5,000 nested arrays there overflowed the stack of the JSON.stringify that stores
//   it: a 500 on import, and on every later read of the events.
// Each is reported as an ajv-style error, which ajv-errors.ts turns into `invalid`.

import type { ErrorObject } from 'ajv';
import { MAX_BODY_DEPTH, MAX_ERRORS } from './limits.ts';

/** The keywords of the errors reported here, as if a schema keyword had failed. */
export const NOT_FINITE = 'finite';
export const TOO_DEEP = 'depth';

const pointer = (key: string | number): string => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

/** A container still to look into; paths are built only for a finding, from the parent chain. */
interface Frame {
  value: object;
  depth: number;
  parent?: Frame;
  key?: string | number;
}

function pathOf(frame: Frame | undefined, key?: string | number): string {
  let path = key === undefined ? '' : `/${pointer(key)}`;
  for (let at = frame; at?.parent; at = at.parent) path = `/${pointer(at.key!)}${path}`;
  return path;
}

const finding = (keyword: string, instancePath: string, data: unknown, message: string): ErrorObject => ({
  keyword,
  instancePath,
  schemaPath: '#',
  params: {},
  message,
  data,
});

/**
 * One error per non-finite number and per container nested past MAX_BODY_DEPTH, with its JSON
 * pointer, at most MAX_ERRORS + 1 (enough for the error body to say some were left out). Iterative,
 * as a 1 MiB body nests 500,000 levels deep, and allocating nothing per scalar: a body holds up to
 * 524,000 of them.
 */
export function beyondSchema(data: unknown): ErrorObject[] {
  const found: ErrorObject[] = [];
  if (typeof data === 'number' && !Number.isFinite(data)) found.push(finding(NOT_FINITE, '', data, 'must be finite'));
  if (data === null || typeof data !== 'object') return found;
  const stack: Frame[] = [{ value: data, depth: 1 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > MAX_BODY_DEPTH) {
      found.push(finding(TOO_DEEP, pathOf(frame), undefined, 'nested too deep'));
      if (found.length > MAX_ERRORS) return found;
      continue;
    }
    const keys: (string | number)[] | undefined = Array.isArray(frame.value) ? undefined : Object.keys(frame.value);
    const length = keys ? keys.length : (frame.value as unknown[]).length;
    for (let index = 0; index < length; index += 1) {
      const key = keys ? keys[index]! : index;
      const value = (frame.value as Record<string | number, unknown>)[key];
      if (typeof value === 'number') {
        if (Number.isFinite(value)) continue;
        found.push(finding(NOT_FINITE, pathOf(frame, key), value, 'must be finite'));
        if (found.length > MAX_ERRORS) return found;
      } else if (value !== null && typeof value === 'object') {
        stack.push({ value, depth: frame.depth + 1, parent: frame, key });
      }
    }
  }
  return found;
}
