import { QUARANTINED_OUTCOMES } from '@relay/contracts';
import type { FieldError, Outcome, Validation } from '@relay/contracts';
import type { ListedRow } from '@relay/activity-log';
import { readWindow } from './bulk-retry-job';

/**
 * Quarantined requests one bulk re-run takes at most (docs/management-api.md "Bulk re-run"): it
 * runs them one after another within its HTTP request, so a window holding more is refused
 * whole, before anything runs, rather than half done.
 */
export const MAX_BULK_RERUN = 100;
/** Refused rows of the window read at most to find them: each costs a read of the row by key. */
export const BULK_RERUN_MAX_ROWS = 500;

/** Which quarantined requests a bulk re-run takes: an endpoint (null: every one) and a window. */
export interface RerunFilter {
  endpoint_id: string | null;
  from_ms: number;
  to_ms: number;
}

/** Reads the body of POST /v1/reruns and /v1/reruns/preview: `endpoint_id`, `from`, `to`. */
export function parseBulkRerun(input: unknown, now: number, retentionMs: number): Validation<RerunFilter> {
  const errors: FieldError[] = [];
  const b = (input ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(b))
    if (!['endpoint_id', 'from', 'to'].includes(k)) errors.push({ field: k, message: 'is not a known field' });
  const filter = readWindow(b, errors, now, retentionMs);
  return errors.length ? { ok: false, errors } : { ok: true, value: filter };
}

/**
 * A listed row that may be a quarantined request of the filter: a sender's refusal (the Errors
 * group, not a test) with an outcome that is kept. Only these rows are read to see whether
 * their request was kept.
 */
export function mayBeQuarantined(filter: RerunFilter, e: ListedRow): boolean {
  return (
    e.status === 'errors' &&
    !e.test &&
    !e.aggregated &&
    QUARANTINED_OUTCOMES.includes(e.outcome as Outcome) &&
    (filter.endpoint_id === null || e.endpoint_id === filter.endpoint_id)
  );
}

export const rerunFilterView = (f: RerunFilter) => ({
  endpoint_id: f.endpoint_id,
  from: new Date(f.from_ms).toISOString(),
  to: new Date(f.to_ms).toISOString(),
});
