import type { NextFunction, Request, Response } from 'express';
import type { Store } from '@relay/store';
import { accountForKey } from '../adapters/api-keys';
import { ApiError } from './errors';

declare module 'express-serve-static-core' {
  interface Request {
    accountId?: string;
    /** the API key's prefix: the actor recorded in the audit history */
    keyPrefix?: string;
  }
}

/** RFC 6750 §3: a 401 for a bearer-protected resource names the scheme. */
const unauthorized = (message: string): ApiError => new ApiError(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer realm="relay"' });

/**
 * Every management route needs `Authorization: Bearer <api key>`. Every key of this version
 * is an owner key of its account, so any valid key may read and change everything the
 * account has (including `GET /billing/usage`, which the spec restricts to owners and
 * administrators).
 */
export function requireApiKey(store: Store) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const owner = match ? await accountForKey(store, match[1]!) : null;
    if (!owner) throw unauthorized('A valid API key is required: Authorization: Bearer <api key>.');
    req.accountId = owner.accountId;
    req.keyPrefix = owner.keyPrefix;
    next();
  };
}

export function accountOf(req: Request): string {
  if (!req.accountId) throw unauthorized('A valid API key is required.');
  return req.accountId;
}

export function actorOf(req: Request): string {
  if (!req.keyPrefix) throw unauthorized('A valid API key is required.');
  return req.keyPrefix;
}
