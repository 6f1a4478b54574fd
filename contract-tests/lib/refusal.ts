// Refusal checks: a rule whose rejection the spec or the platform states ("rejected, nothing
// changed") is one check of `refusal()`: the request is answered 400 (or the status given) with an
// error body that names the field, or `__all__`, with its code, as the platform's Django REST
// framework errors do (docs/behaviour.md#error-body), and the state it must not touch reads the same
// after. Where the platform's key or code is not known, `also` lists the other placements a target
// may answer instead (billing-sim's former placement on the field beside the platform's under
// `__all__`, or Django REST framework's own code beside billing-sim's). The builders of the
// attempts are in scenario.ts.

import { expect } from 'vitest';
import { check, type CheckContext, type CheckSpec } from './check.ts';
import type { Reply } from './client.ts';
import { ANY_CODE, expectErrorAt, type Placement } from './primitives.ts';

/** The platform's error body: a refusal names its field, or `__all__`, with a code. */
export const REFUSAL_BODY = 'docs/behaviour.md#error-body: "a refused request names the field it refuses, or __all__, with its code"';

/** The refusal body and a code of the table of error codes, e.g. `refusalCode('read_only')`. */
export const refusalCode = (code: string) => `${REFUSAL_BODY}; docs/behaviour.md#error-codes: "${code}"`;

/** Citations joined, each once: a check's rule and the error body it is answered with. */
export const citing = (...cites: Array<string | undefined>): string => [...new Set(cites.filter((cite): cite is string => Boolean(cite)))].join('; ');

export interface Attempt {
  /** The request that must be rejected. */
  attempt: () => Promise<Reply>;
  /** What must not change: read before and after the attempt, and compared. */
  state: () => Promise<unknown>;
  /** Further assertions after the refusal (e.g. the boundary is accepted). */
  after?: () => Promise<void>;
}

export interface RefusalSpec extends CheckSpec {
  /** The field path the error body names, or `__all__`. */
  field: string;
  code: string;
  /** Other placements a target may answer instead, where the platform's key or code is not known. */
  also?: readonly Placement[];
  /** The status of the refusal: 400 unless given (404 for an id that names nothing). */
  status?: number;
  /** Where the placement and code come from, beside `cites` and the platform's error body. */
  codeCites?: string;
}

/**
 * Codes billing-sim chose where neither the spec nor the platform names one (docs/behaviour.md#error-codes;
 * the platform's are Django REST framework's and its purchase actions'): a refusal with one of them
 * must name the same field, but a target may give a code of its own there. The simulator's own codes
 * are held by its own tests.
 */
const OWN_CODES = new Set(['read_only', 'invalid_state', 'invalid_recurring_token', 'protected', 'unknown_field', 'min_items', 'max_items']);

/** The placements a refusal may be answered with, as its title and its failure name them: `client_id does_not_exist`. */
const describePlacements = (placements: readonly Placement[]) => placements.map(([field, code]) => `${field} ${code}`).join(' or ');

/**
 * A rule that rejects a request: `status` (400 unless given) with `field` and `code`, or one of the
 * placements of `also`, and the state unchanged. `arrange` makes the check's own objects.
 */
export function refusal(spec: RefusalSpec, arrange: (ctx: CheckContext) => Promise<Attempt>): void {
  const { field, code, also = [], status = 400, codeCites, ...base } = spec;
  const placements: Placement[] = [[field, code], ...also];
  const accepted = placements.flatMap((placement): Placement[] => (OWN_CODES.has(placement[1]) ? [placement, [placement[0], ANY_CODE]] : [placement]));
  check(
    { ...base, title: `${base.title}: ${status}, ${describePlacements(placements)}`, cites: citing(base.cites, codeCites, REFUSAL_BODY) },
    async (ctx) => {
      const { attempt, state, after } = await arrange(ctx);
      const before = await state();
      expectErrorAt(await attempt(), accepted, { status });
      expect(await state(), 'a rejected request changes nothing').toEqual(before);
      if (after) await after();
    },
  );
}
