import { Router } from 'express';
import type { Request, Response } from 'express';
import type { Logger } from '@relay/logging';
import type { Store } from '@relay/store';
import { loadAccount } from '../adapters/account-store';
import { listEndpoints } from '../adapters/endpoint-store';
import type { DailyUsageReader, UsageCounter } from '../adapters/usage-counter';
import { dailyUsageView, usagePeriod, usageView } from '../domain/usage';
import { accountOf } from './auth';
import { ApiError, notFound } from './errors';
import { operation } from './operation';

export interface UsageRouteDeps {
  store: Store;
  logger: Logger;
  acceptedEvents: UsageCounter;
  dailyUsage: DailyUsageReader;
  now(): Date;
}

/**
 * Spec "Other interfaces": `GET /billing/usage`, the current month's accepted events against
 * the plan. This is the one place plan and quota data are shown; the ingest response carries
 * none (spec "Ingest / success response").
 */
export function usageRoutes(deps: UsageRouteDeps): Router {
  const r = Router();
  // spec "Other interfaces": readable by account owner or administrator (403 for editor and viewer)
  r.get('/usage', ...operation('getUsage'), async (req: Request, res: Response) => {
    const accountId = accountOf(req);
    const account = await loadAccount(deps.store, accountId);
    if (!account) throw notFound('Account');
    const period = usagePeriod(deps.now());
    let accepted: number;
    try {
      accepted = await deps.acceptedEvents(accountId, period.month);
    } catch (err) {
      deps.logger.warn('usage counter unavailable', { account_id: accountId, error: (err as Error).message });
      throw new ApiError(503, 'usage_unavailable', 'Usage cannot be read right now; retry shortly.', undefined, {
        'Retry-After': '5',
      });
    }
    res.set('Cache-Control', 'no-store').json(usageView(accountId, account.plan, period, accepted));
  });
  return r;
}

/**
 * `GET /v1/billing/usage/daily`, the period's accepted events per day and per
 * endpoint against the plan — read from the counters the gateway's admit script keeps (one
 * HGETALL of at most endpoints × 31 fields, and the monthly counter), never from the activity log.
 */
export function dailyUsageRoutes(deps: UsageRouteDeps): Router {
  const r = Router();
  r.get('/usage/daily', ...operation('getDailyUsage'), async (req: Request, res: Response) => {
    const accountId = accountOf(req);
    const account = await loadAccount(deps.store, accountId);
    if (!account) throw notFound('Account');
    const now = deps.now();
    const period = usagePeriod(now);
    let accepted: number;
    let counts: Awaited<ReturnType<DailyUsageReader>>;
    try {
      [accepted, counts] = await Promise.all([
        deps.acceptedEvents(accountId, period.month),
        deps.dailyUsage(accountId, period.month),
      ]);
    } catch (err) {
      deps.logger.warn('usage counter unavailable', { account_id: accountId, error: (err as Error).message });
      throw new ApiError(503, 'usage_unavailable', 'Usage cannot be read right now; retry shortly.', undefined, {
        'Retry-After': '5',
      });
    }
    const names = new Map((await listEndpoints(deps.store, accountId)).map((e) => [e.id, e.name]));
    res
      .set('Cache-Control', 'no-store')
      .json(dailyUsageView(accountId, account.plan, period, now, accepted, counts, names));
  });
  return r;
}
