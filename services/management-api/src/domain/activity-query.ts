import { decodePosition } from '@relay/store';
import type { IndexEntry, Position } from '@relay/store';
import type { FieldError, Validation } from '@relay/contracts';

export const STATUS_FILTERS = ['all', 'completed', 'pending', 'errors', 'test'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** The error-text search reads every entry of its window, so the window is bounded. */
export const ERROR_TEXT_WINDOW_MS = 24 * 3_600_000;
const FUTURE_SLACK_MS = 5 * 60_000; // rows stamped by a gateway whose clock runs a little ahead

export interface ActivityQuery {
  endpointId: string | null;
  fromMs: number;
  toMs: number;
  cursor: Position | null;
  limit: number;
  status: StatusFilter;
  sourceIp: string | null;
  errorText: string | null;
}

/**
 * Reads the activity log's filters (spec "Activity record": endpoint, date window,
 * All/Completed/Pending/Errors/Test, source IP, error text; without an endpoint, the
 * cross-endpoint view). The error text is a literal, case-insensitive substring — never a
 * user regex — searched within at most 24 hours (the last 24 hours when no window is given).
 */
export function parseActivityQuery(q: Record<string, unknown>, now: number, retentionMs: number): Validation<ActivityQuery> {
  const errors: FieldError[] = [];
  const str = (k: string): string | undefined => (typeof q[k] === 'string' && (q[k] as string).length > 0 ? (q[k] as string) : undefined);
  const time = (k: string): number | undefined => {
    const v = str(k);
    if (!v) return undefined;
    const ms = Date.parse(v);
    if (Number.isNaN(ms)) errors.push({ field: k, message: 'must be an ISO 8601 date-time' });
    return Number.isNaN(ms) ? undefined : ms;
  };

  const status = (str('status') ?? 'all') as StatusFilter;
  if (!STATUS_FILTERS.includes(status)) errors.push({ field: 'status', message: `must be one of ${STATUS_FILTERS.join(', ')}` });
  const errorText = str('error') ?? null;
  if (errorText && errorText.length > 200) errors.push({ field: 'error', message: 'at most 200 characters' });

  const to = Math.min(time('to') ?? Infinity, now + FUTURE_SLACK_MS);
  let from = Math.max(time('from') ?? -Infinity, now - retentionMs);
  if (errorText) {
    if (str('from') === undefined) from = Math.max(from, to - ERROR_TEXT_WINDOW_MS);
    else if (to - from > ERROR_TEXT_WINDOW_MS) errors.push({ field: 'error', message: 'searching the error text needs a window (from, to) of at most 24 hours' });
  }

  let cursor: Position | null = null;
  const c = str('cursor');
  if (c) {
    cursor = decodePosition(c);
    if (!cursor) errors.push({ field: 'cursor', message: 'must be the next_cursor of a previous page' });
  }
  let limit = 50;
  const l = str('limit');
  if (l) {
    limit = Number(l);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) errors.push({ field: 'limit', message: 'must be an integer from 1 to 200' });
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, value: { endpointId: str('endpoint_id') ?? null, fromMs: from, toMs: to, cursor, limit, status, sourceIp: str('source_ip') ?? null, errorText } };
}

/** The filter, on a row's index entry (its latest status and error applied). */
export function entryMatches(q: ActivityQuery, e: IndexEntry): boolean {
  if (q.endpointId !== null && e.endpoint_id !== q.endpointId) return false;
  // the groups are one choice (spec): a test row is in Test and All, never Completed/Pending/Errors
  if (q.status === 'test' ? !e.test : q.status !== 'all' && (e.test || e.status !== q.status)) return false;
  if (q.sourceIp !== null && e.source_ip !== q.sourceIp) return false;
  if (q.errorText !== null) {
    const needle = q.errorText.toLowerCase();
    if (![e.reason, e.last_error].some((t) => (t ?? '').toLowerCase().includes(needle))) return false;
  }
  return true;
}
