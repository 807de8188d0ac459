import type { Express, Request, Response } from 'express';
import { createHealthApp } from '@relay/runtime';
import type { ReadinessChecks } from '@relay/runtime';
import type { GatewayMetrics } from './adapters/metrics';

export interface OpsDeps {
  readiness: ReadinessChecks;
  metrics: GatewayMetrics;
}

/**
 * `/healthz`, `/readyz` and `/metrics` on HEALTH_PORT, bound to HOST: never on the public ingest
 * port, where any sender could read the gateway's dependency state and request counts.
 */
export function createOpsApp(deps: OpsDeps): Express {
  const app = createHealthApp(deps.readiness);
  app.get('/metrics', async (_req: Request, res: Response) => {
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  return app;
}
