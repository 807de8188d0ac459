import { Router } from 'express';
import type { Request, Response } from 'express';
import type { Logger } from '@relay/logging';
import type { PlanLimits, Store } from '@relay/store';
import { loadAccount } from '../adapters/account-store';
import { changePlan, planOf } from '../adapters/plan-store';
import { accountOf, actorOf } from './auth';
import { notFound } from './errors';
import { operation } from './operation';

export interface PlanRouteDeps {
  store: Store;
  logger: Logger;
  announceChange(endpointId: string): Promise<void>;
}

/**
 * The account's plan (docs/management-api.md "Plans"), owner keys only: its payload limit and
 * monthly accepted-event quota, which the gateway enforces (spec "Limits": "plan-dependent").
 * A change is audited and announced for every endpoint of the account, so each gateway reads
 * the new limits with the next request — the same path endpoint changes take.
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
    const change = await changePlan(deps.store, accountId, req.body as Partial<PlanLimits>, actorOf(req), deps.announceChange);
    if (!change) throw notFound('Account');
    if (change.changed.length > 0) deps.logger.info('plan changed', { account_id: accountId, fields: change.changed, endpoints_announced: change.announced, actor: actorOf(req) });
    res.json({ account_id: accountId, plan: change.plan });
  });
  return r;
}
