import type { NextFunction, Request, Response } from 'express';
import type { Store } from '@relay/store';
import { accountForKey } from '../adapters/api-keys';
import { ApiError } from './errors';

declare module 'express-serve-static-core' {
  interface Request {
    accountId?: string;
  }
}

/** Every management route needs `Authorization: Bearer <api key>`. */
export function requireApiKey(store: Store) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const accountId = match ? await accountForKey(store, match[1]!) : null;
    if (!accountId) throw new ApiError(401, 'unauthorized', 'A valid API key is required: Authorization: Bearer <api key>.');
    req.accountId = accountId;
    next();
  };
}

export function accountOf(req: Request): string {
  if (!req.accountId) throw new ApiError(401, 'unauthorized', 'A valid API key is required.');
  return req.accountId;
}
