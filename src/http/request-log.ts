// One readable line per request: `POST /api/v1/billing_templates/ 400 2.4ms subscription_period: max_value`.

import type { NextFunction, Request, Response } from 'express';

export function requestLog(write: (line: string) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const error = res.statusCode >= 400 && res.locals.errorSummary ? ` ${res.locals.errorSummary}` : '';
      write(`${req.method} ${req.originalUrl} ${res.statusCode} ${ms.toFixed(1)}ms${error}`);
    });
    next();
  };
}
