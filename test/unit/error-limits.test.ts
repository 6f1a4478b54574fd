// DESIGN.md §6 "Bad input": an error body lists at most 100 errors and stays under 64 KiB, and field
// paths named like Object properties are ordinary keys of it.

import { describe, expect, it } from 'vitest';
import { boundErrors, MAX_ERROR_BODY_BYTES, MAX_ERROR_TEXT, MAX_ERRORS } from '../../src/contract/limits.ts';
import { ApiError, emptyFieldErrors, ErrorCollector, errors, type FieldErrors } from '../../src/domain/errors.ts';

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

function manyFields(count: number, message = 'Enter a valid value.'): FieldErrors {
  const fields = emptyFieldErrors();
  for (let index = 0; index < count; index += 1) fields[`cc.${index}`] = [errors.invalid(message)];
  return fields;
}

const detailsIn = (fields: FieldErrors) => Object.values(fields).flat();
const bytes = (fields: FieldErrors) => Buffer.byteLength(JSON.stringify(fields));

describe('an error body lists at most 100 errors and stays under 64 KiB', () => {
  it('keeps the first 100 errors of 500 and says under __all__, last, that the rest were cut', () => {
    const body = boundErrors(manyFields(500));
    const listed = detailsIn(body).filter((detail) => detail.code !== 'too_many_errors');
    expect(listed).toHaveLength(MAX_ERRORS);
    expect(Object.keys(body).slice(0, 2)).toEqual(['cc.0', 'cc.1']);
    expect(body.__all__).toEqual([errors.tooManyErrors(MAX_ERRORS)]);
    expect(body.__all__![0]!.message).toContain('more errors than the 100 listed');
  });

  it('passes a body of 100 errors through unchanged, without a notice', () => {
    const body = boundErrors(manyFields(100));
    expect(JSON.stringify(body)).toBe(JSON.stringify(manyFields(100)));
  });

  it('stays under 64 KiB when every message is long, listing fewer errors', () => {
    const body = boundErrors(manyFields(100, 'é'.repeat(10_000)));
    expect(bytes(body)).toBeLessThan(MAX_ERROR_BODY_BYTES);
    expect(detailsIn(body).length).toBeLessThan(MAX_ERRORS);
    expect(body.__all__?.at(-1)?.code).toBe('too_many_errors');
  });

  it('cuts a field path or message longer than 500 characters, ending it with …', () => {
    const fields = emptyFieldErrors();
    fields['k'.repeat(900_000)] = [errors.invalidChoice('v'.repeat(900_000), ['a', 'b'])];
    const body = boundErrors(fields);
    const [field, [detail]] = Object.entries(body)[0]!;
    expect(field).toHaveLength(MAX_ERROR_TEXT);
    expect(field.endsWith('…')).toBe(true);
    expect(detail!.message).toHaveLength(MAX_ERROR_TEXT);
    expect(detail!.code).toBe('invalid_choice');
    expect(body.__all__).toBeUndefined();
  });

  it('is idempotent: a bounded body with its notice is bounded again unchanged', () => {
    const once = boundErrors(manyFields(300));
    expect(boundErrors(once)).toEqual(once);
    expect(boundErrors(manyFields(3), true).__all__).toEqual([errors.tooManyErrors(3)]);
  });
});

describe('ErrorCollector keeps one error more than a body lists', () => {
  it('stores 101 of 110,000 errors, so the body says the rest were cut, and still knows every field', () => {
    const errs = new ErrorCollector();
    for (let index = 0; index < 110_000; index += 1) errs.add(`payment_method_whitelist.${index}`, errors.invalidChoice(`m${index}`));
    expect(errs.has('payment_method_whitelist.109999')).toBe(true);
    const thrown = (() => {
      try {
        errs.throwIfAny();
      } catch (error) {
        return error as ApiError;
      }
    })()!;
    expect(Object.keys(thrown.fields)).toHaveLength(MAX_ERRORS + 1);
    expect(boundErrors(thrown.fields).__all__).toEqual([errors.tooManyErrors(MAX_ERRORS)]);
  });
});

describe('field paths named like Object properties are plain keys of the error map', () => {
  it('collects errors for every Object.prototype name without touching the prototype', () => {
    const errs = new ErrorCollector();
    for (const name of PROTOTYPE_NAMES) {
      expect(errs.has(name)).toBe(false);
      errs.add(name, errors.unknownField());
      errs.add(name, errors.invalid());
      expect(errs.has(name)).toBe(true);
    }
    let thrown: ApiError | undefined;
    try {
      errs.throwIfAny();
    } catch (error) {
      thrown = error as ApiError;
    }
    expect(Object.keys(thrown!.fields).sort()).toEqual([...PROTOTYPE_NAMES].sort());
    expect(thrown!.fields.__proto__).toHaveLength(2);
    expect(JSON.parse(JSON.stringify(boundErrors(thrown!.fields))).constructor).toEqual([errors.unknownField(), errors.invalid()]);
  });

  it('bounds a map whose keys are __proto__ and constructor', () => {
    const fields = JSON.parse('{"__proto__": [{"message": "m", "code": "invalid"}], "constructor": [{"message": "m", "code": "invalid"}]}') as FieldErrors;
    const body = boundErrors(fields);
    expect(Object.getPrototypeOf(body)).toBeNull();
    expect(Object.keys(body)).toEqual(['__proto__', 'constructor']);
  });
});

describe('a refusal carries no stack trace; a server error keeps its own', () => {
  it('an ApiError of 400 has its name and message and no frame; one of 500 has frames; the limit of other errors is untouched', () => {
    const limit = Error.stackTraceLimit;
    const refusal = new ApiError(400, { name: [errors.required()] });
    expect(refusal.stack).toBe(`ApiError: name: ${errors.required().message}`);
    expect([refusal.status, refusal.fields.name![0]!.code]).toEqual([400, 'required']);
    expect(new ApiError(500, { __all__: [errors.serverError()] }).stack).toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('other').stack).toMatch(/\n\s+at /);
  });
});
