import type { Express, Request, Response } from 'express';
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * A registry of the service's own, with prom-client's default process metrics (CPU, memory,
 * event-loop lag, GC, handles) in it. Never the global registry: several services built in one
 * test process would otherwise share, and collide on, one set of series.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/**
 * GET /metrics in the Prometheus text format. Mounted only on the health server (HEALTH_PORT,
 * bound to HOST), never on a public port, where any sender could read queue depths and counts.
 */
export function mountMetrics(app: Express, registry: Registry): void {
  app.get('/metrics', async (_req: Request, res: Response) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
}
