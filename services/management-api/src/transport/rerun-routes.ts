import { Router } from 'express';
import type { Request, Response } from 'express';
import { notRerunnable, rerunEnvelope } from '../domain/rerun';
import { accountOf, actorOf } from './auth';
import { ApiError, notFound } from './errors';
import { operation } from './operation';
import { runInGateway, sendPipelineAnswer } from './pipeline-answer';
import type { ReplayDeps } from './replay-deps';

const MINUTE_MS = 60_000;

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
    const answer = await runInGateway(deps, rerunEnvelope(eventId, row.endpoint_id, stored), 're-run');
    deps.logger.info('quarantined request re-run', {
      event_id: answer.event_id,
      rerun_of: eventId,
      account_id: account,
      actor: actorOf(req),
      accepted: answer.accepted,
    });
    sendPipelineAnswer(res, answer, { code: 'rerun_rejected', what: 're-run' }, { rerun_of: eventId });
  });
  return r;
}
