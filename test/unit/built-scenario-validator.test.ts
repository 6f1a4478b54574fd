// The scenario format's validator that `npm run build` compiles beside dist/src/scenario/schema.js, which
// `scenario run` loads instead of compiling scenario.schema.json at each start (src/scenario/schema.ts):
// it must answer every document exactly as a compile of the schema now does, errors and all, and never
// be used for a schema file other than the one it was compiled from.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { builtValidator, compileScenarioSchema, SCHEMA_PATH } from '../../src/scenario/schema.ts';

const dist = (file: string) => fileURLToPath(new URL(`../../dist/${file}`, import.meta.url));
const BUILT = dist('src/scenario/schema-validator.cjs');
const schemaText = readFileSync(SCHEMA_PATH, 'utf8');
const fixtures = fileURLToPath(new URL('../../fixtures/scenarios/', import.meta.url));

/** Each fixture scenario, and each broken in the ways a user breaks one: a key gone, a key misspelled, a value of another type, a bad duration. */
function documents(): unknown[] {
  const all: unknown[] = [{}, [], null, 'steps', { steps: [] }, { name: 'x', steps: [{}] }, { name: 'x', steps: [{ advnce: { by: 'P1M' } }] }];
  for (const file of readdirSync(fixtures).filter((name) => name.endsWith('.yaml'))) {
    const scenario = parse(readFileSync(`${fixtures}${file}`, 'utf8')) as { steps: Record<string, unknown>[] } & Record<string, unknown>;
    all.push(scenario);
    for (const [index, step] of scenario.steps.entries()) {
      const [kind] = Object.keys(step);
      const broken = (replacement: unknown) => ({ ...scenario, steps: scenario.steps.map((each, at) => (at === index ? replacement : each)) });
      all.push(broken({ [`${kind}x`]: step[kind!] }), broken({ [kind!]: 42 }), broken({ ...step, advance: { by: 'one month', to: '2026-02-30' } }));
      if (step[kind!] && typeof step[kind!] === 'object') all.push(broken({ [kind!]: { ...(step[kind!] as object), unknown_key: true } }));
    }
    const { steps: _steps, ...withoutSteps } = scenario;
    all.push(withoutSteps, { ...scenario, start: 'yesterday' });
  }
  return all;
}

describe('the scenario validator the build compiles', () => {
  it('answers every document, fixtures and broken ones, with the very errors a compile of scenario.schema.json now gives', () => {
    const built = builtValidator(schemaText, BUILT);
    expect(built, 'npm run build wrote it, from this schema').toBeDefined();
    const compiled = compileScenarioSchema(schemaText).validate;
    const all = documents();
    let refused = 0;
    for (const document of all) {
      const valid = compiled(document);
      expect(built!(document)).toBe(valid);
      if (!valid) refused += 1;
      // toEqual would pass an undefined key; the errors (and the schemas they carry, whose errorMessage the CLI prints) must be the same.
      expect(isDeepStrictEqual(built!.errors, compiled.errors), JSON.stringify(document).slice(0, 200)).toBe(true);
    }
    expect(refused).toBeGreaterThan(all.length / 2);
  });

  it('is not used for a schema file changed since the build, by one byte', () => {
    expect(builtValidator(schemaText, BUILT)).toBeDefined();
    expect(builtValidator(`${schemaText} `, BUILT)).toBeUndefined();
    expect(builtValidator(schemaText, dist('src/scenario/none.cjs'))).toBeUndefined();
  });
});
