// One error type for every rejected request. Domain code throws it; the HTTP layer writes it as
// DESIGN.md's error body: a map of dotted field path (or `__all__`) to [{message, code}].

export const ALL = '__all__';

export interface ErrorDetail {
  message: string;
  code: string;
}

export type FieldErrors = Record<string, ErrorDetail[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly fields: FieldErrors,
  ) {
    super(firstMessage(fields));
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
  private readonly fields: FieldErrors = {};

  add(field: string, detail: ErrorDetail): void {
    (this.fields[field] ??= []).push(detail);
  }

  has(field?: string): boolean {
    return field === undefined ? Object.keys(this.fields).length > 0 : field in this.fields;
  }

  throwIfAny(status = 400): void {
    if (this.has()) throw new ApiError(status, this.fields);
  }
}

// The catalogue: every code the simulator uses, with the message a client sees. Messages follow
// the wording of Django REST framework, which the spec's API family answers with.
export const errors = {
  required: (): ErrorDetail => ({ message: 'This field is required.', code: 'required' }),
  null: (): ErrorDetail => ({ message: 'This field may not be null.', code: 'null' }),
  invalid: (message = 'Enter a valid value.'): ErrorDetail => ({ message, code: 'invalid' }),
  minValue: (limit: number | string): ErrorDetail => ({
    message: `Ensure this value is greater than or equal to ${limit}.`,
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
  minItems: (limit: number): ErrorDetail => ({
    message: `Ensure this field has at least ${limit} elements.`,
    code: 'min_items',
  }),
  maxItems: (limit: number): ErrorDetail => ({
    message: `Ensure this field has no more than ${limit} elements.`,
    code: 'max_items',
  }),
  invalidChoice: (value: unknown, allowed?: readonly unknown[]): ErrorDetail => ({
    message: `"${String(value)}" is not a valid choice.${allowed ? ` Allowed: ${allowed.join(', ')}.` : ''}`,
    code: 'invalid_choice',
  }),
  unknownField: (): ErrorDetail => ({
    message: 'This field is not defined for this operation.',
    code: 'unknown_field',
  }),
  readOnly: (reason: string): ErrorDetail => ({ message: `This field is read-only: ${reason}.`, code: 'read_only' }),
  doesNotExist: (what: string, id: unknown): ErrorDetail => ({
    message: `${what} with id "${String(id)}" does not exist.`,
    code: 'does_not_exist',
  }),
  invalidState: (message: string): ErrorDetail => ({ message, code: 'invalid_state' }),
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
  notFound: (): ErrorDetail => ({ message: 'Not found.', code: 'not_found' }),
  methodNotAllowed: (method: string): ErrorDetail => ({
    message: `Method "${method}" not allowed.`,
    code: 'method_not_allowed',
  }),
  tooLarge: (limit: string): ErrorDetail => ({ message: `Request body is larger than ${limit}.`, code: 'too_large' }),
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
