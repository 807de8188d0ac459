import { Router } from 'express';
import type { Request, Response } from 'express';
import { toActivity } from '@relay/store';
import type { Store } from '@relay/store';
import { parseActivityQuery } from '../domain/activity-query';
import { accountOf } from './auth';
import { invalid, notFound } from './errors';

/**
 * The Request activity log, newest first. The HTTP status of the request is not stored
 * (spec); each row carries its outcome code, reason and delivery attempts.
 */
export function activityRoutes(store: Store): Router {
  const r = Router();
  r.get('/', async (req: Request, res: Response) => {
    const q = parseActivityQuery(accountOf(req), req.query as Record<string, unknown>);
    if (!q.ok) throw invalid(q.errors);
    const docs = await store.activity.find(q.value.filter).sort({ received_at: -1, _id: -1 }).limit(q.value.limit).lean();
    const data = docs.map((d) => toActivity(d));
    const last = data[data.length - 1];
    res.json({ data, next_before: data.length === q.value.limit && last ? last.received_at : null });
  });
  r.get('/:eventId', async (req: Request, res: Response) => {
    const doc = await store.activity.findOne({ _id: String(req.params.eventId), account_id: accountOf(req) }).lean();
    if (!doc) throw notFound('Activity row');
    res.json(toActivity(doc));
  });
  return r;
}
