import { timingSafeEqual } from 'node:crypto';
import express, { Router } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { MemberStore } from '../adapters/member-store';
import type { Session, SessionStore } from '../adapters/sessions';
import { ApiError } from './errors';

/**
 * The dashboard's sign-in (docs/dashboard.md "Security of the session"). A session cookie is
 * turned into the very authentication a bearer key gets: the middleware puts the session's key
 * in the Authorization header and the API's own key check runs as for any client, so a revoked
 * key, its role and its audit actor all apply unchanged. A member's session (docs/members.md)
 * reads the member from the store on every request the same way: a removed member is refused
 * at once, by every process, and their role is the one they have now.
 *
 * Writes made with the cookie are CSRF-safe three ways: the cookie is SameSite=Strict; every
 * method but GET/HEAD/OPTIONS must carry the session's CSRF token in `X-Relay-CSRF` (a header
 * a cross-site form cannot set, and a cross-site script cannot send without a CORS preflight
 * this API never grants); and a request a browser labels cross-site (`Origin`,
 * `Sec-Fetch-Site`) is refused outright.
 */
export const SESSION_COOKIE = 'relay_session';
export const CSRF_HEADER = 'x-relay-csrf';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const forbidden = (message: string): ApiError => new ApiError(403, 'csrf_failed', message);

export function cookieOf(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** A browser's own account of where a request comes from; absent headers (curl, tests) say nothing. */
export function assertSameOrigin(req: Request): void {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    throw forbidden('Cross-site requests cannot use the dashboard session.');
  const origin = req.headers.origin;
  if (origin === undefined) return;
  let host: string | null = null;
  try {
    host = new URL(origin).host;
  } catch {
    host = null;
  }
  if (host === null || host !== req.headers.host)
    throw forbidden('The request comes from another origin than the dashboard.');
}

function sameToken(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Puts who signed in on the request: a key session's key in the Authorization header (the API's
 * key check reads it), a member session's member, read from the store now, as `member`. A
 * removed member's session is ended here; the request then has no credentials and gets 401.
 */
async function signIn(req: Request, id: string, session: Session, sessions: SessionStore, members: MemberStore) {
  if ('apiKey' in session) {
    req.headers.authorization = `Bearer ${session.apiKey}`;
    return;
  }
  const member = await members.member(session.memberId);
  if (!member) {
    await sessions.destroy(id);
    return;
  }
  req.member = member;
  req.accountId = member.account_id;
  req.actor = member._id;
}

/**
 * In front of the API's key check: a request that names no key but carries a live session
 * cookie is authenticated with the session's key or member. A bearer header always wins over a
 * cookie.
 */
export function sessionAuth(sessions: SessionStore, members: MemberStore): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const id = req.headers.authorization === undefined ? cookieOf(req, SESSION_COOKIE) : null;
    const session = id ? await sessions.find(id) : null;
    if (id && session) {
      if (!SAFE_METHODS.has(req.method)) {
        assertSameOrigin(req);
        const sent = req.headers[CSRF_HEADER];
        if (typeof sent !== 'string' || !sameToken(sent, session.csrfToken))
          throw forbidden(
            `A change made with the dashboard session needs its CSRF token in the ${CSRF_HEADER} header.`,
          );
      }
      await signIn(req, id, session, sessions, members);
    }
    next();
  };
}

/** Runs a middleware to its end: resolves when it calls next(), rejects when it fails or throws. */
function run(handler: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    Promise.resolve(handler(req, res, (err?: unknown) => (err ? reject(err) : resolve()))).catch(reject);
  });
}

/** Whether the browser reached us over https (directly or through a TLS-terminating proxy): cookies are Secure then. */
export function isHttps(req: Request): boolean {
  return (
    req.secure ||
    String(req.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]!
      .trim() === 'https'
  );
}

export function setSessionCookie(req: Request, res: Response, value: string, maxAgeSeconds: number): void {
  const https = isHttps(req);
  const attrs = [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (https) attrs.push('Secure');
  res.append('Set-Cookie', attrs.join('; '));
}

function describe(req: Request, session: Session) {
  const member = req.member;
  return {
    account_id: req.accountId,
    ...(member ? { member: { id: member._id, email: member.email, name: member.name } } : { key_prefix: req.actor }),
    role: member?.role ?? req.apiKey?.role,
    csrf_token: session.csrfToken,
    expires_at: new Date(session.expiresAt).toISOString(),
  };
}

/**
 * `POST /session` `{ "api_key" }` signs in, `GET /session` says who is signed in (and hands the
 * page its CSRF token), `DELETE /session` signs out. `authenticate` is the API's own key check.
 */
export function sessionRoutes(sessions: SessionStore, members: MemberStore, authenticate: RequestHandler): Router {
  const r = Router();
  r.use((_req: Request, res: Response, next: NextFunction) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  const keyFromBody = (req: Request, _res: Response, next: NextFunction): void => {
    assertSameOrigin(req);
    const key = (req.body as { api_key?: unknown } | undefined)?.api_key;
    if (
      !req.is('application/json') ||
      typeof key !== 'string' ||
      key.length === 0 ||
      key.length > 200 ||
      /\s/.test(key)
    ) {
      throw new ApiError(400, 'validation_failed', 'api_key: must be an API key', [
        { field: 'api_key', message: 'must be an API key' },
      ]);
    }
    req.headers.authorization = `Bearer ${key}`;
    next();
  };
  r.post('/', express.json({ limit: '4kb' }), keyFromBody, authenticate, async (req: Request, res: Response) => {
    const { id, session } = await sessions.create({
      apiKey: String(req.headers.authorization).slice('Bearer '.length),
    });
    setSessionCookie(req, res, id, Math.floor((session.expiresAt - Date.now()) / 1000));
    res.status(201).json(describe(req, session));
  });

  const sessionOf = async (req: Request): Promise<{ id: string; session: Session } | null> => {
    const id = cookieOf(req, SESSION_COOKIE);
    const session = id ? await sessions.find(id) : null;
    return id && session ? { id, session } : null;
  };
  const signedOut = (): ApiError => new ApiError(401, 'unauthorized', 'Not signed in.');
  r.get('/', async (req: Request, res: Response) => {
    const found = await sessionOf(req);
    if (!found) throw signedOut();
    // the key may have been revoked, the member removed, since sign-in: ask the API's own check again
    await signIn(req, found.id, found.session, sessions, members);
    await run(authenticate, req, res);
    res.json(describe(req, found.session));
  });

  r.delete('/', async (req: Request, res: Response) => {
    assertSameOrigin(req);
    const id = cookieOf(req, SESSION_COOKIE);
    if (id) await sessions.destroy(id);
    setSessionCookie(req, res, '', 0);
    res.status(204).end();
  });
  return r;
}
