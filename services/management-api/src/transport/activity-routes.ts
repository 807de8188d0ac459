import { Router } from 'express';
import type { Request, Response } from 'express';
import { labelCanMatch } from '@relay/contracts';
import { GROUP_SCOPES, PageCounts, accountScope, encodePosition, endpointScope, groupScope, ipScope, listIndexed, mapLimit, toActivity } from '@relay/store';
import type { GroupScope } from '@relay/store';
import type { ActivityDoc, IndexEntry, Store } from '@relay/store';
import { endpointExists } from '../adapters/endpoint-store';
import { entryMatches, parseActivityQuery } from '../domain/activity-query';
import { withDeliveryStarts, withTargetNames } from '../domain/delivery-start';
import { requestView } from '../domain/request-view';
import { targetNames } from '../adapters/target-store';
import type { ActivityQuery } from '../domain/activity-query';
import { SEARCH_ROW_BUDGET, searchRows } from './activity-search';
import { accountOf } from './auth';
import { notFound } from './errors';
import { checked, operation } from './operation';

/**
 * Most index documents one page reads (docs/management-api.md "Activity log"). A sparse filter
 * can end a page early with a `next_cursor`; the work per request stays bounded whatever the
 * size of the log.
 */
const READ_BUDGET = 40;

/**
 * The Request activity log, newest first, read from the index pages of the hourly partitions
 * (docs/architecture.md "Activity log storage"). Each listed row is the list's view of it; the
 * row itself, with deliveries and attempts, is `GET /v1/activity/:eventId`. The HTTP status of
 * the request is not stored (spec).
 */
export function activityRoutes(store: Store, retentionMs: number, now: () => Date): Router {
  const r = Router();
  const counts = new PageCounts();
  r.get('/', ...operation('listActivity', { reportWithHandler: true }), async (req: Request, res: Response) => {
    const account = accountOf(req);
    const q = checked(req, parseActivityQuery(req.query as Record<string, unknown>, now().getTime(), retentionMs));
    const scope = scopeOf(q, account);
    // a payload or response-status search lists candidates, then reads their payloads or rows (activity-search.ts)
    const searching = q.payload !== null || q.responseStatus !== null;
    const candidates = await listIndexed(store.activity, { scope, fromMs: q.fromMs, toMs: q.toMs, cursor: q.cursor, limit: searching ? SEARCH_ROW_BUDGET : q.limit, matches: (e) => entryMatches(q, e), budget: READ_BUDGET, counts });
    const page = searching ? await searchRows(store.activity, q, candidates) : candidates;
    // an endpoint scope is not the caller's unless the endpoint is: ask by key, once
    if (q.endpointId && page.entries.length > 0 && !(await endpointExists(store, account, q.endpointId))) {
      res.json({ data: [], next_cursor: null });
      return;
    }
    // aggregated rows: their count moves with every flush; read it from the row
    const aggregates = await mapLimit(page.entries, 8, (e) => (e.aggregated ? store.activity.row(e.event_id) : Promise.resolve(null)));
    res.json({ data: page.entries.map((e, i) => listed(e, account, aggregates[i] ?? null)), next_cursor: page.next ? encodePosition(page.next) : null });
  });
  r.get('/:eventId', ...operation('getActivity'), async (req: Request, res: Response) => {
    const doc = await store.activity.row(String(req.params.eventId));
    if (!doc || doc.account_id !== accountOf(req)) throw notFound('Activity row');
    const row = withDeliveryStarts(toActivity(doc));
    res.json(withTargetNames(row, await targetNames(store, doc.endpoint_id, [...new Set(row.deliveries.map((d) => d.target_id))])));
  });
  // the request as it came (issue 27, item 1): kept for accepted events only, with the row's retention
  r.get('/:eventId/request', ...operation('getActivityRequest'), async (req: Request, res: Response) => {
    const eventId = String(req.params.eventId);
    const doc = await store.activity.row(eventId);
    if (!doc || doc.account_id !== accountOf(req)) throw notFound('Activity row');
    const stored = await store.activity.payload(eventId);
    if (!stored) throw notFound('Stored request (refused requests keep none)');
    res.json(requestView(eventId, stored));
  });
  return r;
}

/**
 * The narrowest pages that hold every row the filter can match (keys.ts): a source IP reads its
 * address's bucket of the account; Errors, Pending and Test their group's own pages; an
 * error-text search the pages of rows that have a text, unless the text is part of an outcome
 * label (which every row has). The filter still checks each entry as it
 * is now, endpoint included, so a wider scope is never wrong, only slower.
 */
function scopeOf(q: ActivityQuery, account: string): string {
  if (q.sourceIp !== null) return ipScope(accountScope(account), q.sourceIp);
  const base = q.endpointId ? endpointScope(q.endpointId) : accountScope(account);
  // a text only an outcome label holds ("Media Type") can match rows with no reason or error
  const group = isGroup(q.status) ? q.status : q.errorText !== null && !labelCanMatch(q.errorText.toLowerCase()) ? 'texts' : null;
  return group ? groupScope(base, group) : base;
}

const isGroup = (status: string): status is GroupScope => (GROUP_SCOPES as readonly string[]).includes(status);

function listed(e: IndexEntry, account: string, row: ActivityDoc | null) {
  return {
    id: e.event_id,
    account_id: account,
    endpoint_id: e.endpoint_id,
    received_at: new Date(e.received_ms).toISOString(),
    method: e.method,
    source_ip: e.source_ip,
    outcome: e.outcome,
    reason: e.reason,
    status: e.status,
    last_error: e.last_error,
    target_count: e.target_count,
    test: e.test,
    aggregate: row?.aggregate ?? null,
  };
}
