// One readable line per request, e.g.
// `2026-11-23T05:01:02.345Z 6f1c…e2 POST /api/v1/billing_templates/ 400 2.4ms subscription_period: max_value`:
// the wall-clock time it arrived (ISO 8601, UTC), the sandbox its token names (`-` without one),
// method, path, status, duration, for an error its first field and code, and the body fields a
// lenient reading ignored (http/lenient.ts): `… 201 3.1ms ignored: purchase.products.0.qty, order_id`.

import type { NextFunction, Request, Response } from 'express';

export function requestLog(write: (line: string) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const arrived = new Date().toISOString();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const error = res.statusCode >= 400 && res.locals.errorSummary ? ` ${res.locals.errorSummary}` : '';
      const sandbox = typeof res.locals.sandboxId === 'string' ? res.locals.sandboxId : '-';
      const ignored = typeof res.locals.ignored === 'string' ? ` ignored: ${res.locals.ignored}` : '';
      write(`${arrived} ${sandbox} ${req.method} ${req.originalUrl} ${res.statusCode} ${ms.toFixed(1)}ms${error}${ignored}`);
    });
    next();
  };
}
