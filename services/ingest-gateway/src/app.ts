import express from 'express';
import type { Express, Request, Response } from 'express';
import { errorHandler } from './transport/errors';
import { ingestHandler, send } from './transport/ingest-route';
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
  app.use((req: Request, res: Response) => send(req, res, 404, { code: 'not_found', message: 'Not found.' }));
  app.use(errorHandler(deps));
  return app;
}
