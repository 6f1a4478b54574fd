// Turns ajv's errors into DESIGN.md's error body: the dotted path of the field
// (`/purchase/products/0/price` → `purchase.products.0.price`, a missing property appended to its
// parent's path) mapped to the catalogue's message and code. Where the document gives a schema's
// keyword words of its own (`x-error-message: {pattern: …}`, read from ajv's `parentSchema`, which
// `verbose` puts on each error), they replace the catalogue's message and the code stays: no
// regex (`^P(?!$)(\d+Y)?…`) and no bare "Expected integer." reaches a user.

import type { ErrorObject } from 'ajv';
import { ALL, emptyFieldErrors, errors, type ErrorDetail, type FieldErrors } from '../domain/errors.ts';
import { MAX_BODY_DEPTH, MAX_ERRORS } from './limits.ts';
import { NOT_FINITE, TOO_DEEP } from './beyond-schema.ts';
import { ERROR_MESSAGE_KEYWORD } from './schemas.ts';

const FORMAT_HINTS: Record<string, string> = {
  date: 'Enter a date as YYYY-MM-DD, such as 2026-09-21.',
  'date-time': 'Enter an ISO-8601 date-time between years 0000 and 9999 without a leap second, such as 2026-01-31T00:00:00Z.',
  uuid: 'Enter a valid UUID.',
  email: 'Enter a valid email address.',
  uri: 'Enter a valid URL.',
};

/** The keys of a JSON pointer (ajv's `instancePath`): `/purchase/products/0` → purchase, products, 0. */
export const pointerKeys = (instancePath: string): string[] => instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));

function dotted(instancePath: string, child?: string): string {
  const parts = pointerKeys(instancePath);
  if (child !== undefined) parts.push(child);
  return parts.length ? parts.join('.') : ALL;
}

function describe(error: ErrorObject): [string, ErrorDetail] | undefined {
  const params = error.params as Record<string, unknown>;
  const at = (detail: ErrorDetail): [string, ErrorDetail] => [dotted(error.instancePath), detail];
  switch (error.keyword) {
    case 'required':
      return [dotted(error.instancePath, params.missingProperty as string), errors.required()];
    case 'additionalProperties':
      return [dotted(error.instancePath, params.additionalProperty as string), errors.unknownField()];
    case 'unevaluatedProperties':
      return [dotted(error.instancePath, params.unevaluatedProperty as string), errors.unknownField()];
    case 'type':
      // A null field "may not be null"; a null body is simply not the object the operation takes.
      return at(error.data === null && error.instancePath !== '' ? errors.null() : errors.invalid(`Expected ${String(params.type).replace(',', ' or ')}.`));
    case 'minimum':
      return at(errors.minValue(params.limit as number));
    case 'exclusiveMinimum':
      return at(errors.greaterThan(params.limit as number));
    case 'maximum':
      return at(errors.maxValue(params.limit as number));
    case 'exclusiveMaximum':
      return at(errors.lessThan(params.limit as number));
    case 'minLength':
      return at(errors.minLength(params.limit as number));
    case 'maxLength':
      return at(errors.maxLength(params.limit as number));
    case 'minItems':
      return at(errors.minItems(params.limit as number));
    case 'maxItems':
      return at(errors.maxItems(params.limit as number));
    case 'enum':
      return at(errors.invalidChoice(error.data, params.allowedValues as unknown[]));
    case 'const':
      return at(errors.invalidChoice(error.data, [params.allowedValue]));
    case NOT_FINITE:
      return at(errors.invalid('Enter a finite number.'));
    case TOO_DEEP:
      return at(errors.invalid(`Nested deeper than ${MAX_BODY_DEPTH} levels.`));
    case 'format':
      return at(errors.invalid(FORMAT_HINTS[params.format as string] ?? `Expected format ${String(params.format)}.`));
    case 'pattern':
      // Every pattern of openapi.yaml has its words (test/unit/openapi-document.test.ts): this is for a schema from elsewhere.
      return at(errors.invalid('Enter a value in the form this field takes (openapi.yaml describes it).'));
    case 'uniqueItems':
      return at(errors.invalid(`Items ${String(params.j)} and ${String(params.i)} are the same.`));
    case 'minProperties':
    case 'maxProperties':
      return at(errors.invalid(`Send ${error.keyword === 'minProperties' ? 'at least' : 'at most'} ${String(params.limit)} field(s).`));
    default:
      // Combinators (allOf, oneOf, if) only summarise errors reported by their branches.
      return undefined;
  }
}

/** The document's words for this error's keyword, beside the schema that refused (`x-error-message`). */
function ownWords(error: ErrorObject): string | undefined {
  const words = (error.parentSchema as Record<string, unknown> | undefined)?.[ERROR_MESSAGE_KEYWORD] as Record<string, unknown> | undefined;
  const said = words?.[error.keyword];
  return typeof said === 'string' ? said : undefined;
}

/**
 * The error as the body lists it: the document's words where it has them. A null sent for a field
 * that takes none keeps DRF's "This field may not be null.", whatever the field's words for a wrong type.
 */
function described(error: ErrorObject): [string, ErrorDetail] | undefined {
  const found = describe(error);
  const words = found && found[1].code !== 'null' ? ownWords(error) : undefined;
  return found && words ? [found[0], { ...found[1], message: words }] : found;
}

/**
 * Maps ajv's errors to field errors, one entry per field and code. It stops at the first error
 * past MAX_ERRORS (building a map of 524,000 fields cost seconds) and then, or when `stopped` (the
 * validation was cut short: error-budget.ts), ends `__all__` with `too_many_errors`. The error
 * handler bounds texts and bytes of every body (limits.ts boundErrors).
 */
export function toFieldErrors(ajvErrors: readonly ErrorObject[], stopped = false): FieldErrors {
  const fields = emptyFieldErrors();
  let listed = 0;
  let cut = false;
  // A value may match any of several enums (a TokenOutcome: success, failure or a DeclineCode): each
  // branch reports its own, and the one invalid_choice answered names them all.
  const choices = new Map<string, unknown[]>();
  for (const error of ajvErrors) {
    const one = described(error);
    if (!one) continue;
    const [field, detail] = one;
    const list = (fields[field] ??= []);
    const seen = list.findIndex((listed) => listed.code === detail.code);
    if (error.keyword === 'enum') {
      const allowed = [...(choices.get(field) ?? []), ...((error.params as { allowedValues: unknown[] }).allowedValues)];
      choices.set(field, allowed);
      if (seen >= 0) list[seen] = errors.invalidChoice(error.data, allowed);
    }
    if (seen >= 0) continue;
    if (listed === MAX_ERRORS) {
      if (list.length === 0) delete fields[field];
      cut = true;
      break;
    }
    list.push(detail);
    listed += 1;
  }
  if (listed === 0 && ajvErrors.length > 0) {
    fields[dotted(ajvErrors[0]!.instancePath)] = [errors.invalid(ajvErrors[0]!.message ?? 'Invalid value.')];
  }
  if (cut || stopped) (fields[ALL] ??= []).push(errors.tooManyErrors(listed));
  return fields;
}
