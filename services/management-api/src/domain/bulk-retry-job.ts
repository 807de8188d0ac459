import type { FieldError, Validation } from '@relay/contracts';
import type { ListedRow, StoredPayload } from '@relay/activity-log';
import type { ActivityDoc } from '@relay/store';
import { failedTargets, resendDeliveries, resendable } from './resend';
import type { ResendTarget } from './resend';
import type { DeliveryChannel, DeliveryMessageV1 } from '@relay/contracts';

/** What a bulk retry selects: the Errors group of the activity log, by endpoint and window. */
export interface BulkRetryFilter {
  endpoint_id: string | null;
  /** only this target's failed deliveries (null: every target's) */
  target_id: string | null;
  from_ms: number;
  to_ms: number;
}

export interface BulkRetryDefinition {
  filter: BulkRetryFilter;
  /** deliveries published per second at most */
  rate_per_second: number;
}

export const JOB_STATES = ['queued', 'running', 'done', 'cancelled', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const FINISHED: readonly JobState[] = ['done', 'cancelled', 'failed'];

export interface JobCounts {
  /** rows of the Errors group the job went through */
  rows_scanned: number;
  /** rows with at least one delivery published again */
  rows_retried: number;
  deliveries_queued: number;
  /** rejected requests (no delivery to retry), aggregated rows included */
  skipped_not_accepted: number;
  /** accepted before payloads were kept, or the payload never reached the log */
  skipped_no_payload: number;
  /** no failed delivery any more (resent meanwhile), or none to the chosen target */
  skipped_not_failed: number;
  /** the failed deliveries' targets were deleted or disabled since */
  skipped_target_gone: number;
  /** every failed delivery's target is flagged or paused: nothing of the row is retried */
  skipped_target_held: number;
  /** failed deliveries left out because their target is flagged or paused (a row's others still go) */
  deliveries_held: number;
  /**
   * the event's deliveries would pass the ceiling resends and bulk retries share
   * (MAX_RESENT_DELIVERIES_PER_EVENT): its row stays as it is
   */
  skipped_resend_limit: number;
}

export const zeroCounts = (): JobCounts => ({
  rows_scanned: 0,
  rows_retried: 0,
  deliveries_queued: 0,
  skipped_not_accepted: 0,
  skipped_no_payload: 0,
  skipped_not_failed: 0,
  skipped_target_gone: 0,
  skipped_target_held: 0,
  deliveries_held: 0,
  skipped_resend_limit: 0,
});

const DAY_MS = 86_400_000;

/**
 * Reads POST /v1/bulk-retries (docs/management-api.md "Bulk retry"): `status` must be `errors`
 * (the only group with failed deliveries), `from`/`to` default to the 24 hours before now and
 * never reach past the retention period, `rate_per_second` defaults to (and is capped by)
 * BULK_RETRY_MAX_RATE.
 */
export function parseBulkRetry(
  input: unknown,
  now: number,
  retentionMs: number,
  maxRate: number,
): Validation<BulkRetryDefinition> {
  const errors: FieldError[] = [];
  const b = (input ?? {}) as Record<string, unknown>;
  if (typeof b !== 'object' || Array.isArray(b))
    return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] };
  for (const k of Object.keys(b))
    if (!['endpoint_id', 'target_id', 'from', 'to', 'status', 'rate_per_second'].includes(k))
      errors.push({ field: k, message: 'is not a known field' });
  if (b.status !== undefined && b.status !== 'errors')
    errors.push({ field: 'status', message: 'must be "errors": only the Errors group has failed deliveries to retry' });
  const { endpoint_id: endpoint, from_ms: from, to_ms: to } = readWindow(b, errors, now, retentionMs);
  const target = idField(b, 'target_id', errors);
  if (target !== null && endpoint === null)
    errors.push({ field: 'target_id', message: 'needs endpoint_id: a target belongs to one endpoint' });
  let rate = maxRate;
  if (b.rate_per_second !== undefined) {
    if (
      !Number.isInteger(b.rate_per_second) ||
      (b.rate_per_second as number) < 1 ||
      (b.rate_per_second as number) > maxRate
    )
      errors.push({ field: 'rate_per_second', message: `must be an integer from 1 to ${maxRate}` });
    else rate = b.rate_per_second as number;
  }
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    value: { filter: { endpoint_id: endpoint, target_id: target, from_ms: from, to_ms: to }, rate_per_second: rate },
  };
}

function idField(b: Record<string, unknown>, k: string, errors: FieldError[]): string | null {
  if (b[k] === undefined || b[k] === null) return null;
  if (typeof b[k] !== 'string' || (b[k] as string).length === 0 || (b[k] as string).length > 128)
    errors.push({ field: k, message: 'must be an id' });
  return typeof b[k] === 'string' ? (b[k] as string) : null;
}

/**
 * An activity window of a body (bulk retry, bulk re-run): `endpoint_id` (null: every endpoint),
 * `from`/`to` defaulting to the 24 hours before now and never reaching past the retention period.
 */
export function readWindow(
  b: Record<string, unknown>,
  errors: FieldError[],
  now: number,
  retentionMs: number,
): { endpoint_id: string | null; from_ms: number; to_ms: number } {
  const time = (k: string): number | undefined => {
    if (b[k] === undefined) return undefined;
    const ms = typeof b[k] === 'string' ? Date.parse(b[k] as string) : Number.NaN;
    if (Number.isNaN(ms)) errors.push({ field: k, message: 'must be an ISO 8601 date-time' });
    return Number.isNaN(ms) ? undefined : ms;
  };
  const endpoint = idField(b, 'endpoint_id', errors);
  const to = Math.min(time('to') ?? now, now);
  const from = Math.max(time('from') ?? to - DAY_MS, now - retentionMs);
  if (from >= to) errors.push({ field: 'from', message: 'must be before to (and within the retention period)' });
  return { endpoint_id: endpoint, from_ms: from, to_ms: to };
}

/** The listing filter of a job: the Errors group of its window, senders' rows only. */
export function jobMatches(filter: BulkRetryFilter, e: ListedRow): boolean {
  return e.status === 'errors' && !e.test && (filter.endpoint_id === null || e.endpoint_id === filter.endpoint_id);
}

/**
 * Why a target takes no retried delivery now: flagged (Relay sends it nothing until the flag is
 * cleared) or paused by hand (its deliveries are held). A bulk retry leaves its deliveries out,
 * and its preview names it, rather than queue what cannot be sent (docs/management-api.md).
 */
export type HeldReason = 'flagged' | 'paused';
export type RetryTarget = ResendTarget & { endpoint_id: string; name: string; held: HeldReason | null };

/** What retrying one row needs from the outside: reads by key, the confirmed publish, the pacing. */
export interface RowRetryPorts {
  row(eventId: string): Promise<ActivityDoc | null>;
  payload(eventId: string): Promise<StoredPayload | null>;
  /** an enabled target of the account, with why it takes nothing now (held), or null */
  target(targetId: string): Promise<RetryTarget | null>;
  /**
   * takes `n` of the event's allowance of added deliveries, the one resends use (a preview only
   * checks that they fit); false: they do not fit, nothing taken
   */
  take(eventId: string, n: number): Promise<boolean>;
  /** gives back what `take` took for deliveries that were not published */
  giveBack(eventId: string, n: number): Promise<void>;
  /** waits until `n` more deliveries may be published (the job's rate) */
  pace(n: number): Promise<void>;
  /** publishes with broker confirms; a preview publishes nothing */
  publish(deliveries: { message: DeliveryMessageV1; channel: DeliveryChannel }[]): Promise<void>;
}

/**
 * Retries one listed row: each target whose current delivery failed gets a new delivery of the
 * stored payload, with the job's tag (the same ids if the row is retried again after a crash).
 * Adds what happened to `counts`. The job and its preview (`POST /v1/bulk-retries/preview`) both
 * run this, with publishing ports or counting ones, so the count shown beforehand is what the
 * job's rules give.
 *
 * A bulk retry adds deliveries to the row as a resend does, so it takes from the same ceiling
 * per event (MAX_RESENT_DELIVERIES_PER_EVENT): a row whose new deliveries do not all fit is
 * skipped whole, as a resend past it is refused whole.
 */
export async function retryRow(
  entry: ListedRow,
  filter: BulkRetryFilter,
  tag: string,
  ports: RowRetryPorts,
  counts: JobCounts,
): Promise<void> {
  counts.rows_scanned += 1;
  // rejected requests and aggregated rows: known from the entry, no read
  if (entry.outcome !== 'ACCEPTED' || entry.aggregated) {
    counts.skipped_not_accepted += 1;
    return;
  }
  const row = await ports.row(entry.event_id);
  const failed = row ? failedTargets(row).filter((t) => filter.target_id === null || t === filter.target_id) : [];
  if (!row || failed.length === 0) {
    counts.skipped_not_failed += 1;
    return;
  }
  const payload = await ports.payload(row._id);
  if (resendable(row, payload) !== null) {
    counts.skipped_no_payload += 1;
    return;
  }
  const found = (await Promise.all(failed.map((t) => ports.target(t)))).filter(
    (t): t is RetryTarget => t !== null && t.endpoint_id === row.endpoint_id,
  );
  const held = found.filter((t) => t.held !== null).length;
  const targets = found.filter((t) => t.held === null);
  counts.deliveries_held += held;
  if (targets.length === 0) {
    if (held > 0) counts.skipped_target_held += 1;
    else counts.skipped_target_gone += 1;
    return;
  }
  if (!(await ports.take(row._id, targets.length))) {
    counts.skipped_resend_limit += 1;
    return;
  }
  await ports.pace(targets.length);
  try {
    await ports.publish(resendDeliveries(row, payload!, targets, tag));
  } catch (err) {
    await ports.giveBack(row._id, targets.length).catch(() => undefined);
    throw err;
  }
  counts.rows_retried += 1;
  counts.deliveries_queued += targets.length;
}

/**
 * Most rows a preview (`POST /v1/bulk-retries/preview`) goes through: each costs a read of its row
 * and of its payload by key, so a preview answers within seconds whatever the window holds; past
 * it the counts are of the newest rows, a floor (`complete: false`).
 */
export const PREVIEW_MAX_ROWS = 500;

/** Jobs a page of `GET /v1/bulk-retries` gives by default and at most: each costs a few reads by `_id`. */
export const BULK_RETRY_PAGE = { default: 20, max: 100 };

interface JobLike {
  _id: string;
  account_id: string;
  filter: BulkRetryFilter;
  rate_per_second: number;
  created_at: Date;
}

interface StatusLike {
  runs: number;
  progress: {
    state: JobState;
    counts: JobCounts;
    started_at: Date | null;
    updated_at: Date;
    finished_at: Date | null;
    error: string | null;
  } | null;
  cancelRequested: boolean;
}

const iso = (d: Date | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

/** A job's filter as the API shows it (a job, a preview). */
export const filterView = (f: BulkRetryFilter) => ({
  endpoint_id: f.endpoint_id,
  target_id: f.target_id,
  status: 'errors',
  from: iso(new Date(f.from_ms)),
  to: iso(new Date(f.to_ms)),
});

/** A job as GET /v1/bulk-retries/:jobId shows it. */
export function jobView(job: JobLike, status: StatusLike) {
  const p = status.progress;
  return {
    id: job._id,
    account_id: job.account_id,
    filter: filterView(job.filter),
    rate_per_second: job.rate_per_second,
    state: p?.state ?? 'queued',
    cancel_requested: status.cancelRequested,
    // jobs saved before a count existed show it as 0
    progress: { ...zeroCounts(), ...p?.counts },
    runs: status.runs,
    created_at: iso(job.created_at),
    started_at: iso(p?.started_at),
    updated_at: iso(p?.updated_at ?? job.created_at),
    finished_at: iso(p?.finished_at),
    /** why the last run ended early (the next run resumes), or why the job failed */
    error: p?.error ?? null,
  };
}
