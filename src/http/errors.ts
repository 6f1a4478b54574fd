// The one place that writes errors. ApiError carries its own status and body; body-parser's
// errors become the catalogue's parse_error / too_large / unsupported_media_type; anything else is
// a bug, logged with the request and answered as a 500 with the same body shape.

import type { NextFunction, Request, Response } from 'express';
import { ALL, ApiError, errors } from '../domain/errors.ts';
import { boundErrors } from '../contract/limits.ts';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  /** For entity.too.large: the parser's limit in bytes (the API's 1 MiB, a page's form 16 KiB). */
  limit?: number;
}

/** A limit in bytes as a refusal names it: "1 MiB", "16 KiB". */
const sizeName = (bytes: number): string => (bytes % 1048576 === 0 ? `${bytes / 1048576} MiB` : `${Math.round(bytes / 1024)} KiB`);

/** The largest request body the API reads (bytes); a larger one is a 413. The proxy checks against the same. */
export const MAX_BODY = 1024 * 1024;

function fromBodyParser(error: BodyParserError): ApiError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return new ApiError(400, { [ALL]: [errors.parseError(error.message)] });
    case 'entity.too.large':
      return new ApiError(413, { [ALL]: [errors.tooLarge(sizeName(error.limit ?? MAX_BODY))] });
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new ApiError(400, { [ALL]: [errors.unsupportedMediaType(error.message)] });
    default:
      return error.status && error.status < 500 ? new ApiError(400, { [ALL]: [errors.invalid(error.message)] }) : undefined;
  }
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return fromBodyParser(error as BodyParserError) ?? new ApiError(500, { [ALL]: [errors.serverError()] });
}

export function errorHandler(logError: (line: string) => void) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const apiError = toApiError(error);
    if (apiError.status === 500) {
      logError(`${req.method} ${req.originalUrl} failed: ${(error as Error)?.stack ?? String(error)}`);
    }
    // Bounded here, where every error is written: domain rules may list one error per product.
    const body = new ApiError(apiError.status, boundErrors(apiError.fields));
    res.locals.errorSummary = body.summary();
    res.status(body.status).json(body.fields);
  };
}

/** Unknown paths get the error body too, never Express's HTML page. */
export function notFoundHandler(_req: Request, _res: Response, next: NextFunction): void {
  next(new ApiError(404, { [ALL]: [errors.notFound()] }));
}

/**
 * A body with a content type other than JSON is refused rather than silently ignored, so a client
 * posting a form by mistake learns why its fields were "missing".
 */
export function requireJson(req: Request, _res: Response, next: NextFunction): void {
  const type = req.headers['content-type'];
  // What nearly every client sends, taken without parsing it twice (req.is parses the header per call).
  if (type === 'application/json') return next();
  const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  if (hasBody && !req.is('application/json') && !req.is('application/*+json')) {
    return next(new ApiError(400, { [ALL]: [errors.unsupportedMediaType(req.get('content-type') ?? 'none')] }));
  }
  next();
}
