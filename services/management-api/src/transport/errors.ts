import type { NextFunction, Request, Response } from 'express';
import type { FieldError } from '@relay/contracts';
import type { Logger } from '@relay/logging';

/** A client error with a stable `code`; `errors` names each offending field. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const invalid = (errors: FieldError[]): ApiError =>
  new ApiError(400, 'validation_failed', errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);

export const notFound = (what: string): ApiError => new ApiError(404, 'not_found', `${what} not found.`);

/** A save validated against a revision another save replaced meanwhile. */
export const conflict = (): ApiError =>
  new ApiError(
    409,
    'conflict',
    'The endpoint was changed by another request while this one was being saved; read it again and retry.',
  );

/** Maps errors to JSON; 500s stay opaque to callers and are logged in full. */
export function errorMiddleware(logger: Logger) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    if (err instanceof ApiError) {
      if (err.headers) res.set(err.headers);
      res
        .status(err.status)
        .json({ code: err.code, message: err.message, ...(err.errors ? { errors: err.errors } : {}) });
      return;
    }
    const e = err as { type?: string; status?: number; message?: string };
    if (e.type === 'entity.parse.failed') {
      res.status(400).json({ code: 'malformed_json', message: 'The request body is not valid JSON.' });
      return;
    }
    if (e.type === 'entity.too.large') {
      res.status(413).json({ code: 'payload_too_large', message: 'The request body is too large.' });
      return;
    }
    logger.error('management request failed', { error: err });
    res.status(500).json({ code: 'internal_error', message: 'Internal error.' });
  };
}
