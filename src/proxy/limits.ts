// The validating proxy's bounds, each with its reason. A proxy runs for days in front of a real
// server: nothing it keeps may grow with the traffic, and no upstream may hold it up.

import { MAX_BODY } from '../http/errors.ts';

export { DEFAULT_PROXY_PORT } from '../defaults.ts';

/**
 * How long the upstream may stay silent (no byte of an answer) before the client gets a 502. A
 * billing request that has not started answering in 30 s has failed for any client; a hung upstream
 * must not hold the client's connection, or the proxy's, for ever.
 */
export const UPSTREAM_TIMEOUT_MS = 30_000;

/**
 * Bytes of a request body the proxy keeps to check: the server's own limit, past which the API
 * answers 413 (DESIGN.md §3), so a larger request is reported as such and not parsed; it is still
 * forwarded whole.
 */
export const MAX_REQUEST_BODY_BYTES = MAX_BODY;

/**
 * Bytes of a response body the proxy keeps to check (after decompression). A page of 1,000
 * purchases, the largest list the API answers, is about 3 MB; a larger answer is passed on whole and
 * counted as unchecked rather than held in memory.
 */
export const MAX_RESPONSE_BODY_BYTES = 8 * 1024 * 1024;

/** Violations listed per operation in the report; the count goes on. Enough to see every kind of fault. */
export const MAX_LISTED_VIOLATIONS = 100;

/**
 * Fields the document does not name listed per operation as notes (each once, with a count). A
 * platform purchase carries about 40 that an older document may not name; past the limit an
 * upstream answering ever new keys would grow the tally, so later ones share one entry `(other fields)`.
 */
export const MAX_NOTED_FIELDS = 100;

/**
 * Entries of the tally for requests that name no operation of the document (`GET /wp-login.php`):
 * scanners would otherwise add one per path. Past it they share one entry per method.
 */
export const MAX_UNKNOWN_PATHS = 50;

/**
 * How long stop() lets running exchanges finish before it cuts them: the CLI exits within 1.5 s of
 * a signal, and the report must be written before that.
 */
export const STOP_GRACE_MS = 500;

/** How long an exchange stop() has cut takes to settle (a turn or two), so that the report counts it. */
export const CUT_SETTLE_MS = 100;
