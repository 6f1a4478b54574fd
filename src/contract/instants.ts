// The `date-time` format of every request schema (bodies, query strings, snapshots read from a
// file). RFC 3339 allows what the JavaScript date parser cannot hold: the leap second
// `2026-12-31T23:59:60Z` passes ajv-formats' check, and `Date.parse` then gives NaN, which once
// became a sandbox clock that every later request failed on. The simulator reads instants with
// `Date.parse`, so an instant is valid only when it is RFC 3339 and `Date.parse` gives a time value
// (ECMAScript's range: ±8.64e15 ms around 1970, beyond which it gives NaN too).

import type { FormatDefinition } from 'ajv';
import { onFirstUse, requireLater } from './lazy.ts';

/** ajv-formats' own check (`{validate, compare}` in its full mode), which this one narrows; loaded with ajv (lazy.ts). */
const rfc3339 = onFirstUse(() => {
  const { fullFormats } = requireLater('ajv-formats/dist/formats.js') as typeof import('ajv-formats/dist/formats.js');
  return (fullFormats['date-time'] as { validate: (text: string) => boolean }).validate;
});

export function isRepresentableDateTime(text: string): boolean {
  return rfc3339()(text) && Number.isFinite(Date.parse(text));
}

/** Replaces ajv-formats' `date-time` (added by `addFormats`) on an ajv instance. */
export const representableDateTime: FormatDefinition<string> = {
  type: 'string',
  validate: isRepresentableDateTime,
};
