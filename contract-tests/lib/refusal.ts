// Refusal checks: a rule whose rejection the spec states ("rejected, nothing changed") and whose
// error body only billing-sim fixes is checked twice by `refusal()`: a normative check (any 4xx, and
// the state is unchanged) and an informative one (400 naming the field and code,
// docs/behaviour.md#error-body). The builders of the attempts are in scenario.ts.

import { expect } from 'vitest';
import { check, type CheckContext, type CheckSpec } from './check.ts';
import { ERROR_BODY } from './citations.ts';
import type { Reply } from './client.ts';
import { expectErrorAt, expectRejected, type Placement } from './primitives.ts';

export interface Attempt {
  /** The request that must be rejected. */
  attempt: () => Promise<Reply>;
  /** What must not change: read before and after the attempt, and compared. */
  state: () => Promise<unknown>;
  /** Further assertions of the normative check, after the refusal (e.g. the boundary is accepted). */
  after?: () => Promise<void>;
}

/**
 * A rule that rejects a request, checked twice: `id` (normative: a 4xx, and the state is unchanged)
 * and `id-CODE` (informative: 400, or `status`, naming `field` with `code`,
 * docs/behaviour.md#error-body, or one of the placements of `also`: the platform's key and code
 * where the spec names none). `arrange` runs afresh for each, so the two checks share no objects.
 */
export function refusal(
  spec: CheckSpec & { field: string; code: string; also?: readonly Placement[]; status?: number; codeCites?: string },
  arrange: (ctx: CheckContext) => Promise<Attempt>,
): void {
  const { field, code, also = [], status = 400, codeCites, ...base } = spec;
  const placements: Placement[] = [[field, code], ...also];
  check(base, async (ctx) => {
    const { attempt, state, after } = await arrange(ctx);
    const before = await state();
    expectRejected(await attempt(), base.title);
    expect(await state(), 'a rejected request changes nothing').toEqual(before);
    if (after) await after();
  });
  check(
    {
      ...base,
      id: `${base.id}-CODE`,
      title: `${base.title}: ${status} with ${placements.map(([f, c]) => `${f} ${c}`).join(' or ')}`,
      cites: codeCites ?? ERROR_BODY,
      level: 'informative',
    },
    async (ctx) => {
      const { attempt, state } = await arrange(ctx);
      const before = await state();
      expectErrorAt(await attempt(), placements, { status, alone: true });
      expect(await state(), 'a rejected request changes nothing').toEqual(before);
    },
  );
}
