// Work a start need not do: made when first asked for, then kept.

import { createRequire } from 'node:module';

/**
 * A CommonJS package loaded when first needed rather than at start: ajv and ajv-formats are some
 * ninety files, about 60 ms of a start, and only compiling a validator needs them.
 */
export const requireLater = createRequire(import.meta.url);

/** `make()`'s value, made on the first call and kept. */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
