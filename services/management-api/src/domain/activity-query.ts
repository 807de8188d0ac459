import { isIP } from 'node:net';
import { STATUS_FILTERS, isCursor } from '@relay/activity-log';
import type { ActivityListQuery, StatusFilter } from '@relay/activity-log';
import type { FieldError, Validation } from '@relay/contracts';

export { STATUS_FILTERS };

/**
 * The searches (error text, payload content, response status) read every entry of their
 * window, the last two every row's payload or attempts too, so the window is bounded.
 */
export const ERROR_TEXT_WINDOW_MS = 24 * 3_600_000;
/** A response-status search: one code (`503`) or a class (`5xx`). */
const RESPONSE_STATUS = /^([1-5])(\d\d|xx)$/i;
const FUTURE_SLACK_MS = 5 * 60_000; // rows stamped by a gateway whose clock runs a little ahead

/** A list call's filters as the caller gave them; the caller's account completes the log's query. */
export type ActivityQuery = Omit<ActivityListQuery, 'account' | 'where'>;

/**
 * Reads the activity log's filters (spec "Activity record": endpoint, date window,
 * All/Completed/Pending/Errors/Test, source IP, error text; without an endpoint, the
 * cross-endpoint view; beyond the spec, payload content and response status). The texts are
 * literal, case-insensitive substrings — never a user regex — and every search runs within at
 * most 24 hours (the last 24 hours when no window is given).
 */
export function parseActivityQuery(
  q: Record<string, unknown>,
  now: number,
  retentionMs: number,
): Validation<ActivityQuery> {
  const errors: FieldError[] = [];
  const str = (k: string): string | undefined =>
    typeof q[k] === 'string' && (q[k] as string).length > 0 ? (q[k] as string) : undefined;
  const time = (k: string): number | undefined => {
    const v = str(k);
    if (!v) return undefined;
    const ms = Date.parse(v);
    if (Number.isNaN(ms)) errors.push({ field: k, message: 'must be an ISO 8601 date-time' });
    return Number.isNaN(ms) ? undefined : ms;
  };

  const status = (str('status') ?? 'all') as StatusFilter;
  if (!STATUS_FILTERS.includes(status))
    errors.push({ field: 'status', message: `must be one of ${STATUS_FILTERS.join(', ')}` });
  const errorText = str('error') ?? null;
  if (errorText && errorText.length > 200) errors.push({ field: 'error', message: 'at most 200 characters' });
  const payload = str('payload') ?? null;
  if (payload && payload.length > 200) errors.push({ field: 'payload', message: 'at most 200 characters' });
  const responseStatus = str('response_status')?.toLowerCase() ?? null;
  if (responseStatus !== null && !RESPONSE_STATUS.test(responseStatus))
    errors.push({ field: 'response_status', message: 'must be an HTTP status code (503) or a class (5xx)' });
  // filters that cannot match anything are the caller's mistake, not an empty list
  const sourceIp = str('source_ip') ?? null;
  if (sourceIp !== null && isIP(sourceIp) === 0)
    errors.push({ field: 'source_ip', message: 'must be an IPv4 or IPv6 address, like 203.0.113.7' });
  const [fromAsked, toAsked] = [time('from'), time('to')];
  if (fromAsked !== undefined && toAsked !== undefined && fromAsked >= toAsked)
    errors.push({ field: 'from', message: 'must be before To' });

  const to = Math.min(toAsked ?? Infinity, now + FUTURE_SLACK_MS);
  let from = Math.max(fromAsked ?? -Infinity, now - retentionMs);
  const search = [
    ['error', errorText],
    ['payload', payload],
    ['response_status', responseStatus],
  ].find(([, v]) => v !== null)?.[0];
  if (search) {
    if (str('from') === undefined) from = Math.max(from, to - ERROR_TEXT_WINDOW_MS);
    else if (to - from > ERROR_TEXT_WINDOW_MS)
      errors.push({ field: search, message: 'searching needs a window (From, To) of at most 24 hours' });
  }

  let cursor: string | null = null;
  const c = str('cursor');
  if (c) {
    cursor = c;
    if (!isCursor(c)) errors.push({ field: 'cursor', message: 'must be the next_cursor of a previous page' });
  }
  let limit = 50;
  const l = str('limit');
  if (l) {
    limit = Number(l);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200)
      errors.push({ field: 'limit', message: 'must be an integer from 1 to 200' });
  }
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    value: {
      endpointId: str('endpoint_id') ?? null,
      fromMs: from,
      toMs: to,
      cursor,
      limit,
      status,
      sourceIp,
      errorText,
      payload,
      responseStatus,
    },
  };
}
