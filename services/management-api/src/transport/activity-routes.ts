import { Router } from 'express';
import type { Request, Response } from 'express';
import { accountScope, encodePosition, endpointScope, listIndexed, toActivity } from '@relay/store';
import type { Store } from '@relay/store';
import { entryMatches, parseActivityQuery, rowMatches } from '../domain/activity-query';
import { accountOf } from './auth';
import { invalid, notFound } from './errors';

/**
 * Most index documents and rows one page reads (docs/management-api.md "Activity log"). A
 * sparse filter can end a page early with a `next_cursor`; the work per request stays bounded
 * whatever the size of the log.
 */
const BUDGET = { indexDocs: 400, rows: 400 };

/**
 * The Request activity log, newest first, read by key only (docs/architecture.md "Activity
 * log storage"). The HTTP status of the request is not stored (spec); each row carries its
 * outcome code, reason and delivery attempts.
 */
export function activityRoutes(store: Store, retentionMs: number, now: () => Date): Router {
  const r = Router();
  r.get('/', async (req: Request, res: Response) => {
    const account = accountOf(req);
    const parsed = parseActivityQuery(req.query as Record<string, unknown>, now().getTime(), retentionMs);
    if (!parsed.ok) throw invalid(parsed.errors);
    const q = parsed.value;
    const page = await listIndexed(store.activityIndex, store.activityRows, {
      scope: q.endpointId ? endpointScope(q.endpointId) : accountScope(account),
      fromMs: q.fromMs,
      toMs: q.toMs,
      cursor: q.cursor,
      limit: q.limit,
      matches: (e) => entryMatches(q, e),
      accepts: (row) => rowMatches(q, account, row),
      budget: { indexDocs: BUDGET.indexDocs, rows: Math.max(BUDGET.rows, q.limit * 4) },
    });
    res.json({ data: page.rows.map((d) => toActivity(d)), next_cursor: page.next ? encodePosition(page.next) : null });
  });
  r.get('/:eventId', async (req: Request, res: Response) => {
    // by `_id` alone, then the account check: a filter on `_id` plus another field scans on FerretDB
    const doc = await store.activityRows.get(String(req.params.eventId));
    if (!doc || doc.account_id !== accountOf(req)) throw notFound('Activity row');
    res.json(toActivity(doc));
  });
  return r;
}
