// DESIGN.md §6 "Bad input": an instant the JavaScript date parser cannot represent is refused where
// instants are validated (the `date-time` format of every request schema), not in each handler.

import { describe, expect, it } from 'vitest';
import { isRepresentableDateTime } from '../../src/contract/instants.ts';
import { toFieldErrors } from '../../src/contract/ajv-errors.ts';
import { buildRouteTable } from '../../src/contract/routes.ts';
import { loadSpec } from '../../src/contract/spec.ts';

const routes = buildRouteTable(loadSpec());
const body = (operationId: string) => routes.operations.find((operation) => operation.operationId === operationId)!.body()!;

describe('date-time accepts only instants Date.parse can represent', () => {
  it('refuses leap seconds, which RFC 3339 allows and Date.parse reads as NaN', () => {
    for (const text of ['2026-12-31T23:59:60Z', '2026-06-30T23:59:60Z', '2027-01-01T00:59:60+01:00']) {
      expect(isRepresentableDateTime(text), text).toBe(false);
    }
  });

  it('refuses years beyond four digits, such as 275760 and -271821 (the ends of the JS time range)', () => {
    for (const text of ['275760-09-13T00:00:00Z', '+275760-09-13T00:00:00.001Z', '-271821-04-19T23:59:59Z', '+010000-01-01T00:00:00Z']) {
      expect(isRepresentableDateTime(text), text).toBe(false);
    }
  });

  it('accepts the RFC 3339 forms the simulator reads: offsets, fractions, lower case, years 0000 to 9999', () => {
    for (const text of ['2026-01-31T00:00:00Z', '2026-01-31T00:00:00.123456789+05:30', '2026-01-31t00:00:00z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59-23:59']) {
      expect(isRepresentableDateTime(text), text).toBe(true);
      expect(Number.isFinite(Date.parse(text))).toBe(true);
    }
  });

  it('makes a leap second in a clock advance a 400 naming `to`, code invalid', () => {
    const validate = body('advanceClock');
    expect(validate({ to: '2026-12-31T23:59:60Z' })).toBe(false);
    expect(toFieldErrors(validate.errors!)).toEqual({ to: [expect.objectContaining({ code: 'invalid' })] });
  });

  it('checks every date-time of a request, the sandbox clock of a snapshot included', () => {
    expect(body('createSandbox')({ now: '2026-12-31T23:59:60Z' })).toBe(false);
    const snapshot = { snapshot: { billing_sim_snapshot: 1, sandbox: { clock: { now: '2026-12-31T23:59:60Z', frozen: true } } } };
    const validate = body('createSandbox');
    validate(snapshot);
    expect(Object.keys(toFieldErrors(validate.errors!))).toContain('snapshot.sandbox.clock.now');
  });
});
