import express from 'express';
import type { Express, Request, RequestHandler, Response } from 'express';
import { createHealthApp } from '@relay/runtime';
import type { ReadinessChecks } from '@relay/runtime';
import type { GatewayMetrics } from './adapters/metrics';

export interface OpsDeps {
  readiness: ReadinessChecks;
  metrics: GatewayMetrics;
  /** the management API's signed test requests (transport/test-request-route.ts) */
  testRequests?: { path: string; handler: RequestHandler; maxBytes: number };
}

/**
 * `/healthz`, `/readyz` and `/metrics` on HEALTH_PORT, bound to HOST: never on the public ingest
 * port, where any sender could read the gateway's dependency state and request counts. The
 * management API's signed test requests come in here too, for the same reason.
 */
export function createOpsApp(deps: OpsDeps): Express {
  const app = createHealthApp(deps.readiness);
  app.get('/metrics', async (_req: Request, res: Response) => {
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  if (deps.testRequests) {
    const { path, handler, maxBytes } = deps.testRequests;
    // raw bytes: the signature covers them exactly
    app.post(path, express.raw({ type: () => true, limit: maxBytes }), handler);
  }
  return app;
}
