import type { operations } from '@relay/client';
import { fromLocalInput } from '../../lib/time';

export const STATUS_GROUPS = [
  ['all', 'All'],
  ['completed', 'Completed'],
  ['pending', 'Pending'],
  ['errors', 'Errors'],
  ['test', 'Test'],
] as const;

export interface Filters {
  endpoint: string;
  /** `YYYY-MM-DDTHH:MM`, UTC, as the date inputs hold it */
  from: string;
  to: string;
  status: string;
  sourceIp: string;
  error: string;
  payload: string;
  responseStatus: string;
}

export const NO_FILTERS: Filters = {
  endpoint: '',
  from: '',
  to: '',
  status: 'all',
  sourceIp: '',
  error: '',
  payload: '',
  responseStatus: '',
};

/**
 * Each filter under its name in the page's address (`#/activity?status=errors&error=timeout`),
 * the API's names, so a filtered view can be shared, bookmarked and gone back to. Times as the inputs show them, in UTC.
 */
const IN_ADDRESS: Array<[keyof Filters, string]> = [
  ['endpoint', 'endpoint_id'],
  ['from', 'from'],
  ['to', 'to'],
  ['status', 'status'],
  ['sourceIp', 'source_ip'],
  ['error', 'error'],
  ['payload', 'payload'],
  ['responseStatus', 'response_status'],
];

/** `GET /v1/activity`'s query parameters, as the API's document describes them. */
export type ActivityQuery = NonNullable<operations['listActivity']['parameters']['query']>;

/** The list's query parameters (docs/management-api.md "Activity log"). */
export function filterParams(f: Filters, fixedEndpoint: string | null): ActivityQuery {
  return {
    endpoint_id: fixedEndpoint ?? (f.endpoint || undefined),
    from: fromLocalInput(f.from),
    to: fromLocalInput(f.to),
    status: f.status === 'all' ? undefined : (f.status as ActivityQuery['status']),
    source_ip: f.sourceIp.trim() || undefined,
    error: f.error.trim() || undefined,
    payload: f.payload.trim() || undefined,
    response_status: f.responseStatus.trim() || undefined,
  };
}

/** Whether the filters search what only the rows hold (payload, response status): read 100 rows a call. */
export const searchesRows = (f: Filters): boolean => f.payload.trim() !== '' || f.responseStatus.trim() !== '';

/** The filters the page's address names; the rest as none. */
export function filtersFromHash(hash: string = location.hash): Filters {
  const q = new URLSearchParams(hash.split('?')[1] ?? '');
  const f: Filters = { ...NO_FILTERS };
  for (const [key, name] of IN_ADDRESS) f[key] = q.get(name) ?? NO_FILTERS[key];
  if (!STATUS_GROUPS.some(([g]) => g === f.status)) f.status = 'all';
  return f;
}

/** The page's address with `f` as its filters (the route part unchanged). */
export function hashWithFilters(f: Filters, hash: string = location.hash): string {
  const q = new URLSearchParams();
  for (const [key, name] of IN_ADDRESS) if (f[key] !== NO_FILTERS[key]) q.set(name, f[key]);
  const route = hash.split('?')[0] || '#/activity';
  const s = q.toString();
  return s ? `${route}?${s}` : route;
}
