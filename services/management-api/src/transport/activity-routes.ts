import { Router } from 'express';
import type { Request, Response } from 'express';
import type { ActivityLog, ListedRow } from '@relay/activity-log';
import { mapLimit, targetNames, toActivity } from '@relay/store';
import type { ActivityDoc, Store } from '@relay/store';
import { endpointExists } from '../adapters/endpoint-store';
import { parseActivityQuery } from '../domain/activity-query';
import { withDeliveryStarts, withTargetNames } from '../domain/delivery-start';
import { requestView } from '../domain/request-view';
import { accountOf } from './auth';
import { notFound } from './errors';
import { checked, operation } from './operation';

/**
 * The Request activity log over HTTP (@relay/activity-log does the reading: a page of rows per
 * call, its reads bounded whatever the log holds). Each listed row is the list's view of it; the
 * row itself, with deliveries and attempts, is `GET /v1/activity/:eventId`. The HTTP status of
 * the request is not stored (spec).
 */
export function activityRoutes(log: ActivityLog, store: Store, retentionMs: number, now: () => Date): Router {
  const r = Router();
  r.get('/', ...operation('listActivity', { reportWithHandler: true }), async (req: Request, res: Response) => {
    const account = accountOf(req);
    const q = checked(req, parseActivityQuery(req.query as Record<string, unknown>, now().getTime(), retentionMs));
    const page = await log.list({ ...q, account });
    // an endpoint's rows are not the caller's unless the endpoint is: ask by key, once
    if (q.endpointId && page.rows.length > 0 && !(await endpointExists(store, account, q.endpointId))) {
      res.json({ data: [], next_cursor: null });
      return;
    }
    // aggregated rows: their count moves with every flush; alert rows: their names (few rows, rarely) — read from the row
    const rows = await mapLimit(page.rows, 8, (e) =>
      e.aggregated || e.alert ? log.row(e.event_id) : Promise.resolve(null),
    );
    res.json({
      data: page.rows.map((e, i) => listed(e, account, rows[i] ?? null)),
      next_cursor: page.next_cursor,
    });
  });
  r.get('/:eventId', ...operation('getActivity'), async (req: Request, res: Response) => {
    const doc = await log.row(String(req.params.eventId));
    if (!doc || doc.account_id !== accountOf(req)) throw notFound('Activity row');
    const row = withDeliveryStarts(toActivity(doc));
    const notRouted = row.not_routed ?? [];
    const names = await targetNames(store, doc.endpoint_id, [
      ...new Set([...row.deliveries.map((d) => d.target_id), ...notRouted]),
    ]);
    // per target: its deliveries, or that routing held the event back from it (docs/routing.md)
    res.json({
      ...withTargetNames(row, names),
      alert: row.alert ?? null,
      not_routed: notRouted.map((id) => ({ target_id: id, target_name: names.get(id) ?? null })),
      quarantine: row.quarantine ?? null,
      rerun_of: row.rerun_of ?? null,
      contract_violation: row.contract_violation ?? null,
    });
  });
  // the request as it came: kept for accepted and quarantined requests only, with the row's retention
  r.get('/:eventId/request', ...operation('getActivityRequest'), async (req: Request, res: Response) => {
    const eventId = String(req.params.eventId);
    const doc = await log.row(eventId);
    if (!doc || doc.account_id !== accountOf(req)) throw notFound('Activity row');
    const stored = await log.payload(eventId);
    if (!stored) throw notFound('Stored request (refused requests keep none)');
    res.json(requestView(eventId, stored));
  });
  return r;
}

function listed(e: ListedRow, account: string, row: ActivityDoc | null) {
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
    alert: row?.alert ?? null,
    next_attempt_at: e.retry_ms === null ? null : new Date(e.retry_ms).toISOString(),
  };
}
