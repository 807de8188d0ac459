import type { NextFunction, Request, Response } from 'express';
import type { Store } from '@relay/store';
import { keyForSecret } from '../adapters/api-keys';
import type { ApiKeyInfo } from '../adapters/api-keys';
import type { MemberDoc } from '../adapters/member-store';
import { allows } from '../domain/roles';
import type { ApiKeyRole } from '../domain/roles';
import { ApiError } from './errors';

declare module 'express-serve-static-core' {
  interface Request {
    accountId?: string;
    /** the actor recorded in the audit history: the API key's prefix, or the member's id */
    actor?: string;
    /** the API key the request was made with (never its secret) */
    apiKey?: ApiKeyInfo;
    /** the member whose dashboard session made the request (transport/session.ts) */
    member?: MemberDoc;
  }
}

/** RFC 6750 §3: a 401 for a bearer-protected resource names the scheme. */
const unauthorized = (message: string): ApiError =>
  new ApiError(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer realm="relay"' });

/**
 * Every management route needs `Authorization: Bearer <api key>`, or a member's dashboard session
 * (the session middleware in front has then read the member from the store and set `member`).
 * The key is read from the store on every request — a revoked key is refused at once, by every
 * process — and its use is recorded (at most once a minute per key: adapters/api-keys.ts). What
 * the key or member may do is its role's (requireRole).
 */
export function requireApiKey(store: Store, recordUse: (key: ApiKeyInfo) => void = () => undefined) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    if (req.member) return next();
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const key = match ? await keyForSecret(store, match[1]!) : null;
    if (!key) throw unauthorized('A valid API key is required: Authorization: Bearer <api key>.');
    req.apiKey = key;
    req.accountId = key.account_id;
    req.actor = key.prefix;
    recordUse(key);
    next();
  };
}

/** 403 `forbidden`: the key or member is valid, its role is not enough. The message names both roles. */
export function forbidden(role: ApiKeyRole, least: ApiKeyRole, member = false): ApiError {
  const who = member ? 'Your role' : "This API key's role";
  return new ApiError(403, 'forbidden', `${who} (${role}) cannot do this; it needs ${least} or higher.`);
}

/**
 * The least role a route needs (docs/management-api.md "Roles"): `requireRole('editor')` in
 * front of a handler refuses viewer keys with 403. Reads need `viewer`, changes to endpoints
 * and targets `editor`, usage and keys `admin`, the plan `owner`. Mount after requireApiKey.
 */
export function requireRole(least: ApiKeyRole) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const role = roleOf(req);
    if (!allows(role, least)) throw forbidden(role, least, req.member !== undefined);
    next();
  };
}

export function roleOf(req: Request): ApiKeyRole {
  if (req.member) return req.member.role;
  if (!req.apiKey) throw unauthorized('A valid API key is required.');
  return req.apiKey.role;
}

/** Who is acting, as the audit history names them: a key's prefix and name, a member's id and address. */
export function actorNameOf(req: Request): string | null {
  if (req.member) return req.member.name ? `${req.member.name} <${req.member.email}>` : req.member.email;
  return req.apiKey?.name ?? null;
}

export function accountOf(req: Request): string {
  if (!req.accountId) throw unauthorized('A valid API key is required.');
  return req.accountId;
}

export function actorOf(req: Request): string {
  if (!req.actor) throw unauthorized('A valid API key is required.');
  return req.actor;
}
