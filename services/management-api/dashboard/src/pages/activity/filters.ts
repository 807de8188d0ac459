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
  from: string;
  to: string;
  status: string;
  sourceIp: string;
  error: string;
}

export const NO_FILTERS: Filters = { endpoint: '', from: '', to: '', status: 'all', sourceIp: '', error: '' };

/** The list's query parameters (docs/management-api.md "Activity log"). */
export function filterParams(f: Filters, fixedEndpoint: string | null): Record<string, string | undefined> {
  return {
    endpoint_id: fixedEndpoint ?? (f.endpoint || undefined),
    from: fromLocalInput(f.from),
    to: fromLocalInput(f.to),
    status: f.status === 'all' ? undefined : f.status,
    source_ip: f.sourceIp.trim() || undefined,
    error: f.error.trim() || undefined,
  };
}

/** A status group asked for in the page's address (`#/…/activity?status=test`). */
export function statusFromHash(): string {
  const s = new URLSearchParams(location.hash.split('?')[1] ?? '').get('status');
  return STATUS_GROUPS.some(([g]) => g === s) ? s! : 'all';
}
