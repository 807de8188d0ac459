import { Router } from 'express';
import { DeliveryQueueUnavailableError } from '@relay/broker';
import type { Request, Response } from 'express';
import { isIdOf, newId, resendTag } from '@relay/contracts';
import type { FieldError, Validation } from '@relay/contracts';
import { enabledTargetsOf, findTarget } from '@relay/store';
import { channelOf, inMirrorSample, mirrorPercentOf } from '@relay/targets';
import { endpointExists } from '../adapters/endpoint-store';
import {
  BULK_RETRY_PAGE,
  FINISHED,
  PREVIEW_MAX_ROWS,
  filterView,
  jobView,
  parseBulkRetry,
} from '../domain/bulk-retry-job';
import type { BulkRetryFilter } from '../domain/bulk-retry-job';
import { previewBulkRetry } from '../adapters/bulk-retry-ports';
import { MAX_RESEND_TARGET_IDS, MAX_RESENT_DELIVERIES_PER_EVENT, resendDeliveries, resendable } from '../domain/resend';
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
/** previews an account may ask for per minute: each reads up to PREVIEW_MAX_ROWS rows and payloads */
const BULK_RETRY_PREVIEWS_PER_MINUTE = 30;

/**
 * The body for the handler's own checks: a JSON object, else undefined (an array) — the
 * document already reports a body that is not an object as `(body)`; naming it again under the
 * handler's own field would report one problem twice.
 */
const jsonObject = (body: unknown): Record<string, unknown> | undefined =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;

const unavailable = () =>
  new ApiError(
    503,
    'delivery_queue_unavailable',
    'The deliveries could not be queued: delivery processing is unavailable. Retry after the delay in Retry-After.',
    undefined,
    { 'Retry-After': '5' },
  );
const tooMany = (code: string, message: string, retryAfterSeconds: number) =>
  new ApiError(429, code, `${message} Retry after the delay in Retry-After.`, undefined, {
    'Retry-After': String(retryAfterSeconds),
  });

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
  const log = deps.activityLog;

  r.post(
    '/activity/:eventId/resend',
    ...operation('resendActivity', { reportWithHandler: true }),
    async (req: Request, res: Response) => {
      const account = accountOf(req);
      const eventId = String(req.params.eventId);
      const body = checked(req, parseResend(jsonObject(req.body)));

      // an event whose allowance is used up is refused before its row is read: past the ceiling a
      // resend costs one Redis read, whatever the row holds
      const spent = await deps.resendAllowance.used(account, eventId).catch(() => 0);
      if (spent >= MAX_RESENT_DELIVERIES_PER_EVENT) throw resendLimitReached(spent, null);
      const row = await log.row(eventId);
      if (!row || row.account_id !== account) throw notFound('Activity row');
      const payload = row.outcome === 'ACCEPTED' ? await log.payload(eventId) : null;
      const why = resendable(row, payload);
      if (why === 'not_accepted')
        throw new ApiError(
          409,
          'not_resendable',
          `Only accepted events can be delivered again; this request was refused (${row.outcome}).`,
        );
      // the targets first: one the request names that is not the endpoint's is 404 however soon
      // after the row it asks, while the payload reaches the log a moment after its row
      const targets = await targetsFor(deps, row.endpoint_id, account, body.target_ids, row.not_routed ?? [], eventId);
      if (why === 'payload_not_stored')
        throw new ApiError(
          409,
          'payload_not_stored',
          'The payload of this event is not stored: it was accepted before payloads were kept, the broker did not take it, or it has not reached the activity log yet (retry in a few seconds).',
        );

      const allowed = await deps.limits.take(account, 'resend', deps.resendsPerMinute, MINUTE_MS);
      if (!allowed.ok)
        throw tooMany(
          'too_many_resends',
          `At most ${deps.resendsPerMinute} resends a minute.`,
          allowed.retryAfterSeconds,
        );
      const allowance = await deps.resendAllowance.take(account, eventId, targets.length).catch((err: unknown) => {
        // fail closed: an uncounted resend could grow the row past its bound
        deps.logger.warn('resend refused: its count cannot be checked (Redis)', {
          event_id: eventId,
          error: (err as Error).message,
        });
        throw new ApiError(
          503,
          'resend_unavailable',
          'Resends of this event cannot be counted right now (Redis is unavailable); nothing was sent. Retry shortly.',
          undefined,
          { 'Retry-After': '5' },
        );
      });
      if (!allowance.ok) throw resendLimitReached(allowance.used, targets.length);
      const deliveries = resendDeliveries(row, payload!, targets, resendTag(deps.now().getTime()));
      try {
        await deps.deliveries.publish(deliveries);
      } catch (err) {
        await deps.resendAllowance.giveBack(account, eventId, targets.length);
        if (err instanceof DeliveryQueueUnavailableError) throw unavailable();
        throw err;
      }
      deps.logger.info('event resent', {
        event_id: eventId,
        account_id: account,
        actor: actorOf(req),
        deliveries: deliveries.map((d) => d.message.delivery_id),
      });
      res.status(202).json({
        event_id: eventId,
        deliveries: deliveries.map(({ message: m }) => ({
          delivery_id: m.delivery_id,
          target_id: m.target_id,
          target_kind: m.target_kind,
        })),
      });
    },
  );

  r.post(
    '/bulk-retries',
    ...operation('createBulkRetry', { reportWithHandler: true }),
    async (req: Request, res: Response) => {
      const account = accountOf(req);
      const now = deps.now().getTime();
      const parsed = checked(req, parseBulkRetry(jsonObject(req.body), now, deps.retentionMs, deps.bulkRetryMaxRate));
      const { filter } = parsed;
      await checkFilterTargets(deps, account, filter);
      const allowed = await deps.limits.take(account, 'bulk-retry', BULK_RETRIES_PER_HOUR, HOUR_MS);
      if (!allowed.ok)
        throw tooMany(
          'too_many_bulk_retries',
          `At most ${BULK_RETRIES_PER_HOUR} bulk retries an hour.`,
          allowed.retryAfterSeconds,
        );
      const job = {
        _id: newJobId(now),
        account_id: account,
        filter,
        rate_per_second: parsed.rate_per_second,
        created_at: new Date(now),
        created_by: actorOf(req),
      };
      await deps.jobs.create(job);
      deps.logger.info('bulk retry created', {
        job_id: job._id,
        account_id: account,
        actor: job.created_by,
        ...filter,
      });
      res
        .status(202)
        .location(`/v1/bulk-retries/${job._id}`)
        .json(jobView(job, { runs: 0, progress: null, cancelRequested: false }));
    },
  );

  // what a bulk retry of the same body would queue now, queuing nothing: the dashboard asks before it starts one
  r.post(
    '/bulk-retries/preview',
    ...operation('previewBulkRetry', { reportWithHandler: true }),
    async (req: Request, res: Response) => {
      const account = accountOf(req);
      const { filter } = checked(
        req,
        parseBulkRetry(jsonObject(req.body), deps.now().getTime(), deps.retentionMs, deps.bulkRetryMaxRate),
      );
      await checkFilterTargets(deps, account, filter);
      const allowed = await deps.limits.take(account, 'bulk-retry-preview', BULK_RETRY_PREVIEWS_PER_MINUTE, MINUTE_MS);
      if (!allowed.ok)
        throw tooMany(
          'too_many_bulk_retry_previews',
          `At most ${BULK_RETRY_PREVIEWS_PER_MINUTE} bulk retry previews a minute.`,
          allowed.retryAfterSeconds,
        );
      const preview = await previewBulkRetry(
        { log, store: deps.store, allowance: deps.resendAllowance, now: () => deps.now().getTime() },
        account,
        filter,
      );
      res.set('Cache-Control', 'no-store').json({
        filter: filterView(filter),
        deliveries: preview.counts.deliveries_queued,
        events: preview.counts.rows_retried,
        complete: preview.complete,
        max_rows: PREVIEW_MAX_ROWS,
        counts: preview.counts,
        held_targets: preview.held_targets,
      });
    },
  );

  r.get(
    '/bulk-retries',
    ...operation('listBulkRetries', { reportWithHandler: true }),
    async (req: Request, res: Response) => {
      const { limit, cursor } = checked(req, parseListPage(req.query as Record<string, unknown>));
      const page = await deps.jobs.list(accountOf(req), limit, cursor);
      res.set('Cache-Control', 'no-store').json({
        data: page.jobs.map(({ job, status }) => jobView(job, status)),
        next_cursor: page.next === null ? null : String(page.next),
      });
    },
  );

  r.get('/bulk-retries/:jobId', ...operation('getBulkRetry'), async (req: Request, res: Response) => {
    const job = await jobOf(deps, req);
    res.set('Cache-Control', 'no-store').json(jobView(job, await deps.jobs.status(job._id)));
  });

  r.post('/bulk-retries/:jobId/cancel', ...operation('cancelBulkRetry'), async (req: Request, res: Response) => {
    const job = await jobOf(deps, req);
    const status = await deps.jobs.status(job._id);
    if (status.progress && FINISHED.includes(status.progress.state))
      throw new ApiError(409, 'job_finished', `The bulk retry already ended (${status.progress.state}).`);
    await deps.jobs.requestCancel(job._id, actorOf(req), deps.now());
    deps.logger.info('bulk retry cancel requested', { job_id: job._id, actor: actorOf(req) });
    res.status(202).json(jobView(job, { ...status, cancelRequested: true }));
  });

  return r;
}

const isTargetId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 128;

/**
 * The body of a resend: `{ target_ids? }` (the person's choice of targets), or `{ target_id? }`
 * (one, as before) — the targets named, or none for the default. The document refuses other
 * fields and types too; these are the messages callers know.
 */
function parseResend(b: Record<string, unknown> | undefined): Validation<{ target_ids?: string[] }> {
  const errors: FieldError[] = Object.keys(b ?? {})
    .filter((k) => k !== 'target_id' && k !== 'target_ids')
    .map((field) => ({ field, message: 'is not a known field' }));
  const one = b?.target_id;
  const many = b?.target_ids;
  if (one !== undefined && !isTargetId(one)) errors.push({ field: 'target_id', message: 'must be a target id' });
  if (one !== undefined && many !== undefined)
    errors.push({ field: 'target_ids', message: 'cannot be sent with target_id (list the one target in target_ids)' });
  if (many !== undefined) {
    if (!Array.isArray(many) || many.length === 0 || many.length > MAX_RESEND_TARGET_IDS)
      errors.push({ field: 'target_ids', message: `must be a list of 1 to ${MAX_RESEND_TARGET_IDS} target ids` });
    else {
      many.forEach((id, i) => {
        if (!isTargetId(id)) errors.push({ field: `target_ids[${i}]`, message: 'must be a target id' });
        else if (many.indexOf(id) !== i) errors.push({ field: `target_ids[${i}]`, message: 'is listed twice' });
      });
    }
  }
  if (errors.length) return { ok: false, errors };
  const ids = typeof one === 'string' ? [one] : Array.isArray(many) ? (many as string[]) : undefined;
  return { ok: true, value: ids ? { target_ids: ids } : {} };
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

/** 404 for an endpoint or target of the filter that is not the account's (a target must be its endpoint's). */
async function checkFilterTargets(deps: ReplayDeps, account: string, filter: BulkRetryFilter): Promise<void> {
  if (filter.endpoint_id !== null && !(await endpointExists(deps.store, account, filter.endpoint_id)))
    throw notFound('Endpoint');
  if (filter.target_id !== null) {
    const t = await findTarget(deps.store, filter.target_id);
    if (!t || t.account_id !== account || t.endpoint_id !== filter.endpoint_id) throw notFound('Target');
  }
}

async function jobOf(deps: ReplayDeps, req: Request) {
  const id = String(req.params.jobId);
  const job = isIdOf('brj', id) ? await deps.jobs.job(id) : null;
  if (!job || job.account_id !== accountOf(req)) throw notFound('Bulk retry');
  return job;
}

/**
 * The targets a resend delivers to: those named (each the endpoint's, enabled, not flagged), or every enabled target the event was routed
 * to (`notRouted`: the targets its payload did not meet the routing rules of, docs/routing.md).
 */
async function targetsFor(
  deps: ReplayDeps,
  endpointId: string,
  account: string,
  targetIds: string[] | undefined,
  notRouted: readonly string[],
  eventId: string,
): Promise<ResendTarget[]> {
  const withChannel = (t: { id: string; kind: string }): ResendTarget[] => {
    const channel = channelOf(t.kind);
    return channel ? [{ id: t.id, kind: t.kind, channel }] : [];
  };
  if (targetIds !== undefined) {
    const named: ResendTarget[] = [];
    for (const targetId of targetIds) {
      const t = await findTarget(deps.store, targetId);
      if (!t || t.account_id !== account || t.endpoint_id !== endpointId) throw notFound('Target');
      if (!t.enabled)
        throw new ApiError(409, 'target_disabled', `The target ${t.name} is disabled; enable it to deliver to it.`);
      if (t.flagged)
        throw new ApiError(
          409,
          'target_flagged',
          `The target ${t.name} is flagged (${t.flagged.reason}); clear the flag (DELETE …/flag) to deliver to it.`,
        );
      named.push(...withChannel(t));
    }
    return named;
  }
  const targets = (await enabledTargetsOf(deps.store, account, endpointId))
    .filter((t) => !notRouted.includes(t.id))
    // a mirror gets the events of its sample again, as the gateway chose them (docs/cli.md "Mirror")
    .filter((t) => {
      const mirror = mirrorPercentOf(t.kind, t);
      return mirror === null || inMirrorSample(eventId, mirror);
    })
    .flatMap(withChannel);
  if (targets.length === 0)
    throw new ApiError(
      409,
      'no_targets',
      notRouted.length > 0
        ? 'The event was routed to no enabled target (docs/routing.md); name a target to deliver to it anyway.'
        : 'The endpoint has no enabled target to deliver to.',
    );
  return targets;
}

/** 409 resend_limit_reached: what was used of the event's allowance and what this resend needed. */
function resendLimitReached(used: number, needed: number | null): ApiError {
  const left = Math.max(0, MAX_RESENT_DELIVERIES_PER_EVENT - used);
  const need = needed === null ? '' : ` (a resend to ${needed} target${needed === 1 ? '' : 's'} uses ${needed})`;
  return new ApiError(
    409,
    'resend_limit_reached',
    `This event was already delivered again ${used} times; an event may be resent to at most ${MAX_RESENT_DELIVERIES_PER_EVENT} deliveries in all, ${left} left${need}. Send a new event instead.`,
  );
}
