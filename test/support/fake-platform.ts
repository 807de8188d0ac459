import type { Server } from 'node:http';
import type express from 'express';

/** Helpers both fake chat platforms share. */

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Points a request for one of the platform's real hosts at the fake. Any other host throws,
 * so a test can never reach the real platform by mistake.
 */
export function rewriteToFake(platform: string, realHosts: readonly string[], url: string, baseUrl: string): string {
  const u = new URL(url);
  if (u.protocol !== 'https:' || !realHosts.includes(u.hostname))
    throw new Error(`fake ${platform}: refusing to send to ${u.host}`);
  return new URL(u.pathname + u.search, baseUrl).toString();
}

export function listenOnLoopback(app: express.Express): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', (err?: Error) => (err ? reject(err) : resolve(server)));
  });
}

export function closeNow(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
