import { Router } from 'express';
import type { Request, Response } from 'express';
import { endpointExists } from '../adapters/endpoint-store';
import { quarantinedRows } from '../adapters/quarantined-rows';
import { BULK_RERUN_MAX_ROWS, MAX_BULK_RERUN, parseBulkRerun, rerunFilterView } from '../domain/bulk-rerun';
import { notRerunnable, rerunEnvelope } from '../domain/rerun';
import { accountOf, actorOf } from './auth';
import { ApiError, notFound } from './errors';
import { checked, operation } from './operation';
import { runInGateway, sendPipelineAnswer } from './pipeline-answer';
import type { ReplayDeps } from './replay-deps';

const MINUTE_MS = 60_000;
/** bulk re-runs and previews an account may ask for per minute: each reads up to BULK_RERUN_MAX_ROWS rows */
const BULK_RERUNS_PER_MINUTE = 30;

/** The body for the handler's own checks (an array is the document's to report, as `(body)`). */
const jsonObject = (body: unknown): Record<string, unknown> | undefined =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;

const REFUSED: Record<'not_quarantined' | 'quarantine_bound_reached', string> = {
  not_quarantined:
    'Only a quarantined request can be re-run: one refused by its payload or the endpoint’s rules after it passed authentication (see the row’s `quarantine`).',
  quarantine_bound_reached:
    'This request was refused when the account’s quarantine bound (QUARANTINE_PER_ACCOUNT_PER_HOUR) was used up: its payload was not kept, so it cannot be re-run.',
};

/**
 * POST /v1/activity/:eventId/rerun — a quarantined request through its endpoint's steps again,
 * as if just received (docs/management-api.md "Re-run"): a gateway runs the kept request with
 * `rerun_of`, which skips the authentication it passed; the new row links to the original.
 * Counts against RESENDS_PER_MINUTE. Role: editor (it may deliver to the targets).
 *
 * POST /v1/reruns/preview counts the quarantined requests of a filter; POST /v1/reruns re-runs
 * them (at most MAX_BULK_RERUN, one after another, within the request), each as above.
 */
export function rerunRoutes(deps: ReplayDeps): Router {
  const r = Router();
  r.post('/activity/:eventId/rerun', ...operation('rerunActivity'), async (req: Request, res: Response) => {
    const account = accountOf(req);
    const eventId = String(req.params.eventId);
    const row = await deps.activityLog.row(eventId);
    if (!row || row.account_id !== account) throw notFound('Activity row');
    const why = notRerunnable(row);
    if (why) throw new ApiError(409, why, REFUSED[why]);
    const stored = await deps.activityLog.payload(eventId);
    if (!stored)
      throw new ApiError(
        409,
        'payload_not_stored',
        'The kept request has not reached the activity log yet (retry in a few seconds), or the broker did not take it.',
      );
    const allowed = await deps.limits.take(account, 'resend', deps.resendsPerMinute, MINUTE_MS);
    if (!allowed.ok)
      throw new ApiError(
        429,
        'too_many_resends',
        `At most ${deps.resendsPerMinute} resends and re-runs a minute. Retry after the delay in Retry-After.`,
        undefined,
        { 'Retry-After': String(allowed.retryAfterSeconds) },
      );
    const envelope = rerunEnvelope({ ...row, id: eventId }, stored);
    const answer = await runInGateway(deps, envelope, 're-run');
    deps.logger.info('quarantined request re-run', {
      event_id: answer.event_id,
      rerun_of: envelope.rerun_of,
      account_id: account,
      actor: actorOf(req),
      accepted: answer.accepted,
    });
    sendPipelineAnswer(res, answer, { code: 'rerun_rejected', what: 're-run' }, { rerun_of: envelope.rerun_of });
  });

  r.post(
    '/reruns/preview',
    ...operation('previewBulkRerun', { reportWithHandler: true }),
    async (req: Request, res: Response) => {
      const { filter, found } = await quarantinedOf(deps, req);
      res.json({
        filter: rerunFilterView(filter),
        requests: found.rows.length,
        complete: found.complete,
        max_requests: MAX_BULK_RERUN,
      });
    },
  );

  r.post(
    '/reruns',
    ...operation('createBulkRerun', { reportWithHandler: true }),
    async (req: Request, res: Response) => {
      const account = accountOf(req);
      const { filter, found } = await quarantinedOf(deps, req);
      if (!found.complete)
        throw new ApiError(
          409,
          'rerun_set_too_large',
          `The window holds more than ${MAX_BULK_RERUN} quarantined requests (or more than ${BULK_RERUN_MAX_ROWS} refusals to look through); nothing was run. Narrow it with endpoint_id, from or to.`,
        );
      const results: RerunResult[] = [];
      // one after another, oldest first: as the sender sent them
      for (const row of found.rows.reverse()) {
        const stored = await deps.activityLog.payload(row.id);
        if (!stored) {
          results.push({ event_id: row.id, result: 'payload_not_stored', new_event_id: null, code: null });
          continue;
        }
        const answer = await runInGateway(deps, rerunEnvelope(row, stored), 're-run');
        results.push({
          event_id: row.id,
          result: answer.accepted ? (answer.replayed ? 'replayed' : 'accepted') : 'refused',
          new_event_id: answer.event_id,
          code: answer.accepted ? null : answer.code,
        });
      }
      deps.logger.info('quarantined requests re-run', {
        account_id: account,
        actor: actorOf(req),
        endpoint_id: filter.endpoint_id,
        requests: results.length,
        accepted: results.filter((x) => x.result === 'accepted').length,
      });
      const count = (result: string) => results.filter((x) => x.result === result).length;
      res.json({
        filter: rerunFilterView(filter),
        requests: results.length,
        accepted: count('accepted'),
        replayed: count('replayed'),
        refused: count('refused'),
        payload_not_stored: count('payload_not_stored'),
        results,
      });
    },
  );
  return r;
}

/** What became of one quarantined request of a bulk re-run. */
interface RerunResult {
  event_id: string;
  result: 'accepted' | 'replayed' | 'refused' | 'payload_not_stored';
  /** the re-run's event (refused: its row, quarantined again), or null */
  new_event_id: string | null;
  /** refused: the `code` a sender would have got */
  code: string | null;
}

/**
 * The quarantined requests of the body's filter (its endpoint the caller's), within the
 * account's bulk re-runs a minute.
 */
async function quarantinedOf(deps: ReplayDeps, req: Request) {
  const account = accountOf(req);
  const filter = checked(req, parseBulkRerun(jsonObject(req.body), deps.now().getTime(), deps.retentionMs));
  if (filter.endpoint_id !== null && !(await endpointExists(deps.store, account, filter.endpoint_id)))
    throw notFound('Endpoint');
  const allowed = await deps.limits.take(account, 'bulk_rerun', BULK_RERUNS_PER_MINUTE, MINUTE_MS);
  if (!allowed.ok)
    throw new ApiError(
      429,
      'too_many_bulk_reruns',
      `At most ${BULK_RERUNS_PER_MINUTE} bulk re-runs and their previews a minute. Retry after the delay in Retry-After.`,
      undefined,
      { 'Retry-After': String(allowed.retryAfterSeconds) },
    );
  return { filter, found: await quarantinedRows(deps.activityLog, account, filter) };
}
