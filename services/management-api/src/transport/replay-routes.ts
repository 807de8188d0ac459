import { Router } from 'express';
import { DeliveryQueueUnavailableError } from '@relay/broker';
import type { Request, Response } from 'express';
import { isIdOf, newId, resendTag } from '@relay/contracts';
import type { FieldError, Validation } from '@relay/contracts';
import { openActivityLog } from '@relay/activity-log';
import { enabledTargetsOf, findTarget } from '@relay/store';
import { channelOf } from '@relay/targets';
import { endpointExists } from '../adapters/endpoint-store';
import { BULK_RETRY_PAGE, FINISHED, jobView, parseBulkRetry } from '../domain/bulk-retry-job';
import { resendDeliveries, resendable } from '../domain/resend';
import type { ResendTarget } from '../domain/resend';
import { accountOf, actorOf } from './auth';
import { ApiError, notFound } from './errors';
import { checked, operation } from './operation';
import { limitOf } from './paging';
import type { ReplayDeps } from './replay-deps';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** bulk retries an account may start per hour: each walks a window of the log in the background */
const BULK_RETRIES_PER_HOUR = 20;

/**
 * The body for the handler's own checks: a JSON object, else undefined (an array) — the
 * document already reports a body that is not an object as `(body)`; naming it again under the
 * handler's own field would report one problem twice.
 */
const jsonObject = (body: unknown): Record<string, unknown> | undefined => (typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined);

const unavailable = () => new ApiError(503, 'delivery_queue_unavailable', 'The deliveries could not be queued: delivery processing is unavailable. Retry after the delay in Retry-After.', undefined, { 'Retry-After': '5' });
const tooMany = (code: string, message: string, retryAfterSeconds: number) => new ApiError(429, code, `${message} Retry after the delay in Retry-After.`, undefined, { 'Retry-After': String(retryAfterSeconds) });

/** A job id carries the tag of its deliveries (`brj_` + 16-character tag + 4 random characters). */
const newJobId = (atMs: number): string => `brj_${resendTag(atMs)}${newId('x', 4).slice(2)}`;

/**
 * Resend one event, and bulk retries of failed deliveries (docs/management-api.md "Resend",
 * "Bulk retry"). A resend delivers the stored payload again, under the same event id with new
 * delivery ids, to every enabled target of the endpoint or to one; the row records the new
 * deliveries beside the first. A bulk retry is a background job (adapters/bulk-retry-runner.ts).
 * Roles (the document's `x-relay-role`, applied by `operation()`): editor for POST, viewer for GET.
 */
export function replayRoutes(deps: ReplayDeps): Router {
  const r = Router();
  const log = openActivityLog(deps.store.connection);

  r.post('/activity/:eventId/resend', ...operation('resendActivity', { reportWithHandler: true }), async (req: Request, res: Response) => {
    const account = accountOf(req);
    const eventId = String(req.params.eventId);
    const body = checked(req, parseResend(jsonObject(req.body)));

    const row = await log.row(eventId);
    if (!row || row.account_id !== account) throw notFound('Activity row');
    const payload = row.outcome === 'ACCEPTED' ? await log.payload(eventId) : null;
    const why = resendable(row, payload);
    if (why === 'not_accepted') throw new ApiError(409, 'not_resendable', `Only accepted events can be delivered again; this request was refused (${row.outcome}).`);
    if (why === 'payload_not_stored') throw new ApiError(409, 'payload_not_stored', 'The payload of this event is not stored: it was accepted before payloads were kept, the broker did not take it, or it has not reached the activity log yet (retry in a few seconds).');

    const targets = await targetsFor(deps, row.endpoint_id, account, body.target_id, row.not_routed ?? []);
    const allowed = await deps.limits.take(account, 'resend', deps.resendsPerMinute, MINUTE_MS);
    if (!allowed.ok) throw tooMany('too_many_resends', `At most ${deps.resendsPerMinute} resends a minute.`, allowed.retryAfterSeconds);
    const deliveries = resendDeliveries(row, payload!, targets, resendTag(deps.now().getTime()));
    try {
      await deps.deliveries.publish(deliveries);
    } catch (err) {
      if (err instanceof DeliveryQueueUnavailableError) throw unavailable();
      throw err;
    }
    deps.logger.info('event resent', { event_id: eventId, account_id: account, actor: actorOf(req), deliveries: deliveries.map((d) => d.message.delivery_id) });
    res.status(202).json({ event_id: eventId, deliveries: deliveries.map(({ message: m }) => ({ delivery_id: m.delivery_id, target_id: m.target_id, target_kind: m.target_kind })) });
  });

  r.post('/bulk-retries', ...operation('createBulkRetry', { reportWithHandler: true }), async (req: Request, res: Response) => {
    const account = accountOf(req);
    const now = deps.now().getTime();
    const parsed = checked(req, parseBulkRetry(jsonObject(req.body), now, deps.retentionMs, deps.bulkRetryMaxRate));
    const { filter } = parsed;
    if (filter.endpoint_id !== null && !(await endpointExists(deps.store, account, filter.endpoint_id))) throw notFound('Endpoint');
    if (filter.target_id !== null) {
      const t = await findTarget(deps.store, filter.target_id);
      if (!t || t.account_id !== account || t.endpoint_id !== filter.endpoint_id) throw notFound('Target');
    }
    const allowed = await deps.limits.take(account, 'bulk-retry', BULK_RETRIES_PER_HOUR, HOUR_MS);
    if (!allowed.ok) throw tooMany('too_many_bulk_retries', `At most ${BULK_RETRIES_PER_HOUR} bulk retries an hour.`, allowed.retryAfterSeconds);
    const job = { _id: newJobId(now), account_id: account, filter, rate_per_second: parsed.rate_per_second, created_at: new Date(now), created_by: actorOf(req) };
    await deps.jobs.create(job);
    deps.logger.info('bulk retry created', { job_id: job._id, account_id: account, actor: job.created_by, ...filter });
    res.status(202).location(`/v1/bulk-retries/${job._id}`).json(jobView(job, { runs: 0, progress: null, cancelRequested: false }));
  });

  r.get('/bulk-retries', ...operation('listBulkRetries', { reportWithHandler: true }), async (req: Request, res: Response) => {
    const { limit, cursor } = checked(req, parseListPage(req.query as Record<string, unknown>));
    const page = await deps.jobs.list(accountOf(req), limit, cursor);
    res.set('Cache-Control', 'no-store').json({ data: page.jobs.map(({ job, status }) => jobView(job, status)), next_cursor: page.next === null ? null : String(page.next) });
  });

  r.get('/bulk-retries/:jobId', ...operation('getBulkRetry'), async (req: Request, res: Response) => {
    const job = await jobOf(deps, req);
    res.set('Cache-Control', 'no-store').json(jobView(job, await deps.jobs.status(job._id)));
  });

  r.post('/bulk-retries/:jobId/cancel', ...operation('cancelBulkRetry'), async (req: Request, res: Response) => {
    const job = await jobOf(deps, req);
    const status = await deps.jobs.status(job._id);
    if (status.progress && FINISHED.includes(status.progress.state)) throw new ApiError(409, 'job_finished', `The bulk retry already ended (${status.progress.state}).`);
    await deps.jobs.requestCancel(job._id, actorOf(req), deps.now());
    deps.logger.info('bulk retry cancel requested', { job_id: job._id, actor: actorOf(req) });
    res.status(202).json(jobView(job, { ...status, cancelRequested: true }));
  });

  return r;
}

/** The body of a resend: `{ target_id? }` (the document refuses other fields and types too; these are the messages callers know). */
function parseResend(b: Record<string, unknown> | undefined): Validation<{ target_id?: string }> {
  const errors: FieldError[] = Object.keys(b ?? {})
    .filter((k) => k !== 'target_id')
    .map((field) => ({ field, message: 'is not a known field' }));
  const target = b?.target_id;
  if (target !== undefined && (typeof target !== 'string' || target.length === 0 || target.length > 128)) errors.push({ field: 'target_id', message: 'must be a target id' });
  if (errors.length) return { ok: false, errors };
  return { ok: true, value: typeof target === 'string' ? { target_id: target } : {} };
}

/** `limit` and `cursor` (the `next_cursor` of the page before: a position in the account's list). */
function parseListPage(q: Record<string, unknown>): Validation<{ limit: number; cursor: number | null }> {
  const errors: FieldError[] = [];
  const limit = limitOf(q.limit, BULK_RETRY_PAGE, errors);
  let cursor: number | null = null;
  if (q.cursor !== undefined) {
    if (typeof q.cursor === 'string' && /^\d{1,9}$/.test(q.cursor)) cursor = Number(q.cursor);
    else errors.push({ field: 'cursor', message: 'must be the `next_cursor` of the previous page' });
  }
  return errors.length ? { ok: false, errors } : { ok: true, value: { limit, cursor } };
}

async function jobOf(deps: ReplayDeps, req: Request) {
  const id = String(req.params.jobId);
  const job = isIdOf('brj', id) ? await deps.jobs.job(id) : null;
  if (!job || job.account_id !== accountOf(req)) throw notFound('Bulk retry');
  return job;
}

/** The named target (the endpoint's, enabled, not flagged), or every enabled target of the endpoint, as the gateway picks them. */
/**
 * The targets a resend delivers to: the one named, or every enabled target the event was routed
 * to (`notRouted`: the targets its payload did not meet the routing rules of, docs/routing.md).
 */
async function targetsFor(deps: ReplayDeps, endpointId: string, account: string, targetId: string | undefined, notRouted: readonly string[]): Promise<ResendTarget[]> {
  const withChannel = (t: { id: string; kind: string }): ResendTarget[] => {
    const channel = channelOf(t.kind);
    return channel ? [{ id: t.id, kind: t.kind, channel }] : [];
  };
  if (targetId !== undefined) {
    const t = await findTarget(deps.store, targetId);
    if (!t || t.account_id !== account || t.endpoint_id !== endpointId) throw notFound('Target');
    if (!t.enabled) throw new ApiError(409, 'target_disabled', 'The target is disabled; enable it to deliver to it.');
    if (t.flagged) throw new ApiError(409, 'target_flagged', `The target is flagged (${t.flagged.reason}); clear the flag (DELETE …/flag) to deliver to it.`);
    return withChannel(t);
  }
  const targets = (await enabledTargetsOf(deps.store, account, endpointId)).filter((t) => !notRouted.includes(t.id)).flatMap(withChannel);
  if (targets.length === 0) throw new ApiError(409, 'no_targets', notRouted.length > 0 ? 'The event was routed to no enabled target (docs/routing.md); name a target to deliver to it anyway.' : 'The endpoint has no enabled target to deliver to.');
  return targets;
}
