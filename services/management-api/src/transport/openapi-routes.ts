import { Router } from 'express';
import type { Request, Response } from 'express';
import { managementApiDocument } from '../openapi/document';
import { renderReferencePage } from '../openapi/reference-page';
import { operation } from './operation';

/**
 * The OpenAPI document (`/v1/openapi.json`) and its reference page (`/v1/docs`). Open, like the
 * health checks: they describe the API and hold nothing of an account. Mount before the key check.
 */
export function openApiRoutes(): Router {
  const r = Router();
  let page: string | undefined;
  r.get('/v1/openapi.json', ...operation('getOpenApiDocument'), (_req: Request, res: Response) => {
    res.json(managementApiDocument);
  });
  r.get('/v1/docs', ...operation('getReference'), (_req: Request, res: Response) => {
    page ??= renderReferencePage(managementApiDocument);
    // the page has no script: forbid any, and any framing
    res
      .set({
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      })
      .send(page);
  });
  return r;
}
