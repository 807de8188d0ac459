import { Router } from 'express';
import type { Request, Response } from 'express';
import type { CacheChange } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { PlanLimits, Store } from '@relay/store';
import { loadAccount } from '../adapters/account-store';
import { changePlan, planOf } from '../adapters/plan-store';
import { whoOf } from './audit-trail';
import { accountOf, actorOf } from './auth';
import { notFound } from './errors';
import { operation } from './operation';

export interface PlanRouteDeps {
  store: Store;
  logger: Logger;
  announceChange(change: CacheChange): Promise<void>;
}

/**
 * The account's plan (docs/management-api.md "Plans"), owner keys only: its payload limit and
 * monthly accepted-event quota, which the gateway enforces (spec "Limits": "plan-dependent").
 * A change is audited and announced once for the account; every gateway replaces the plan of
 * the account's cached endpoints with the new limits (within a second).
 */
export function planRoutes(deps: PlanRouteDeps): Router {
  const r = Router();
  r.get('/plan', ...operation('getPlan'), async (req: Request, res: Response) => {
    const account = await loadAccount(deps.store, accountOf(req));
    if (!account) throw notFound('Account');
    res.json({ account_id: account.id, plan: planOf(account.plan) });
  });

  r.patch('/plan', ...operation('updatePlan'), async (req: Request, res: Response) => {
    const accountId = accountOf(req);
    const change = await changePlan(
      deps.store,
      accountId,
      req.body as Partial<PlanLimits>,
      whoOf(req),
      deps.announceChange,
    );
    if (!change) throw notFound('Account');
    if (change.changed.length > 0)
      deps.logger.info('plan changed', { account_id: accountId, fields: change.changed, actor: actorOf(req) });
    res.json({ account_id: accountId, plan: change.plan });
  });
  return r;
}
