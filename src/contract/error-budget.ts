// Stops a validation once it has collected more errors than a body can list. The validators run
// with allErrors, so one answer names every bad field of a form; left alone, ajv also checks every
// item of `{"snapshot": {"sandbox": {"events": [1, 1, …]}}}` (524,000 of them in 1 MiB) and
// collects an error for each. schemas.ts puts the keyword below on every `items` schema, so the
// loop over the items checks the count after each one and throws once it passes the budget.
//
// The count is that of the validating function (one per component schema), which also holds the
// errors of an `anyOf` branch that later turns out not to matter: a schema offering two kinds of
// array in an anyOf could be cut short on a valid body. openapi.yaml has no such schema.

import type { ErrorObject, KeywordCxt, KeywordDefinition, Name, ValidateFunction } from 'ajv';
import { requireLater } from './lazy.ts';
import { RAW_ERROR_BUDGET } from './limits.ts';

/** The variables of ajv's generated code: `errors` counts, `vErrors` holds them. */
interface CodeNames {
  errors: Name;
  vErrors: Name;
}

/** ajv's code generator and its variable names, loaded with ajv (lazy.ts). */
function codegen(): { _: typeof import('ajv')._; Name: typeof import('ajv').Name; names: CodeNames } {
  const { _, Name } = requireLater('ajv') as typeof import('ajv');
  const names = (requireLater('ajv/dist/compile/names.js') as { default: CodeNames }).default;
  return { _, Name, names };
}

export const ERROR_BUDGET_KEYWORD = 'x-error-budget';

class TooManyErrors extends Error {
  constructor(readonly errors: ErrorObject[]) {
    super(`validation stopped after ${errors.length} errors`);
  }
}

/** Ends a validation that holds too many errors; a precompiled validator takes it as a parameter (precompiled.ts). */
export function stop(errors: ErrorObject[]): never {
  throw new TooManyErrors(errors);
}

/**
 * `{"x-error-budget": 1000}`: throw once the enclosing function holds more than 1,000 errors. A
 * validator's code names `stop` by `stopName`, the parameter a precompiled module takes it as.
 */
export const errorBudgetKeyword = (stopName: string): KeywordDefinition => ({
  keyword: ERROR_BUDGET_KEYWORD,
  schemaType: 'number',
  code(cxt: KeywordCxt) {
    const { _, Name, names } = codegen();
    const thrower = cxt.gen.scopeValue('func', { ref: stop, code: _`${new Name(stopName)}` });
    cxt.gen.if(_`${names.errors} > ${cxt.schema as number}`, () => cxt.gen.code(_`${thrower}(${names.vErrors})`));
  },
});

export const ERROR_BUDGET = { [ERROR_BUDGET_KEYWORD]: RAW_ERROR_BUDGET };

export interface Validation {
  errors: ErrorObject[];
  /** True when the budget cut the validation short: more errors exist than `errors` holds. */
  stopped: boolean;
}

/** Runs `validate` (which may coerce `data`), returning its errors, none when `data` is valid. */
export function validateWithin(validate: ValidateFunction, data: unknown): Validation {
  try {
    return { errors: validate(data) ? [] : (validate.errors ?? []), stopped: false };
  } catch (error) {
    if (error instanceof TooManyErrors) return { errors: error.errors, stopped: true };
    throw error;
  }
}
