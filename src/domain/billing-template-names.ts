// The platform's names of a template's invoice fields (DESIGN.md §11, "Dialect"): its SDKs and
// reference say `invoice_due` where the spec says `due`. A request may use either name; the rules
// run on the spec's names, and an answer carries both. Nothing is stored under the platform's names:
// they are read from the spec's fields on the way out, so records and snapshots keep one name each.

import { isDeepStrictEqual } from 'node:util';
import { ApiError, ErrorCollector, emptyFieldErrors, errors } from './errors.ts';
import type { BillingTemplate, Input } from './types.ts';

/** The platform's name → the spec's name [PHP BillingTemplate, D:billing/create]. */
export const PLATFORM_NAMES = {
  invoice_issued: 'issued',
  invoice_due: 'due',
  invoice_skip_capture: 'skip_capture',
  invoice_send_receipt: 'send_receipt',
} as const;

type PlatformName = keyof typeof PLATFORM_NAMES;

export type PlatformFields = { [name in PlatformName]: BillingTemplate[(typeof PLATFORM_NAMES)[name]] };

/** The platform's invoice_* fields of a template, answered beside the spec's. */
export function platformFields(template: BillingTemplate): PlatformFields {
  return {
    invoice_issued: template.issued,
    invoice_due: template.due,
    invoice_skip_capture: template.skip_capture,
    invoice_send_receipt: template.send_receipt,
  };
}

/**
 * Runs `write` on the input with each platform name replaced by the spec's. Both names with one
 * value are one field (a client that GETs a template and PUTs the answer back sends both); two
 * values are refused under the platform's name. An error that `write` reports on a field the
 * client sent only under the platform's name is answered under that name: a PHP client sending
 * `invoice_due` on a subscription template reads `invoice_due: read_only`, not a field it never sent.
 */
export function withSpecNames<T>(input: Input, write: (input: Input) => T): T {
  const errs = new ErrorCollector();
  const folded: Input = { ...input };
  const sentAs = new Map<string, string>();
  for (const [platform, spec] of Object.entries(PLATFORM_NAMES)) {
    if (!(platform in input)) continue;
    delete folded[platform];
    if (spec in input && !isDeepStrictEqual(input[spec], input[platform])) {
      errs.add(platform, errors.invalid(`This field is another name of ${spec}; send one of them, or the same value in both.`));
      continue;
    }
    if (!(spec in input)) sentAs.set(spec, platform);
    folded[spec] = input[platform];
  }
  errs.throwIfAny();
  try {
    return write(folded);
  } catch (error) {
    if (!(error instanceof ApiError) || sentAs.size === 0) throw error;
    const fields = emptyFieldErrors();
    for (const [field, details] of Object.entries(error.fields)) fields[sentAs.get(field) ?? field] = details;
    throw new ApiError(error.status, fields);
  }
}
