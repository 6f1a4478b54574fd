// Where the checks' rules are written, always in a file of this repository (the API spec itself is
// not in it: a rule of the spec is cited as the rule of docs/behaviour.md that restates it). A
// citation is one or more references joined by "; ", each a place and, after a colon, the rule's
// words in double quotes:
//   docs/behaviour.md#status-codes: "a create"         a heading's anchor of docs/behaviour.md
//   openapi.yaml#createClient                           an operation of openapi.yaml, by operationId
//   openapi.yaml#/components/schemas/ClientUpdate       any node of openapi.yaml, by JSON pointer
// A quote belongs to the reference before it and is that section's text (markdown marks left out;
// "…" stands for words left out). test/contract/citations.test.ts checks every anchor, operation,
// pointer and quote of every check. The citations several checks share are named here.

const rule = (anchor: string, quote?: string) => `docs/behaviour.md#${anchor}${quote === undefined ? '' : `: "${quote}"`}`;

/** The shape of every error answer. */
export const ERROR_BODY = rule('error-body', "a map from a field path to the list of that field's errors");
/** The error body and a code of the table of error codes, e.g. `errorCode('read_only')`. */
export const errorCode = (code: string) => `${ERROR_BODY}; ${rule('error-codes', code)}`;
/** 400 for any rejected request. */
export const REJECTED = rule('status-codes', 'any rejected request: schema, rule or state');
/** 404 for an unknown id, or one of another sandbox. */
export const NOT_FOUND = rule('status-codes', 'an unknown path, an unknown id, an id of another sandbox');

export const SUBSCRIBER_STATES = rule('subscribers', "The new subscriber's status follows the API spec's state table");
export const SUBSCRIBER_FIELDS = rule('subscriber-fields');
export const TEMPLATE_FIELDS = rule('template-fields');
export const READ_ONLY_CODE = `${rule('read-only-fields', 'A different value → 400 read_only, and the stored value never changes')}; ${rule('error-codes', 'read_only')}`;
/**
 * A body field the operation does not define, or one that is always the server's (`id`, `status` on
 * create): refused (400 unknown_field / read_only, a strict server) or ignored (the platform), never
 * taken (lib/ignored-fields.ts).
 */
export const IGNORED_OR_REFUSED = `${rule('requests')}; ${rule('read-only-fields', 'the stored value never changes')}`;
