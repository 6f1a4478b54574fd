// The validators `npm run build` compiles into dist/ (src/contract/write-validators.ts), which the
// compiled simulator, CLI and proxy use instead of compiling at each start: they are of the document as
// it is now, and they judge every input as the validators compiled at run time do — the same verdict,
// the same errors in the same order (their words and fields become the error body), the same coercion
// of a query string, the same cut of a validation past its error budget.

import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stop, validateWithin } from '../../src/contract/error-budget.ts';
import { documentDigest, fileOf } from '../../src/contract/precompiled.ts';
import { buildRouteTable } from '../../src/contract/routes.ts';
import { compileComponent, FORMATS, type SchemaKind } from '../../src/contract/schemas.ts';
import { loadSpec } from '../../src/contract/spec.ts';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';

const spec = loadSpec();
const operations = buildRouteTable(spec).operations;
const requireDist = createRequire(new URL('../../dist/src/contract/', import.meta.url));

/** A module of dist/ as precompiled.ts loads it. */
function built(kind: SchemaKind): { document: string; validators: Record<string, ValidateFunction> } {
  const module = requireDist(fileOf(kind)) as ((formats: unknown, stopValidation: unknown) => Record<string, ValidateFunction>) & { document: string };
  return { document: module.document, validators: module(FORMATS(), stop) };
}

const ODD_VALUES: unknown[] = [null, true, 0, -1, 1.5, 1e21, '', 'x', '2026-02-29', '2026-12-31T23:59:60Z', '+275760-09-13T00:00:00Z', [], [null], {}, { __proto__: null, constructor: 1 }, Array.from({ length: 2000 }, () => 'x')];

/** A body at each of its fields' odd values, of a bare object and of each shape. */
function bodiesOf(fields: string[]): unknown[] {
  return [{}, [], null, 'text', 42, { unknown_field: 1 }, ...fields.flatMap((field) => ODD_VALUES.map((value) => ({ [field]: value })))];
}

/** Runs a validator on a copy of `data` (a query validator coerces it): the errors, the cut, and the data after. */
function judge(validate: ValidateFunction, data: unknown) {
  const copy = structuredClone(data);
  const { errors, stopped } = validateWithin(validate, copy);
  return { errors: JSON.parse(JSON.stringify(errors)) as unknown, stopped, data: copy };
}

describe('the validators the build compiles', () => {
  it('are of openapi.yaml as it is now', () => {
    for (const kind of ['body', 'query', 'snapshot'] as const) expect(built(kind).document, kind).toBe(documentDigest(structuredClone(spec)));
  });

  it('judge every operation body as the validators compiled at run time do, field by field', () => {
    const { validators } = built('body');
    let judged = 0;
    for (const operation of operations) {
      const schema = operation.schemas.body;
      if (!schema) continue;
      const precompiled = validators[operation.operationId];
      expect(precompiled, operation.operationId).toBeDefined();
      const fields = Object.keys((schema as { properties?: object }).properties ?? {});
      for (const body of bodiesOf(fields.length ? fields : ['name', 'email', 'amount'])) {
        expect(judge(precompiled!, body), `${operation.operationId} ${JSON.stringify(body).slice(0, 80)}`).toEqual(judge(operation.body()!, body));
        judged += 1;
      }
    }
    expect(judged).toBeGreaterThan(500);
  });

  it('coerce and judge every query string as the validators compiled at run time do', () => {
    const { validators } = built('query');
    for (const operation of operations) {
      const schema = operation.schemas.query as { properties: Record<string, unknown> } | undefined;
      if (!schema) continue;
      for (const name of Object.keys(schema.properties)) {
        for (const value of ['1', '-1', '1e400', 'NaN', '', 'true', 'x', '2026-02-29', '2026-12-31T23:59:60Z', ['1', '2']]) {
          const query = { [name]: value };
          expect(judge(validators[operation.operationId]!, query), `${operation.operationId} ${name}=${value}`).toEqual(judge(operation.query()!, query));
        }
      }
    }
  });

  describe('a snapshot', () => {
    let sim: RunningSimulator;
    let snapshot: Record<string, unknown>;
    beforeAll(async () => {
      sim = await startSimulator({ port: 0, quiet: true });
      const created = await fetch(`${sim.url}/sim/v1/sandboxes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"fixtures": true}' });
      const { token } = (await created.json()) as { token: string };
      snapshot = (await (await fetch(`${sim.url}/sim/v1/snapshot`, { headers: { authorization: `Bearer ${token}` } })).json()) as Record<string, unknown>;
    });
    afterAll(() => sim.stop());

    /** Every leaf of a document, as a path of keys. */
    const leaves = (value: unknown, at: (string | number)[] = []): (string | number)[][] =>
      value && typeof value === 'object' ? Object.entries(value).flatMap(([key, item]) => leaves(item, [...at, Array.isArray(value) ? Number(key) : key])) : [at];

    it('is judged as the validator compiled at run time judges it, whole and with each of its values changed', () => {
      const precompiled = built('snapshot').validators.SandboxSnapshot!;
      // From the sources, which have no built validators: compiled now.
      const compiled = compileComponent(spec, 'SandboxSnapshot');
      expect(judge(precompiled, snapshot).errors).toEqual([]);
      const paths = leaves(snapshot);
      expect(paths.length).toBeGreaterThan(100);
      for (const path of paths) {
        for (const value of [null, 'x', -1, {}]) {
          const changed = structuredClone(snapshot);
          let node = changed as Record<string | number, unknown>;
          for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
          node[path.at(-1)!] = value;
          expect(judge(precompiled, changed), `${path.join('.')} = ${JSON.stringify(value)}`).toEqual(judge(compiled, changed));
        }
      }
    });
  });
});
