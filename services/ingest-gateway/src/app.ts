import express from 'express';
import type { Express, NextFunction, Request, Response } from 'express';
import { ingestHandler } from './transport/ingest-route';
import type { IngestDeps } from './transport/ingest-route';

export interface AppDeps extends IngestDeps {
  /** reverse proxies whose X-Forwarded-For/-Proto/-Host are trusted for the source IP and public URL */
  trustProxyHops: number;
}

/**
 * Builds the gateway's public express app: the ingest URL and nothing else (health and metrics
 * are on their own port, ops-app.ts). Listening and connections are main.ts's job.
 */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', deps.trustProxyHops);
  app.all('/relay/:endpointId', ingestHandler(deps));
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ code: 'not_found', message: 'Not found.' });
  });
  // 500s are opaque to callers and logged in full
  app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
    deps.logger.error('unhandled error', { error: err });
    if (!res.headersSent) res.status(500).json({ code: 'internal_error', message: 'Internal error.' });
  });
  return app;
}
