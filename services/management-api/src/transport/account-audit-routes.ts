import { Router } from 'express';
import type { Request, Response } from 'express';
import type { Store } from '@relay/store';
import { listAccountAudit } from '../adapters/account-audit';
import { accountOf } from './auth';
import { pageOf } from './endpoint-state-routes';
import { checked, operation } from './operation';

/**
 * `GET /v1/audit`: every audit row of the account, newest first — endpoint actions, keys
 * created and revoked, plan changes — paged like an endpoint's history (`limit`, `before`).
 */
export function accountAuditRoutes(store: Store): Router {
  const r = Router();
  r.get('/', ...operation('listAccountAudit', { reportWithHandler: true }), async (req: Request, res: Response) => {
    const { limit, before } = checked(req, pageOf(req.query as Record<string, unknown>));
    const rows = await listAccountAudit(store, accountOf(req), limit, before);
    const data = rows.map((a) => ({ id: a.id, action: a.action, actor: a.actor, at: a.at, endpoint_id: a.endpoint_id ?? null, key_id: a.key_id ?? null, details: a.details ?? null }));
    const last = rows[rows.length - 1];
    res.json({ data, next_before: rows.length === limit && last ? last.at : null });
  });
  return r;
}
