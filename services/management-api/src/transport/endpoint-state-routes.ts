import { Router } from 'express';
import type { Request, Response } from 'express';
import type { FieldError, Validation } from '@relay/contracts';
import { auditRowView, listAccountAudit } from '../adapters/account-audit';
import { setControl } from '../adapters/endpoint-store';
import { ACTIONS } from '../domain/audit';
import type { ActionName } from '../domain/audit';
import { audit } from './audit-trail';
import { accountOf, actorOf } from './auth';
import { endpointOf, viewOf } from './endpoint-common';
import type { EndpointRouteDeps } from './endpoint-common';
import { checked, operation } from './operation';
import { limitOf } from './paging';

/**
 * Spec "States and transitions": the manual controls as explicit actions, and the audit
 * history they write. `POST /:id/enable|disable|pause|resume` sets the control; when its value
 * changes, one audit row is written (actor: the API key's prefix) and the gateways are told.
 * Repeating an action is a no-op: 200, no new row. `resume` ends a manual pause only; a
 * scheduled maintenance window ends by time (or by editing `maintenance_windows`, not audited).
 */
export function endpointStateRoutes(deps: EndpointRouteDeps): Router {
  const r = Router();
  const { store } = deps;

  // one route per action, so other routes under /:endpointId/ are never taken for an unknown action
  for (const name of Object.keys(ACTIONS) as ActionName[]) {
    r.post(`/:endpointId/${name}`, ...operation(`${name}Endpoint`), async (req: Request, res: Response) => {
      res.json(await act(name, req));
    });
  }

  const act = (name: ActionName, req: Request): Promise<Record<string, unknown>> => {
    const { field, value, action } = ACTIONS[name];
    return deps.lock(String(req.params.endpointId), async () => {
      const current = await endpointOf(deps, req);
      if (await setControl(store, accountOf(req), current.id, field, value)) {
        await audit(store, req, { action, endpoint_id: current.id });
        await deps.announceChange({ scope: 'endpoint', id: current.id });
        deps.logger.info(`endpoint ${action}`, {
          endpoint_id: current.id,
          account_id: current.account_id,
          actor: actorOf(req),
        });
      }
      return viewOf(deps, await endpointOf(deps, req), req);
    });
  };

  r.get(
    '/:endpointId/audit',
    ...operation('listEndpointAudit', { reportWithHandler: true }),
    async (req: Request, res: Response) => {
      const endpoint = await endpointOf(deps, req);
      const { limit, before } = checked(req, pageOf(req.query as Record<string, unknown>));
      const rows = await listAccountAudit(store, endpoint.account_id, limit, before, endpoint.id);
      const data = rows.map(auditRowView);
      const last = rows[rows.length - 1];
      res.json({ data, next_before: rows.length === limit && last ? last.at : null });
    },
  );

  return r;
}

/** `?limit=1..200` (default 50) and `?before=<at>`; the account audit history pages the same way. */
export function pageOf(q: Record<string, unknown>): Validation<{ limit: number; before: Date | null }> {
  const errors: FieldError[] = [];
  const limit = limitOf(q.limit, { default: 50, max: 200 }, errors);
  let before: Date | null = null;
  if (q.before !== undefined) {
    before = typeof q.before === 'string' ? new Date(q.before) : new Date(NaN);
    if (Number.isNaN(before.getTime()))
      errors.push({
        field: 'before',
        message: 'must be an ISO 8601 date-time (the `at` of the last row of the previous page)',
      });
  }
  return errors.length ? { ok: false, errors } : { ok: true, value: { limit, before } };
}
