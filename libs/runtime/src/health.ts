import express from 'express';
import type { Express, Request, Response } from 'express';

/** Named dependency checks; each resolves true when that dependency answered. */
export type ReadinessChecks = Record<string, () => boolean | Promise<boolean>>;

/**
 * `/healthz`: the process is alive (no dependency checks, so an orchestrator does not
 * restart a healthy process during a broker outage). `/readyz`: every dependency answered;
 * 503 with the failing names otherwise, so load balancers stop routing to it.
 */
export function mountHealth(app: Express, checks: ReadinessChecks): void {
  app.get('/healthz', (_req: Request, res: Response) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req: Request, res: Response) => {
    const results: Record<string, boolean> = {};
    await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          results[name] = await check();
        } catch {
          results[name] = false;
        }
      }),
    );
    const ready = Object.values(results).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: results });
  });
}

/** A bare app serving only health routes, for services without an HTTP API of their own. */
export function createHealthApp(checks: ReadinessChecks): Express {
  const app = express();
  app.disable('x-powered-by');
  mountHealth(app, checks);
  return app;
}
