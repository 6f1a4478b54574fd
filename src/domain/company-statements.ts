// Statement requests (`/company_statements/`). The platform schedules the generation of a CSV or
// XLSX statement of the account's payments and answers the request at once, `pending`, with no
// file yet (docs.paytota.com/payments/company-statements, the same Gate engine: `status: "pending"`,
// `download_url`, `began_on`, `finished_on` null, `query_string: ""`, `type: "statement_request"`).
// What the plugins need from it is `company_uid`, the account's company, which is the `company_id`
// of its purchases. No file is generated here: a request stays `pending` (docs/fidelity.md).

import { unixSeconds, type Context } from './context.ts';
import { ErrorCollector, errors } from './errors.ts';
import { isTimeZone } from './purchase-details.ts';
import type { CompanyStatement, Input } from './types.ts';

/** The account a statement is of: its company id, the `company_id` of its purchases. */
export interface StatementScope {
  companyId: string;
}

/**
 * The statement request a POST makes. `format` has been checked by the schema (csv, xlsx); the
 * time zone is an IANA name, as a purchase's `timezone` (an unknown one → 400 `invalid` on
 * `timezone`). `queryString` is the request's query (the platform takes the statement's filters,
 * `from`, `to`, `brand_id`, …, as query parameters and answers them in `query_string`).
 */
export function scheduleStatement(input: Input, queryString: string, scope: StatementScope, ctx: Context): CompanyStatement {
  const timezone = (input.timezone as string | undefined) ?? 'UTC';
  const errs = new ErrorCollector();
  if (!isTimeZone(timezone)) errs.add('timezone', errors.invalid(`"${timezone}" is not a known IANA time zone.`));
  errs.throwIfAny();
  const now = unixSeconds(ctx.clock.now());
  // The platform's order of fields, its `id` last.
  return {
    format: input.format as CompanyStatement['format'],
    timezone,
    is_test: true,
    company_uid: scope.companyId,
    query_string: queryString,
    status: 'pending',
    download_url: null,
    began_on: null,
    finished_on: null,
    created_on: now,
    updated_on: now,
    type: 'statement_request',
    id: ctx.ids.uuid(),
  };
}

/**
 * The query of a request as the platform's `query_string` shows it: `from=1698278400&to=1698364800`,
 * `""` without one. Express has parsed it; a value that is a list is written once per item.
 */
export function queryStringOf(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string') params.append(name, item);
  }
  return params.toString();
}
