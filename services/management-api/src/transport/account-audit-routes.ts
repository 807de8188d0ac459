import { Router } from 'express';
import type { Request, Response } from 'express';
import type { Store } from '@relay/store';
import { auditRowView, listAccountAudit } from '../adapters/account-audit';
import { accountOf } from './auth';
import { pageOf } from './endpoint-state-routes';
import { checked, operation } from './operation';

/**
 * `GET /v1/audit`: every audit row of the account, newest first — endpoint settings and state,
 * targets, keys created and revoked, plan changes — paged like an endpoint's history (`limit`,
 * `before`); `?endpoint_id=` keeps one endpoint's rows (a deleted endpoint's too).
 */
export function accountAuditRoutes(store: Store): Router {
  const r = Router();
  r.get('/', ...operation('listAccountAudit', { reportWithHandler: true }), async (req: Request, res: Response) => {
    const { limit, before } = checked(req, pageOf(req.query as Record<string, unknown>));
    const endpointId = typeof req.query.endpoint_id === 'string' ? req.query.endpoint_id : undefined;
    const rows = await listAccountAudit(store, accountOf(req), limit, before, endpointId);
    const data = rows.map(auditRowView);
    const last = rows[rows.length - 1];
    res.json({ data, next_before: rows.length === limit && last ? last.at : null });
  });
  return r;
}
