import type { FieldProblem } from '../transport/errors';

export const STATUS_FILTERS = ['all', 'completed', 'pending', 'errors', 'test'] as const;

export interface ActivityQuery {
  filter: Record<string, unknown>;
  limit: number;
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Translates the activity log's filters (spec "Activity record": endpoint, date window,
 * All/Completed/Pending/Errors/Test, source IP, error text) into a store filter. The error
 * text is matched as a literal, case-insensitive substring — never as a user regex.
 */
export function parseActivityQuery(accountId: string, q: Record<string, unknown>): { ok: true; value: ActivityQuery } | { ok: false; errors: FieldProblem[] } {
  const errors: FieldProblem[] = [];
  const filter: Record<string, unknown> = { account_id: accountId };
  const str = (k: string): string | undefined => (typeof q[k] === 'string' && (q[k] as string).length > 0 ? (q[k] as string) : undefined);

  const endpoint = str('endpoint_id');
  if (endpoint) filter.endpoint_id = endpoint;
  const window: Record<string, Date> = {};
  for (const [k, op] of [['from', '$gte'], ['to', '$lt']] as const) {
    const v = str(k);
    if (!v) continue;
    const d = new Date(v);
    if (Number.isNaN(d.getTime())) errors.push({ field: k, message: 'must be an ISO 8601 date-time' });
    else window[op] = d;
  }
  const before = str('before');
  if (before) {
    const d = new Date(before);
    if (Number.isNaN(d.getTime())) errors.push({ field: 'before', message: 'must be an ISO 8601 date-time (the received_at of the last row of the previous page)' });
    else window.$lt = window.$lt && window.$lt < d ? window.$lt : d;
  }
  if (Object.keys(window).length) filter.received_at = window;
  const status = str('status') ?? 'all';
  if (!(STATUS_FILTERS as readonly string[]).includes(status)) errors.push({ field: 'status', message: `must be one of ${STATUS_FILTERS.join(', ')}` });
  else if (status === 'test') filter.test = true;
  else if (status !== 'all') filter.status = status;
  const ip = str('source_ip');
  if (ip) filter.source_ip = ip;
  const text = str('error');
  if (text) {
    if (text.length > 200) errors.push({ field: 'error', message: 'at most 200 characters' });
    else filter.$or = [{ reason: { $regex: escapeRegex(text), $options: 'i' } }, { last_error: { $regex: escapeRegex(text), $options: 'i' } }];
  }
  let limit = 50;
  const l = str('limit');
  if (l) {
    limit = Number(l);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) errors.push({ field: 'limit', message: 'must be an integer from 1 to 200' });
  }
  return errors.length ? { ok: false, errors } : { ok: true, value: { filter, limit } };
}
