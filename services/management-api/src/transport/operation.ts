import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { FieldError, Validation } from '@relay/contracts';
import { managementApiDocument } from '../openapi/document';
import { createRequestValidator } from '../openapi/request-validator';
import type { RequestValidator } from '../openapi/request-validator';
import { isUncarriableError } from '../openapi/string-safety';
import { requireRole } from './auth';
import { invalid } from './errors';

declare module 'express-serve-static-core' {
  interface Request {
    /** what the document found wrong with a request whose handler reports it with its own checks */
    documentErrors?: FieldError[];
  }
}

/** Compiled on first use (when the app is built), never at import. */
let validator: RequestValidator | undefined;
export function requestValidator(): RequestValidator {
  validator ??= createRequestValidator(managementApiDocument);
  return validator;
}

/**
 * The middleware in front of a route's handler, from its operation in the OpenAPI document
 * (openapi/document.ts): the least role the operation names (`x-relay-role`, 403 below it),
 * then its parameters and body checked against the document (400 `validation_failed` naming
 * each field). An operation id the document does not have fails when the app is built.
 *
 *   r.post('/', ...operation('createApiKey'), handler)
 *
 * `reportWithHandler`: the handler validates the body with its own, more detailed checks (the
 * settings validators) and passes their result to `checked(req, result)`, which reports both
 * sets of problems at once — the caller still learns every problem in one 400. A request with a
 * string no store or header can carry (openapi/string-safety.ts) is refused before the handler.
 */
export function operation(operationId: string, opts: { reportWithHandler?: boolean } = {}): RequestHandler[] {
  const v = requestValidator();
  const { role } = v.operation(operationId);
  const validate = (req: Request, _res: Response, next: NextFunction): void => {
    const sentBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    const errors = v.validate(operationId, {
      params: req.params,
      query: req.query as Record<string, unknown>,
      body: req.body,
      bodyNotJson: req.body === undefined && sentBody,
    });
    // a string the store cannot hold never reaches a handler, whatever its own checks would say
    if (opts.reportWithHandler && !errors.some(isUncarriableError)) req.documentErrors = errors;
    else if (errors.length > 0) throw invalid(errors);
    next();
  };
  return role ? [requireRole(role), validate] : [validate];
}

/**
 * The value of a handler's own validation, or a 400 with every problem: the handler's (the
 * more specific messages) and those the document found on fields the handler said nothing
 * about. A request the document refuses never gets through, whatever the handler's checks say.
 */
export function checked<T>(req: Request, result: Validation<T>): T {
  const fromDocument = req.documentErrors ?? [];
  if (result.ok && fromDocument.length === 0) return result.value;
  const own = result.ok ? [] : result.errors;
  const named = new Set(own.map((e) => topField(e.field)));
  throw invalid([...own, ...fromDocument.filter((e) => !named.has(topField(e.field)))]);
}

/** `inbound_auth.bearer.tokens[1]` → `inbound_auth`; `retry_schedule_ms[0]` → `retry_schedule_ms`. */
const topField = (field: string): string => /^[^.[]*/.exec(field)![0];
