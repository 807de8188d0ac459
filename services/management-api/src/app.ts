import express from 'express';
import type { Express, Request, Response } from 'express';
import type { Logger } from '@relay/logging';
import { mountHealth } from '@relay/runtime';
import type { ReadinessChecks } from '@relay/runtime';
import type { Store } from '@relay/store';
import type { TargetRegistry } from '@relay/targets';
import { activityRoutes } from './transport/activity-routes';
import { requireApiKey } from './transport/auth';
import { endpointRoutes } from './transport/endpoint-routes';
import { errorMiddleware } from './transport/errors';
import { targetRoutes } from './transport/target-routes';

export interface AppDeps {
  store: Store;
  registry: TargetRegistry;
  logger: Logger;
  publicBaseUrl: string;
  announceChange(endpointId: string): Promise<void>;
  readiness: ReadinessChecks;
}

/** The management API: endpoints, their targets, and the activity log, under /v1. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  mountHealth(app, deps.readiness);
  app.use('/v1', express.json({ limit: '256kb' }), requireApiKey(deps.store));
  app.use('/v1/endpoints/:endpointId/targets', targetRoutes(deps));
  app.use('/v1/endpoints', endpointRoutes(deps));
  app.use('/v1/activity', activityRoutes(deps.store));
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ code: 'not_found', message: 'Not found.' });
  });
  app.use(errorMiddleware(deps.logger));
  return app;
}
