import { existsSync } from 'node:fs';
import path from 'node:path';
import compression from 'compression';
import express from 'express';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { MemberStore } from '../adapters/member-store';
import type { SessionStore } from '../adapters/sessions';
import { sessionAuth, sessionRoutes } from './session';
import { signInRoutes } from './sign-in-routes';
import type { SignInRouteDeps } from './sign-in-routes';

export interface DashboardDeps {
  sessions: SessionStore;
  /** the built dashboard (`npm run build`: services/management-api/dashboard/dist) */
  staticDir: string;
}

/**
 * The page's own rules: scripts, styles and data only from this origin, no framing, no
 * referrer. Vite's build has no inline script or style, so nothing needs 'unsafe-inline'.
 */
const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The dashboard on the management API's own origin: its static files under `/`, the sign-in
 * routes at `/session` (with an identity provider at `/session/oidc` when `signIn` is given), and
 * the session cookie accepted on `/v1` and `/billing` in front of the API's key check
 * (`authenticate`). Mounted before the API's routes.
 */
export function mountDashboard(
  app: Express,
  deps: DashboardDeps,
  members: MemberStore,
  authenticate: RequestHandler,
  signIn?: Omit<SignInRouteDeps, 'sessions'>,
): void {
  if (signIn) app.use('/session/oidc', signInRoutes({ ...signIn, sessions: deps.sessions }));
  app.use('/session', sessionRoutes(deps.sessions, members, authenticate));
  app.use(['/v1', '/billing'], sessionAuth(deps.sessions, members));
  app.use(staticPages(deps.staticDir));
}

function staticPages(dir: string): RequestHandler {
  const serve = express.static(dir, {
    index: 'index.html',
    redirect: false,
    setHeaders(res, file) {
      res.set(PAGE_HEADERS);
      // Vite names built assets by content hash: cache them for good, never the page itself
      const asset = path.basename(path.dirname(file)) === 'assets';
      res.set('Cache-Control', asset ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // Brotli or gzip for the page and its assets only (decision 0015): the API's answers, which carry
  // secrets beside what a caller sends, are never compressed (BREACH)
  const compress = compression();
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/' && !existsSync(path.join(dir, 'index.html'))) {
      res.status(503).type('text/plain').send('The dashboard is not built: run `npm run build`.\n');
      return;
    }
    if (isPageFile(req.path)) compress(req, res, () => serve(req, res, next));
    else serve(req, res, next);
  };
}

/** The dashboard's own files: the page and Vite's built assets (everything else is the API's). */
const isPageFile = (p: string): boolean => p === '/' || p === '/index.html' || p.startsWith('/assets/');
