// One error type for every rejected request. Domain code throws it; the HTTP layer writes it as
// DESIGN.md's error body: a map of dotted field path (or `__all__`) to [{message, code}].

export const ALL = '__all__';

export interface ErrorDetail {
  message: string;
  code: string;
}

export type FieldErrors = Record<string, ErrorDetail[]>;

/**
 * Errors one body lists (DESIGN.md §6, documented under `Error` in openapi.yaml): enough to correct
 * a whole form, few enough to read. A 1 MiB body once answered 524,000 of them, 32 MB after 5 s.
 * The rest of the bounds of an error body are in contract/limits.ts, which writes bodies to them.
 */
export const MAX_ERRORS = 100;

/**
 * Allowed values an `invalid_choice` message names. The 64 decline codes (decline-codes.ts) take some
 * 1,300 characters, past the 500 of one message (contract/limits.ts MAX_ERROR_TEXT); the first ones,
 * the common reasons, and the count say enough, and openapi.yaml lists every value.
 */
export const MAX_CHOICES_NAMED = 10;

function allowedText(allowed: readonly unknown[]): string {
  if (allowed.length <= MAX_CHOICES_NAMED) return ` Allowed: ${allowed.join(', ')}.`;
  return ` Allowed: ${allowed.slice(0, MAX_CHOICES_NAMED).join(', ')} and ${allowed.length - MAX_CHOICES_NAMED} more (openapi.yaml lists them).`;
}

/**
 * An empty error map. Field paths come from the client (`{"constructor": 1}` → `constructor:
 * unknown_field`), so the map has no prototype: on `{}`, `fields.constructor ??= []` finds
 * Object's constructor and `fields.__proto__ = [...]` replaces the prototype.
 */
export const emptyFieldErrors = (): FieldErrors => Object.create(null) as FieldErrors;

export class ApiError extends Error {
  readonly status: number;
  readonly fields: FieldErrors;

  constructor(status: number, fields: FieldErrors) {
    const message = firstMessage(fields);
    // A refusal (4xx) is the client's doing, not the code's: it gets no stack trace, which no answer shows
    // and which cost 20-35 µs to capture, twice for every refused request (errorHandler bounds a copy). A
    // refusal met in background work (a limit reached in an advance) is logged by its message alone.
    const limit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.status = status;
    this.fields = fields;
    this.name = 'ApiError';
  }

  /** The one-line form used by the request log: `subscription_period: max_value`. */
  summary(): string {
    const [field, details] = Object.entries(this.fields)[0] ?? [ALL, []];
    return `${field}: ${details[0]?.code ?? 'error'}`;
  }
}

function firstMessage(fields: FieldErrors): string {
  const [field, details] = Object.entries(fields)[0] ?? [ALL, []];
  return `${field}: ${details[0]?.message ?? 'error'}`;
}

/** Collects field errors while a rule set runs, so one response names every bad field at once. */
export class ErrorCollector {
  private readonly fields = emptyFieldErrors();
  /** Every field with an error, kept ones or not, so that rules asking `has` see them all. */
  private readonly named = new Set<string>();
  private count = 0;

  /**
   * Keeps the first MAX_ERRORS + 1: one more than a body lists, so that it says the rest were cut.
   * A whitelist of 110,000 unknown method names would otherwise make as many entries.
   */
  add(field: string, detail: ErrorDetail): void {
    this.named.add(field);
    if (this.count > MAX_ERRORS) return;
    (this.fields[field] ??= []).push(detail);
    this.count += 1;
  }

  has(field?: string): boolean {
    return field === undefined ? this.named.size > 0 : this.named.has(field);
  }

  throwIfAny(status = 400): void {
    if (this.has()) throw new ApiError(status, this.fields);
  }
}

/**
 * A value the client sent, as a message quotes it. Objects and arrays are named by kind: String()
 * of `{"toString": 1}` throws, and of an array nested 5,000 deep overflows the stack.
 */
function quoted(value: unknown): string {
  if (Array.isArray(value)) return 'An array';
  if (value !== null && typeof value === 'object') return 'An object';
  return `"${String(value)}"`;
}

// The catalogue: every code the simulator uses, with the message a client sees. Messages follow
// the wording of Django REST framework, which the spec's API family answers with.
export const errors = {
  required: (message = 'This field is required.'): ErrorDetail => ({ message, code: 'required' }),
  null: (): ErrorDetail => ({ message: 'This field may not be null.', code: 'null' }),
  invalid: (message = 'Enter a valid value.'): ErrorDetail => ({ message, code: 'invalid' }),
  /** DRF's words, and with `why` the rule that sets the limit, in the spec's words where it has them. */
  minValue: (limit: number | string, why?: string): ErrorDetail => ({
    message: `Ensure this value is greater than or equal to ${limit}${why ? `: ${why}` : ''}.`,
    code: 'min_value',
  }),
  greaterThan: (limit: number): ErrorDetail => ({ message: `Ensure this value is greater than ${limit}.`, code: 'min_value' }),
  lessThan: (limit: number): ErrorDetail => ({ message: `Ensure this value is less than ${limit}.`, code: 'max_value' }),
  maxValue: (limit: number | string): ErrorDetail => ({
    message: `Ensure this value is less than or equal to ${limit}.`,
    code: 'max_value',
  }),
  minLength: (limit: number): ErrorDetail => ({
    message: `Ensure this field has at least ${limit} characters.`,
    code: 'min_length',
  }),
  maxLength: (limit: number): ErrorDetail => ({
    message: `Ensure this field has no more than ${limit} characters.`,
    code: 'max_length',
  }),
  maxDecimalPlaces: (places: number): ErrorDetail => ({
    message: `Ensure that there are no more than ${places} decimal places.`,
    code: 'max_decimal_places',
  }),
  minItems: (limit: number): ErrorDetail => ({
    message: `Ensure this field has at least ${limit} elements.`,
    code: 'min_items',
  }),
  maxItems: (limit: number): ErrorDetail => ({
    message: `Ensure this field has no more than ${limit} elements.`,
    code: 'max_items',
  }),
  invalidChoice: (value: unknown, allowed?: readonly unknown[]): ErrorDetail => ({
    message: `${quoted(value)} is not a valid choice.${allowed ? allowedText(allowed) : ''}`,
    code: 'invalid_choice',
  }),
  unknownField: (): ErrorDetail => ({
    message: 'This field is not defined for this operation.',
    code: 'unknown_field',
  }),
  readOnly: (reason: string): ErrorDetail => ({ message: `This field is read-only: ${reason}.`, code: 'read_only' }),
  doesNotExist: (what: string, id: unknown): ErrorDetail => ({
    message: `${what} with id ${quoted(id)} does not exist.`,
    code: 'does_not_exist',
  }),
  invalidState: (message: string): ErrorDetail => ({ message, code: 'invalid_state' }),
  /** The platform's code for a declined POST /purchases/{id}/charge/ (DESIGN.md §9). */
  chargeError: (message: string): ErrorDetail => ({ message, code: 'purchase_charge_error' }),
  /**
   * A token that can charge nothing (never saved, deleted, of another sandbox). The platform's code,
   * under `__all__`, where its WooCommerce plugin looks for it to drop the stored card.
   */
  invalidRecurringToken: (message: string): ErrorDetail => ({ message, code: 'invalid_recurring_token' }),
  /** The platform's codes of the refused purchase actions (CHIP's API reference), under `__all__`. */
  captureError: (message: string): ErrorDetail => ({ message, code: 'purchase_capture_error' }),
  releaseError: (message: string): ErrorDetail => ({ message, code: 'purchase_release_error' }),
  refundError: (message: string): ErrorDetail => ({ message, code: 'purchase_refund_error' }),
  protected: (message: string): ErrorDetail => ({ message, code: 'protected' }),
  parseError: (message: string): ErrorDetail => ({ message: `JSON parse error: ${message}`, code: 'parse_error' }),
  unsupportedMediaType: (type: string): ErrorDetail => ({
    message: `Unsupported media type "${type}" in request; send application/json.`,
    code: 'unsupported_media_type',
  }),
  notAuthenticated: (): ErrorDetail => ({
    message: 'Authentication credentials were not provided.',
    code: 'not_authenticated',
  }),
  authenticationFailed: (why: string): ErrorDetail => ({ message: why, code: 'authentication_failed' }),
  forbiddenHost: (host: string): ErrorDetail => ({
    message: `Host "${host}" is not allowed: address the simulator as localhost, 127.0.0.1 or [::1], or start it with --allowed-host NAME.`,
    code: 'forbidden_host',
  }),
  forbiddenOrigin: (origin: string): ErrorDetail => ({
    message: `Origin "${origin}" is not allowed by CORS: only localhost origins are, unless the simulator is started with --cors-origin ORIGIN.`,
    code: 'forbidden_origin',
  }),
  notFound: (): ErrorDetail => ({ message: 'Not found.', code: 'not_found' }),
  methodNotAllowed: (method: string): ErrorDetail => ({
    message: `Method "${method}" not allowed.`,
    code: 'method_not_allowed',
  }),
  tooLarge: (limit: string): ErrorDetail => ({ message: `Request body is larger than ${limit}.`, code: 'too_large' }),
  tooManyErrors: (listed: number): ErrorDetail => ({
    message: `The request has more errors than the ${listed} listed; correct these and send it again to see the rest.`,
    code: 'too_many_errors',
  }),
  notImplemented: (what: string): ErrorDetail => ({ message: what, code: 'not_implemented' }),
  serverError: (): ErrorDetail => ({ message: 'A server error occurred.', code: 'server_error' }),
  storageUnavailable: (): ErrorDetail => ({
    message: 'The change could not be saved to the data file, and was not made. Try again once the disk has room.',
    code: 'storage_unavailable',
  }),
};

export function fieldError(field: string, detail: ErrorDetail, status = 400): ApiError {
  return new ApiError(status, { [field]: [detail] });
}

export const notFound = (): ApiError => fieldError(ALL, errors.notFound(), 404);
